public class Solution {

    /*@ requires a != null;
      @ ensures a.length == 0 ==> \result == -1;
      @ ensures a.length > 0 ==> (\forall int i; 0 <= i && i < a.length; a[i] <= \result);
      @ ensures a.length > 0 ==> (\exists int i; 0 <= i && i < a.length; a[i] == \result);
      @*/
    public static int solve(int[] a) {
        if (a.length == 0)
            return -1;
        int res = Integer.MIN_VALUE;
        for (int i = 0; i < a.length; i++) {
            res = ((a[i] > res) ? a[i] : res);
        }
        return res;
    }
}
