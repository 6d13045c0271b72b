public class Solution {

	//@ requires num > Integer.MIN_VALUE;
	//@ ensures \result >= 0;
	//@ ensures \result == num || \result == -num;
	public static int solve(int num) {
		if (num < 0)
			return -num;
		else
			return num;
	}
}
