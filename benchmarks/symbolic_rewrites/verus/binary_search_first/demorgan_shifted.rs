// First occurrence in a sorted sequence
// an equivalent rewrite of the gold spec (demorgan_shifted)
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
    forall|i: usize| 0 <= i < input.arr.len() - 1 ==> input.arr[i as int] <= input.arr[i + 1]
}

/// Which outputs are correct for an input that satisfies pre_spec.
spec fn post_spec(input: Input, output: Output) -> bool {
    match output.result {
        None => !(exists|j: usize| 0 <= j < input.arr.len() && input.arr[j as int] == input.target),
        Some(k) => (forall|j: usize| 0 <= j < k ==> input.arr[j as int] != input.target)
            && input.arr[k as int] == input.target && k < input.arr.len(),
    }
}

} // exec_spec_unverified!

} // verus!
