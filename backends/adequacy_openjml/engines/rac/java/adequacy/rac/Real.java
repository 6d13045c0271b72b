package adequacy.rac;

import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * A JML {@code \real}: an exact rational, always normalised (denominator positive, gcd 1), so
 * {@code equals} is value equality. Why not {@code double} or {@code BigDecimal}: JML's
 * {@code \real} is the mathematical reals (JML RM 12.1), so {@code 2^53} and {@code 2^53 + 1}
 * differ and {@code 1/3 * 3 == 1}; a double rounds the first away and a BigDecimal cannot hold
 * {@code 1/3}. Only the operations JML defines on {@code \real} and that stay rational are here
 * ({@code + - * / %}, negation, comparison, truncation to {@code \bigint}); anything else
 * (square roots, rounding to a double) is left to the caller to refuse as undefined.
 */
public final class Real extends Number implements Comparable<Real> {
    private static final long serialVersionUID = 1L;
    static final Real ZERO = new Real(BigInteger.ZERO, BigInteger.ONE);
    /** Bound on the bits of a numerator or denominator: a spec cannot make the worker spend
     *  unbounded memory in a quantifier that keeps multiplying reals. */
    static final int MAX_BITS = 1 << 16;

    final BigInteger num;
    final BigInteger den;

    private Real(BigInteger num, BigInteger den) {
        this.num = num;
        this.den = den;
    }

    static Real of(BigInteger n) { return new Real(n, BigInteger.ONE); }

    static Real of(BigInteger n, BigInteger d) {
        if (d.signum() == 0) throw new R.Undefined("division by zero (\\real)");
        if (d.signum() < 0) { n = n.negate(); d = d.negate(); }
        BigInteger g = n.gcd(d);
        if (!g.equals(BigInteger.ONE) && g.signum() != 0) { n = n.divide(g); d = d.divide(g); }
        if (n.signum() == 0) d = BigInteger.ONE;
        if (n.bitLength() > MAX_BITS || d.bitLength() > MAX_BITS)
            throw new R.Undefined("\\real value too large to compute (more than " + MAX_BITS + " bits)");
        return new Real(n, d);
    }

    /** The exact value of a finite double (every finite double is a dyadic rational). */
    static Real exact(double d) {
        BigDecimal b = new BigDecimal(d);
        BigInteger unscaled = b.unscaledValue();
        int scale = b.scale();
        return scale >= 0 ? of(unscaled, BigInteger.TEN.pow(scale))
                : of(unscaled.multiply(BigInteger.TEN.pow(-scale)));
    }

    Real add(Real o) { return of(num.multiply(o.den).add(o.num.multiply(den)), den.multiply(o.den)); }
    Real sub(Real o) { return of(num.multiply(o.den).subtract(o.num.multiply(den)), den.multiply(o.den)); }
    Real mul(Real o) { return of(num.multiply(o.num), den.multiply(o.den)); }
    Real div(Real o) {
        if (o.num.signum() == 0) throw new R.Undefined("division by zero (\\real)");
        return of(num.multiply(o.den), den.multiply(o.num));
    }
    /** Toward zero, as {@code (\bigint) r} is (OpenJML tutorial, "\real" type). */
    BigInteger truncate() { return num.divide(den); }

    /** {@code j % k}: the sign of j, with {@code ((\bigint) (j / k)) * k + j % k == j}. */
    Real rem(Real o) {
        if (o.num.signum() == 0) throw new R.Undefined("division by zero (\\real %)");
        return sub(of(div(o).truncate()).mul(o));
    }

    Real neg() { return new Real(num.negate(), den); }
    Real abs() { return num.signum() < 0 ? neg() : this; }
    int signum() { return num.signum(); }

    @Override public int compareTo(Real o) { return num.multiply(o.den).compareTo(o.num.multiply(den)); }
    @Override public boolean equals(Object o) {
        return o instanceof Real && ((Real) o).num.equals(num) && ((Real) o).den.equals(den);
    }
    @Override public int hashCode() { return num.hashCode() * 31 + den.hashCode(); }
    @Override public String toString() { return den.equals(BigInteger.ONE) ? num.toString() : num + "/" + den; }

    // Number: a \real is never silently rounded to a Java type (the runtime refuses first);
    // these exist only because Number requires them.
    @Override public int intValue() { throw refuse("int"); }
    @Override public long longValue() { throw refuse("long"); }
    @Override public float floatValue() { throw refuse("float"); }
    @Override public double doubleValue() { throw refuse("double"); }

    static R.Undefined refuse(String type) {
        return new R.Undefined("a \\real used as a " + type + ": rac keeps \\real values exact and "
                + "does not round them to Java types");
    }
}
