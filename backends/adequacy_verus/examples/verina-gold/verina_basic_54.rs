// CanyonSearch
use vstd::prelude::*;
use vstd::contrib::exec_spec::*;

verus! {

exec_spec_unverified! {

pub struct Input {
    pub a: Seq<i64>,
    pub b: Seq<i64>,
}

pub struct Output {
    pub result: u64,
}

/// |x - y| as a natural number.
spec fn dist(x: i64, y: i64) -> u64 {
    if x >= y { (x - y) as u64 } else { (y - x) as u64 }
}

/// Which inputs the function promises to handle.
spec fn pre_spec(input: Input) -> bool {
    input.a.len() > 0 && input.b.len() > 0
        && (forall|i: usize| 1 <= i < input.a.len() ==> input.a[(i - 1) as int] <= input.a[i as int])
        && (forall|i: usize| 1 <= i < input.b.len() ==> input.b[(i - 1) as int] <= input.b[i as int])
}

/// Which outputs are correct for an input that satisfies pre_spec.
spec fn post_spec(input: Input, output: Output) -> bool {
    // the smallest distance |a[i] - b[j]| over all pairs
    (exists|i: usize, j: usize| 0 <= i < input.a.len() && 0 <= j < input.b.len()
            && (output.result == dist(input.a[i as int], input.b[j as int])))
        && (forall|i: usize, j: usize| 0 <= i < input.a.len() && 0 <= j < input.b.len() ==>
                output.result <= dist(input.a[i as int], input.b[j as int]))
}

} // exec_spec_unverified!

} // verus!
