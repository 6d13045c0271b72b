// lastPosition
use vstd::prelude::*;
use vstd::contrib::exec_spec::*;

verus! {

exec_spec_unverified! {

pub struct Input {
    pub arr: Seq<i64>,
    pub elem: i64,
}

pub struct Output {
    pub result: i64,
}

/// Which inputs the function promises to handle.
spec fn pre_spec(input: Input) -> bool {
    forall|i: usize| 1 <= i < input.arr.len() ==> input.arr[(i - 1) as int] <= input.arr[i as int]
}

/// Which outputs are correct for an input that satisfies pre_spec.
spec fn post_spec(input: Input, output: Output) -> bool {
    // index of the last occurrence of elem, or -1 when it does not occur
    if output.result == -1 {
        forall|i: usize| 0 <= i < input.arr.len() ==> input.arr[i as int] != input.elem
    } else {
        output.result >= 0
            && (output.result as usize) < input.arr.len()
            && input.arr[output.result as usize as int] == input.elem
            && (forall|i: usize| (output.result as usize) < i < input.arr.len() ==>
                    input.arr[i as int] != input.elem)
    }
}

} // exec_spec_unverified!

} // verus!
