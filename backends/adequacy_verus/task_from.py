"""A task from an annotated Verus program: ``adequacy task from FILE --function NAME DEST``.

Researchers hold verified programs (Verus-Bench's MBPP set, a course's exercises) whose exec
functions carry ``requires``/``ensures`` and whose ``main`` tests them with ``assert_eq!``.
Turning one into a task took hand work: parameters mapped to an ``Input`` struct, ``@`` views
removed from what became a ``Seq``, ``requires`` transliterated. This module does it:

- the signature comes from the function's parameters and named return (``&Vec<T>``, slices and
  arrays become ``seq<T>``, the integer kinds, ``bool``, ``char``, ``Option``, tuples stay);
- ``specs/original.rs`` is the function's own contract in the skeleton's form: ``pre_spec`` the
  conjunction of ``requires``, ``post_spec`` of ``ensures``, each parameter ``x`` read as
  ``input.x`` (its ``x@`` view as the sequence itself, ``old(x)`` of an unchanged parameter as
  ``input.x``) and the return name as ``output.NAME``; the program's spec fns are copied before
  them, with the source's own text;
- cases come from ``main``'s ``assert_eq!(f(args), expected)`` and ``assert!(f(args))`` lines,
  evaluated by the interpreter: each test is a valid input (``pre_complete``) and a right output
  (``post_complete``).

Out of reach, said plainly: ``&mut`` parameters (a result through mutation), methods, generic
functions, functions returning nothing, and types the task language has no word for.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from adequacy.plugin import BUCKETS, Bucket, Case, SpecInvalid, TaskError, write_cases
from adequacy.plugin import types as T

from .syntax import ast as A
from .syntax.lexer import Token
from .syntax.parser import Parser, parse_module

_INTS = {"i8", "i16", "i32", "i64", "i128", "isize", "u8", "u16", "u32", "u64", "u128",
         "usize", "int", "nat"}
_SEQS = {"Vec", "Seq"}
_CLAUSE_KWS = {"requires", "ensures", "recommends", "decreases", "returns",
               "opens_invariants", "no_unwind", "default_ensures"}
_QUANT = {"forall", "exists", "choose"}
_ITEM_QUALS = {"pub", "open", "closed", "spec", "uninterp", "broadcast", "proof"}


@dataclass
class RustTaskWritten:
    task_dir: Path
    cases: int
    skipped_tests: list[str] = field(default_factory=list)


def _out_of_reach(program: Path, line: int | None, why: str) -> TaskError:
    return TaskError(f"out of reach for `task from`: {why}", file=str(program), line=line)


def task_type(ty: A.TypeRef, where: str, program: Path, line: int) -> str:
    """The task language's word for a written Rust/Verus type."""
    n = ty.name
    if n in _INTS or n in ("bool", "char"):
        return n
    if n in ("String", "str"):
        return "string"
    if n in _SEQS and len(ty.args) == 1:
        return f"seq<{task_type(ty.args[0], where, program, line)}>"
    if n == "Option" and len(ty.args) == 1:
        return f"option<{task_type(ty.args[0], where, program, line)}>"
    if n == "tuple" and ty.args:
        return "tuple<" + ", ".join(task_type(a, where, program, line) for a in ty.args) + ">"
    raise _out_of_reach(program, line, f"{where} has type `{ty}`, which tasks cannot express")


class _Source:
    """Token positions in the program's text, so rewritten clauses keep its spacing and
    comments."""

    def __init__(self, text: str, tokens: list[Token]):
        self.text = text
        self.tokens = tokens
        self.starts = [0]
        for ln in text.splitlines(keepends=True):
            self.starts.append(self.starts[-1] + len(ln))

    def start(self, i: int) -> int:
        t = self.tokens[i]
        return self.starts[t.line - 1] + t.col - 1

    def end(self, i: int) -> int:
        return self.start(i) + len(self.tokens[i].text)

    def span_text(self, lo: int, hi: int) -> str:
        """Source text of tokens ``lo..hi`` (inclusive)."""
        return self.text[self.start(lo):self.end(hi)]


