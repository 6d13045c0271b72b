public class Solution {

    //@ ensures \result >= 0 && (\result == x || \result == -x);
    public static int solve(int x) {
        if (x < 0)
            return -x;
        return x;
    }
}
