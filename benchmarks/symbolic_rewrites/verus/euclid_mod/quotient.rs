// Euclidean remainder of mathematical integers
// an equivalent rewrite of the gold spec (quotient): Verus's % on int is Euclidean; int fields are outside exec_spec
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
    output.result == input.a - input.b * (input.a / input.b)
}

} // exec_spec_unverified!

} // verus!