def _fn_token(toks: list[Token], fn: A.FnItem) -> int:
    before = fn.body_span[0] if fn.body_span else len(toks)
    found = [i for i in range(min(before, len(toks) - 1))
             if toks[i].kind == "ident" and toks[i].value == "fn"
             and toks[i + 1].kind == "ident" and toks[i + 1].value == fn.name]
    if not found:
        raise ValueError(f"no `fn {fn.name}` token")
    return found[-1]


def _body_open(toks: list[Token], i: int) -> int:
    """Index of the ``{`` that opens the body of the fn whose ``fn`` token is ``i``."""
    depth = 0
    for j in range(i, len(toks)):
        t = toks[j]
        if t.kind == "punct" and t.value in ("(", "["):
            depth += 1
        elif t.kind == "punct" and t.value in (")", "]"):
            depth -= 1
        elif t.is_p("{") and depth == 0:
            return j
    raise ValueError("no body")


def _matching(toks: list[Token], i: int) -> int:
    depth = 0
    for j in range(i, len(toks)):
        if toks[j].is_p("{"):
            depth += 1
        elif toks[j].is_p("}"):
            depth -= 1
            if depth == 0:
                return j
    raise ValueError("unbalanced braces")


def _clauses(toks: list[Token], lo: int, hi: int) -> dict[str, list[tuple[int, int]]]:
    """Each clause keyword of a header (tokens ``lo..hi``) with its comma-separated items as
    inclusive token ranges; commas inside brackets and quantifier binders do not split."""
    kws = []
    depth = 0
    for j in range(lo, hi):
        t = toks[j]
        if t.kind == "punct" and t.value in ("(", "[", "{"):
            depth += 1
        elif t.kind == "punct" and t.value in (")", "]", "}"):
            depth -= 1
        elif depth == 0 and t.kind == "ident" and t.value in _CLAUSE_KWS:
            kws.append(j)
    out: dict[str, list[tuple[int, int]]] = {}
    for n, k in enumerate(kws):
        end = kws[n + 1] if n + 1 < len(kws) else hi
        items: list[tuple[int, int]] = []
        start, depth, binder = k + 1, 0, False
        for j in range(k + 1, end):
            t = toks[j]
            if t.is_p("|") and (binder or (j > 0 and toks[j - 1].kind == "ident"
                                           and toks[j - 1].value in _QUANT)):
                binder = not binder
            elif t.kind == "punct" and t.value in ("(", "[", "{"):
                depth += 1
            elif t.kind == "punct" and t.value in (")", "]", "}"):
                depth -= 1
            elif t.is_p(",") and depth == 0 and not binder:
                if j > start:
                    items.append((start, j - 1))
                start = j + 1
        if end > start:
            items.append((start, end - 1))
        out.setdefault(str(toks[k].value), []).extend(items)
    return out


def _binders(toks: list[Token], lo: int, hi: int) -> set[str]:
    """Names a clause binds: quantifier and closure parameters (typed or not, ``forall|i|``,
    ``s.all(|x: int| ..)``) and ``let`` names. A binder that shadows a parameter would be
    rewritten to ``input.x`` too, so the caller refuses it as out of reach."""
    names: set[str] = set()
    inside = False
    for j in range(lo, hi + 1):
        t = toks[j]
        prev = toks[j - 1] if j > lo else None
        opens = prev is not None and (
            (prev.kind == "ident" and prev.value in _QUANT)
            or prev.is_p("(") or prev.is_p(",") or prev.is_p("{") or prev.is_p("="))
        if t.is_p("|") and (inside or opens):
            inside = not inside
        elif inside and t.kind == "ident" and j + 1 <= hi and (
                toks[j + 1].is_p(":") or toks[j + 1].is_p(",") or toks[j + 1].is_p("|")):
            names.add(str(t.value))
        elif t.kind == "ident" and t.value == "let":
            # ``let x = ..``, ``let (a, b): T = ..``, ``if let Some(n) = ..``: up to the ``=``
            # or the type's ``:``
            k, depth = j + 1, 0
            while k <= hi and not (depth == 0 and (toks[k].is_p("=") or toks[k].is_p(":"))):
                depth += toks[k].is_p("(") or toks[k].is_p("[") or toks[k].is_p("{")
                depth -= toks[k].is_p(")") or toks[k].is_p("]") or toks[k].is_p("}")
                k += 1
            names |= _pattern_names(toks, j + 1, k - 1)
        elif t.is_p("=>"):
            names |= _pattern_names(toks, _arm_start(toks, lo, j), j - 1)
    return names


