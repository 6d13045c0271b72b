// Are two positive numbers coprime?
// flawed: a parity check stands in for the gcd (coprime => not both even)
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

/// Which inputs the function promises to handle.
spec fn pre_spec(input: Input) -> bool {
    input.a >= 1 && input.b >= 1
}

/// Which outputs are correct for an input that satisfies pre_spec.
spec fn post_spec(input: Input, output: Output) -> bool {
    output.result ==> !(input.a % 2 == 0 && input.b % 2 == 0)
}

} // exec_spec_unverified!

} // verus!
