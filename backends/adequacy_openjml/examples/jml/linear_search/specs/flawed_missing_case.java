public class Solution {

    /*@ public normal_behavior
      @   requires a != null && (\exists int i; 0 <= i && i < a.length; a[i] == key);
      @   ensures 0 <= \result && \result < a.length && a[\result] == key;
      @   ensures (\forall int i; 0 <= i && i < \result; a[i] != key);
      @*/
    public static int solve(int[] a, int key) {
        for (int i = 0; i < a.length; i++) {
            if (a[i] == key)
                return i;
        }
        return -1;
    }
}
