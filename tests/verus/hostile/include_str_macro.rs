// hostile: include_str!
use vstd::prelude::*;
use vstd::contrib::exec_spec::*;

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

spec fn f() -> bool {
    include_str!("/etc/passwd").len() > 0
}

spec fn pre_spec(input: Input) -> bool {
    input.lo <= input.hi
}

spec fn post_spec(input: Input, output: Output) -> bool {
    output.result <= input.arr.len()
}

} // exec_spec_unverified!

} // verus!
