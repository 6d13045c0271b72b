// Count the elements inside a closed range
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

/// Which inputs the function promises to handle.
spec fn pre_spec(input: Input) -> bool {
    true
}

/// Which outputs are correct for an input that satisfies pre_spec.
spec fn post_spec(input: Input, output: Output) -> bool {
    true
}

} // exec_spec_unverified!

} // verus!
