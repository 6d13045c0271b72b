// hasOppositeSign
use vstd::prelude::*;
use vstd::contrib::exec_spec::*;

verus! {

exec_spec_unverified! {

pub struct Input {
    pub a: i64,
    pub b: i64,
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
    // opposite signs: one strictly negative and the other strictly positive; zero has no sign
    output.result == ((input.a < 0 && input.b > 0) || (input.a > 0 && input.b < 0))
}

} // exec_spec_unverified!

} // verus!