def _arm_start(toks: list[Token], lo: int, arrow: int) -> int:
    """The first token of the ``match`` arm pattern that ends before ``arrow``: after the
    ``{`` or ``,`` that opens it, brackets inside the pattern skipped."""
    depth = 0
    k = arrow - 1
    while k > lo:
        t = toks[k]
        if t.is_p(")") or t.is_p("]") or t.is_p("}"):
            depth += 1
        elif t.is_p("(") or t.is_p("[") or t.is_p("{"):
            if depth == 0:
                return k + 1
            depth -= 1
        elif t.is_p(",") and depth == 0:
            return k + 1
        k -= 1
    return lo


def _pattern_names(toks: list[Token], lo: int, hi: int) -> set[str]:
    """Names a pattern binds: identifiers that are not a path, a variant or struct name, a
    field label (``x: pat``) or the guard after ``if``. Over-counting is safe (the caller only
    refuses); missing one would rewrite the binder."""
    names: set[str] = set()
    for k in range(lo, hi + 1):
        t = toks[k]
        if t.kind == "ident" and t.value == "if":
            break  # the guard reads names, it binds none
        if t.kind != "ident" or str(t.value) in ("mut", "ref", "_"):
            continue
        nxt = toks[k + 1] if k + 1 <= hi else None
        prv = toks[k - 1] if k > lo else None
        if nxt is not None and (nxt.is_p("(") or nxt.is_p("{") or nxt.is_p("::")
                                or nxt.is_p(":")):
            continue
        if prv is not None and (prv.is_p("::") or prv.is_p(".")):
            continue
        if str(t.value)[:1].isupper():
            continue  # a unit variant or a constant, not a binding
        names.add(str(t.value))
    return names


def _is_vec(ty: A.TypeRef) -> bool:
    return ty.name in _SEQS or ty.path == ("array",)


def _rewrite(src: _Source, lo: int, hi: int, names: dict[str, str], views: set[str],
             program: Path, types: dict[str, A.TypeRef] | None = None) -> str:
    """The clause's text with each parameter read from ``input`` / the result from
    ``output`` (``names`` maps a name to its replacement)."""
    toks = src.tokens
    types = types or {}
    shadow = _binders(toks, lo, hi) & set(names)
    if shadow:
        raise _out_of_reach(program, toks[lo].line, f"a binder shadows the parameter "
                            f"`{sorted(shadow)[0]}`")
    out: list[str] = []
    prev_end = src.start(lo)
    j = lo
    while j <= hi:
        t = toks[j]
        gap = src.text[prev_end:src.start(j)]
        word = str(t.value) if t.kind == "ident" else None
        after_dot = j > lo and (toks[j - 1].is_p(".") or toks[j - 1].is_p("::"))
        if word == "old" and j + 3 <= hi and toks[j + 1].is_p("(") \
                and toks[j + 2].kind == "ident" and str(toks[j + 2].value) in names \
                and toks[j + 3].is_p(")"):
            out.append(gap + names[str(toks[j + 2].value)])
            prev_end = src.end(j + 3)
            j += 4
            continue
        if word in names and not after_dot and not t.raw:
            out.append(gap + names[word])
            prev_end = src.end(j)
            ty = types.get(word)
            k = j
            # `x.0@` where x is a tuple of Vecs: keep `.0`, drop the view (it became a Seq)
            while ty is not None and ty.name == "tuple" and k + 2 <= hi \
                    and toks[k + 1].is_p(".") and toks[k + 2].kind == "int" \
                    and toks[k + 2].value[0] < len(ty.args):
                ty = ty.args[toks[k + 2].value[0]]
                k += 2
            if k > j and ty is not None and _is_vec(ty) and k + 1 <= hi \
                    and toks[k + 1].is_p("@"):
                out.append(src.text[prev_end:src.end(k)])
                prev_end = src.end(k + 1)
                j = k + 2
                continue
            if word in views and j + 1 <= hi and toks[j + 1].is_p("@"):
                prev_end = src.end(j + 1)
                j += 1
            elif word in views and j + 3 <= hi and toks[j + 1].is_p(".") \
                    and toks[j + 2].kind == "ident" and toks[j + 2].value == "view" \
                    and toks[j + 3].is_p("(") and j + 4 <= hi and toks[j + 4].is_p(")"):
                prev_end = src.end(j + 4)
                j += 4
            j += 1
            continue
        if t.is_p("@") and _elem_view(toks, lo, j, types):
            out.append(gap)  # `v[k]@` of a Vec of Vecs: the element became a Seq
            prev_end = src.end(j)
            j += 1
            continue
        out.append(gap + t.text)
        prev_end = src.end(j)
        j += 1
    return "".join(out).strip()


