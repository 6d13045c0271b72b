// removeElement
use vstd::prelude::*;
use vstd::contrib::exec_spec::*;

verus! {

exec_spec_unverified! {

pub struct Input {
    pub s: Seq<i64>,
    pub k: u64,
}

pub struct Output {
    pub result: Seq<i64>,
}

/// Which inputs the function promises to handle.
spec fn pre_spec(input: Input) -> bool {
    input.k < input.s.len() as u64
}

/// Which outputs are correct for an input that satisfies pre_spec.
spec fn post_spec(input: Input, output: Output) -> bool {
    // the array without the element at index k, the others in their order
    output.result.len() + 1 == input.s.len()
        && (forall|i: usize| 0 <= i < input.k as usize ==> output.result[i as int] == input.s[i as int])
        && (forall|i: usize| input.k as usize <= i < output.result.len() ==>
                output.result[i as int] == input.s[(i + 1) as int])
}

} // exec_spec_unverified!

} // verus!
