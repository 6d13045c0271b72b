// findFirstOdd
use vstd::prelude::*;
use vstd::contrib::exec_spec::*;

verus! {

exec_spec_unverified! {

pub struct Input {
    pub a: Seq<i64>,
}

pub struct Output {
    pub result: Option<u64>,
}

/// Which inputs the function promises to handle.
spec fn pre_spec(input: Input) -> bool {
    input.a.len() > 0
}

/// Which outputs are correct for an input that satisfies pre_spec.
spec fn post_spec(input: Input, output: Output) -> bool {
    // x % 2 != 0 means odd under both truncating and Euclidean remainder
    match output.result {
        Some(idx) => idx < input.a.len() as u64
            && input.a[idx as usize as int] % 2 != 0
            && (forall|j: usize| 0 <= j < idx as usize ==> input.a[j as int] % 2 == 0),
        None => forall|i: usize| 0 <= i < input.a.len() ==> input.a[i as int] % 2 == 0,
    }
}

} // exec_spec_unverified!

} // verus!
