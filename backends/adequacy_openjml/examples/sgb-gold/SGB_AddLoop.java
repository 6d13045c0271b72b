public class Solution {

    // y > MIN_VALUE: the code negates y (int n = -y), which overflows there (found by the
    // checked reference, 2026-12-05: x = MAX_VALUE, y = MIN_VALUE had x + y = -1 in range)
    //@ requires y > Integer.MIN_VALUE;
    //@ requires Integer.MIN_VALUE <= x + y && x + y <= Integer.MAX_VALUE;
    //@ ensures \result == x + y;
    public static int solve(int x, int y) {
        int sum = x;
        if (y > 0) {
            int n = y;
            while (n > 0) {
                sum = sum + 1;
                n = n - 1;
            }
        } else {
            int n = -y;
            while (n > 0) {
                sum = sum - 1;
                n = n - 1;
            }
        }
        return sum;
    }
}