def _elem_view(toks: list[Token], lo: int, at: int, types: dict[str, A.TypeRef]) -> bool:
    """Whether the ``@`` at ``at`` views an element ``v[..]`` of a parameter ``v`` whose
    elements are Vecs (``seq[k]@``)."""
    if at - 1 < lo or not toks[at - 1].is_p("]"):
        return False
    depth, k = 0, at - 1
    while k >= lo:
        if toks[k].is_p("]"):
            depth += 1
        elif toks[k].is_p("["):
            depth -= 1
            if depth == 0:
                break
        k -= 1
    base = k - 1
    if base >= lo and toks[base].is_p("@"):
        base -= 1
    if base < lo or toks[base].kind != "ident":
        return False
    ty = types.get(str(toks[base].value))
    return ty is not None and _is_vec(ty) and bool(ty.args) and _is_vec(ty.args[0])


def _spec_items(src: _Source, mod: A.SpecModule, skip: str) -> list[str]:
    """Source text of every spec fn of the program (the contract may call them)."""
    toks = src.tokens
    out = []
    for fn in mod.all_fns():
        if fn.mode != "spec" or fn.name == skip or fn.self_type:
            continue
        try:
            i = _fn_token(toks, fn)
            lo = i
            while lo > 0 and toks[lo - 1].kind == "ident" and toks[lo - 1].value in _ITEM_QUALS:
                lo -= 1
            while lo > 1 and toks[lo - 1].is_p("]"):  # attributes: #[verifier::...]
                k = lo - 1
                while k > 0 and not toks[k].is_p("["):
                    k -= 1
                if k > 0 and toks[k - 1].is_p("#"):
                    lo = k - 1
                else:
                    break
            hi = _matching(toks, _body_open(toks, i))
        except ValueError:
            continue
        out.append(src.span_text(lo, hi))
    return out


class _ToJson(T.TypeVisitor[[Any], Any]):
    """An interpreter value as JSON, for the types a test's expected value may have."""

    def visit_int(self, ty: T.IntType, v: Any) -> Any:
        if type(v) is not int:
            raise ValueError(f"expected an integer, got {v!r}")
        return v

    def visit_bool(self, ty: T.BoolType, v: Any) -> Any:
        if type(v) is not bool:
            raise ValueError(f"expected a bool, got {v!r}")
        return v

    def visit_char(self, ty: T.CharType, v: Any) -> Any:
        return str(v)

    def visit_string(self, ty: T.StringType, v: Any) -> Any:
        return "".join(v)

    def visit_seq(self, ty: T.SeqType, v: Any) -> Any:
        return [to_json(x, ty.elem) for x in v]

    def visit_option(self, ty: T.OptionType, v: Any) -> Any:
        from .interp.values import EnumVal
        if isinstance(v, EnumVal) and v.variant == "None":
            return None
        if isinstance(v, EnumVal) and v.variant == "Some":
            return {"some": to_json(v.vals[0], ty.elem)}
        raise ValueError(f"expected an Option, got {v!r}")

    def visit_tuple(self, ty: T.TupleType, v: Any) -> Any:
        if not isinstance(v, tuple):  # a Tup is a tuple
            return self._cannot(ty, v)
        return [to_json(x, t) for x, t in zip(v, ty.elems, strict=True)]

    def _cannot(self, ty: T.Type, v: Any) -> Any:
        raise ValueError(f"cannot write {v!r} as {ty}")

    visit_set = visit_multiset = visit_map = visit_struct = _cannot
    visit_float = visit_nullable = _cannot


