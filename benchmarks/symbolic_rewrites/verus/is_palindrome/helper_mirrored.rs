// Does a string read the same backwards?
// an equivalent rewrite of the gold spec (helper_mirrored)
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

spec fn mirrored(s: SpecString, i: int) -> bool {
    s[s.len() - 1 - i] == s[i]
}

/// Which inputs the function promises to handle.
spec fn pre_spec(input: Input) -> bool {
    true
}

/// Which outputs are correct for an input that satisfies pre_spec.
spec fn post_spec(input: Input, output: Output) -> bool {
    output.result <==> (forall|i: int| 0 <= i < input.s.len() ==> mirrored(input.s, i))
}

} // exec_spec_unverified!

} // verus!
