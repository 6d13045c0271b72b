public class Solution {
    //@ requires !(x <= Integer.MIN_VALUE);
    //@ ensures \result == -x || \result == x;
    //@ ensures !(\result < 0);
    public static int solve(int x) {
        if (x < 0)
            return -x;
        return x;
    }
}
