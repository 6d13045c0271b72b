// smallestMissingNumber
use vstd::prelude::*;
use vstd::contrib::exec_spec::*;

verus! {

exec_spec_unverified! {

pub struct Input {
    pub s: Seq<u64>,
}

pub struct Output {
    pub result: u64,
}

/// Which inputs the function promises to handle.
spec fn pre_spec(input: Input) -> bool {
    // sorted in non-decreasing order
    forall|i: usize| 1 <= i < input.s.len() ==> input.s[(i - 1) as int] <= input.s[i as int]
}

/// Which outputs are correct for an input that satisfies pre_spec.
spec fn post_spec(input: Input, output: Output) -> bool {
    // the smallest natural number that does not occur
    !input.s.contains(output.result)
        && (forall|k: u64| 0 <= k < output.result ==> input.s.contains(k))
}

} // exec_spec_unverified!

} // verus!
