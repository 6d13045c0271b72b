public class Solution {

    // Right precondition, but the postcondition only speaks about lowercase letters.
    //@ requires s != null;
    //@ ensures \result.length() == s.length();
    //@ ensures (\forall int i; 0 <= i < s.length(); 'a' <= s.charAt(i) <= 'z' ==> \result.charAt(i) == (char) (s.charAt(i) - 32));
    public static String solve(String s) {
        char[] out = new char[s.length()];
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c >= 'a' && c <= 'z') {
                out[i] = (char) (c - 32);
            } else if (c >= 'A' && c <= 'Z') {
                out[i] = (char) (c + 32);
            } else {
                out[i] = c;
            }
        }
        return new String(out);
    }
}
