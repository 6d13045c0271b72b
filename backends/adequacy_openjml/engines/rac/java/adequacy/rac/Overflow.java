package adequacy.rac;

/**
 * The arithmetic of a task's reference method, checked as JML's safe math checks code.
 *
 * <p>OpenJML's default math mode for Java code is safe math: an int or long operation whose
 * mathematical value leaves its type is an error, so a method verified under it never
 * overflows on an input its precondition admits. An input on which the reference overflows
 * is therefore outside its domain, like one on which it throws, and the output Java would
 * compute there (a wrapped value) is nobody's intended result. {@link Checked} rewrites the
 * reference's class files so that {@code + - * /}, unary minus and {@code ++}/{@code +=} on
 * ints and longs call the methods below. They throw this {@code Error} (not an exception,
 * which the reference's own {@code catch (Exception e)} would swallow) and set a flag that
 * only this package reads, so a reference that catches even {@code Throwable} still counts
 * as having overflowed.
 */
public final class Overflow extends Error {
    private static final long serialVersionUID = 1L;
    private static volatile boolean seen;

    private Overflow(String what) { super(what, null, false, false); }

    /** The error of one overflow, its message made here: the checked operations below stay
     *  small enough for the JIT to inline (with the message built in each of them, C1 inlined
     *  none, and a reference's loop ran about 3x slower: a timeout where Java takes a second). */
    private static Overflow raise(String before, long a, String op, long b) {
        seen = true;
        return new Overflow(before + a + op + b);
    }

    private static Overflow raise(String before, long a, String after) {
        seen = true;
        return new Overflow(before + a + after);
    }

    /** Clear the flag before a run; package-private: the reference's code cannot. */
    static void reset() { seen = false; }

    /** Whether the last run overflowed anywhere, caught or not. */
    static boolean seen() { return seen; }

    public static int add(int a, int b) {
        int r = a + b;
        if (((a ^ r) & (b ^ r)) < 0) throw raise("int overflow: ", a, " + ", b);
        return r;
    }

    public static int sub(int a, int b) {
        int r = a - b;
        if (((a ^ b) & (a ^ r)) < 0) throw raise("int overflow: ", a, " - ", b);
        return r;
    }

    public static int mul(int a, int b) {
        long r = (long) a * (long) b;
        if ((int) r != r) throw raise("int overflow: ", a, " * ", b);
        return (int) r;
    }

    public static int div(int a, int b) {
        if (a == Integer.MIN_VALUE && b == -1) throw raise("int overflow: ", a, " / -1");
        return a / b;
    }

    public static int neg(int a) {
        if (a == Integer.MIN_VALUE) throw raise("int overflow: -(", a, ")");
        return -a;
    }

    public static int abs(int a) {
        if (a == Integer.MIN_VALUE) throw raise("int overflow: Math.abs(", a, ")");
        return a < 0 ? -a : a;
    }

    public static long abs(long a) {
        if (a == Long.MIN_VALUE) throw raise("long overflow: Math.abs(", a, ")");
        return a < 0 ? -a : a;
    }

    public static long add(long a, long b) {
        long r = a + b;
        if (((a ^ r) & (b ^ r)) < 0) throw raise("long overflow: ", a, " + ", b);
        return r;
    }

    public static long sub(long a, long b) {
        long r = a - b;
        if (((a ^ b) & (a ^ r)) < 0) throw raise("long overflow: ", a, " - ", b);
        return r;
    }

    public static long mul(long a, long b) {
        long lo = a * b;
        // the product fits when its upper 64 bits are the sign extension of the lower ones
        if (Math.multiplyHigh(a, b) != (lo >> 63)) throw raise("long overflow: ", a, " * ", b);
        return lo;
    }

    public static long div(long a, long b) {
        if (a == Long.MIN_VALUE && b == -1) throw raise("long overflow: ", a, " / -1");
        return a / b;
    }

    public static long neg(long a) {
        if (a == Long.MIN_VALUE) throw raise("long overflow: -(", a, ")");
        return -a;
    }
}
