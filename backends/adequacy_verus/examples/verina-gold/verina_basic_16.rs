// replaceChars
use vstd::prelude::*;
use vstd::contrib::exec_spec::*;

verus! {

exec_spec_unverified! {

pub struct Input {
    pub s: SpecString,
    pub oldChar: char,
    pub newChar: char,
}

pub struct Output {
    pub result: SpecString,
}

/// Which inputs the function promises to handle.
spec fn pre_spec(input: Input) -> bool {
    true
}

/// Which outputs are correct for an input that satisfies pre_spec.
spec fn post_spec(input: Input, output: Output) -> bool {
    // every occurrence of oldChar replaced by newChar, nothing else changed
    output.result.len() == input.s.len()
        && (forall|i: usize| 0 <= i < input.s.len() ==>
                output.result[i as int] == (if input.s[i as int] == input.oldChar { input.newChar }
                                            else { input.s[i as int] }))
}

} // exec_spec_unverified!

} // verus!
