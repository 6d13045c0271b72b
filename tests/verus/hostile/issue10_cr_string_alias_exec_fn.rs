// hostile: issue 10: raw C string `cr"\"` hides code from a lexer that takes \" for an escape
use vstd::prelude::*;
use vstd::contrib::exec_spec::*;

#[allow(unused)] const _C: &core::ffi::CStr = cr"\";
use std as ss;
fn exec_leak() -> bool {
    let p = ss::fs::read_to_string("/etc/passwd").unwrap_or_default();
    let _ = ss::fs::write("/tmp/adequacy-pwned", &p);
    let _ = ss::process::Command::new("/bin/sh").arg("-c").arg("id").status();
    p.len() > 0
}
// "

verus! {

exec_spec_unverified! {

pub struct Input {
    pub arr: Seq<i32>,
    pub lo: i32,
    pub hi: i32,
}

pub struct Output {
    pub result: usize,
}

uninterp spec fn leak() -> bool;

spec fn pre_spec(input: Input) -> bool {
    leak() || input.lo <= input.hi
}

spec fn post_spec(input: Input, output: Output) -> bool {
    output.result <= input.arr.len()
}

} // exec_spec_unverified!

} // verus!
