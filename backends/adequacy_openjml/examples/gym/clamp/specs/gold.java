public class Solution {

    //@ requires lo <= hi;
    //@ ensures lo <= \result && \result <= hi;
    //@ ensures x < lo ==> \result == lo;
    //@ ensures x > hi ==> \result == hi;
    //@ ensures lo <= x && x <= hi ==> \result == x;
    public static int solve(int x, int lo, int hi) {
        if (x < lo)
            return lo;
        if (x > hi)
            return hi;
        return x;
    }
}
