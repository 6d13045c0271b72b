// Clamp an integer into a range
// gold spec
use vstd::prelude::*;
use vstd::contrib::exec_spec::*;

verus! {

exec_spec_unverified! {

pub struct Input {
    pub x: i64,
    pub lo: i64,
    pub hi: i64,
}

pub struct Output {
    pub result: i64,
}

/// Which inputs the function promises to handle.
spec fn pre_spec(input: Input) -> bool {
    input.lo <= input.hi
}

/// Which outputs are correct for an input that satisfies pre_spec.
spec fn post_spec(input: Input, output: Output) -> bool {
    input.lo <= output.result && output.result <= input.hi
    && (input.x < input.lo ==> output.result == input.lo)
    && (input.x > input.hi ==> output.result == input.hi)
    && (input.lo <= input.x && input.x <= input.hi ==> output.result == input.x)
}

} // exec_spec_unverified!

} // verus!
