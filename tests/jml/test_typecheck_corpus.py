"""Ill-typed JML specs, each one edit from a gold spec, must be invalid at the edited line.

Each mutant is an edit of a kind models make: a misspelt name, a member the type
lacks, wrong arity or argument types, an int where a boolean is expected, ``.length`` vs
``.length()``, ``\\result`` in a void method, comparing an array with an int. The rule each
breaks is cited (JLS = Java Language Specification SE 17; JML RM = JML Reference Manual);
javac and OpenJML reject every one of them. The expected line is the line of the edit in the
gold file, found by the test from the edit itself (each edited text occurs once in its gold).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from adequacy.errors import SpecInvalid
from adequacy.examples import bundled_folder, gym_examples
from adequacy.taskdirs.load import load_task
from adequacy_openjml.jml.load import load

REPO = Path(__file__).resolve().parents[2]
TASKS = {p.name: p for p in [*(bundled_folder("jml")).iterdir(),
                             *gym_examples("jml").iterdir()]
         if (p / "task.toml").exists()}

# (task, text in gold.java, replacement, rule broken, words the message must contain)
MUTANTS = [
    ("abs_value", "x > Integer.MIN_VALUE", "x > Integer.MIN_VALU",
     "JLS 15.11.1: Integer has no field MIN_VALU", "MIN_VALU"),
    ("abs_value", "requires x > Integer.MIN_VALUE", "requires x + Integer.MIN_VALUE",
     "JML RM 9.9.1: a requires clause is a predicate (boolean)", "int cannot be converted"),
    ("abs_value", "ensures \\result >= 0;", "ensures \\result;",
     "JML RM 9.9.3: an ensures clause is a predicate", "int cannot be converted"),
    ("abs_value", "\\result == x || \\result == -x", "\\result == x || -x",
     "JLS 15.24: operands of || are boolean", "'||'"),
    ("abs_value", "\\result == -x", "\\result == !x",
     "JLS 15.15.6: the operand of ! is boolean", "'!'"),
    ("abs_value", "\\result == x ||", "\\result == true ||",
     "JLS 15.21: == of int and boolean is a compile-time error", "incomparable"),
    ("abs_value", "x > Integer.MIN_VALUE", "x > Math.abs(x, x)",
     "JLS 15.12.2: no Math.abs takes two arguments", "abs"),
    ("array_max", "a.length > 0;", "a.length() > 0;",
     "JLS 10.7: length is an array's field, arrays have no method length()", "length()"),
    ("array_max", "a != null && a.length > 0", "a != null && a.size > 0",
     "JLS 10.7: arrays have no field size", "size"),
    ("array_max", "a[i] <= \\result);", "a[i] <= \\result[0]);",
     "JLS 15.10.3: only an array can be indexed", "array required"),
    ("array_max", "a[i] == \\result);", "a == \\result);",
     "JLS 15.21: == of int[] and int", "incomparable"),
    ("array_max", "0 <= i < a.length; a[i] <= \\result", "0 <= i < a.length; a[i] + \\result",
     "JML RM 12.4.24.1: the body of \\forall is boolean", "int cannot be converted"),
    ("array_max", "(\\exists int i; 0 <= i < a.length;", "(\\exists int i; 0 <= i < a;",
     "JLS 15.20.1: < compares numbers, not int and int[]", "'<'"),
    ("array_max", "a != null && a.length > 0", "a != 0 && a.length > 0",
     "JLS 15.21: == / != of int[] and int", "incomparable"),
    ("array_max", "(\\forall int i; 0 <= i < a.length;", "(\\forall int i; a.length;",
     "JML RM 12.4.24.1: the range of a quantifier is boolean", "range"),
    ("array_sum", "requires a != null;", "requires a;",
     "JML RM 9.9.1: a requires clause is boolean", "int[] cannot be converted"),
    ("array_sum", "ensures \\result == (\\sum int i; 0 <= i && i < a.length; a[i]);",
     "ensures \\result == (\\sum int i; 0 <= i && i < a.length; a[i] > 0);",
     "JML RM 12.4.24.2: the body of \\sum is numeric", "\\sum"),
    ("array_sum", "Integer.MIN_VALUE <= (\\sum", "Integer.MIN_VAL <= (\\sum",
     "JLS 15.11.1: Integer has no field MIN_VAL", "MIN_VAL"),
    ("array_sum", "a[i]);", "a[i.length]);",
     "JLS 15.11.1: a primitive has no fields", "int cannot be dereferenced"),
    ("array_sum", "(\\sum int i; 0 <= i && i < a.length; a[i]);",
     "(\\sum double i; 0 <= i && i < a.length; a[i]);",
     "JLS 15.10.3: an array index is integral (double does not convert to int)", "index"),
    ("is_prime", "!divides(d, n)", "!divides(d)",
     "JLS 15.12.2.1: divides takes two arguments", "divides"),
    ("is_prime", "!divides(d, n)", "!divides(d, n > 0)",
     "JLS 15.12.2.2: boolean does not convert to int", "cannot be applied"),
    ("is_prime", "!divides(d, n)", "!divide(d, n)",
     "JLS 15.12.1: no method divide", "divide"),
    ("is_prime", "(\\forall int d;", "(\\forall \\bigint d;",
     "OpenJML JmlTypes.isConvertible: a \\bigint converts to no Java int parameter",
     "cannot be applied"),
    ("is_prime", "requires 0 <= n && n <= 100000", "requires 0 <= n && n",
     "JLS 15.23: operands of && are boolean", "'&&'"),
    ("is_prime", "\\result <==> (n >= 2", "\\result <==> (n + 2",
     "JLS 15.23: operands of && are boolean", "'&&'"),
    ("is_prime", "ensures \\result <==>", "ensures n <==>",
     "JML RM 12.6: <==> takes boolean operands", "'<==>'"),
    ("is_prime", "n >= 2 &&", "n >= true &&",
     "JLS 15.20.1: >= compares numbers", "'>='"),
    ("linear_search", "a[\\result] == key", "a[\\result] == key.length",
     "JLS 15.11.1: a primitive has no fields", "int cannot be dereferenced"),
    ("linear_search", "\\result < a.length &&", "\\result < a.length() &&",
     "JLS 10.7: arrays have no method length()", "length()"),
    ("linear_search", "ensures \\result == -1;", "ensures \\result == null;",
     "JLS 15.21: int compared with null", "incomparable"),
    ("linear_search", "i < \\result; a[i] != key);", "i < \\result; a[i] != a);",
     "JLS 15.21: != of int and int[]", "incomparable"),
    ("linear_search", "requires a != null && !(\\exists", "requires a != null && !a && !(\\exists",
     "JLS 15.15.6: the operand of ! is boolean", "'!'"),
    ("linear_search", "&& (\\exists int i;", "&& (\\exists String i;",
     "JLS 15.20.1: <= compares numbers, not int and String", "'<='"),
    ("linear_search", "ensures \\result == -1;", "ensures -1;",
     "JML RM 9.9.3: an ensures clause is boolean", "int cannot be converted"),
    ("reverse_in_place", "ensures a.length == \\old(a.length);",
     "ensures \\result == \\old(a.length);",
     "JML RM 12.4.1: \\result is not allowed for a void method", "void"),
    ("reverse_in_place", "ensures a.length == \\old(a.length);",
     "ensures a.length == \\old(a);", "JLS 15.21: == of int and int[]", "incomparable"),
    ("reverse_in_place", "a[i] == \\old(a[a.length - 1 - i])",
     "a[i] == \\old(a[a.length - 1 - i]) + a", "JLS 15.18.2: + of int and int[]", "'+'"),
    ("reverse_in_place", "\\old(a[a.length - 1 - i])", "\\old(a[a.length - 1 - a])",
     "JLS 15.18.2: - of int and int[]", "'-'"),
    ("reverse_in_place", "ensures a.length == \\old(a.length);",
     "ensures a.length == \\old(a.size());", "JLS 10.7: arrays have no method size()", "size"),
    ("swap_case", "\\result.length() == s.length();", "\\result.length == s.length();",
     "JLS 15.11.1: String has no field length (it is the method length())", "length"),
    ("swap_case", "== s.length();", "== s.size();",
     "JLS 15.12.1: String has no method size()", "size"),
    ("swap_case", "int i; 0 <= i && i < s.length();", "int i; 0 <= i && i < s.length;",
     "JLS 15.11.1: String has no field length", "length"),
    ("swap_case", "\\result.charAt(i) == s.charAt(i)));", "\\result.charAt(i) == s.charAt(i, 0)));",
     "JLS 15.12.2: String.charAt takes one argument", "charAt"),
    ("swap_case", "s.charAt(i) <= 'z')", "s.charAt(i) <= \"z\")",
     "JLS 15.20.1: <= of char and String", "'<='"),
    ("swap_case", "(char) (s.charAt(i) - 32)", "(char) (s.charAt(\"i\") - 32)",
     "JLS 15.12.2.2: String does not convert to int", "charAt"),
    ("swap_case", "ensures \\result != null &&", "ensures \\result != 0 &&",
     "JLS 15.21: != of String and int", "incomparable"),
    ("swap_case", "('a' <= s.charAt(i) &&", "(s <= s.charAt(i) &&",
     "JLS 15.20.1: <= of String and char", "'<='"),
    ("clamp", "requires lo <= hi;", "requires lo - hi;",
     "JML RM 9.9.1: a requires clause is boolean", "int cannot be converted"),
    ("clamp", "ensures x < lo ==> \\result == lo;", "ensures x < lo ==> \\result + lo;",
     "JML RM 12.6: ==> takes boolean operands", "'==>'"),
    ("clamp", "x > hi ==> \\result == hi", "x > hi ==> \\result == high",
     "JLS 6.5.6.1: no variable high", "high"),
    ("clamp", "\\result == x;", "\\result == Math.clamp(x);",
     "JLS 15.12.2: Math.clamp takes three arguments", "clamp"),
    ("clamp", "\\result <= hi;", "\\result <= hi.length;",
     "JLS 15.11.1: a primitive has no fields", "int cannot be dereferenced"),
    # the body of a pure helper (jml.bodies): javac checks it as Java, so does OpenJML
    ("is_prime", "return n % d == 0;", "return n % d;",
     "JLS 14.17/5.2: a boolean method returns an int", "int cannot be converted to boolean"),
    ("is_prime", "return n % d == 0;", "return d;",
     "JLS 14.17/5.2: a boolean method returns a parameter of type int",
     "int cannot be converted to boolean"),
    ("is_prime", "return n % d == 0;", "return \"\" + n % d;",
     "JLS 14.17/5.2: a boolean method returns a String (15.18.1)",
     "String cannot be converted to boolean"),
    ("is_prime", "return n % d == 0;", "boolean r = n % d; return r;",
     "JLS 14.4/5.2: a boolean local initialised with an int", "int cannot be converted to boolean"),
    ("is_prime", "return n % d == 0;", "int r = n % d; return r;",
     "JLS 14.17/5.2: an int local returned from a boolean method",
     "int cannot be converted to boolean"),
    ("is_prime", "return n % d == 0;", "double r = n; int q = r; return q == 0;",
     "JLS 5.2: double to int is a narrowing conversion, not allowed in assignment",
     "double cannot be converted to int"),
    ("is_prime", "return n % d == 0;", "if (n % d) return false; return true;",
     "JLS 14.9: an if condition must be boolean", "int cannot be converted to boolean"),
    ("is_prime", "return n % d == 0;", "while (n % d) n -= d; return n == 0;",
     "JLS 14.12: a while condition must be boolean", "int cannot be converted to boolean"),
    ("is_prime", "return n % d == 0;", "for (int k = n; k % d; k -= d) { } return n % d == 0;",
     "JLS 14.14.1: a for condition must be boolean", "int cannot be converted to boolean"),
    ("is_prime", "return n % d == 0;", "return n % d == \"0\";",
     "JLS 15.21: int and String are not comparable", "incomparable types"),
    ("is_prime", "return n % d == 0;", "return n.length == 0;",
     "JLS 15.11.1: a primitive has no fields", "int cannot be dereferenced"),
    ("is_prime", "return n % d == 0;", "return (String) n == null;",
     "JLS 5.5: an int cannot be cast to String", "int cannot be converted to String"),
    ("is_prime", "return n % d == 0;", "return n % d == 0 && d;",
     "JLS 15.23: && needs boolean operands", "bad operand types for binary operator '&&'"),
    # ?: in a boolean context (JLS 15.25: each branch must convert to the boolean a clause is)
    ("swap_case", "? \\result.charAt(i) == (char) (s.charAt(i) - 32)",
     "? (char) (s.charAt(i) - 32)",
     "JLS 15.25.3: a char branch where the clause wants a boolean",
     "char cannot be converted to boolean"),
    ("swap_case", ": \\result.charAt(i) == s.charAt(i)));", ": s.charAt(i)));",
     "JLS 15.25.3: a char branch where the clause wants a boolean",
     "char cannot be converted to boolean"),
    ("abs_value", "ensures \\result >= 0;", "ensures x < 0 ? \\result : true;",
     "JLS 15.25.3 / JML RM 9.9.3: an int branch of an ensures clause",
     "int cannot be converted to boolean"),
    ("clamp", "ensures x < lo ==> \\result == lo;", "ensures x < lo ? \\result == lo : lo;",
     "JLS 15.25.3 / JML RM 9.9.3: an int branch of an ensures clause",
     "int cannot be converted to boolean"),
    ("linear_search", "ensures \\result == -1;", "ensures \\result == -1 ? true : -1;",
     "JLS 15.25.3 / JML RM 9.9.3: an int branch of an ensures clause",
     "int cannot be converted to boolean"),
    ("abs_value", "ensures \\result == x || \\result == -x;",
     "ensures \\result == x || (x < 0 ? -x : x);",
     "JLS 15.24/15.25.3: an operand of || is a ?: with int branches",
     "int cannot be converted to boolean"),
    # casts (JLS 5.5: no casting conversion between these types)
    ("swap_case", "== (char) (s.charAt(i) - 32)", "== (String) (s.charAt(i) - 32)",
     "JLS 5.5: an int cannot be cast to String", "int cannot be converted to String"),
    ("array_max", "requires a != null && a.length > 0;",
     "requires (String) a != null && a.length > 0;",
     "JLS 5.5: int[] and String are unrelated reference types",
     "int[] cannot be converted to String"),
    ("reverse_in_place", "requires a != null;", "requires (int) a != 0;",
     "JLS 5.5: an array cannot be cast to a primitive", "int[] cannot be converted to int"),
]


def test_corpus_size() -> None:
    assert len(MUTANTS) >= 70
    assert len({m[0] for m in MUTANTS}) >= 8


@pytest.mark.parametrize(("task", "old", "new", "rule", "words"), MUTANTS,
                         ids=[f"{m[0]}-{k}" for k, m in enumerate(MUTANTS)])
def test_ill_typed_spec_is_invalid_at_its_line(task: str, old: str, new: str, rule: str,
                                                words: str) -> None:
    root = TASKS[task]
    gold = (root / "specs" / "gold.java").read_text()
    assert gold.count(old) == 1, f"edit text must occur once in {task}'s gold: {old!r}"
    line = gold[:gold.index(old)].count("\n") + 1
    t = load_task(root)
    load(t, gold, "gold.java")  # the gold itself is valid
    with pytest.raises(SpecInvalid) as e:
        load(t, gold.replace(old, new), "gold.java")
    assert (e.value.file, e.value.line) == ("gold.java", line), (rule, e.value.message)
    assert words in e.value.message, (rule, e.value.message)
