package adequacy.rac;

import java.lang.reflect.Array;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Runtime of translated JML expressions. Values are plain Java objects; every integral value
 * (Integer, Long, Short, Byte, BigInteger) is treated as a mathematical integer, as OpenJML's
 * default bigint arithmetic for specifications does ({@link JavaMath} holds the
 * {@code spec_java_math} / {@code spec_safe_math} operations). A {@code \real} is a {@link Real}
 * (an exact rational), never a double. An undefined value (null dereference, index
 * out of bounds, division by zero, unboundable quantifier) throws {@link Undefined}: the case is
 * unknown, never false.
 */
public final class R {
    private R() {}

    /** A JML value is undefined; the predicate's truth is unknown. */
    public static final class Undefined extends RuntimeException {
        public Undefined(String m) { super(m, null, false, false); }
    }

    /** Division of a model method body (``model_math.py``): Java's, except that
     *  MIN_VALUE / -1 overflows (mathematically 2^31) and is undefined, like the other
     *  overflows the exact operations of {@link Math} report. */
    public static int divideExact(int a, int b) {
        if (a == Integer.MIN_VALUE && b == -1) throw new Undefined("int overflow: " + a + " / -1");
        return a / b;
    }
    public static long divideExact(long a, long b) {
        if (a == Long.MIN_VALUE && b == -1) throw new Undefined("long overflow: " + a + " / -1");
        return a / b;
    }

    public static final Object NONE = new Object();
    public static final BigInteger ZERO = BigInteger.ZERO;
    public static final BigInteger ONE = BigInteger.ONE;
    static final long MAX_ITERATIONS = 20_000_000L;

    // ---------------------------------------------------------------- kinds and conversions
    public static boolean integral(Object o) {
        return o instanceof Integer || o instanceof Long || o instanceof BigInteger
                || o instanceof Short || o instanceof Byte;
    }

    static boolean floating(Object o) { return o instanceof Double || o instanceof Float; }

    static boolean numeric(Object o) {
        return integral(o) || floating(o) || o instanceof Character || o instanceof Real;
    }

    /** The {@code \real} value of a number: exact for integers; for a double only where its exact
     *  binary value is the decimal it prints as (see {@link #realOfDouble}). */
    public static Real real(Object o) {
        if (o instanceof Real) return (Real) o;
        if (integral(o) || o instanceof Character) return Real.of(big(o));
        if (floating(o)) return realOfDouble(((Number) o).doubleValue());
        if (o == null) throw new Undefined("null used as a number");
        throw new Undefined("type error: expected a number, got " + kind(o));
    }

    /**
     * A double as a {@code \real}. Every finite double is a rational, but a spec's double is usually
     * a decimal it was written as ({@code 0.1}), whose value is not the double's ({@code 0.1}
     * is 0.1000000000000000055511151231257827...): which of the two a spec means is not
     * settled (OpenJML's prover reads doubles as reals), so only a double whose exact value
     * is its shortest decimal (1.5, 0.25, 2^53) converts; any other is undefined with the
     * reason, as are NaN and the infinities (no real value).
     */
    static Real realOfDouble(double d) {
        if (Double.isNaN(d) || Double.isInfinite(d))
            throw new Undefined("the double " + d + " has no \\real value");
        Real exact = Real.exact(d);
        BigDecimal shortest = new BigDecimal(Double.toString(d));
        BigInteger u = shortest.unscaledValue();
        Real decimal = shortest.scale() >= 0 ? Real.of(u, BigInteger.TEN.pow(shortest.scale()))
                : Real.of(u.multiply(BigInteger.TEN.pow(-shortest.scale())));
        if (!exact.equals(decimal)) {
            String bits = new BigDecimal(d).toPlainString();
            if (bits.length() > 40) bits = bits.substring(0, 40) + "...";
            throw new Undefined("(\\real) of the double " + d + ": its exact value " + bits
                    + " is not the decimal " + d + " it stands for, and JML does not settle which "
                    + "one a spec means; rac computes \\real exactly and leaves this open");
        }
        return exact;
    }

    static boolean anyReal(Object a, Object b) { return a instanceof Real || b instanceof Real; }

