"""Reader and printer models on small hand-made harnesses, one per Scanner pattern.

Expected values are worked out by hand from what the Java statements do with the text.
"""

from __future__ import annotations

import pytest

from adequacy_openjml.importers.harness import ReadError, build_harness
from adequacy_openjml.importers.javatext import double_to_string, split_ws
from adequacy_openjml.importers.readers import HarnessUnsupported


def harness(sig: str, body: str, code_body: str = "return 0;"):
    code = f"public class Solution {{\n public static {sig} {{ {code_body} }}\n}}\n"
    test = ("import java.util.*;\npublic class Test {\n public static void main(String[] args) {\n"
            "  Scanner scanner = new Scanner(System.in);\n" + body + "\n }\n}\n")
    return build_harness(code, test)


def test_scalar_line_parse_int() -> None:
    h = harness("int solve(int num)",
                'int p0 = Integer.parseInt(scanner.hasNextLine() ? scanner.nextLine().trim() : "");'
                "int result = Solution.solve(p0); System.out.println(result);")
    assert h.read_input("-4") == {"num": -4}
    assert h.read_input(" 7 \n") == {"num": 7}
    assert h.read_output("4") == 4
    assert h.output_name == "result"
    with pytest.raises(ReadError, match="NumberFormatException"):
        h.read_input("2147483648")  # beyond int: parseInt throws
    with pytest.raises(ReadError, match="NumberFormatException"):
        h.read_input("1.0")
    with pytest.raises(ReadError, match="unread"):
        h.read_input("1\n2")
    assert h.render_input({"num": -4}) == "-4\n"


def test_token_line_fields_char_and_boolean() -> None:
    h = harness("int solve(int a, int b, char op)",
                'String[] input = scanner.nextLine().trim().split("\\\\s+");'
                "int p0 = Integer.parseInt(input[0]);\nint p1 = Integer.parseInt(input[1]);"
                "char p2 = input[2].charAt(0);"
                "int result = Solution.solve(p0, p1, p2);\nSystem.out.println(result);")
    assert h.read_input("-4 0 +") == {"a": -4, "b": 0, "op": "+"}
    assert h.read_input("  3   5 *  ") == {"a": 3, "b": 5, "op": "*"}
    with pytest.raises(ReadError, match="token 2 missing"):
        h.read_input("1 2")
    with pytest.raises(ReadError, match="round trip"):
        h.read_input("1 2 ab")  # charAt(0) drops the 'b'
    b = harness("boolean solve(boolean x, boolean y)",
                'String[] input = scanner.nextLine().trim().split("\\\\s+");'
                "boolean p0 = Boolean.parseBoolean(input[0]);"
                "boolean p1 = Boolean.parseBoolean(input[1]);"
                "boolean result = Solution.solve(p0, p1); System.out.println(result);")
    assert b.read_input("true false") == {"x": True, "y": False}
    assert b.read_output("false") is False
    with pytest.raises(ReadError):
        b.read_input("True false")  # parseBoolean reads it, but it does not print back


def test_inline_long_cast_arguments() -> None:
    h = harness("long solve(long x, long y)",
                'String[] tok = scanner.nextLine().trim().split("\\\\s+");'
                "long result =\n  Solution.solve((long) Long.parseLong(tok[0]), "
                "(long) Long.parseLong(tok[1]));\nSystem.out.println(result);")
    assert h.read_input("4 9000000000") == {"x": 4, "y": 9000000000}
    assert h.read_output("8") == 8


def test_guarded_array_and_strings_with_optional_lines() -> None:
    h = harness("int[] solve(int[] nums, String s)",
                'String _line_p0 = scanner.hasNextLine() ? scanner.nextLine().trim() : "";'
                "int[] p0 = _line_p0.isEmpty() ? new int[0] : java.util.Arrays.stream("
                '_line_p0.split("\\\\s+")).mapToInt(Integer::parseInt).toArray();'
                'String p1 = scanner.hasNextLine() ? scanner.nextLine() : "";'
                "int[] result = Solution.solve(p0, p1);"
                "System.out.println(java.util.Arrays.stream(result).mapToObj(Integer::toString)"
                '.collect(java.util.stream.Collectors.joining(" ")));')
    assert h.read_input("1 2 3\n a b") == {"nums": [1, 2, 3], "s": " a b"}
    assert h.read_input("") == {"nums": [], "s": ""}  # both lines missing: defaults
    assert h.read_input("\n") == {"nums": [], "s": ""}
    assert h.read_output("") == []
    assert h.read_output("-2 -1 0") == [-2, -1, 0]
    with pytest.raises(ReadError, match="an integer"):
        h.read_output("1 x")


