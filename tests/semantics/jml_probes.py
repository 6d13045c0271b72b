"""Hand-checked JML semantics probes: each case's truth worked out from the cited source.

A probe is one spec on a small method and a few cases. ``truth`` is what JML (OpenJML, the
reference) says: ``True``/``False``, or ``None`` when the value is not determined by the case
(undefined, or depends on something the case does not record): an engine must then say
unknown. ``invalid`` probes must be rejected by the front end. ``rac_gap`` marks probes that
the rac engine may leave unknown (it is not asked to decide them).

Sources: JML Reference Manual (Leavens et al., draft 2024, "RM" + section), OpenJML's sources
(github.com/OpenJML/OpenJML: ``Options`` defaults, ``specs/java/lang/Math.jml``,
``messages`` keys), the Java Language Specification ("JLS" + section).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

INT_MIN, INT_MAX = -(2**31), 2**31 - 1


@dataclass
class Method:
    code: str
    inputs: dict[str, str]
    outputs: dict[str, str]
    post_state: list[str] = field(default_factory=list)
    static: bool = True
    before: str = "    public static"
    """Text the spec is put in front of."""


INT1 = Method("public class Solution {\n    public static int solve(int x) {\n"
              "        return x;\n    }\n}\n", {"x": "i32"}, {"result": "i32"})
LONG1 = Method("public class Solution {\n    public static long solve(int x) {\n"
               "        return x;\n    }\n}\n", {"x": "i32"}, {"result": "i64"})
ARR = Method("public class Solution {\n    public static int solve(int[] a) {\n"
             "        return a.length;\n    }\n}\n", {"a": "array<i32>"}, {"result": "i32"})
ARR_NULLABLE = Method("public class Solution {\n    public static int solve(/*@ nullable @*/ "
                      "int[] a) {\n        return 0;\n    }\n}\n",
                      {"a": "array<i32>"}, {"result": "i32"})
STR = Method("public class Solution {\n    public static String solve(String s) {\n"
             "        return s;\n    }\n}\n",
             {"s": "nullable<string>"}, {"result": "nullable<string>"})
STR_NULLABLE_RESULT = Method(
    "public class Solution {\n    public static /*@ nullable @*/ String solve(String s) {\n"
    "        return null;\n    }\n}\n", {"s": "string"}, {"result": "nullable<string>"})
STR_CLASS_NULLABLE = Method(
    "/*@ nullable_by_default @*/ public class Solution {\n"
    "    public static int solve(String s) {\n        return 0;\n    }\n}\n",
    {"s": "nullable<string>"}, {"result": "i32"})
CHAR = Method("public class Solution {\n    public static char solve(String s) {\n"
              "        return s.charAt(s.length() - 1);\n    }\n}\n",
              {"s": "string"}, {"result": "char"})
VOID_ARR = Method("public class Solution {\n    public static void solve(int[] a) {\n"
                  "        a[0] = 0;\n    }\n}\n", {"a": "array<i32>"}, {"a": "array<i32>"},
                  post_state=["a"])
INSTANCE = Method("public class Solution {\n    int base = 10;\n\n    public int solve(int x) {\n"
                  "        base = 0;\n        return x + 10;\n    }\n}\n",
                  {"x": "i32"}, {"result": "i32"}, static=False, before="    public int")
SPEC_JAVA_MATH = Method("public class Solution {\n    public static /*@ spec_java_math @*/ "
                        "int solve(int x) {\n        return x + 1;\n    }\n}\n",
                        {"x": "i32"}, {"result": "i32"})
LONG_ID = Method("public class Solution {\n    public static long solve(long x) {\n"
                 "        return x;\n    }\n}\n", {"x": "i64"}, {"result": "i64"})
SPEC_SAFE_MATH = Method("public class Solution {\n    public static /*@ spec_safe_math @*/ "
                        "int solve(int x) {\n        return x + 1;\n    }\n}\n",
                        {"x": "i32"}, {"result": "i32"})
JAVA_MATH_LONG = Method("public class Solution {\n    public static /*@ spec_java_math @*/ "
                        "long solve(int x) {\n        return x + 1L;\n    }\n}\n",
                        {"x": "i32"}, {"result": "i64"})
CLASS_JAVA_MATH = Method("/*@ spec_java_math @*/ public class Solution {\n"
                         "    public static int solve(int x) {\n        return x * 2;\n    }\n}\n",
                         {"x": "i32"}, {"result": "i32"})
CLASS_JAVA_METHOD_BIGINT = Method(
    "/*@ spec_java_math @*/ public class Solution {\n    public static /*@ spec_bigint_math @*/ "
    "int solve(int x) {\n        return x + 1;\n    }\n}\n", {"x": "i32"}, {"result": "i32"})
CODE_JAVA_MATH = Method("public class Solution {\n    public static /*@ code_java_math @*/ "
                        "int solve(int x) {\n        return x + 1;\n    }\n}\n",
                        {"x": "i32"}, {"result": "i32"})
HELPER_CODE_BIGINT = Method(
    "public class Solution {\n    static /*@ pure code_bigint_math @*/ int inc(int y) {\n"
    "        return y + 1;\n    }\n\n    public static int solve(int x) {\n"
    "        return inc(x);\n    }\n}\n", {"x": "i32"}, {"result": "i32"})
SPEC_BIGINT_MATH = Method("public class Solution {\n    public static /*@ spec_bigint_math @*/ "
                          "int solve(int x) {\n        return x + 1;\n    }\n}\n",
                          {"x": "i32"}, {"result": "i32"})


@dataclass
class Probe:
    id: str
    method: Method
    spec: str
    cases: list[tuple[str, dict[str, object], dict[str, object] | None, bool | None]]
    """(``pre`` or ``post``, input, output, truth)."""
    source: str
    invalid: bool = False
    rac_gap: bool = False


def pre(inp: dict[str, object], truth: bool | None) -> tuple[str, dict[str, object], None,
                                                            bool | None]:
    return ("pre", inp, None, truth)


def post(inp: dict[str, object], out: dict[str, object] | object,
         truth: bool | None) -> tuple[str, dict[str, object], dict[str, object], bool | None]:
    o = out if isinstance(out, dict) else {"result": out}
    return ("post", inp, o, truth)


NNB = "RM 2.8 (non_null is the default for parameters and results); OpenJML Options: " \
      "--nullable-by-default defaults to false"
EXC = "RM 9.5 (exceptional_behavior: the spec case has an implicit `ensures false`; " \
      "normal_behavior an implicit `signals (Exception) false`)"
FRAME = "RM 9.9.9 (assignable: locations not in the frame keep their pre-state values)"
OLD = "RM 12.4.2 (\\old(e): e evaluated in the pre-state; a reference's contents are read " \
      "where it is dereferenced)"
LIT = "JLS 3.10.1 (hex, octal and binary int literals are two's-complement bit patterns; " \
      "underscores are ignored)"
REAL = "JML RM 19.2 (\\real: arithmetic without precision limits); OpenJML tutorial " \
       "type-real (\\real is the mathematical reals; integral values and \\bigint convert " \
       "to it implicitly, so the other operand of a \\real operation is lifted exactly)"
REAL_OPS = "OpenJML tutorial \"JML's \\real built-in mathematical real type\" " \
           "(openjml.org/tutorial/type-real: j / k is real division, k must not be 0; " \
           "((\\bigint) (j / k)) * k + j % k == j; (\\bigint) j truncates toward zero)"
LONG_MAX = 2**63 - 1
MODES = "OpenJML tutorial Arithmetic Modes (openjml.org/tutorial/ArithmeticModes): Java mode " \
        "wraps silently, safe mode has Java's values but an overflow is a verification error, " \
        "math mode is unbounded; specs default to math mode; modifiers spec_java_math, " \
        "spec_safe_math, spec_bigint_math on a method or class (OpenJML Arithmetic." \
        "defaultArithmeticMode: the method's modifier, else the enclosing class's)"
SAFE = MODES + "; an overflow in a spec is an ArithmeticOperationRange error (OpenJML " \
       "Arithmetic.Safe), the spec undefined there, like a division by zero: unknown"
MATH = "OpenJML specs/java/lang/Math.jml (abs(int) returns Integer.MIN_VALUE for it, as the " \
       "JDK does); RM 12.1 (spec arithmetic is \\bigint by default, OpenJML Options spec math)"

PROBES: list[Probe] = [
    # ---- non-null by default
    Probe("nonnull-array-length", ARR, "//@ requires a.length > 0;",
          [pre({"a": None}, False), pre({"a": [1]}, True), pre({"a": []}, False)], NNB),
    Probe("nonnull-string-param", STR, "//@ requires true;",
          [pre({"s": None}, False), pre({"s": "x"}, True)], NNB),
    Probe("nonnull-result", STR, "//@ ensures true;",
          [post({"s": "a"}, None, False), post({"s": "a"}, "a", True)], NNB),
    Probe("nullable-param", ARR_NULLABLE, "//@ requires a == null || a.length > 0;",
          [pre({"a": None}, True), pre({"a": []}, False)], NNB + "; RM 7.1.1.1 nullable"),
    Probe("nullable-param-undefined", ARR_NULLABLE, "//@ requires a.length > 0;",
          [pre({"a": None}, None), pre({"a": [2]}, True)],
          "RM 12.3 (a.length of null is undefined); the parameter is nullable"),
    Probe("nullable-result", STR_NULLABLE_RESULT, "//@ ensures true;",
          [post({"s": "a"}, None, True)], NNB + "; RM 7.1.1.1 nullable"),
    Probe("nullable-by-default-class", STR_CLASS_NULLABLE, "//@ requires true;",
          [pre({"s": None}, True)], "RM 7.1.1.2 nullable_by_default"),
    # ---- exceptional behavior
    Probe("exceptional-case-forbids-return", INT1,
          "/*@ public normal_behavior\n  @ requires x >= 0;\n  @ ensures \\result == x;\n"
          "  @ also public exceptional_behavior\n  @ requires x < 0;\n"
          "  @ signals (IllegalArgumentException e) true;\n  @*/",
          [post({"x": -1}, 99, False), post({"x": 3}, 3, True), pre({"x": -1}, True)], EXC),
    Probe("exceptional-only", INT1,
          "/*@ public exceptional_behavior\n  @ requires x < 0;\n"
          "  @ signals_only IllegalArgumentException;\n  @*/",
          [post({"x": -1}, 0, False), pre({"x": 5}, False), pre({"x": -5}, True)], EXC),
    Probe("behavior-with-signals", INT1,
          "/*@ public behavior\n  @ requires true;\n  @ ensures \\result == x;\n"
          "  @ signals (Exception e) false;\n  @*/",
          [post({"x": 1}, 1, True), post({"x": 1}, 2, False)],
          "RM 9.6 (behavior: ensures constrain normal termination)"),
    # ---- casts and literals
    Probe("bigint-cast", INT1, "//@ ensures \\result == (\\bigint) x * x;",
          [post({"x": 46341}, -2147479015, False), post({"x": 3}, 9, True)],
          "RM 12.1 (\\bigint: mathematical integers); 46341*46341 = 2147488281 > INT_MAX"),
    Probe("real-cast", INT1, "//@ ensures (\\real) x / 2 == 1.5;",
          [post({"x": 3}, 0, True), post({"x": 4}, 0, False)],
          "RM 12.1 (\\real: real division; 3/2 = 1.5 exactly)"),
    Probe("hex-literal", INT1, "//@ ensures \\result == 0xFFFFFFFF;",
          [post({"x": 0}, -1, True), post({"x": 0}, 1, False)], LIT),
    Probe("octal-literal", INT1, "//@ ensures \\result == 017;",
          [post({"x": 0}, 15, True), post({"x": 0}, 17, False)], LIT),
    Probe("binary-underscore-literal", INT1, "//@ ensures \\result == 0b1010 + 1_000;",
          [post({"x": 0}, 1010, True), post({"x": 0}, 1011, False)], LIT),
    Probe("long-hex-literal", LONG1, "//@ ensures \\result == 0xFFFFFFFFL;",
          [post({"x": 0}, 4294967295, True), post({"x": 0}, -1, False)],
          LIT + " (with L: 64 bits, so 0xFFFFFFFFL is 4294967295)"),
    # ---- arithmetic
    Probe("math-abs-min", INT1, "//@ ensures \\result == Math.abs(x);",
          [post({"x": INT_MIN}, INT_MIN, True), post({"x": -5}, 5, True),
           post({"x": -5}, -5, False)], MATH),
    Probe("division-truncates", INT1, "//@ ensures \\result == x / 2;",
          [post({"x": -7}, -3, True), post({"x": -7}, -4, False)],
          "JLS 15.17.2 (integer division rounds toward zero); RM 12.1"),
    Probe("remainder-sign", INT1, "//@ ensures \\result == x % 3;",
          [post({"x": -7}, -1, True), post({"x": -7}, 2, False)],
          "JLS 15.17.3 (the remainder takes the dividend's sign)"),
    Probe("bigint-spec-math", INT1, "//@ ensures \\result == x + 1;",
          [post({"x": INT_MAX}, INT_MIN, False), post({"x": 1}, 2, True)],
          "RM 12.1 / OpenJML default spec math bigint: x + 1 does not wrap"),
    Probe("spec-java-math", SPEC_JAVA_MATH, "//@ ensures \\result == x + 1;",
          [post({"x": INT_MAX}, INT_MIN, True), post({"x": 1}, 2, True),
           post({"x": 1}, 3, False)],
          MODES + " (java: INT_MAX + 1 wraps to INT_MIN)"),
    Probe("spec-safe-math-overflow", SPEC_SAFE_MATH, "//@ ensures \\result == x + 1;",
          [post({"x": INT_MAX}, INT_MIN, None), post({"x": 1}, 2, True),
           post({"x": 1}, 3, False)], SAFE),
    Probe("spec-safe-math-neg", SPEC_SAFE_MATH, "//@ requires -x < 0;",
          [pre({"x": INT_MIN}, None), pre({"x": 5}, True), pre({"x": -5}, False)],
          SAFE + " (-INT_MIN overflows int: OpenJML Arithmetic.Safe.rewriteUnary)"),
    Probe("spec-java-math-long-literal", JAVA_MATH_LONG, "//@ ensures \\result == x + 1L;",
          [post({"x": INT_MAX}, 2**31, True), post({"x": INT_MAX}, INT_MIN, False)],
          MODES + "; JLS 5.6.2 (int + long is long: no int wrap-around)"),
    Probe("spec-java-math-class", CLASS_JAVA_MATH, "//@ ensures \\result == x * 2;",
          [post({"x": 2**30}, INT_MIN, True), post({"x": 2**30}, 0, False)],
          MODES + " (the class's modifier applies to its methods' specs)"),
    Probe("spec-math-method-over-class", CLASS_JAVA_METHOD_BIGINT,
          "//@ ensures \\result == x + 1;",
          [post({"x": INT_MAX}, INT_MIN, False), post({"x": 1}, 2, True)],
          MODES + " (the method's spec_bigint_math wins over the class's spec_java_math)"),
    Probe("java-math-function", INT1, "//@ ensures \\result == \\java_math(x + 1);",
          [post({"x": INT_MAX}, INT_MIN, True), post({"x": INT_MAX}, INT_MAX, False)],
          MODES + " (\\java_math(e) computes e in Java mode)"),
    Probe("java-math-cast-wraps", SPEC_JAVA_MATH, "//@ ensures (int) (x + 1L) == \\result;",
          [post({"x": INT_MAX}, INT_MIN, True), post({"x": 1}, 2, True),
           post({"x": 1}, 3, False)],
          MODES + "; JLS 5.1.3 (narrowing long to int keeps the low 32 bits)"),
    Probe("java-math-conditional-promotes", SPEC_JAVA_MATH,
          "//@ ensures \\result == (x > 0 ? x : 0L) + 1;",
          [post({"x": INT_MAX}, INT_MIN, False), post({"x": 1}, 2, True)],
          MODES + "; JLS 15.25 (an int and a long branch make the conditional a long, so "
          "INT_MAX + 1 is 2^31, not INT_MIN)"),
    Probe("java-math-empty-sum", SPEC_JAVA_MATH,
          "//@ ensures \\result == (\\sum int i; 0 <= i && i < 0; i) + x + 1;",
          [post({"x": INT_MAX}, INT_MIN, True), post({"x": INT_MAX}, 0, False)],
          MODES + "; RM 12.5.2 (\\sum has its body's type, here int: the empty sum is the "
          "int 0, and 0 + INT_MAX + 1 wraps)"),
    Probe("java-math-num-of-long", SPEC_JAVA_MATH,
          "//@ ensures \\result == (\\num_of int i; 0 <= i && i < 1; true) + x;",
          [post({"x": INT_MAX}, INT_MIN, False), post({"x": 1}, 2, True)],
          MODES + "; RM 12.5.2 / OpenJML JmlAttr (\\num_of is a long: 1 + INT_MAX does not "
          "wrap at int)"),
    Probe("code-java-math-spec-bigint", CODE_JAVA_MATH, "//@ ensures \\result == x + 1;",
          [post({"x": INT_MAX}, INT_MIN, False), post({"x": 1}, 2, True)],
          MODES + " (code_java_math is the Java code's mode; the spec stays bigint)"),
    Probe("code-bigint-math-helper", HELPER_CODE_BIGINT, "//@ ensures \\result == inc(x);",
          [post({"x": INT_MAX}, INT_MIN, True), post({"x": INT_MAX}, 0, False)],
          MODES + " (\"code_bigint_math is not an operational mode at present\": the helper "
          "runs as Java, inc(INT_MAX) = INT_MIN)"),
    Probe("spec-bigint-math", SPEC_BIGINT_MATH, "//@ ensures \\result == x + 1;",
          [post({"x": INT_MAX}, INT_MIN, False)], MODES + " (math mode: mathematical +)"),
    Probe("bigint-division-truncates", INT1, "//@ ensures (\\bigint) x / 2 == \\result;",
          [post({"x": -7}, -3, True), post({"x": -7}, -4, False)],
          "OpenJML tutorial \"JML's \\bigint built-in integer type\" (openjml.org/tutorial/"
          "type-bigint: j / k truncates toward zero, k must not be 0); JML RM 19.1 (\\bigint: "
          "no wrap-around)"),
    # ---- \real: exact, never through double
    Probe("real-2pow53", LONG_ID, "//@ ensures (\\real) x == (\\real) \\result;",
          [post({"x": 2**53}, 2**53 + 1, False), post({"x": 2**53}, 2**53, True)],
          REAL + "; 2^53 + 1 and 2^53 are different reals (as doubles both are 2^53)"),
    Probe("double-2pow53", LONG_ID, "//@ ensures (double) x == (double) \\result;",
          [post({"x": 2**53}, 2**53 + 1, True), post({"x": 2**53}, 2**53 + 2, False)],
          "JLS 5.1.2 (long to double rounds to nearest, ties to even: 2^53 + 1 -> 2^53)"),
    Probe("real-third", INT1, "//@ ensures (\\real) \\result / 3 * 3 == \\result "
          "&& (\\real) \\result / 10 * 3 == (\\real) 3 / 10;",
          [post({"x": 0}, 1, True), post({"x": 0}, 2, False)],
          REAL + "; 1/3*3 = 1 and 1/10*3 = 3/10 exactly (as doubles 0.1*3 != 0.3)"),
    Probe("real-of-long", LONG_ID, "//@ ensures (\\real) \\result - (\\real) x == 1;",
          [post({"x": 2**62}, 2**62 + 1, True), post({"x": 2**62}, 2**62, False)],
          REAL + " ((\\real) of a long is exact: 2^62 + 1 - 2^62 = 1)"),
    Probe("real-integer-promotion", LONG_ID,
          "//@ ensures (\\real) x + 1 > x && \\result > (\\real) x / 2;",
          [post({"x": LONG_MAX}, LONG_MAX, True), post({"x": 3}, 1, False),
           post({"x": 3}, 2, True)],
          REAL + "; JLS 5.6.2 / RM 12.1 (x and \\result are promoted to \\real: "
          "LONG_MAX + 1 > LONG_MAX, 1 > 3/2 is false)"),
    Probe("real-of-double-inexact", INT1, "//@ ensures (\\real) 0.1 * 10 == 1;",
          [post({"x": 0}, 0, None)],
          REAL + "; JLS 3.10.2 (the double 0.1 is 3602879701896397 / 2^55, not 1/10): whether "
          "(\\real) 0.1 means the decimal or the double is not settled by RM 12.1 (OpenJML's "
          "prover reads doubles as reals), so the truth is not determined"),
    Probe("real-remainder", LONG_ID,
          "//@ ensures ((\\real) x + (\\real) 1 / 2) % 1 == (\\real) 1 / 2;",
          [post({"x": 2**53}, 0, True), post({"x": -(2**53)}, 0, False)],
          REAL_OPS + " (j % k has j's sign: (2^53 + 1/2) % 1 = 1/2, (-2^53 + 1/2) % 1 = "
          "-1/2; as doubles 2^53 + 1/2 rounds to 2^53)"),
    Probe("real-truncates", LONG_ID, "//@ ensures (\\bigint) ((\\real) x / 2) == \\result;",
          [post({"x": -(2**54 + 3)}, -(2**53 + 1), True),
           post({"x": -(2**54 + 3)}, -(2**53 + 2), False)],
          REAL_OPS + " ((\\bigint) of a \\real truncates toward zero: -(2^54 + 3)/2 -> "
          "-(2^53 + 1); as a double -(2^54 + 3) is -(2^54 + 4))"),
    Probe("real-transcendental", INT1, "//@ ensures Math.sqrt((\\real) x) == 2;",
          [post({"x": 4}, 0, None)],
          REAL + " (JML defines + - * / on \\real; Math.sqrt is a Java method on double, so "
          "no exact \\real value is defined)"),
    Probe("real-division-by-zero", INT1, "//@ ensures (\\real) x / 0 == 0;",
          [post({"x": 1}, 0, None)],
          REAL_OPS + "; RM 12.3 (an expression outside its operator's domain is undefined; "
          "OpenJML reports UndefinedDivideByZero)"),
    # ---- frames and \old
    Probe("assignable-element", VOID_ARR, "//@ assignable a[0];\n    //@ ensures a[0] == 0;",
          [post({"a": [5, 6]}, {"a": [0, 6]}, True), post({"a": [5, 6]}, {"a": [0, 7]}, False)],
          FRAME),
    Probe("assignable-nothing", VOID_ARR, "//@ assignable \\nothing;\n    //@ ensures true;",
          [post({"a": [1]}, {"a": [2]}, False), post({"a": [1]}, {"a": [1]}, True)], FRAME),
    Probe("assignable-range", VOID_ARR, "//@ assignable a[1..2];\n    //@ ensures true;",
          [post({"a": [1, 2, 3, 4]}, {"a": [1, 9, 9, 4]}, True),
           post({"a": [1, 2, 3, 4]}, {"a": [9, 2, 3, 4]}, False)], FRAME),
    Probe("assignable-all-elements", VOID_ARR, "//@ assignable a[*];\n    //@ ensures true;",
          [post({"a": [1, 2]}, {"a": [7, 8]}, True)], FRAME),
    Probe("old-reference-contents", VOID_ARR, "//@ ensures \\old(a)[0] == 0;",
          [post({"a": [5]}, {"a": [0]}, True), post({"a": [5]}, {"a": [5]}, False)], OLD),
    Probe("old-of-element", VOID_ARR, "//@ ensures \\old(a[0]) == 5;",
          [post({"a": [5]}, {"a": [0]}, True), post({"a": [4]}, {"a": [0]}, False)], OLD),
    Probe("old-clause", INT1, "/*@ public normal_behavior\n  @ old int y = x + 1;\n"
          "  @ ensures \\result == y;\n  @*/",
          [post({"x": 1}, 2, True), post({"x": 1}, 3, False)],
          "RM 9.9.2 (old clause: y is x + 1 in the pre-state)"),
    # ---- what a case's values cannot tell
    Probe("string-identity", STR, "//@ ensures \\result == s;",
          [post({"s": "ab"}, "ab", None), post({"s": "ab"}, None, False)],
          "RM 12.? (== on references is identity); JSON copies carry no identity; a null "
          "result fails the implicit non-null postcondition"),
    Probe("string-equals", STR, "//@ ensures \\result.equals(s);",
          [post({"s": "ab"}, "ab", True), post({"s": "ab"}, "ba", False)],
          "java.lang.String.equals (pure, by content)"),
    Probe("instance-field-after-call", INSTANCE, "//@ ensures \\result == x + base;",
          [post({"x": 1}, 11, None)],
          "RM 12.4 (a field in ensures is read in the post-state, which the case lacks)"),
    Probe("instance-field-old", INSTANCE, "//@ ensures \\result == x + \\old(base);",
          [post({"x": 1}, 11, True), post({"x": 1}, 1, False)],
          "RM 12.4.2 (\\old(base): the fresh object's initial value 10)"),
    # ---- quantifiers
    Probe("byte-quantifier", INT1, "//@ ensures \\result == (\\num_of byte b; b >= 100; true);",
          [post({"x": 0}, 28, True), post({"x": 0}, 29, False)],
          "RM 12.5 (a quantified byte ranges over byte values: 100..127)"),
    Probe("short-quantifier", INT1,
          "//@ ensures \\result == (\\num_of short v; v > 32760; true);",
          [post({"x": 0}, 7, True), post({"x": 0}, 8, False)],
          "RM 12.5 (short values: 32761..32767)"),
    Probe("max-empty-range", ARR, "//@ ensures \\result == (\\max int i; 0 <= i < a.length; a[i]);",
          [post({"a": []}, 0, None), post({"a": [3, 1]}, 3, True), post({"a": [3, 1]}, 1, False)],
          "RM 12.5.2 (\\max of an empty range is left open)"),
    Probe("sum-no-overflow", ARR,
          "//@ ensures \\result == (\\sum int i; 0 <= i < a.length; a[i]);",
          [post({"a": [INT_MAX, 1]}, INT_MIN, False), post({"a": [2, 3]}, 5, True)],
          "RM 12.5.2 (\\sum in \\bigint)"),
    Probe("forall-empty", ARR, "//@ requires (\\forall int i; 0 <= i < a.length; a[i] > 0);",
          [pre({"a": []}, True), pre({"a": [0]}, False)], "RM 12.5.1 (empty range: true)"),
    # ---- operators
    Probe("chained-comparison", INT1, "//@ requires 0 <= x < 10;",
          [pre({"x": 10}, False), pre({"x": 0}, True)], "RM 12.6.? (a < b < c chains)"),
    Probe("implies-right-assoc", INT1, "//@ requires false ==> false ==> false;",
          [pre({"x": 0}, True)], "RM 12.6 (==> is right-associative: false ==> (...))"),
    # ---- KeY's own limits must not make valid specs invalid
    Probe("string-concat", STR, "//@ ensures \\result.equals(s + \"!\");",
          [post({"s": "a"}, "a!", True), post({"s": "a"}, "a", False)],
          "JLS 15.18.1 (string concatenation)"),
    Probe("charat-arithmetic-index", CHAR, "//@ ensures \\result == s.charAt(s.length() - 1);",
          [post({"s": "ab"}, "b", True), post({"s": "ab"}, "a", False)],
          "java.lang.String.charAt; == on char compares values"),
    # ---- ill-formed specs: the front end rejects them
    Probe("mixed-implies", INT1, "//@ ensures x > 0 ==> \\result > 0 <== x > 1;", [],
          "OpenJML messages: jml.mixed.implies", invalid=True),
    Probe("ensures-in-exceptional", INT1,
          "/*@ public exceptional_behavior\n  @ requires x < 0;\n  @ ensures false;\n  @*/", [],
          EXC + " (an ensures clause is not allowed there)", invalid=True),
    Probe("int-literal-too-large", INT1, "//@ requires x == 2147483648;", [],
          "JLS 3.10.1 (2147483648 only as the operand of unary minus)", invalid=True),
]


def write_task(root: Path, m: Method) -> Path:
    (root / "tests").mkdir(parents=True, exist_ok=True)  # a task folder holds tests/
    sig_in = "\n".join(f'{k} = "{v}"' for k, v in m.inputs.items())
    sig_out = "\n".join(f'{k} = "{v}"' for k, v in m.outputs.items())
    extra = f"post_state = {json.dumps(m.post_state)}\n" if m.post_state else ""
    extra += "" if m.static else "static = false\n"
    (root / "task.toml").write_text(
        f'id = "{root.name}"\nlanguage = "jml"\n\n[signature.input]\n{sig_in}\n\n'
        f'[signature.output]\n{sig_out}\n\n[jml]\nclass = "Solution"\nmethod = "solve"\n'
        + extra)
    (root / "Solution.java").write_text(m.code)
    return root


def spec_text(p: Probe) -> str:
    return p.method.code.replace(p.method.before, p.spec + "\n" + p.method.before, 1)


def run(p: Probe, engine: str, root: Path) -> list[tuple[bool | None, str, str]]:
    """(truth, verdict value, reason) per case of the probe under ``engine`` (rac or key).
    Raises ``SpecInvalid`` when the front end rejects the spec."""
    from adequacy.extensions.backend import Limits, engine_named
    from adequacy.model.task import Case
    from adequacy.model.verdicts import Bucket
    from adequacy.taskdirs.load import load_task
    from adequacy_openjml.plugin import OpenJmlBackend

    task = load_task(write_task(root / p.id, p.method))
    backend = OpenJmlBackend()
    spec = backend.load_spec(task, spec_text(p), f"{p.id}.java")
    cases = []
    for k, (pred, inp, out, truth) in enumerate(p.cases):
        if pred == "pre":
            bucket = Bucket.pre_complete if truth is not False else Bucket.pre_sound
        else:
            bucket = Bucket.post_complete if truth is not False else Bucket.post_sound
        cases.append(Case(id=str(k), bucket=bucket, input=inp, output=out))
    verdicts = engine_named(backend, engine).check(spec, task, cases, Limits(case_seconds=20))
    return [(c[3], v.value.value, v.reason) for c, v in zip(p.cases, verdicts, strict=True)]


def wrong(results: list[tuple[bool | None, str, str]]) -> list[tuple[bool | None, str, str]]:
    """Decided verdicts that contradict the truth (an undetermined truth must be unknown)."""
    out = []
    for truth, value, reason in results:
        if value == "unknown":
            continue
        if truth is None or value != ("true" if truth else "false"):
            out.append((truth, value, reason))
    return out