    public static BigInteger big(Object o) {
        if (o instanceof BigInteger) return (BigInteger) o;
        if (o instanceof Real) throw new Undefined("a \\real used where an integer is needed");
        if (o instanceof Integer || o instanceof Long || o instanceof Short || o instanceof Byte)
            return BigInteger.valueOf(((Number) o).longValue());
        if (o instanceof Character) return BigInteger.valueOf((Character) o);
        if (o == null) throw new Undefined("null used as a number");
        throw new Undefined("type error: expected an integer, got " + kind(o));
    }

    static double dbl(Object o) {
        if (floating(o)) return ((Number) o).doubleValue();
        if (o instanceof Real) throw Real.refuse("double");
        if (o instanceof Character) return (Character) o;
        if (integral(o)) return big(o).doubleValue();
        if (o == null) throw new Undefined("null used as a number");
        throw new Undefined("type error: expected a number, got " + kind(o));
    }

    static String kind(Object o) { return o == null ? "null" : o.getClass().getSimpleName(); }

    public static boolean truth(Object o) {
        if (o instanceof Boolean) return (Boolean) o;
        if (o == null) throw new Undefined("null used as a boolean");
        throw new Undefined("type error: expected a boolean, got " + kind(o));
    }

    public static Object bool(boolean b) { return b ? Boolean.TRUE : Boolean.FALSE; }

    public static BigInteger big(String text) { return new BigInteger(text); }

    static Object norm(BigInteger b) { return b; }

    // ---------------------------------------------------------------- arithmetic
    public static Object add(Object a, Object b) {
        if (a instanceof String || b instanceof String) {
            if (anyReal(a, b)) throw new Undefined("a \\real in a string concatenation (Java has no \\real)");
            return str(a) + str(b);
        }
        if (anyReal(a, b)) return real(a).add(real(b));
        if (floating(a) || floating(b)) return dbl(a) + dbl(b);
        return big(a).add(big(b));
    }

    static String str(Object o) {
        if (o != null && o.getClass().isArray()) return o.toString();
        return String.valueOf(o);
    }

    public static Object sub(Object a, Object b) {
        if (anyReal(a, b)) return real(a).sub(real(b));
        if (floating(a) || floating(b)) return dbl(a) - dbl(b);
        return big(a).subtract(big(b));
    }

    public static Object mul(Object a, Object b) {
        if (anyReal(a, b)) return real(a).mul(real(b));
        if (floating(a) || floating(b)) return dbl(a) * dbl(b);
        return big(a).multiply(big(b));
    }

    public static Object div(Object a, Object b) {
        if (anyReal(a, b)) return real(a).div(real(b)); // x / 0 is undefined for reals too
        if (floating(a) || floating(b)) return dbl(a) / dbl(b);
        BigInteger d = big(b);
        if (d.signum() == 0) throw new Undefined("division by zero");
        return big(a).divide(d); // truncates toward zero, as Java's / does
    }

    public static Object rem(Object a, Object b) {
        if (anyReal(a, b)) return real(a).rem(real(b));
        if (floating(a) || floating(b)) return dbl(a) % dbl(b);
        BigInteger d = big(b);
        if (d.signum() == 0) throw new Undefined("division by zero");
        return big(a).remainder(d); // sign of the dividend, as Java's % does
    }

    public static Object neg(Object a) {
        if (a instanceof Real) return ((Real) a).neg();
        if (floating(a)) return -dbl(a);
        return big(a).negate();
    }

    public static Object plus(Object a) {
        if (a instanceof Real) return a;
        if (floating(a)) return dbl(a);
        return big(a);
    }

    public static Object not(Object a) { return bool(!truth(a)); }

    public static Object bitnot(Object a) { return big(a).not(); }

    public static Object bitand(Object a, Object b) {
        if (a instanceof Boolean || b instanceof Boolean) return bool(truth(a) & truth(b));
        return big(a).and(big(b));
    }

    public static Object bitor(Object a, Object b) {
        if (a instanceof Boolean || b instanceof Boolean) return bool(truth(a) | truth(b));
        return big(a).or(big(b));
    }

    public static Object xor(Object a, Object b) {
        if (a instanceof Boolean || b instanceof Boolean) return bool(truth(a) ^ truth(b));
        return big(a).xor(big(b));
    }

    public static Object shl(Object a, Object b) {
        int n = big(b).intValueExact();
        if (n < 0 || n > 4096) throw new Undefined("shift distance out of range");
        return big(a).shiftLeft(n);
    }

    public static Object shr(Object a, Object b) {
        int n = big(b).intValueExact();
        if (n < 0 || n > 4096) throw new Undefined("shift distance out of range");
        return big(a).shiftRight(n);
    }

