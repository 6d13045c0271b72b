public class Solution {

    // Too strong: only all-lowercase strings are allowed in; and only that branch is specified.
    //@ requires s != null && (\forall int i; 0 <= i < s.length(); 'a' <= s.charAt(i) <= 'z');
    //@ ensures \result.length() == s.length();
    //@ ensures (\forall int i; 0 <= i < s.length(); \result.charAt(i) == (char) (s.charAt(i) - 32));
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
