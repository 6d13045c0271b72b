public class Solution {

    //@ requires arr != null;
    //@ ensures \result <==> (\forall int i; 0 <= i && i < arr.length - 1; arr[i] < arr[i + 1]);
    public static boolean solve(int[] arr) {
        int n = arr.length;
        if (n < 2) {
            return true;
        }
        for (int i = 0; i < n - 1; i++) {
            if (arr[i] >= arr[i + 1])
                return false;
        }
        return true;
    }
}
