// Are two positive numbers coprime?
// an equivalent rewrite of the gold spec (reordered)
use vstd::prelude::*;
use vstd::contrib::exec_spec::*;

verus! {

exec_spec_unverified! {

pub struct Input {
    pub a: u32,
    pub b: u32,
}

pub struct Output {
    pub result: bool,
}

spec fn gcd(a: u32, b: u32) -> u32
    decreases b,
{
    if b == 0 { a } else { gcd(b, a % b) }
}

/// Which inputs the function promises to handle.
spec fn pre_spec(input: Input) -> bool {
    input.b > 0 && input.a > 0
}

/// Which outputs are correct for an input that satisfies pre_spec.
spec fn post_spec(input: Input, output: Output) -> bool {
    (gcd(input.a, input.b) == 1) == output.result
}

} // exec_spec_unverified!

} // verus!
