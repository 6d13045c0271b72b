// Smallest divisor above one
// an equivalent rewrite of the gold spec (reordered_exists)
use vstd::prelude::*;
use vstd::contrib::exec_spec::*;

verus! {

exec_spec_unverified! {

pub struct Input {
    pub n: u64,
}

pub struct Output {
    pub result: u64,
}

/// Which inputs the function promises to handle.
spec fn pre_spec(input: Input) -> bool {
    input.n > 1
}

/// Which outputs are correct for an input that satisfies pre_spec.
spec fn post_spec(input: Input, output: Output) -> bool {
    input.n % output.result == 0 && 2 <= output.result <= input.n
        && !(exists|d: u64| 2 <= d < output.result && input.n % d == 0)
}

} // exec_spec_unverified!

} // verus!
