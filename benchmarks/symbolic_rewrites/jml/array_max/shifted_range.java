public class Solution {
    /*@ requires a != null && a.length >= 1;
      @ ensures (\exists int i; 1 <= i && i <= a.length; a[i - 1] == \result);
      @ ensures (\forall int i; 1 <= i <= a.length; \result >= a[i - 1]);
      @*/
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
