// copy
use vstd::prelude::*;
use vstd::contrib::exec_spec::*;

verus! {

exec_spec_unverified! {

pub struct Input {
    pub src: Seq<i64>,
    pub sStart: u64,
    pub dest: Seq<i64>,
    pub dStart: u64,
    pub len: u64,
}

pub struct Output {
    pub result: Seq<i64>,
}

/// Which inputs the function promises to handle.
spec fn pre_spec(input: Input) -> bool {
    input.sStart as usize + input.len as usize <= input.src.len()
        && input.dStart as usize + input.len as usize <= input.dest.len()
}

/// Which outputs are correct for an input that satisfies pre_spec.
spec fn post_spec(input: Input, output: Output) -> bool {
    // dest with src[sStart .. sStart + len] copied over dest[dStart .. dStart + len]
    output.result.len() == input.dest.len()
        && (forall|i: usize| 0 <= i < input.dStart as usize ==> output.result[i as int] == input.dest[i as int])
        && (forall|i: usize| input.dStart as usize + input.len as usize <= i < output.result.len() ==>
                output.result[i as int] == input.dest[i as int])
        && (forall|i: usize| 0 <= i < input.len as usize ==>
                output.result[(input.dStart as usize + i) as int] == input.src[(input.sStart as usize + i) as int])
}

} // exec_spec_unverified!

} // verus!
