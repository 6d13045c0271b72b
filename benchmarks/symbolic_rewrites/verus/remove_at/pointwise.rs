// Remove the element at an index
// an equivalent rewrite of the gold spec (pointwise)
use vstd::prelude::*;
use vstd::contrib::exec_spec::*;

verus! {

exec_spec_unverified! {

pub struct Input {
    pub arr: Seq<i32>,
    pub idx: usize,
}

pub struct Output {
    pub result: Seq<i32>,
}

/// Which inputs the function promises to handle.
spec fn pre_spec(input: Input) -> bool {
    !(input.idx >= input.arr.len())
}

/// Which outputs are correct for an input that satisfies pre_spec.
spec fn post_spec(input: Input, output: Output) -> bool {
    output.result.len() == input.arr.len() - 1
        && forall|i: int| 0 <= i < output.result.len() ==> output.result[i] == (if i < input.idx { input.arr[i] } else { input.arr[i + 1] })
}

} // exec_spec_unverified!

} // verus!
