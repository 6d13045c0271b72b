// BinarySearch
use vstd::prelude::*;
use vstd::contrib::exec_spec::*;

verus! {

exec_spec_unverified! {

pub struct Input {
    pub a: Seq<i64>,
    pub key: i64,
}

pub struct Output {
    pub result: u64,
}

/// Which inputs the function promises to handle.
spec fn pre_spec(input: Input) -> bool {
    forall|i: usize| 1 <= i < input.a.len() ==> input.a[(i - 1) as int] <= input.a[i as int]
}

/// Which outputs are correct for an input that satisfies pre_spec.
spec fn post_spec(input: Input, output: Output) -> bool {
    // the insertion point: everything before it is < key, everything from it on is >= key
    output.result <= input.a.len() as u64
        && (forall|i: usize| 0 <= i < output.result as usize ==> input.a[i as int] < input.key)
        && (forall|i: usize| output.result as usize <= i < input.a.len() ==> input.a[i as int] >= input.key)
}

} // exec_spec_unverified!

} // verus!
