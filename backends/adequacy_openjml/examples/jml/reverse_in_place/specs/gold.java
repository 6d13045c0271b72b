public class Solution {

    /*@ requires a != null;
      @ ensures a.length == \old(a.length);
      @ ensures (\forall int i; 0 <= i && i < a.length; a[i] == \old(a[a.length - 1 - i]));
      @*/
    public static void solve(int[] a) {
        for (int i = 0, j = a.length - 1; i < j; i++, j--) {
            int t = a[i];
            a[i] = a[j];
            a[j] = t;
        }
    }
}