_TO_JSON = _ToJson()


def to_json(v: Any, ty: T.Type) -> Any:
    """An interpreter value as a JSON case value of type ``ty`` (the inverse of
    ``interp.values.from_json``)."""
    return T.visit(ty, _TO_JSON, v)


def main_tests(mod: A.SpecModule) -> list[tuple[int, str, list[A.Expr], A.Expr | None, bool]]:
    """``(line, function, argument exprs, expected expr or None, expected bool)`` of each
    ``assert_eq!(f(args), expected)`` / ``assert!(f(args))`` / ``assert!(!f(args))`` in
    ``main`` (``f(args).unwrap()`` counts as ``f(args)``)."""
    main = mod.fns.get("main")
    if main is None or main.body_span is None:
        return []
    toks = mod.tokens
    out = []
    i, end = main.body_span
    while i < end:
        t = toks[i]
        if t.kind == "ident" and t.value in ("assert_eq", "assert") and toks[i + 1].is_p("!") \
                and toks[i + 2].is_p("("):
            p = Parser(toks, mod.path)
            p.pos = i + 3
            try:
                args = p.parse_call_args(")")
            except SpecInvalid:
                i += 1
                continue
            i = p.pos
            want = True
            if t.value == "assert_eq" and len(args) >= 2:
                call, expected = args[0], args[1]
            elif t.value == "assert" and args:
                call, expected = args[0], None
                if isinstance(call, A.Unary) and call.op == "!":
                    call, want = call.e, False
            else:
                continue
            if isinstance(call, A.MethodCall) and call.name == "unwrap" and not call.args:
                call = call.recv
            if isinstance(call, A.Call) and isinstance(call.func, A.Path):
                out.append((t.line, call.func.name, call.args, expected, want))
            continue
        i += 1
    return out


def tests_of(mod: A.SpecModule, function: str
             ) -> list[tuple[int, list[A.Expr], A.Expr | None, bool]]:
    """The tests of ``function`` among ``main_tests``."""
    return [(line, args, exp, want) for line, name, args, exp, want in main_tests(mod)
            if name == function]


def _header_has_mut(src: _Source, fn_tok: int, open_tok: int, param: str) -> bool:
    header = src.text[src.start(fn_tok):src.start(open_tok)]
    return re.search(rf"\b{re.escape(param)}\s*:\s*&\s*mut\b", header) is not None


def convert(program: Path, function: str, dest: Path, task_id: str | None = None) -> RustTaskWritten:
    """Write the task; a program nested too deeply for our recursive parser and evaluator
    (thousands of parentheses) is an input error naming the file, not an internal error."""
    try:
        return _convert(program, function, dest, task_id)
    except RecursionError:
        raise TaskError("the program is nested too deeply to read (parentheses, blocks or "
                        "calls thousands deep)", file=str(program)) from None