    public static Object ushr(Object a, Object b) {
        throw new Undefined(">>> on mathematical integers is not defined");
    }

    // ---------------------------------------------------------------- comparison
    static int cmp(Object a, Object b) {
        if (anyReal(a, b)) return real(a).compareTo(real(b));
        if (floating(a) || floating(b)) {
            double x = dbl(a), y = dbl(b);
            if (Double.isNaN(x) || Double.isNaN(y)) return Integer.MIN_VALUE;
            return Double.compare(x == 0.0 ? 0.0 : x, y == 0.0 ? 0.0 : y);
        }
        return big(a).compareTo(big(b));
    }

    public static Object lt(Object a, Object b) { int c = cmp(a, b); return bool(c != Integer.MIN_VALUE && c < 0); }
    public static Object le(Object a, Object b) { int c = cmp(a, b); return bool(c != Integer.MIN_VALUE && c <= 0); }
    public static Object gt(Object a, Object b) { int c = cmp(a, b); return bool(c != Integer.MIN_VALUE && c > 0); }
    public static Object ge(Object a, Object b) { int c = cmp(a, b); return bool(c != Integer.MIN_VALUE && c >= 0); }

    public static boolean equal(Object a, Object b) {
        if (a == b) return !(a instanceof Double && ((Double) a).isNaN());
        if (a == null || b == null) return false;
        if (numeric(a) && numeric(b)) return cmp(a, b) == 0;
        if (a instanceof Boolean && b instanceof Boolean) return a.equals(b);
        if (numeric(a) || numeric(b) || a instanceof Boolean || b instanceof Boolean)
            throw new Undefined("type error: == between a " + kind(a) + " and a " + kind(b));
        // references: JML's == is identity; two objects rebuilt from the case's JSON values
        // say nothing about whether the method's objects were the same one
        throw new Undefined("object identity (==) of two separately built " + kind(a)
                + " values is not known from the case");
    }

    public static Object eq(Object a, Object b) { return bool(equal(a, b)); }
    public static Object ne(Object a, Object b) { return bool(!equal(a, b)); }

    // ---------------------------------------------------------------- arrays, fields
    public static Object index(Object a, Object i) {
        if (a == null) throw new Undefined("null dereference (indexing null)");
        if (!a.getClass().isArray()) throw new Undefined("type error: indexing a " + kind(a));
        BigInteger k = big(i);
        int n = Array.getLength(a);
        if (k.signum() < 0 || k.compareTo(BigInteger.valueOf(n)) >= 0)
            throw new Undefined("index " + k + " out of bounds for length " + n);
        return Array.get(a, k.intValue());
    }

    public static Object length(Object a) {
        if (a == null) throw new Undefined("null dereference (.length of null)");
        if (!a.getClass().isArray()) throw new Undefined("type error: .length of a " + kind(a));
        return Array.getLength(a);
    }

    public static Object field(Object o, String name) {
        if (o == null) throw new Undefined("null dereference (." + name + ")");
        if (o.getClass().isArray() && name.equals("length")) return Array.getLength(o);
        try {
            return o.getClass().getField(name).get(o);
        } catch (ReflectiveOperationException e) {
            throw new Undefined("no field " + name + " on " + kind(o));
        }
    }

    static final Map<String, Class<?>> CLASSES = new HashMap<>();
    static {
        Class<?>[] cs = {Math.class, StrictMath.class, Integer.class, Long.class, Short.class, Byte.class,
            Character.class, Boolean.class, Double.class, Float.class, String.class, Arrays.class,
            java.util.Objects.class, List.class, Set.class, Map.class, java.util.Collections.class,
            BigInteger.class, Collection.class, Number.class, Object.class, CharSequence.class,
            StringBuilder.class, java.util.ArrayList.class, java.util.HashSet.class, java.util.HashMap.class,
            java.util.LinkedList.class, java.util.TreeSet.class, java.util.TreeMap.class};
        for (Class<?> c : cs) {
            CLASSES.put(c.getSimpleName(), c);
            CLASSES.put(c.getName(), c);
        }
    }

    public static Object staticField(String cls, String name) {
        Class<?> c = CLASSES.get(cls);
        if (c == null) throw new Undefined("unknown class " + cls);
        try {
            return c.getField(name).get(null);
        } catch (ReflectiveOperationException e) {
            throw new Undefined("no static field " + cls + "." + name);
        }
    }

