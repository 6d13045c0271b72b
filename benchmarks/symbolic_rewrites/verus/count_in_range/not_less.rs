// Count the elements inside a closed range
// an equivalent rewrite of the gold spec (not_less)
use vstd::prelude::*;
use vstd::contrib::exec_spec::*;

verus! {

exec_spec_unverified! {

pub struct Input {
    pub arr: Seq<i32>,
    pub lo: i32,
    pub hi: i32,
}

pub struct Output {
    pub result: usize,
}

/// How many of the first n elements of s lie in [lo, hi].
spec fn count_upto(s: Seq<i32>, lo: i32, hi: i32, n: usize) -> usize
    decreases n,
{
    if n == 0 {
        0
    } else if lo <= s[(n - 1) as int] && s[(n - 1) as int] <= hi {
        count_upto(s, lo, hi, (n - 1) as usize) + 1
    } else {
        count_upto(s, lo, hi, (n - 1) as usize)
    }
}

/// Which inputs the function promises to handle.
spec fn pre_spec(input: Input) -> bool {
    !(input.hi < input.lo)
}

/// Which outputs are correct for an input that satisfies pre_spec.
spec fn post_spec(input: Input, output: Output) -> bool {
    count_upto(input.arr, input.lo, input.hi, input.arr.len()) == output.result
}

} // exec_spec_unverified!

} // verus!
