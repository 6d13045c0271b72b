public class Solution {

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
