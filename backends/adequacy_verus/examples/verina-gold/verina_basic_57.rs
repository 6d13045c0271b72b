// CountLessThan
use vstd::prelude::*;
use vstd::contrib::exec_spec::*;

verus! {

exec_spec_unverified! {

pub struct Input {
    pub numbers: Seq<i64>,
    pub threshold: i64,
}

pub struct Output {
    pub result: u64,
}

/// How many of the first n elements of s are below t.
spec fn count_less(s: Seq<i64>, t: i64, n: usize) -> u64
    decreases n
{
    if n == 0 {
        0
    } else {
        count_less(s, t, (n - 1) as usize) + if s[(n - 1) as int] < t { 1u64 } else { 0u64 }
    }
}

/// Which inputs the function promises to handle.
spec fn pre_spec(input: Input) -> bool {
    true
}

/// Which outputs are correct for an input that satisfies pre_spec.
spec fn post_spec(input: Input, output: Output) -> bool {
    output.result == count_less(input.numbers, input.threshold, input.numbers.len())
}

} // exec_spec_unverified!

} // verus!
