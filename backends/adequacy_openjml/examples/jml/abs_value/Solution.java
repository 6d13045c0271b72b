public class Solution {

    public static int solve(int x) {
        if (x < 0)
            return -x;
        return x;
    }
}
