// Does a string read the same backwards?
// flawed: only 'true' answers are checked, so 'false' always passes
use vstd::prelude::*;
use vstd::contrib::exec_spec::*;

verus! {

exec_spec_unverified! {

pub struct Input {
    pub s: SpecString,
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
    output.result ==> (forall|i: usize| 0 <= i < input.s.len() ==> input.s[i as int] == input.s[(input.s.len() - 1 - i) as int])
}

} // exec_spec_unverified!

} // verus!
