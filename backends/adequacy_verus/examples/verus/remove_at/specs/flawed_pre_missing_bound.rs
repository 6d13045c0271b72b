// Remove the element at an index
// flawed: pre forgets that idx must be a valid position
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
    input.arr.len() > 0
}

/// Which outputs are correct for an input that satisfies pre_spec.
spec fn post_spec(input: Input, output: Output) -> bool {
    output.result == input.arr.subrange(0, input.idx as int).add(input.arr.subrange(input.idx + 1, input.arr.len() as int))
}

} // exec_spec_unverified!

} // verus!