    public static Object nonnullelements(Object a) {
        if (a == null) return Boolean.FALSE;
        if (a.getClass().isArray()) {
            if (a.getClass().getComponentType().isPrimitive()) return Boolean.TRUE;
            for (Object o : (Object[]) a) if (o == null) return Boolean.FALSE;
            return Boolean.TRUE;
        }
        if (a instanceof Collection) {
            for (Object o : (Collection<?>) a) if (o == null) return Boolean.FALSE;
            return Boolean.TRUE;
        }
        throw new Undefined("type error: \\nonnullelements of a " + kind(a));
    }

    public static Object unsupported(String what) { throw new Undefined("unsupported in rac: " + what); }

    public static Object unbounded(String var) {
        throw new Undefined("quantifier variable " + var + " has no bound in the range (unboundable)");
    }

    // ---------------------------------------------------------------- casts and typed arguments
    public static Object cast(String type, Object v) {
        switch (type) {
            case "int": return BigInteger.valueOf(toInt(v));
            case "long": return BigInteger.valueOf(toLong(v));
            case "short": return BigInteger.valueOf(narrow(v, Short.MIN_VALUE, Short.MAX_VALUE, "short"));
            case "byte": return BigInteger.valueOf(narrow(v, Byte.MIN_VALUE, Byte.MAX_VALUE, "byte"));
            case "char": return toChar(v);
            case "\\bigint": return v instanceof Real ? ((Real) v).truncate() : floating(v) ? truncate(dbl(v)) : big(v);
            case "\\real": return real(v);
            case "double": return dbl(v);
            case "float": return (double) (float) dbl(v);
            case "boolean": return truth(v);
            default:
                if (v == null) return null;
                Class<?> c = CLASSES.get(type);
                if (c == null && (type.endsWith("[]") || type.contains("<"))) return v;
                if (c == null) throw new Undefined("unsupported cast to " + type);
                if (c == Integer.class) return BigInteger.valueOf(toInt(v));
                if (c == Long.class) return BigInteger.valueOf(toLong(v));
                if (c == Character.class) return toChar(v);
                if (c == Double.class) return dbl(v);
                if (!c.isInstance(v)) throw new Undefined("cast of a " + kind(v) + " to " + type + " fails");
                return v;
        }
    }

    /** (\bigint) of a double: its value truncated toward zero, exactly (a cast through long
     *  would saturate at 2^63); NaN and the infinities have no integer value. */
    static BigInteger truncate(double d) {
        if (Double.isNaN(d) || Double.isInfinite(d)) throw new Undefined("(\\bigint) of " + d);
        return new BigDecimal(d).toBigInteger();
    }

    public static Object instanceOf(Object v, String type) {
        Class<?> c = CLASSES.get(type);
        if (c == null) throw new Undefined("unsupported instanceof " + type);
        return bool(c.isInstance(v));
    }

    static long narrow(Object v, long lo, long hi, String t) {
        if (v instanceof Real) v = ((Real) v).truncate(); // a cast of a \real truncates toward zero
        if (floating(v)) {
            double d = dbl(v);
            return Math.max(lo, Math.min(hi, (long) d));
        }
        BigInteger b = big(v);
        if (b.compareTo(BigInteger.valueOf(lo)) < 0 || b.compareTo(BigInteger.valueOf(hi)) > 0)
            throw new Undefined("value " + b + " out of range for " + t);
        return b.longValue();
    }

    public static int toInt(Object v) { return (int) narrow(v, Integer.MIN_VALUE, Integer.MAX_VALUE, "int"); }
    public static long toLong(Object v) { return narrow(v, Long.MIN_VALUE, Long.MAX_VALUE, "long"); }
    public static short toShort(Object v) { return (short) narrow(v, Short.MIN_VALUE, Short.MAX_VALUE, "short"); }
    public static byte toByte(Object v) { return (byte) narrow(v, Byte.MIN_VALUE, Byte.MAX_VALUE, "byte"); }
    public static char toChar(Object v) {
        if (v instanceof Character) return (Character) v;
        return (char) narrow(v, 0, 0xFFFF, "char");
    }
    public static boolean toBool(Object v) { return truth(v); }
    public static double toDouble(Object v) { return dbl(v); }
    public static float toFloat(Object v) { return (float) dbl(v); }

