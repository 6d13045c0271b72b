public class Solution {

    //@ ensures \result <==> n % 4 != 0;
    public static boolean solve(int n) {
        return n % 4 != 0;
    }
}
