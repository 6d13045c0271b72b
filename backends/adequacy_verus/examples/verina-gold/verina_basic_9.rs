// hasCommonElement
use vstd::prelude::*;
use vstd::contrib::exec_spec::*;

verus! {

exec_spec_unverified! {

pub struct Input {
    pub a: Seq<i64>,
    pub b: Seq<i64>,
}

pub struct Output {
    pub result: bool,
}

/// Which inputs the function promises to handle.
spec fn pre_spec(input: Input) -> bool {
    input.a.len() > 0 && input.b.len() > 0
}

/// Which outputs are correct for an input that satisfies pre_spec.
spec fn post_spec(input: Input, output: Output) -> bool {
    output.result == (exists|i: usize, j: usize|
        0 <= i < input.a.len() && 0 <= j < input.b.len() && (input.a[i as int] == input.b[j as int]))
}

} // exec_spec_unverified!

} // verus!
