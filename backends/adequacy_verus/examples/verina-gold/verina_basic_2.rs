// findSmallest
use vstd::prelude::*;
use vstd::contrib::exec_spec::*;

verus! {

exec_spec_unverified! {

pub struct Input {
    pub s: Seq<u64>,
}

pub struct Output {
    pub result: Option<u64>,
}

/// Which inputs the function promises to handle.
spec fn pre_spec(input: Input) -> bool {
    true
}

/// Which outputs are correct for an input that satisfies pre_spec.
spec fn post_spec(input: Input, output: Output) -> bool {
    // the minimum of the array, or None exactly when the array is empty
    match output.result {
        None => input.s.len() == 0,
        Some(r) => (exists|i: usize| 0 <= i < input.s.len() && (input.s[i as int] == r))
            && (forall|i: usize| 0 <= i < input.s.len() ==> r <= input.s[i as int]),
    }
}

} // exec_spec_unverified!

} // verus!
