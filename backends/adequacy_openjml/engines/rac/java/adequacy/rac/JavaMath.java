package adequacy.rac;

import java.math.BigInteger;
import java.util.function.Function;

/**
 * Spec arithmetic under {@code spec_java_math} and {@code spec_safe_math} (OpenJML's
 * {@code Arithmetic.Java} / {@code Arithmetic.Safe} modes). Why a class of its own: {@link R}
 * computes the default {@code spec_bigint_math}, where every integral value is a mathematical
 * integer; here an operation on two Java-typed integers ({@code int}-like: Integer, Short,
 * Byte, Character; {@code long}: Long) has the Java type of their binary numeric promotion and
 * Java's value, so values keep their boxed Java type through the evaluation.
 *
 * <p>Java mode wraps as Java does. Safe mode has the same values, but an operation whose exact
 * result leaves its type (+, -, *, unary -, {@code MIN / -1}) is an error in OpenJML (an
 * {@code ArithmeticOperationRange} verification failure, like a division by zero in a spec):
 * the spec is not well defined on the case, so the value is {@link R.Undefined} and the case
 * is unknown. A {@code \bigint}, {@code \real} or floating operand makes the operation the
 * default one of {@link R} (no Java type wraps it).
 */
public final class JavaMath {
    private JavaMath() {}

    static int common(Object a, Object b) {
        int wa = R.width(a), wb = R.width(b);
        return wa == 0 || wb == 0 ? 0 : Math.max(wa, wb);
    }

    static String mode(boolean safe) { return safe ? "spec_safe_math" : "spec_java_math"; }

    static Object box(BigInteger v, int w) {
        return w == 32 ? (Object) Integer.valueOf(v.intValue()) : (Object) Long.valueOf(v.longValue());
    }

    /** The value of an operation whose exact result is {@code exact}, in a w-bit Java type. */
    static Object result(boolean safe, int w, BigInteger exact, String op) {
        if (R.fits(exact, w)) return box(exact, w);
        if (safe)
            throw new R.Undefined((w == 32 ? "int" : "long") + " overflow in " + op + " (exact value " + exact
                    + ") under spec_safe_math: OpenJML reports it as an error (ArithmeticOperationRange)");
        return box(exact, w); // the low w bits: Java's wrapped value
    }

    public static Object add(boolean safe, Object a, Object b) {
        if (a instanceof String || b instanceof String) return R.add(a, b);
        int w = common(a, b);
        return w == 0 ? R.add(a, b) : result(safe, w, R.big(a).add(R.big(b)), "+");
    }

    public static Object sub(boolean safe, Object a, Object b) {
        int w = common(a, b);
        return w == 0 ? R.sub(a, b) : result(safe, w, R.big(a).subtract(R.big(b)), "-");
    }

    public static Object mul(boolean safe, Object a, Object b) {
        int w = common(a, b);
        return w == 0 ? R.mul(a, b) : result(safe, w, R.big(a).multiply(R.big(b)), "*");
    }

    public static Object div(boolean safe, Object a, Object b) {
        int w = common(a, b);
        if (w == 0) return R.div(a, b);
        return result(safe, w, (BigInteger) R.div(R.big(a), R.big(b)), "/");
    }

    public static Object rem(boolean safe, Object a, Object b) {
        int w = common(a, b);
        if (w == 0) return R.rem(a, b);
        return box((BigInteger) R.rem(R.big(a), R.big(b)), w); // |a % b| < |b|: never overflows
    }

    public static Object neg(boolean safe, Object a) {
        int w = R.width(a);
        return w == 0 ? R.neg(a) : result(safe, w, R.big(a).negate(), "unary -");
    }

    public static Object plus(boolean safe, Object a) {
        int w = R.width(a);
        return w == 0 ? R.plus(a) : box(R.big(a), w);
    }

    public static Object bitnot(boolean safe, Object a) {
        int w = R.width(a);
        return w == 0 ? R.bitnot(a) : box(R.big(a).not(), w);
    }

    public static Object bitand(boolean safe, Object a, Object b) {
        int w = common(a, b);
        return w == 0 || a instanceof Boolean || b instanceof Boolean ? R.bitand(a, b) : box(R.big(a).and(R.big(b)), w);
    }

    public static Object bitor(boolean safe, Object a, Object b) {
        int w = common(a, b);
        return w == 0 || a instanceof Boolean || b instanceof Boolean ? R.bitor(a, b) : box(R.big(a).or(R.big(b)), w);
    }

    public static Object xor(boolean safe, Object a, Object b) {
        int w = common(a, b);
        return w == 0 || a instanceof Boolean || b instanceof Boolean ? R.xor(a, b) : box(R.big(a).xor(R.big(b)), w);
    }

    /** Java's shift distance: the low 5 (int) or 6 (long) bits of the right operand
     *  (JLS 15.19). Safe mode leaves a distance outside 0..w-1 open: whether OpenJML flags
     *  it is not documented, and unknown is never wrong. */
    static int distance(boolean safe, Object b, int w) {
        BigInteger d = R.big(b);
        if (safe && (d.signum() < 0 || d.compareTo(BigInteger.valueOf(w)) >= 0))
            throw new R.Undefined("shift distance " + d + " outside 0.." + (w - 1) + " under spec_safe_math");
        return d.and(BigInteger.valueOf(w - 1)).intValue();
    }

    public static Object shl(boolean safe, Object a, Object b) {
        int w = R.width(a); // the shift's type is the promoted left operand's (JLS 15.19)
        if (w == 0) return R.shl(a, b);
        int n = distance(safe, b, w);
        BigInteger exact = R.big(a).shiftLeft(n);
        if (safe && !R.fits(exact, w))
            throw new R.Undefined("<< loses bits (exact value " + exact + ") under spec_safe_math: rac leaves it open");
        return w == 32 ? (Object) (R.big(a).intValue() << n) : (Object) (R.big(a).longValue() << n);
    }

