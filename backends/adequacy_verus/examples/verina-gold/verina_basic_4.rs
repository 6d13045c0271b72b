// kthElement
use vstd::prelude::*;
use vstd::contrib::exec_spec::*;

verus! {

exec_spec_unverified! {

pub struct Input {
    pub arr: Seq<i64>,
    pub k: u64,
}

pub struct Output {
    pub result: i64,
}

/// Which inputs the function promises to handle.
spec fn pre_spec(input: Input) -> bool {
    // k is 1-based and must name an element
    input.k >= 1 && input.k <= input.arr.len() as u64
}

/// Which outputs are correct for an input that satisfies pre_spec.
spec fn post_spec(input: Input, output: Output) -> bool {
    output.result == input.arr[(input.k - 1) as usize as int]
}

} // exec_spec_unverified!

} // verus!
