// swapFirstAndLast
use vstd::prelude::*;
use vstd::contrib::exec_spec::*;

verus! {

exec_spec_unverified! {

pub struct Input {
    pub a: Seq<i64>,
}

pub struct Output {
    pub result: Seq<i64>,
}

/// Which inputs the function promises to handle.
spec fn pre_spec(input: Input) -> bool {
    input.a.len() > 0
}

/// Which outputs are correct for an input that satisfies pre_spec.
spec fn post_spec(input: Input, output: Output) -> bool {
    // first and last swapped, the middle unchanged
    output.result.len() == input.a.len()
        && output.result[0] == input.a[(input.a.len() - 1) as int]
        && output.result[(input.a.len() - 1) as int] == input.a[0]
        && (forall|i: usize| 1 <= i < input.a.len() - 1 ==> output.result[i as int] == input.a[i as int])
}

} // exec_spec_unverified!

} // verus!