    // ---------------------------------------------------------------- quantifiers
    static Object box(BigInteger k, String type) {
        switch (type) {
            case "char": return (char) k.intValue();
            case "int": case "short": case "byte": return k.intValue();
            case "long": return k.longValue();
            default: return k;
        }
    }

    static final Map<String, BigInteger[]> TYPE_RANGES = Map.of(
            "byte", new BigInteger[] {BigInteger.valueOf(Byte.MIN_VALUE), BigInteger.valueOf(Byte.MAX_VALUE)},
            "short", new BigInteger[] {BigInteger.valueOf(Short.MIN_VALUE), BigInteger.valueOf(Short.MAX_VALUE)},
            "char", new BigInteger[] {BigInteger.ZERO, BigInteger.valueOf(0xFFFF)},
            "int", new BigInteger[] {BigInteger.valueOf(Integer.MIN_VALUE), BigInteger.valueOf(Integer.MAX_VALUE)},
            "long", new BigInteger[] {BigInteger.valueOf(Long.MIN_VALUE), BigInteger.valueOf(Long.MAX_VALUE)});

    static long count(BigInteger lo, BigInteger hi) {
        BigInteger n = hi.subtract(lo).add(BigInteger.ONE);
        if (n.signum() <= 0) return 0;
        if (n.compareTo(BigInteger.valueOf(MAX_ITERATIONS)) > 0)
            throw new Undefined("quantifier range too large (" + n + " values)");
        return n.longValue();
    }

    /** Iterates the quantified variable; the body sees each value boxed as its declared type. */
    interface Visitor { boolean visit(Object v); }

    static void each(Object lo, Object hi, String type, Visitor f) {
        if (type.equals("boolean")) {
            if (f.visit(Boolean.FALSE)) f.visit(Boolean.TRUE);
            return;
        }
        BigInteger l = big(lo), h = big(hi);
        BigInteger[] range = TYPE_RANGES.get(type);
        if (range != null) {  // a byte/short/int/long/char variable only takes its type's values
            if (l.compareTo(range[0]) < 0) l = range[0];
            if (h.compareTo(range[1]) > 0) h = range[1];
        }
        long n = count(l, h);
        if (n == 0) return;
        if (l.bitLength() < 63 && h.bitLength() < 63) {
            long a = l.longValue();
            for (long k = 0; k < n; k++) {
                if (Thread.currentThread().isInterrupted()) throw new Undefined("interrupted");
                if (!f.visit(box(BigInteger.valueOf(a + k), type))) return;
            }
        } else {
            BigInteger k = l;
            for (long c = 0; c < n; c++, k = k.add(BigInteger.ONE)) if (!f.visit(box(k, type))) return;
        }
    }

    public static Object forall(Object lo, Object hi, String type, Function<Object, Object> body) {
        boolean[] r = {true};
        each(lo, hi, type, v -> { if (!truth(body.apply(v))) { r[0] = false; return false; } return true; });
        return bool(r[0]);
    }

    public static Object exists(Object lo, Object hi, String type, Function<Object, Object> body) {
        boolean[] r = {false};
        each(lo, hi, type, v -> { if (truth(body.apply(v))) { r[0] = true; return false; } return true; });
        return bool(r[0]);
    }

    public static Object sum(Object lo, Object hi, String type, Function<Object, Object> body) {
        Object[] acc = {BigInteger.ZERO};
        each(lo, hi, type, v -> { acc[0] = add(acc[0], body.apply(v)); return true; });
        return acc[0];
    }

    public static Object product(Object lo, Object hi, String type, Function<Object, Object> body) {
        Object[] acc = {BigInteger.ONE};
        each(lo, hi, type, v -> { acc[0] = mul(acc[0], body.apply(v)); return true; });
        return acc[0];
    }

    public static Object max(Object lo, Object hi, String type, Function<Object, Object> body) {
        Object[] acc = {NONE};
        each(lo, hi, type, v -> {
            Object x = body.apply(v);
            if (x != NONE && (acc[0] == NONE || cmp(x, acc[0]) > 0)) acc[0] = x;
            return true;
        });
        return acc[0];
    }

    public static Object min(Object lo, Object hi, String type, Function<Object, Object> body) {
        Object[] acc = {NONE};
        each(lo, hi, type, v -> {
            Object x = body.apply(v);
            if (x != NONE && (acc[0] == NONE || cmp(x, acc[0]) < 0)) acc[0] = x;
            return true;
        });
        return acc[0];
    }

