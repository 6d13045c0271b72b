// Smallest divisor above one
// flawed: any divisor above one passes; minimality is missing
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
    input.n >= 2
}

/// Which outputs are correct for an input that satisfies pre_spec.
spec fn post_spec(input: Input, output: Output) -> bool {
    2 <= output.result && output.result <= input.n && input.n % output.result == 0
}

} // exec_spec_unverified!

} // verus!
