// Distance on a line
// gold spec (written for the sample package)
use vstd::prelude::*;
use vstd::contrib::exec_spec::*;

verus! {

exec_spec_unverified! {

pub struct Input {
    pub a: i64,
    pub b: i64,
}

pub struct Output {
    pub result: i64,
}

/// Which inputs the function promises to handle.
spec fn pre_spec(input: Input) -> bool {
    -1000 <= input.a && input.a <= 1000 && -1000 <= input.b && input.b <= 1000
}

/// Which outputs are correct for an input that satisfies pre_spec.
spec fn post_spec(input: Input, output: Output) -> bool {
    if input.a >= input.b {
        output.result == input.a - input.b
    } else {
        output.result == input.b - input.a
    }
}

} // exec_spec_unverified!

} // verus!
