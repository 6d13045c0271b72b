// First occurrence in a sorted sequence
// flawed: pre accepts unsorted input
use vstd::prelude::*;
use vstd::contrib::exec_spec::*;

verus! {

exec_spec_unverified! {

pub struct Input {
    pub arr: Seq<i64>,
    pub target: i64,
}

pub struct Output {
    pub result: Option<usize>,
}

/// Which inputs the function promises to handle.
spec fn pre_spec(input: Input) -> bool {
    true
}

/// Which outputs are correct for an input that satisfies pre_spec.
spec fn post_spec(input: Input, output: Output) -> bool {
    match output.result {
        Some(k) => k < input.arr.len() && input.arr[k as int] == input.target
            && (forall|j: usize| 0 <= j < k ==> input.arr[j as int] != input.target),
        None => forall|j: usize| 0 <= j < input.arr.len() ==> input.arr[j as int] != input.target,
    }
}

} // exec_spec_unverified!

} // verus!
