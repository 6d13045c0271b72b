public class Solution {
    //@ requires 0 <= n && n <= 100000;
    //@ ensures \result <==> (n >= 2 && !(\exists int d; 2 <= d && d < n; n % d == 0));
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
