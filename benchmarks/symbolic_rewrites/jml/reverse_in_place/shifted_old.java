public class Solution {
    /*@ requires a != null;
      @ ensures (\forall int j; 0 < j && j <= a.length; \old(a[a.length - j]) == a[j - 1]);
      @ ensures \old(a.length) == a.length;
      @*/
    public static void solve(int[] a) {
        for (int i = 0, j = a.length - 1; i < j; i++, j--) {
            int t = a[i];
            a[i] = a[j];
            a[j] = t;
        }
    }
}
