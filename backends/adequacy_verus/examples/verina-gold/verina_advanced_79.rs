// twoSum
use vstd::prelude::*;
use vstd::contrib::exec_spec::*;

verus! {

exec_spec_unverified! {

pub struct Input {
    pub nums: Seq<i64>,
    pub target: i64,
}

pub struct Output {
    pub result: Option<(u64, u64)>,
}

/// Which inputs the function promises to handle.
spec fn pre_spec(input: Input) -> bool {
    true
}

/// Which outputs are correct for an input that satisfies pre_spec.
spec fn post_spec(input: Input, output: Output) -> bool {
    // the lexicographically first pair i < j with nums[i] + nums[j] == target, or None if none
    match output.result {
        None => forall|i: usize, j: usize| 0 <= i < input.nums.len() && i < j < input.nums.len() ==>
            input.nums[i as int] + input.nums[j as int] != input.target,
        Some(p) => p.0 < p.1 && p.1 < input.nums.len() as u64
            && input.nums[p.0 as usize as int] + input.nums[p.1 as usize as int] == input.target
            && (forall|i: usize, j: usize| 0 <= i < p.0 as usize && i < j < input.nums.len() ==>
                    input.nums[i as int] + input.nums[j as int] != input.target)
            && (forall|j: usize| (p.0 as usize) < j < p.1 as usize ==>
                    input.nums[p.0 as usize as int] + input.nums[j as int] != input.target),
    }
}

} // exec_spec_unverified!

} // verus!
