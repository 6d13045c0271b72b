public class Solution {
    /*@ public normal_behavior
      @   requires a != null && (\forall int i; 0 <= i && i < a.length; a[i] != key);
      @   ensures \result == -1;
      @ also
      @ public normal_behavior
      @   requires a != null && !(\forall int i; 0 <= i && i < a.length; a[i] != key);
      @   ensures (\forall int i; 0 <= i && i < \result; a[i] != key);
      @   ensures 0 <= \result && \result < a.length && key == a[\result];
      @*/
    public static int solve(int[] a, int key) {
        for (int i = 0; i < a.length; i++) {
            if (a[i] == key)
                return i;
        }
        return -1;
    }
}
