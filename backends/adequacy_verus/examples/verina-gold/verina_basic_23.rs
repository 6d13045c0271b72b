// differenceMinMax
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
    input.a.len() > 0
}

/// Which outputs are correct for an input that satisfies pre_spec.
spec fn post_spec(input: Input, output: Output) -> bool {
    // result = max - min, with max and min elements of the array
    exists|i: usize, j: usize| 0 <= i < input.a.len() && 0 <= j < input.a.len() && (
        output.result == input.a[i as int] - input.a[j as int]
        && (forall|k: usize| 0 <= k < input.a.len() ==> input.a[k as int] <= input.a[i as int])
        && (forall|k: usize| 0 <= k < input.a.len() ==> input.a[j as int] <= input.a[k as int]))
}

} // exec_spec_unverified!

} // verus!