def test_unguarded_array_list_boxed_and_string_list() -> None:
    h = harness("int solve(int[] a, List<Integer> b, Integer[] c, List<String> d)",
                'int[] p0 = java.util.Arrays.stream(scanner.nextLine().trim().split("\\\\s+"))'
                "\n .mapToInt(Integer::parseInt).toArray();"
                "java.util.List<Integer> p1 = java.util.Arrays.stream(scanner.nextLine().trim()"
                '.split("\\\\s+")).map(Integer::parseInt).collect(java.util.stream.Collectors'
                ".toList());"
                'Integer[] p2 = java.util.Arrays.stream(scanner.nextLine().trim().split("\\\\s+"))'
                ".map(Integer::parseInt).toArray(Integer[]::new);"
                "java.util.List<String> p3 = new java.util.ArrayList<>(java.util.Arrays.asList("
                'scanner.nextLine().trim().split("\\\\s+")));'
                "var result = Solution.solve(p0, p1, p2, p3); System.out.println(result);")
    assert h.read_input("1 2\n3\n4 5 6\n x  y ") == {"a": [1, 2], "b": [3], "c": [4, 5, 6],
                                                     "d": ["x", "y"]}
    with pytest.raises(ReadError, match="NumberFormatException"):
        h.read_input("\n3\n4\nx")  # an empty line is one empty token: parseInt("") throws
    with pytest.raises(ReadError, match="NoSuchElement"):
        h.read_input("1\n2\n3")


def test_rectangular_matrix_with_and_without_zero_column_guard() -> None:
    body = ('String[] rc0 = scanner.nextLine().trim().split("\\\\s+");'
            "int r0 = Integer.parseInt(rc0[0]), c0 = Integer.parseInt(rc0[1]);"
            "int[][] p0 = new int[r0][c0];"
            "for (int i0 = 0; i0 < r0 GUARD; i0++) {"
            'String[] pr0 = scanner.nextLine().trim().split("\\\\s+");'
            "for (int j0 = 0; j0 < c0; j0++) p0[i0][j0] = Integer.parseInt(pr0[j0]);}"
            "int[][] result = Solution.solve(p0);"
            "System.out.println(result.length + \" \" + (result.length > 0 ? result[0].length : 0));"
            "for (int[] _row : result) { System.out.println(java.util.Arrays.stream(_row)"
            '.mapToObj(Integer::toString).collect(java.util.stream.Collectors.joining(" "))); }')
    g = harness("int[][] solve(int[][] m)", body.replace("GUARD", "&& c0 > 0"))
    assert g.read_input("2 2\n1 2\n3 4") == {"m": [[1, 2], [3, 4]]}
    assert g.read_input("3 0") == {"m": [[], [], []]}  # guard: no row lines are read
    assert g.read_output("2 3\n1 2 3\n4 5 6") == [[1, 2, 3], [4, 5, 6]]
    assert g.read_output("0 0") == []
    with pytest.raises(ReadError, match="drops the rest"):
        g.read_input("2 1\n1\n2 3")
    u = harness("int[][] solve(int[][] m)", body.replace("GUARD", ""))
    assert u.read_input("2 0\n\n\n") == {"m": [[], []]}  # rows are read even when empty
    with pytest.raises(ReadError, match="NoSuchElement"):
        u.read_input("2 0")


def test_jagged_int_and_string_rows() -> None:
    h = harness("int solve(int[][] a, String[][] b)",
                "int _r_p0 = Integer.parseInt(scanner.nextLine().trim());"
                "int[][] p0 = new int[_r_p0][];"
                "for (int _i_p0 = 0; _i_p0 < _r_p0; _i_p0++) {"
                'String[] _pr_p0 = scanner.nextLine().trim().split("\\\\s+");'
                "p0[_i_p0] = java.util.Arrays.stream(_pr_p0).mapToInt(Integer::parseInt).toArray();}"
                "int _r_p1 = Integer.parseInt(scanner.nextLine().trim());"
                "String[][] p1 = new String[_r_p1][];"
                "for (int _i_p1 = 0; _i_p1 < _r_p1; _i_p1++) {"
                'p1[_i_p1] = scanner.nextLine().trim().split("\\\\s+");}'
                "var result = Solution.solve(p0, p1); System.out.println(result);")
    assert h.read_input("2\n1 2 3\n4\n1\nitem1 12.20") == {
        "a": [[1, 2, 3], [4]], "b": [["item1", "12.20"]]}


