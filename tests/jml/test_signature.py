"""Java signature -> schema types (hand-written expectations)."""

from __future__ import annotations

import pytest

from adequacy.model.types import parse_type
from adequacy_openjml.signature import JavaSignatureError, java_type_to_schema, parse_signature


@pytest.mark.parametrize(("java", "schema"), [
    ("int", "i32"), ("long", "i64"), ("short", "i16"), ("byte", "i8"), ("char", "char"),
    ("boolean", "bool"), ("double", "f64"), ("float", "f32"), ("String", "string"),
    ("Integer", "i32"), ("Boolean", "bool"), ("Character", "char"), ("java.lang.Long", "i64"),
    ("int[]", "array<i32>"), ("int[][]", "array<array<i32>>"),
    ("String[][][]", "array<array<array<string>>>"), ("Integer[]", "array<i32>"),
    ("List<Integer>", "list<i32>"), ("java.util.ArrayList<String>", "list<string>"),
    ("List<List<Integer>>", "list<list<i32>>"), ("Set<Character>", "set<char>"),
    ("HashSet<Integer>", "set<i32>"), ("Map<String, Integer>", "map<string, i32>"),
    ("HashMap<Integer,List<String>>", "map<i32, list<string>>"),
    ("List<int[]>", "list<array<i32>>"), ("String...", "array<string>"),
])
def test_java_type_to_schema(java: str, schema: str) -> None:
    assert java_type_to_schema(java) == schema
    assert str(parse_type(schema)) == schema


@pytest.mark.parametrize("java", ["Object", "List", "void", "List<?>", "Map<String>", "Foo"])
def test_unsupported_types_are_errors(java: str) -> None:
    with pytest.raises(JavaSignatureError):
        java_type_to_schema(java)


def test_parse_signature_static_and_c_style_arrays() -> None:
    code = """
    // solve(int fake) in a comment does not count
    public class Solution {
        /** javadoc: int solve(String s) */
        public static int solve(int num, int arr[], final java.util.List<Integer> xs) {
            return helper(num);
        }
        static int helper(int x) { return x; }
    }"""
    params, ret = parse_signature(code)
    assert params == [("num", "int"), ("arr", "int[]"), ("xs", "List<Integer>")]
    assert ret == "int"


def test_parse_signature_instance_method_generic_return_multiline() -> None:
    code = """public class Solution {
        public HashMap<String, Integer> solve(HashMap<String, Integer> d1,
                HashMap<String, Integer> d2) { return d1; }
    }"""
    params, ret = parse_signature(code)
    assert params == [("d1", "HashMap<String, Integer>"), ("d2", "HashMap<String, Integer>")]
    assert ret == "HashMap<String, Integer>"
    assert java_type_to_schema(ret) == "map<string, i32>"


def test_parse_signature_void_no_params_and_other_method_name() -> None:
    assert parse_signature("class S { static void solve() {} }") == ([], "void")
    assert parse_signature("class S { int f(long a) {return 0;} }", "f") == ([("a", "long")],
                                                                          "int")


def test_missing_method_is_an_error() -> None:
    with pytest.raises(JavaSignatureError, match="solve"):
        parse_signature("class S { int other(int x) { return x; } }")
