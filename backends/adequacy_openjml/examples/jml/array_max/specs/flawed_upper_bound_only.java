public class Solution {

    //@ requires a != null && a.length > 0;
    //@ ensures (\forall int i; 0 <= i < a.length; a[i] <= \result);
    public static int solve(int[] a) {
        int m = a[0];
        for (int i = 1; i < a.length; i++) {
            if (a[i] > m) {
                m = a[i];
            }
        }
        return m;
    }
}
