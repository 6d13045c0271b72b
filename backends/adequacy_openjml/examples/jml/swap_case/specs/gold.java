public class Solution {

    /*@ requires s != null;
      @ ensures \result != null && \result.length() == s.length();
      @ ensures (\forall int i; 0 <= i && i < s.length();
      @     ('a' <= s.charAt(i) && s.charAt(i) <= 'z')
      @         ? \result.charAt(i) == (char) (s.charAt(i) - 32)
      @         : (('A' <= s.charAt(i) && s.charAt(i) <= 'Z')
      @             ? \result.charAt(i) == (char) (s.charAt(i) + 32)
      @             : \result.charAt(i) == s.charAt(i)));
      @*/
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