    public static Object some(Object v, String what) {
        if (v == NONE) throw new Undefined(what + " over an empty range (left open by JML)");
        return v;
    }

    public static Object maxOf(Object a, Object b) { return cmp(a, b) >= 0 ? a : b; }
    public static Object minOf(Object a, Object b) { return cmp(a, b) <= 0 ? a : b; }

    // ---------------------------------------------------------------- method calls
    static final Set<String> IMPURE = Set.of("add", "addAll", "remove", "removeAll", "removeIf", "retainAll",
            "clear", "put", "putAll", "putIfAbsent", "set", "sort", "fill", "setLength", "append", "insert",
            "delete", "deleteCharAt", "replaceAll", "reverse", "setCharAt", "compute", "computeIfAbsent",
            "computeIfPresent", "merge", "wait", "notify", "notifyAll", "getClass", "parallelSort",
            "setAll", "parallelSetAll", "parallelPrefix", "push", "pop", "poll", "offer");

    public static Object callStatic(String cls, String name, Object... args) {
        Class<?> c = CLASSES.get(cls);
        if (c == null) throw new Undefined("unknown class " + cls);
        if (c == Math.class || c == StrictMath.class) {
            Object r = realMath(name, args);
            if (r == null) r = math(name, args);
            if (r != null) return r;
        }
        return invoke(c, null, name, args, true);
    }

    /** Math on {@code \real} arguments: abs, max, min are exact; anything else (sqrt, pow, the
     *  transcendental functions) has no exact rational value, so it is undefined with the
     *  reason rather than rounded through a double. */
    static Object realMath(String name, Object[] a) {
        boolean anyReal = false;
        for (Object o : a) anyReal |= o instanceof Real;
        if (!anyReal) return null;
        if (name.equals("abs") && a.length == 1) return real(a[0]).abs();
        if (name.equals("max") && a.length == 2) return cmp(a[0], a[1]) >= 0 ? real(a[0]) : real(a[1]);
        if (name.equals("min") && a.length == 2) return cmp(a[0], a[1]) <= 0 ? real(a[0]) : real(a[1]);
        throw new Undefined("Math." + name + " of a \\real: rac computes \\real exactly and "
                + name + " has no exact rational value");
    }

    static Object math(String name, Object[] a) {
        Object r = mathBig(name, a);
        if (!(r instanceof BigInteger)) return r;
        // floorMod(long, int) is an int (JDK 9+): the divisor's type is the result's
        return typed((BigInteger) r, name.equals("floorMod") && a.length == 2 && width(a[0]) > 0
                ? new Object[] {a[1]} : a);
    }

    /** A Math result with the Java type of its (typed) arguments: {@code spec_java_math}
     *  arithmetic on it must wrap at that type's width, as Java's value would. */
    static Object typed(BigInteger v, Object[] args) {
        int w = 32;
        for (Object o : args) { if (width(o) == 0) return v; w = Math.max(w, width(o)); }
        if (!fits(v, w)) return v;
        return w == 32 ? (Object) v.intValue() : (Object) v.longValue();
    }

    static Object mathBig(String name, Object[] a) {
        boolean allInt = true;
        for (Object o : a) allInt &= integral(o) || o instanceof Character;
        if (!allInt) return null;
        switch (name) {
            case "abs": if (a.length == 1) return abs(a[0]); break;
            case "max": if (a.length == 2) return big(a[0]).max(big(a[1])); break;
            case "min": if (a.length == 2) return big(a[0]).min(big(a[1])); break;
            case "floorMod": if (a.length == 2) {
                BigInteger d = big(a[1]);
                if (d.signum() == 0) throw new Undefined("division by zero");
                BigInteger m = big(a[0]).mod(d.abs());
                return d.signum() < 0 && m.signum() != 0 ? m.add(d) : m;
            } break;
            case "floorDiv": if (a.length == 2) {
                BigInteger d = big(a[1]);
                if (d.signum() == 0) throw new Undefined("division by zero");
                BigInteger[] qr = big(a[0]).divideAndRemainder(d);
                return qr[1].signum() != 0 && (qr[1].signum() != d.signum()) ? qr[0].subtract(BigInteger.ONE) : qr[0];
            } break;
            case "addExact": if (a.length == 2) return exact(big(a[0]).add(big(a[1])), a); break;
            case "subtractExact": if (a.length == 2) return exact(big(a[0]).subtract(big(a[1])), a); break;
            case "multiplyExact": if (a.length == 2) return exact(big(a[0]).multiply(big(a[1])), a); break;
            case "negateExact": if (a.length == 1) return exact(big(a[0]).negate(), a); break;
            default: return null;
        }
        return null;
    }

