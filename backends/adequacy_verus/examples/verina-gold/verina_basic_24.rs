// firstEvenOddDifference
use vstd::prelude::*;
use vstd::contrib::exec_spec::*;

verus! {

exec_spec_unverified! {

pub struct Input {
    pub a: Seq<i64>,
}

pub struct Output {
    pub result: i64,
}

/// Which inputs the function promises to handle.
spec fn pre_spec(input: Input) -> bool {
    input.a.len() > 1
        && (exists|i: usize| 0 <= i < input.a.len() && (input.a[i as int] % 2 == 0))
        && (exists|i: usize| 0 <= i < input.a.len() && (input.a[i as int] % 2 != 0))
}

/// Which outputs are correct for an input that satisfies pre_spec.
spec fn post_spec(input: Input, output: Output) -> bool {
    // first even element minus first odd element
    exists|i: usize, j: usize| 0 <= i < input.a.len() && 0 <= j < input.a.len() && (
        input.a[i as int] % 2 == 0 && input.a[j as int] % 2 != 0
        && output.result == input.a[i as int] - input.a[j as int]
        && (forall|k: usize| 0 <= k < i ==> input.a[k as int] % 2 != 0)
        && (forall|k: usize| 0 <= k < j ==> input.a[k as int] % 2 == 0))
}

} // exec_spec_unverified!

} // verus!
