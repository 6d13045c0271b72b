// Any proper divisor
// gold spec (written for the sample package)
use vstd::prelude::*;
use vstd::contrib::exec_spec::*;

verus! {

exec_spec_unverified! {

pub struct Input {
    pub n: i64,
}

pub struct Output {
    pub result: i64,
}

/// Which inputs the function promises to handle.
spec fn pre_spec(input: Input) -> bool {
    2 <= input.n && input.n <= 10000
}

/// Which outputs are correct for an input that satisfies pre_spec.
spec fn post_spec(input: Input, output: Output) -> bool {
    if output.result == -1 {
        forall|d: i64| 2 <= d < input.n ==> input.n % d != 0
    } else {
        1 < output.result && output.result < input.n && input.n % output.result == 0
    }
}

} // exec_spec_unverified!

} // verus!
