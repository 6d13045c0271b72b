// isSorted
use vstd::prelude::*;
use vstd::contrib::exec_spec::*;

verus! {

exec_spec_unverified! {

pub struct Input {
    pub a: Seq<i64>,
}

pub struct Output {
    pub result: bool,
}

/// Which inputs the function promises to handle.
spec fn pre_spec(input: Input) -> bool {
    true
}

/// Which outputs are correct for an input that satisfies pre_spec.
spec fn post_spec(input: Input, output: Output) -> bool {
    // non-decreasing: every element is at least its predecessor
    output.result == (forall|i: usize| 1 <= i < input.a.len() ==> input.a[(i - 1) as int] <= input.a[i as int])
}

} // exec_spec_unverified!

} // verus!