    public static Object shr(boolean safe, Object a, Object b) {
        int w = R.width(a);
        if (w == 0) return R.shr(a, b);
        int n = distance(safe, b, w);
        return w == 32 ? (Object) (R.big(a).intValue() >> n) : (Object) (R.big(a).longValue() >> n);
    }

    public static Object ushr(boolean safe, Object a, Object b) {
        int w = R.width(a);
        if (w == 0) return R.ushr(a, b);
        int n = distance(safe, b, w);
        return w == 32 ? (Object) (R.big(a).intValue() >>> n) : (Object) (R.big(a).longValue() >>> n);
    }

    /**
     * A cast to a Java integral type: Java narrows to the low bits (JLS 5.1.3); safe mode
     * leaves an out-of-range value open (OpenJML checks narrowing casts there). The result
     * keeps the cast's Java type, so later arithmetic wraps at its width.
     */
    public static Object cast(boolean safe, String type, Object v) {
        long lo, hi;
        switch (type) { // a boxed type converts as its primitive does (then boxes: same value)
            case "Integer": type = "int"; break;
            case "Long": type = "long"; break;
            case "Short": type = "short"; break;
            case "Byte": type = "byte"; break;
            case "Character": type = "char"; break;
            default: break;
        }
        switch (type) {
            case "int": lo = Integer.MIN_VALUE; hi = Integer.MAX_VALUE; break;
            case "long": lo = Long.MIN_VALUE; hi = Long.MAX_VALUE; break;
            case "short": lo = Short.MIN_VALUE; hi = Short.MAX_VALUE; break;
            case "byte": lo = Byte.MIN_VALUE; hi = Byte.MAX_VALUE; break;
            case "char": lo = 0; hi = 0xFFFF; break;
            default: return R.cast(type, v);
        }
        if (v == null || v instanceof Boolean || v instanceof String) return R.cast(type, v);
        if (v instanceof Real) v = ((Real) v).truncate(); // toward zero, then Java's narrowing
        BigInteger exact;
        if (v instanceof Double || v instanceof Float) {
            double d = ((Number) v).doubleValue();
            boolean inRange = !Double.isNaN(d) && d >= lo && d <= hi;
            if (safe && !inRange)
                throw new R.Undefined("(" + type + ") " + d + " out of range under spec_safe_math");
            if (type.equals("long")) return (long) d;
            int i = (int) d; // JLS 5.1.3: to int first, then to the narrower type
            switch (type) {
                case "int": return i;
                case "short": return (short) i;
                case "byte": return (byte) i;
                default: return (char) i;
            }
        }
        exact = R.big(v);
        boolean fits = exact.compareTo(BigInteger.valueOf(lo)) >= 0 && exact.compareTo(BigInteger.valueOf(hi)) <= 0;
        if (safe && !fits)
            throw new R.Undefined("(" + type + ") " + exact + " out of range under spec_safe_math");
        long bits = exact.longValue(); // the low 64 bits
        switch (type) {
            case "int": return (int) bits;
            case "long": return bits;
            case "short": return (short) bits;
            case "byte": return (byte) bits;
            default: return (char) bits;
        }
    }

    /**
     * {@code \sum} / {@code \product} whose result has the Java type {@code resultType} (the
     * body's type as the translator sees it; {@code \num_of} is a long; "" when unknown). The
     * exact result is computed; when it fits the type it is also the wrapped one (wrapping
     * commutes with + and *), so it is the value whether or not OpenJML wraps the
     * accumulator. When it does not fit, the two readings differ and nothing says which
     * OpenJML means: undefined with the reason. So is an empty range of unknown type (its 0
     * or 1 would have to carry a Java type).
     */
    public static Object sum(boolean safe, Object lo, Object hi, String type, Function<Object, Object> body,
                             String resultType) {
        return fold(safe, lo, hi, type, body, true, resultType);
    }

    public static Object product(boolean safe, Object lo, Object hi, String type, Function<Object, Object> body,
                                 String resultType) {
        return fold(safe, lo, hi, type, body, false, resultType);
    }

    static int typeWidth(String t) {
        switch (t) {
            case "int": case "short": case "byte": case "char":
            case "Integer": case "Short": case "Byte": case "Character": return 32;
            case "long": case "Long": return 64;
            case "": return -1;
            default: return 0;
        }
    }

    static Object fold(boolean safe, Object lo, Object hi, String type, Function<Object, Object> body, boolean sum,
                       String resultType) {
        Object[] acc = {sum ? BigInteger.ZERO : BigInteger.ONE};
        int[] w = {typeWidth(resultType)};
        boolean[] any = {false};
        R.each(lo, hi, type, v -> {
            Object x = body.apply(v);
            any[0] = true;
            if (typeWidth(resultType) == -1) {
                int xw = R.width(x);
                w[0] = w[0] == -1 ? xw : (xw == 0 || w[0] == 0 ? 0 : Math.max(w[0], xw));
            }
            acc[0] = sum ? R.add(acc[0], x) : R.mul(acc[0], x);
            return true;
        });
        String what = sum ? "\\sum" : "\\product";
        if (w[0] == -1)
            throw new R.Undefined("empty " + what + " whose Java type rac cannot tell, under " + mode(safe));
        if (w[0] == 0 || !(acc[0] instanceof BigInteger)) return acc[0];
        BigInteger r = (BigInteger) acc[0];
        if (R.fits(r, w[0])) return box(r, w[0]);
        throw new R.Undefined(what + " = " + r + " leaves its Java type under " + mode(safe)
                + ": whether OpenJML wraps the accumulator is not settled");
    }
}
