// Index of a maximum
// gold spec (written for the sample package)
use vstd::prelude::*;
use vstd::contrib::exec_spec::*;

verus! {

exec_spec_unverified! {

pub struct Input {
    pub a: Seq<i64>,
}

pub struct Output {
    pub result: i64,
}

/// Which inputs the function promises to handle.
spec fn pre_spec(input: Input) -> bool {
    1 <= input.a.len() && input.a.len() <= 100
        && (forall|i: usize| 0 <= i < input.a.len() ==> -1000000000 <= input.a[i as int]
            && input.a[i as int] <= 1000000000)
}

/// Which outputs are correct for an input that satisfies pre_spec.
spec fn post_spec(input: Input, output: Output) -> bool {
    1 <= output.result && (output.result as usize) <= input.a.len()
        && (forall|i: usize| 0 <= i < input.a.len() ==> input.a[i as int]
            <= input.a[(output.result as usize) - 1])
}

} // exec_spec_unverified!

} // verus!