def _convert(program: Path, function: str, dest: Path, task_id: str | None) -> RustTaskWritten:
    try:
        text = program.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise TaskError(f"cannot read the program: {e}", file=str(program)) from None
    try:
        mod = parse_module(text, str(program))
    except SpecInvalid as e:
        raise TaskError(f"the program does not parse: {e.message}", file=str(program),
                        line=e.line) from None
    fn = mod.fns.get(function)
    exec_fns = sorted(f.name for f in mod.all_fns() if f.mode == "exec" and f.name != "main")
    if fn is None or fn.mode != "exec":
        raise TaskError(f"no exec fn {function!r} in the program (exec fns: "
                        f"{', '.join(exec_fns) or 'none'})", file=str(program))
    if fn.has_self or fn.self_type:
        raise _out_of_reach(program, fn.line, f"`{function}` is a method")
    if fn.generics:
        raise _out_of_reach(program, fn.line, f"`{function}` is generic")
    src = _Source(text, mod.tokens)
    fn_tok = _fn_token(mod.tokens, fn)
    open_tok = fn.body_span[0] if fn.body_span else _body_open(mod.tokens, fn_tok)
    if not mod.tokens[open_tok].is_p("{"):
        open_tok = _body_open(mod.tokens, fn_tok)
    inputs: dict[str, str] = {}
    views: set[str] = set()
    for p in fn.params:
        if p.pat is not None:
            raise _out_of_reach(program, p.line, "a parameter is a pattern")
        if _header_has_mut(src, fn_tok, open_tok, p.name):
            raise _out_of_reach(program, p.line, f"`{p.name}` is `&mut` (changed in place)")
        inputs[p.name] = task_type(p.ty, f"parameter `{p.name}`", program, p.line)
        if _is_vec(p.ty):
            views.add(p.name)
    if fn.ret_type is None or fn.ret_type.name == "unit":
        raise _out_of_reach(program, fn.line, f"`{function}` returns nothing (a result "
                            "through `&mut` cannot be a task's output)")
    out_name = fn.ret_name or "result"
    if out_name in inputs:
        raise _out_of_reach(program, fn.line, "the result has a parameter's name")
    output = task_type(fn.ret_type, "the result", program, fn.line)
    ret_view = fn.ret_type.name in _SEQS
    clauses = _clauses(mod.tokens, fn_tok, open_tok)
    pre_names = {n: f"input.{n}" for n in inputs}
    post_names = {**pre_names, **({fn.ret_name: f"output.{fn.ret_name}"} if fn.ret_name
                                  else {})}
    post_views = views | ({fn.ret_name} if fn.ret_name and ret_view else set())
    types = {p.name: p.ty for p in fn.params}
    if fn.ret_name:
        types[fn.ret_name] = fn.ret_type
    pre = [_rewrite(src, lo, hi, pre_names, views, program, types)
           for lo, hi in clauses.get("requires", [])]
    post = [_rewrite(src, lo, hi, post_names, post_views, program, types)
            for lo, hi in clauses.get("ensures", [])]
    tid = task_id or f"{program.stem}_{function}"
    cases, skipped = _cases(mod, fn, function, inputs, out_name, output, program)
    _write(dest, tid, program, function, inputs, out_name, output, pre, post,
           _spec_items(src, mod, function), cases, _statement(mod, src, function))
    return RustTaskWritten(task_dir=dest, cases=len(cases), skipped_tests=skipped)


def _cases(mod: A.SpecModule, fn: A.FnItem, function: str, inputs: dict[str, str],
           out_name: str, output: str, program: Path
           ) -> tuple[list[tuple[dict[str, Any], dict[str, Any]]], list[str]]:
    from .interp.compiler import Abort, Budget, CompileError, Program
    from .interp.values import Undef
    prog = Program(mod)
    in_types = {n: T.parse_type(t) for n, t in inputs.items()}
    out_type = T.parse_type(output)
    cases: list[tuple[dict[str, Any], dict[str, Any]]] = []
    skipped: list[str] = []
    seen: set[str] = set()
    for line, arg_exprs, expected, want in tests_of(mod, function):
        if len(arg_exprs) != len(fn.params):
            skipped.append(f"line {line}: {len(arg_exprs)} arguments for {len(fn.params)}")
            continue
        try:
            prog.budget = Budget(5_000_000, 10.0)
            args = [prog.compile_expr(a, [])() for a in arg_exprs]
            ret = prog.compile_expr(expected, [])() if expected is not None else want
            inp = {p.name: to_json(a, in_types[p.name]) for p, a in zip(fn.params, args,
                                                                           strict=True)}
            out = {out_name: to_json(ret, out_type)}
        except (Undef, CompileError, Abort, ValueError, TypeError) as e:
            skipped.append(f"line {line}: cannot evaluate the test's values ({e})")
            continue
        key = json.dumps([inp, out], sort_keys=True)
        if key not in seen:
            seen.add(key)
            cases.append((inp, out))
    return cases, skipped