def test_map_lines_with_typed_and_raw_keys() -> None:
    h = harness("HashMap<String, Integer> solve(HashMap<Integer, String> d)",
                "int _n_p0 = Integer.parseInt(scanner.nextLine().trim());"
                "java.util.HashMap<Integer, String> p0 = new java.util.HashMap<>();"
                "for (int _i_p0 = 0; _i_p0 < _n_p0; _i_p0++) {"
                "String _line_p0 = scanner.nextLine();"
                "int _tab_p0 = _line_p0.indexOf('\\t');"
                "String _k_p0 = _line_p0.substring(0, _tab_p0);"
                "String _v_p0 = _line_p0.substring(_tab_p0 + 1);"
                "p0.put(Integer.parseInt(_k_p0.trim()), _v_p0);}"
                "var result = Solution.solve(p0);"
                "java.util.List<Object> _keys = new java.util.ArrayList<>(result.keySet());"
                "_keys.sort((a, b) -> a.toString().compareTo(b.toString()));"
                "System.out.println(_keys.size());"
                'for (Object _k : _keys) { System.out.println(_k + "\\t" + result.get(_k)); }')
    assert h.read_input("2\n1\tpython\n2\tjava code") == {"d": [[1, "python"], [2, "java code"]]}
    assert h.read_output("2\nAlden Cantrell\t180\nb\t2") == [["Alden Cantrell", 180], ["b", 2]]
    with pytest.raises(ReadError, match="round trip"):
        h.read_input("2\n1\ta\n1\tb")  # put() overwrites: one entry, header said two
    with pytest.raises(ReadError, match="map size"):
        h.read_output("3\na\t1")


def test_set_bool_array_char_array_and_delimiter_char() -> None:
    s = harness("int[] solve(HashSet<Integer> s)",
                "Integer.parseInt(scanner.nextLine().trim()); // skip count\n"
                'String[] _els_p0 = scanner.nextLine().trim().split("\\\\s+");'
                "java.util.HashSet<Integer> p0 = new java.util.HashSet<>();"
                "for (String _s_p0 : _els_p0) p0.add(Integer.parseInt(_s_p0));"
                "var result = Solution.solve(p0);"
                "System.out.println(java.util.Arrays.stream(result).mapToObj(Integer::toString)"
                '.collect(java.util.stream.Collectors.joining(" ")));')
    assert s.read_input("3\n1 2 3") == {"s": [1, 2, 3]}
    b = harness("Boolean solve(boolean[] t)",
                'String[] _raw_p0 = scanner.nextLine().trim().split("\\\\s+");'
                "boolean[] p0 = new boolean[_raw_p0.length];"
                "for (int _i_p0 = 0; _i_p0 < _raw_p0.length; _i_p0++) "
                "p0[_i_p0] = Boolean.parseBoolean(_raw_p0[_i_p0]);"
                "var result = Solution.solve(p0); System.out.println(result);")
    assert b.read_input("true false true") == {"t": [True, False, True]}
    c = harness("void solve(char[] s)",
                'String cs0 = scanner.hasNextLine() ? scanner.nextLine() : "";'
                "char[] p0 = cs0.toCharArray(); Solution.solve(p0); // void - no output",
                "")
    assert c.read_input("hello") == {"s": list("hello")}
    assert c.output_name is None
    with pytest.raises(ReadError, match="prints nothing"):
        c.read_output("")
    d = harness("char solve(char c)",
                'scanner.useDelimiter("\\n");'
                'String line = scanner.hasNext() ? scanner.next() : "";'
                "char p0 = line.isEmpty() ? ' ' : line.charAt(0);"
                "char result = Solution.solve(p0); System.out.println(result);",
                "return ' ';")
    assert d.read_input("a") == {"c": "a"}
    assert d.read_input("") == {"c": " "}
    assert d.read_output("A") == "A"
    assert d.read_output("") == " "  # the only whitespace literal of the method