    static final BigInteger INT_MIN = BigInteger.valueOf(Integer.MIN_VALUE), INT_MAX = BigInteger.valueOf(Integer.MAX_VALUE);
    static final BigInteger LONG_MIN = BigInteger.valueOf(Long.MIN_VALUE), LONG_MAX = BigInteger.valueOf(Long.MAX_VALUE);

    /** The Java type of an integral value: 32 (int-typed: a parameter, a field, a constant),
     *  64 (long-typed) or 0 (computed with spec arithmetic: a \bigint whose Java type the
     *  runtime no longer knows). */
    static int width(Object o) {
        if (o instanceof Integer || o instanceof Short || o instanceof Byte || o instanceof Character) return 32;
        if (o instanceof Long) return 64;
        return 0;
    }

    static boolean fits(BigInteger v, int bits) {
        return bits == 32 ? v.compareTo(INT_MIN) >= 0 && v.compareTo(INT_MAX) <= 0
                : v.compareTo(LONG_MIN) >= 0 && v.compareTo(LONG_MAX) <= 0;
    }

    /** Math.abs as OpenJML's Math spec (specs/java/lang/Math.jml) gives it: Java's value, so
     *  abs(Integer.MIN_VALUE) is Integer.MIN_VALUE. A \bigint argument at a MIN_VALUE is
     *  undefined (the overload, hence the value, depends on a Java type the runtime lost). */
    static Object abs(Object x) {
        BigInteger v = big(x);
        int w = width(x);
        if (w == 32 && v.equals(INT_MIN)) return v;
        if (w == 64 && v.equals(LONG_MIN)) return v;
        if (w == 0 && (v.equals(INT_MIN) || v.compareTo(LONG_MIN) <= 0))
            throw new Undefined("Math.abs(" + v + "): the value depends on the argument's Java type");
        return v.abs();
    }

    /** *Exact methods throw on overflow of their Java type (undefined in a spec). */
    static Object exact(BigInteger r, Object[] args) {
        int w = 0;
        boolean computed = false;
        for (Object o : args) { w = Math.max(w, width(o)); computed |= width(o) == 0; }
        if (!computed) {
            if (!fits(r, w)) throw new Undefined((w == 32 ? "int" : "long") + " overflow in an *Exact method");
            return r;
        }
        if (fits(r, 32)) return r; // no overload overflows
        throw new Undefined("*Exact result " + r + " depends on the arguments' Java types");
    }

    public static Object call(Object target, String name, Object... args) {
        if (target == null) throw new Undefined("null dereference (calling " + name + ")");
        if (target.getClass().isArray()) {
            if (name.equals("clone") && args.length == 0) {
                int n = Array.getLength(target);
                Object c = Array.newInstance(target.getClass().getComponentType(), n);
                System.arraycopy(target, 0, c, 0, n);
                return c;
            }
            if (name.equals("equals") && args.length == 1) return bool(target == args[0]);
            throw new Undefined("arrays have no method " + name);
        }
        if (target instanceof Real) throw new Undefined("method " + name + " called on a \\real");
        if (integral(target) && !(target instanceof BigInteger)) target = big(target);
        return invoke(target.getClass(), target, name, args, false);
    }

    static final class Pick { Method m; Object[] conv; int score = Integer.MAX_VALUE; }

    static Object invoke(Class<?> c, Object target, String name, Object[] args, boolean statics) {
        if (IMPURE.contains(name)) throw new Undefined("call of non-pure method " + name);
        for (Object o : args)
            if (o instanceof Real) throw new Undefined("a \\real passed to " + c.getSimpleName() + "." + name
                    + " (Java has no \\real type)");
        Method[] ms = c.getMethods();
        Arrays.sort(ms, Comparator.comparing(Method::toString));
        Pick best = new Pick();
        for (Method m : ms) {
            if (!m.getName().equals(name) || m.getParameterCount() != args.length) continue;
            if (statics != Modifier.isStatic(m.getModifiers())) continue;
            Class<?>[] ps = m.getParameterTypes();
            Object[] conv = new Object[args.length];
            int score = 0;
            boolean ok = true;
            for (int k = 0; k < args.length && ok; k++) {
                Object[] out = new Object[1];
                int s = convert(args[k], ps[k], out, target);
                if (s < 0) ok = false;
                else { score += s; conv[k] = out[0]; }
            }
            if (ok && score < best.score) { best.m = m; best.conv = conv; best.score = score; }
        }
        if (best.m == null)
            throw new Undefined("no method " + name + " with " + args.length + " argument(s) on " + c.getSimpleName());
        Method m = publicVersion(best.m);
        try {
            return m.invoke(target, best.conv);
        } catch (java.lang.reflect.InvocationTargetException e) {
            Throwable t = e.getCause();
            if (t instanceof RuntimeException) throw (RuntimeException) t;
            if (t instanceof Error) throw (Error) t;
            throw new Undefined(name + " threw " + t);
        } catch (IllegalAccessException e) {
            throw new Undefined("cannot call " + name + ": " + e.getMessage());
        }
    }