def _statement(mod: A.SpecModule, src: _Source, function: str) -> str:
    """The program's own description: the comment lines of ``main`` (MBPP's ``// Write a
    function ...``) or the doc comment above the function."""
    main = mod.fns.get("main")
    found: list[str] = []
    if main is not None and main.body_span is not None:
        lo = src.start(main.body_span[0])
        hi = src.start(min(main.body_span[1], len(src.tokens) - 1))
        found = [m.group(1).strip() for m in re.finditer(r"//+\s?(.*)", src.text[lo:hi])]
    text = " ".join(x for x in found if x)
    return text or f"The function `{function}` of the program, as its contract states."


def _toml_str(s: str) -> str:
    return json.dumps(s, ensure_ascii=False)


def _write(dest: Path, tid: str, program: Path, function: str, inputs: dict[str, str],
           out_name: str, output: str, pre: list[str], post: list[str], spec_items: list[str],
           cases: list[tuple[dict[str, Any], dict[str, Any]]], statement: str) -> None:
    from .skeleton import skeleton_for_folder
    dest.mkdir(parents=True, exist_ok=True)
    lines = [f"id = {_toml_str(tid)}", 'language = "verus"',
             f"title = {_toml_str(f'{function} from {program.name}')}",
             f"provenance = {_toml_str(f'adequacy task from {program.name} --function {function}')}",
             "", "[signature.input]"]
    lines += [f"{n} = {_toml_str(t)}" for n, t in inputs.items()]
    lines += ["", "[signature.output]", f"{out_name} = {_toml_str(output)}", ""]
    (dest / "task.toml").write_text("\n".join(lines), encoding="utf-8")
    (dest / "statement.md").write_text(statement + "\n", encoding="utf-8")
    pairs = [(Case(id=f"test-{k}", bucket=b, input=i, output=o if b.predicate == "post" else None,
                   origin="official", visible=k < 3))
             for b in (Bucket.pre_complete, Bucket.post_complete)
             for k, (i, o) in enumerate(cases, 1)]
    for b in BUCKETS:
        write_cases(dest, b, [c for c in pairs if c.bucket == b])
    skeleton = skeleton_for_folder(dest)
    (dest / "skeleton.rs").write_text(skeleton, encoding="utf-8")
    specs = dest / "specs"
    specs.mkdir(exist_ok=True)
    (specs / "original.rs").write_text(_fill(skeleton, pre, post, spec_items),
                                       encoding="utf-8")


def _conj(clauses: list[str]) -> str:
    if not clauses:
        return "true"
    return "\n    && ".join(f"({c})" for c in clauses)


def _fill(skeleton: str, pre: list[str], post: list[str], items: list[str]) -> str:
    """The skeleton with the contract in its two bodies and the spec fns before them."""
    pre_hdr = "spec fn pre_spec(input: Input) -> bool {\n    true\n}"
    post_hdr = "spec fn post_spec(input: Input, output: Output) -> bool {\n    true\n}"
    if pre_hdr not in skeleton or post_hdr not in skeleton:
        raise ValueError("unexpected skeleton layout")
    text = skeleton.replace(pre_hdr, "spec fn pre_spec(input: Input) -> bool {\n    "
                            + _conj(pre) + "\n}")
    text = text.replace(post_hdr, "spec fn post_spec(input: Input, output: Output) -> bool {\n"
                        "    " + _conj(post) + "\n}")
    if items:
        marker = "/// Which inputs the function promises to handle."
        text = text.replace(marker, "\n\n".join(items) + "\n\n" + marker, 1)
    return text
