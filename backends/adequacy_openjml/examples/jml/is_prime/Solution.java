public class Solution {

    public static boolean solve(int n) {
        if (n < 2)
            return false;
        for (int d = 2; (long) d * d <= n; d++) {
            if (n % d == 0)
                return false;
        }
        return true;
    }
}
