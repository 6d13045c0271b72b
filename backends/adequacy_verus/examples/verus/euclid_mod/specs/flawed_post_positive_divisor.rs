// Euclidean remainder of mathematical integers
// flawed: bounds the remainder by b instead of |b|, rejecting every answer for b < 0
use vstd::prelude::*;
use vstd::contrib::exec_spec::*;

verus! {

exec_spec_unverified! {

pub struct Input {
    pub a: int,
    pub b: int,
}

pub struct Output {
    pub result: int,
}

/// Which inputs the function promises to handle.
spec fn pre_spec(input: Input) -> bool {
    input.b != 0
}

/// Which outputs are correct for an input that satisfies pre_spec.
spec fn post_spec(input: Input, output: Output) -> bool {
    0 <= output.result && output.result < input.b && output.result == input.a % input.b
}

} // exec_spec_unverified!

} // verus!