    static Method publicVersion(Method m) {
        if (Modifier.isPublic(m.getDeclaringClass().getModifiers())) return m;
        for (Class<?> k = m.getDeclaringClass(); k != null; k = k.getSuperclass()) {
            List<Class<?>> todo = new ArrayList<>(Arrays.asList(k.getInterfaces()));
            todo.add(k);
            while (!todo.isEmpty()) {
                Class<?> i = todo.remove(todo.size() - 1);
                if (Modifier.isPublic(i.getModifiers())) {
                    try { return i.getMethod(m.getName(), m.getParameterTypes()); } catch (NoSuchMethodException e) { /* next */ }
                }
                todo.addAll(Arrays.asList(i.getInterfaces()));
            }
        }
        return m;
    }

    /** Converts a JML value to a Java parameter type; returns a cost, or -1 when impossible. */
    static int convert(Object v, Class<?> p, Object[] out, Object target) {
        if (p.isPrimitive()) {
            if (v == null) return -1;
            try {
                if (p == int.class) {
                    if (v instanceof Integer) { out[0] = v; return 0; }
                    if (v instanceof Character) { out[0] = (int) (Character) v; return 3; }
                    if (integral(v)) { out[0] = toInt(v); return v instanceof Long ? 4 : 1; }
                } else if (p == long.class) {
                    if (v instanceof Long) { out[0] = v; return 0; }
                    if (v instanceof Character) { out[0] = (long) (Character) v; return 4; }
                    if (integral(v)) { out[0] = toLong(v); return 2; }
                } else if (p == char.class) {
                    if (v instanceof Character) { out[0] = v; return 0; }
                    if (integral(v)) { out[0] = toChar(v); return 6; }
                } else if (p == double.class) {
                    if (v instanceof Double) { out[0] = v; return 0; }
                    if (numeric(v)) { out[0] = dbl(v); return 5; }
                } else if (p == float.class) {
                    if (v instanceof Float) { out[0] = v; return 0; }
                    if (numeric(v)) { out[0] = (float) dbl(v); return 7; }
                } else if (p == boolean.class) {
                    if (v instanceof Boolean) { out[0] = v; return 0; }
                } else if (p == short.class) {
                    if (integral(v)) { out[0] = toShort(v); return 8; }
                } else if (p == byte.class) {
                    if (integral(v)) { out[0] = toByte(v); return 9; }
                }
            } catch (Undefined e) {
                return -1;
            }
            return -1;
        }
        if (v == null) { out[0] = null; return 1; }
        if (v instanceof BigInteger && !p.isAssignableFrom(BigInteger.class)) return -1;
        if (v instanceof BigInteger && (p == Object.class || p == Number.class || p == Comparable.class)) {
            Object elem = sampleElement(target);
            BigInteger b = (BigInteger) v;
            if (elem instanceof Long) { out[0] = toLong(b); return 2; }
            if (elem instanceof Character) { out[0] = toChar(b); return 2; }
            out[0] = b.bitLength() < 32 ? (Object) b.intValue() : (b.bitLength() < 64 ? (Object) b.longValue() : b);
            return 2;
        }
        if (p.isInstance(v)) { out[0] = v; return v.getClass() == p ? 0 : 1; }
        return -1;
    }

    static Object sampleElement(Object target) {
        if (target instanceof Collection && !((Collection<?>) target).isEmpty()) return ((Collection<?>) target).iterator().next();
        if (target instanceof Map && !((Map<?, ?>) target).isEmpty()) return ((Map<?, ?>) target).keySet().iterator().next();
        return null;
    }
}
