"""Code extraction from model answers: fences, partial answers, bare functions, JML lines.

Truth: an extraction is right when the gold spec's own text, however wrapped, scores exactly
like the gold file (every case passes; examples/*/specs/expected.toml says gold passes all).
"""

from __future__ import annotations

import re

import pytest

from adequacy.scoring.runner import score_spec
from adequacy_optimizers.extract import ExtractionError, code_blocks, spec_from_answer

from .conftest import example, gold


def _fns(text: str) -> str:
    """The gold file's pre_spec and post_spec items only."""
    start = text.index("spec fn pre_spec")
    end = text.index("} // exec_spec_unverified!")
    return text[start:end].strip()


def test_fenced_blocks_and_an_unclosed_fence():
    assert code_blocks("a\n```rust\nX\n```\nb\n```\nY\n```") == ["X\n", "Y\n"]
    assert code_blocks("prose\n```java\nclass A {}\n") == ["class A {}\n"]


def test_verus_full_file_in_prose_passes_like_gold():
    task = example("verus", "binary_search_first")
    answer = f"Here is the spec.\n```rust\n{gold('verus', 'binary_search_first')}```\nDone."
    rep = score_spec(task, spec_from_answer(task, answer))
    assert rep.status == "scored" and rep.passed_all


def test_verus_bare_functions_go_into_the_skeleton():
    task = example("verus", "binary_search_first")
    answer = "Sure:\n```\n" + _fns(gold("verus", "binary_search_first")) + "\n```"
    text = spec_from_answer(task, answer)
    assert "pub struct Input" in text  # the skeleton's structs are kept
    rep = score_spec(task, text)
    assert rep.status == "scored" and rep.passed_all


def test_verus_truncated_answer_keeps_complete_functions():
    task = example("verus", "binary_search_first")
    fns = _fns(gold("verus", "binary_search_first"))
    answer = "```rust\n" + fns + "\n\n// and now a hel"  # the fence never closes
    rep = score_spec(task, spec_from_answer(task, answer))
    assert rep.passed_all


def test_verus_helper_spec_fn_is_inserted_before_pre_spec():
    task = example("verus", "binary_search_first")
    answer = ("```rust\nspec fn sorted(s: Seq<i64>) -> bool {\n    forall|i: usize| 1 <= i < "
              "s.len() ==> s[(i - 1) as int] <= s[i as int]\n}\n\nspec fn pre_spec(input: "
              "Input) -> bool {\n    sorted(input.arr)\n}\n```")
    text = spec_from_answer(task, answer)
    assert text.index("spec fn sorted") < text.index("spec fn pre_spec")
    rep = score_spec(task, text)
    assert rep.status == "scored"
    assert rep.metrics is not None and rep.metrics.pre_comp == 1.0  # every unsorted input rejected


@pytest.mark.parametrize("answer", ["", "   ", "I cannot help with that.",
                                    "```rust\nspec fn post_spec(input: Input, output: Output) "
                                    "-> bool {\n    match output.result {"])
def test_verus_unusable_answers_raise_extraction_error(answer):
    with pytest.raises(ExtractionError):
        spec_from_answer(example("verus", "binary_search_first"), answer)


@pytest.mark.slow
def test_jml_lines_only_are_put_above_the_method():
    task = example("jml", "abs_value")
    lines = [ln.strip() for ln in gold("jml", "abs_value").splitlines() if "//@" in ln]
    answer = "The contract:\n```java\n" + "\n".join(lines) + "\n```"
    text = spec_from_answer(task, answer)
    assert re.search(r"//@ ensures \\result >= 0;\n\s*//@ ensures .*\n\s*public static int solve",
                     text)
    rep = score_spec(task, text)
    assert rep.status == "scored" and rep.passed_all


@pytest.mark.slow
def test_jml_whole_class_and_block_comment():
    task = example("jml", "abs_value")
    cls = gold("jml", "abs_value")
    assert spec_from_answer(task, f"```java\n{cls}```").strip() == cls.strip()
    block = ("/*@ requires x > Integer.MIN_VALUE;\n  @ ensures \\result >= 0;\n"
             "  @ ensures \\result == x || \\result == -x;\n  @*/")
    rep = score_spec(task, spec_from_answer(task, block))
    assert rep.passed_all


def test_jml_unusable_answers():
    task = example("jml", "abs_value")
    with pytest.raises(ExtractionError, match="no JML"):
        spec_from_answer(task, "```java\nint x = 1;\n```")
    with pytest.raises(ExtractionError, match="cut off"):
        spec_from_answer(task, "```java\npublic class Solution {\n public static int solve(")


def _renamed_local(text: str) -> str:
    """linear_search's gold with the loop variable renamed (i -> k): the same method, but
    different Java tokens, which the front end calls "code altered"."""
    out = text.replace("int i = 0; i < a.length; i++", "int k = 0; k < a.length; k++")
    return out.replace("if (a[i] == key)\n                return i;",
                       "if (a[k] == key)\n                return k;")


def test_jml_answer_with_altered_code_is_grafted_onto_the_task_code():
    """The answer's JML is put on the task's own code (read with the front end's Java
    reader), so a renamed local does not make the spec invalid; the gold's contract then
    scores like the gold (all cases pass, examples/jml/linear_search/specs/expected.toml)."""
    task = example("jml", "linear_search")
    renamed = _renamed_local(gold("jml", "linear_search"))
    assert renamed != gold("jml", "linear_search")
    from adequacy.errors import SpecInvalid
    from adequacy.extensions import registry

    backend = registry.registry().owner("jml")
    with pytest.raises(SpecInvalid, match="code altered"):
        backend.load_spec(task, renamed, "answer.java")
    text = spec_from_answer(task, f"Here:\n```java\n{renamed}```\n")
    assert "int i = 0; i < a.length; i++" in text and "int k =" not in text
    assert "\\forall int i; 0 <= i && i < \\result; a[i] != key" in text
    backend.load_spec(task, text, "grafted.java")  # the front end accepts it


@pytest.mark.slow
def test_grafted_jml_scores_like_the_gold():
    task = example("jml", "linear_search")
    text = spec_from_answer(task, f"```java\n{_renamed_local(gold('jml', 'linear_search'))}```")
    assert score_spec(task, text).passed_all


def test_jml_answer_with_the_task_code_is_kept_as_written():
    task = example("jml", "linear_search")
    g = gold("jml", "linear_search")
    assert spec_from_answer(task, f"```java\n{g}```") == g.strip() + "\n"
