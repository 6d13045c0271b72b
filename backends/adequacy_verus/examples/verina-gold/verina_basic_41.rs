// hasOnlyOneDistinctElement
use vstd::prelude::*;
use vstd::contrib::exec_spec::*;

verus! {

exec_spec_unverified! {

pub struct Input {
    pub a: Seq<i64>,
}

pub struct Output {
    pub result: bool,
}

/// Which inputs the function promises to handle.
spec fn pre_spec(input: Input) -> bool {
    input.a.len() > 0
}

/// Which outputs are correct for an input that satisfies pre_spec.
spec fn post_spec(input: Input, output: Output) -> bool {
    output.result == (forall|i: usize| 0 <= i < input.a.len() ==> input.a[i as int] == input.a[0])
}

} // exec_spec_unverified!

} // verus!
