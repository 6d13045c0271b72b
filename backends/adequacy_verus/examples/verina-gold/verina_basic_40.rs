// secondSmallest
use vstd::prelude::*;
use vstd::contrib::exec_spec::*;

verus! {

exec_spec_unverified! {

pub struct Input {
    pub s: Seq<i64>,
}

pub struct Output {
    pub result: i64,
}

/// Which inputs the function promises to handle.
spec fn pre_spec(input: Input) -> bool {
    // at least two distinct values
    input.s.len() > 1
        && (exists|i: usize, j: usize| 0 <= i < input.s.len() && 0 <= j < input.s.len()
                && (input.s[i as int] != input.s[j as int]))
}

/// Which outputs are correct for an input that satisfies pre_spec.
spec fn post_spec(input: Input, output: Output) -> bool {
    // an element of the array with exactly one distinct value (the minimum) below it
    (exists|i: usize| 0 <= i < input.s.len() && (input.s[i as int] == output.result))
        && (exists|j: usize| 0 <= j < input.s.len() && (input.s[j as int] < output.result))
        && (forall|j: usize, k: usize| 0 <= j < input.s.len() && 0 <= k < input.s.len() ==>
                (input.s[j as int] < output.result && input.s[k as int] < output.result
                    ==> input.s[j as int] == input.s[k as int]))
}

} // exec_spec_unverified!

} // verus!
