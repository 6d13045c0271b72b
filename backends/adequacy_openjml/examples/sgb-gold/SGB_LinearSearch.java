public class Solution {

  /*@ requires array != null;
    @ ensures -1 <= \result && \result < array.length;
    @ ensures \result >= 0 ==> array[\result] == search;
    @ ensures (\forall int i; 0 <= i && i < array.length && (\result == -1 || i < \result);
    @                         array[i] != search);
    @*/
  public static int solve(int search, int array[]) {
    int location = -1;
    int c;

    for (c = 0; c < array.length; c++) {
      if (array[c] == search) {
        location = c;
        break;
      }
    }
    if (c == array.length) {
      location = -1;
    }
    return location;
  }
}
