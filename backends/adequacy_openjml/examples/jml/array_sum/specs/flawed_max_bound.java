public class Solution {

    //@ requires a != null;
    //@ requires (\sum int i; 0 <= i && i < a.length; a[i]) <= Integer.MAX_VALUE;
    //@ requires (\sum int i; 0 <= i && i < a.length; a[i]) >= Integer.MIN_VALUE;
    //@ ensures \result >= (\max int i; 0 <= i && i < a.length; a[i]);
    public static int solve(int[] a) {
        int s = 0;
        for (int i = 0; i < a.length; i++) {
            s += a[i];
        }
        return s;
    }
}