def test_void_method_printing_its_array_is_a_post_state_output() -> None:
    h = harness("void solve(int[] a, int k)",
                'String _line_p0 = scanner.hasNextLine() ? scanner.nextLine().trim() : "";'
                "int[] p0 = _line_p0.isEmpty() ? new int[0] : java.util.Arrays.stream("
                '_line_p0.split("\\\\s+")).mapToInt(Integer::parseInt).toArray();'
                'int p1 = Integer.parseInt(scanner.hasNextLine() ? scanner.nextLine().trim() : "");'
                "Solution.solve(p0, p1);"
                'for (int i = 0; i < p0.length; i++) { System.out.print(p0[i] + " "); }'
                "System.out.println();", "")
    assert h.output_name == "a"
    assert h.read_input("1 2 3\n2") == {"a": [1, 2, 3], "k": 2}
    assert h.read_output("3 1 2 ") == [3, 1, 2]


def test_doubles_print_the_java_way() -> None:
    h = harness("double[] solve(double c)",
                'double p0 = Double.parseDouble(scanner.hasNextLine() ? scanner.nextLine().trim() : "");'
                "double[] result = Solution.solve(p0);"
                "System.out.println(java.util.Arrays.stream(result).mapToObj(Double::toString)"
                '.collect(java.util.stream.Collectors.joining(" ")));')
    assert h.read_input("-2") == {"c": -2.0}  # "-2" and "-2.0" are the same double
    assert h.read_output("271.15 28.4 1.0E7 1.0E-4") == [271.15, 28.4, 1e7, 1e-4]
    assert [double_to_string(x) for x in (0.001, 1e7, 123.0, -0.5, 1e-5, 1.5e300)] == [
        "0.001", "1.0E7", "123.0", "-0.5", "1.0E-5", "1.5E300"]


def test_rows_printers_list_header_len_header_and_no_header() -> None:
    lst = harness("List<List<Integer>> solve(int n)",
                  "int p0 = Integer.parseInt(scanner.nextLine().trim());"
                  "var result = Solution.solve(p0);"
                  'System.out.println(result.size() + " " + (result.isEmpty() ? 0 : '
                  "result.get(0).size()));"
                  "for (java.util.List<Integer> _row : result) { System.out.println(_row.stream()"
                  '.map(String::valueOf).collect(java.util.stream.Collectors.joining(" "))); }')
    assert lst.read_output("2 4\n1 2 4 5\n1 3") == [[1, 2, 4, 5], [1, 3]]
    strs = harness("String[][] solve(String[] a)",
                   'String[] p0 = scanner.nextLine().trim().split("\\\\s+");'
                   "String[][] result = Solution.solve(p0);"
                   "for (int i = 0; i < result.length; i++) {"
                   'System.out.println(String.join(", ", result[i])); }')
    assert strs.read_input("Red Blue") == {"a": ["Red", "Blue"]}
    assert strs.read_output("R, e, d\nB, l, u, e") == [["R", "e", "d"], ["B", "l", "u", "e"]]


def test_method_that_prints_itself_keeps_inputs_only() -> None:
    h = harness("String solve(String s)",
                'String p0 = scanner.hasNextLine() ? scanner.nextLine() : "";'
                "var result = Solution.solve(p0); System.out.println(result);",
                "System.out.println(s); return s;")
    assert h.read_input("ta") == {"s": "ta"}
    with pytest.raises(ReadError, match="prints to standard output"):
        h.read_output("ta\nta")


@pytest.mark.parametrize(("body", "match"), [
    ("int p0 = scanner.nextInt(); int result = Solution.solve(p0); System.out.println(result);",
     "unknown reading statement"),
    ('int p0 = Integer.parseInt(scanner.nextLine().trim()); int result = Solution.solve(p0);'
     'System.out.println("x=" + result);', "unknown printing code"),
    ('int p0 = Integer.parseInt(scanner.nextLine().trim()); int result = Solution.solve(p0, p0);'
     "System.out.println(result);", "2 arguments"),
])
def test_unknown_harness_shapes_fail_loudly(body: str, match: str) -> None:
    with pytest.raises(HarnessUnsupported, match=match):
        harness("int solve(int x)", body)


def test_split_follows_java() -> None:
    assert split_ws("") == [""]
    assert split_ws(" a  b ") == ["", "a", "b"]
    assert split_ws("a b") == ["a", "b"]
