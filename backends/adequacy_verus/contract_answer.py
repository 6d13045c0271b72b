"""An answer written as an exec ``fn`` with ``requires``/``ensures``, read as the task's spec.

Models asked for a Verus spec often answer with the function itself, its contract on the
header (``fn f(a: i64) -> (r: i64) requires a >= 0 ensures r == a + 1 { .. }``), which the
front end refuses: a spec holds spec items only, and a plain ``fn`` is executable code. The
contract says what the task's ``pre_spec``/``post_spec`` must: ``requires`` is the
precondition, ``ensures`` the postcondition, each parameter ``x`` read as ``input.x`` and the
result as ``output.NAME``. ``task from`` already reads programs in this form
(``task_from``); this module uses the same rewriting for an answer, against the task's own
skeleton, so the body is dropped and never read. What it writes goes through the front end like
any spec.
"""

from __future__ import annotations

from adequacy.plugin import AdequacyError, SpecInvalid, Task

from .syntax import ast as A
from .syntax.parser import parse_module
from .task_from import (
    _SEQS,
    _body_open,
    _clauses,
    _fill,
    _fn_token,
    _header_has_mut,
    _is_vec,
    _rewrite,
    _Source,
    _spec_items,
)


class NotAContract(AdequacyError):
    """The text holds no exec fn whose contract can stand for the task's spec (the reason)."""


def _the_fn(mod: A.SpecModule, task: Task) -> A.FnItem:
    want = sorted(p.name for p in task.inputs)
    fns = [f for f in mod.all_fns() if f.mode == "exec" and f.name != "main"]
    fit = [f for f in fns if sorted(p.name for p in f.params) == want
           and not f.has_self and not f.self_type and not f.generics]
    if len(fit) != 1:
        named = ", ".join(f"`{f.name}`" for f in fns) or "none"
        raise NotAContract(f"no single exec fn takes the task's inputs ({', '.join(want)}); "
                           f"exec fns: {named}")
    return fit[0]


def contract_spec(task: Task, text: str, path: str | None = None) -> str:
    """The task's skeleton with the exec fn's ``requires`` as ``pre_spec`` and ``ensures`` as
    ``post_spec`` (the answer's spec fns kept before them); ``NotAContract`` says why not."""
    try:
        mod = parse_module(text, path or "<answer>")
    except SpecInvalid as e:
        raise NotAContract(f"it does not parse: {e.message}") from None
    fn = _the_fn(mod, task)
    src = _Source(text, mod.tokens)
    try:
        fn_tok = _fn_token(mod.tokens, fn)
        open_tok = fn.body_span[0] if fn.body_span else _body_open(mod.tokens, fn_tok)
        if not mod.tokens[open_tok].is_p("{"):
            open_tok = _body_open(mod.tokens, fn_tok)
    except ValueError as e:
        raise NotAContract(f"`{fn.name}` has no body to read its header from ({e})") from None
    for p in fn.params:
        if _header_has_mut(src, fn_tok, open_tok, p.name):
            raise NotAContract(f"`{p.name}` is `&mut` (a result through mutation)")
    clauses = _clauses(mod.tokens, fn_tok, open_tok)
    if not clauses.get("requires") and not clauses.get("ensures"):
        raise NotAContract(f"`{fn.name}` has no requires or ensures")
    outs = [p.name for p in task.outputs]
    names = {p.name: f"input.{p.name}" for p in fn.params}
    post_names = dict(names)
    views = {p.name for p in fn.params if _is_vec(p.ty)}
    post_views = set(views)
    if fn.ret_name:
        target = fn.ret_name if fn.ret_name in outs else (outs[0] if len(outs) == 1 else None)
        if target is None:
            raise NotAContract(f"the result `{fn.ret_name}` is none of the task's outputs "
                               f"({', '.join(outs)})")
        post_names[fn.ret_name] = f"output.{target}"
        if fn.ret_type is not None and fn.ret_type.name in _SEQS:
            post_views.add(fn.ret_name)
    types = {p.name: p.ty for p in fn.params}
    if fn.ret_name and fn.ret_type is not None:
        types[fn.ret_name] = fn.ret_type
    from pathlib import Path

    where = Path(path or "<answer>")
    try:
        pre = [_rewrite(src, lo, hi, names, views, where, types)
               for lo, hi in clauses.get("requires", [])]
        post = [_rewrite(src, lo, hi, post_names, post_views, where, types)
                for lo, hi in clauses.get("ensures", [])]
        return _fill(task.skeleton, pre, post, _spec_items(src, mod, fn.name))
    except AdequacyError as e:
        raise NotAContract(str(e)) from None
    except ValueError as e:
        raise NotAContract(f"the task's skeleton cannot take it ({e})") from None


def how_to_convert(task: Task, text: str, path: str | None = None) -> str | None:
    """For the front end's refusal of an exec fn: the spec its contract would be, in words a
    person can act on (None when the text holds no convertible contract)."""
    try:
        spec = contract_spec(task, text, path)
    except NotAContract:
        return None
    fns = _bodies(spec)
    return ("a spec is the task's skeleton with the contract in its two spec fns, each "
            "parameter `x` read as `input.x` and the result as `output.NAME`; this contract "
            f"reads: pre_spec {{ {fns.get('pre_spec', 'true')} }} post_spec "
            f"{{ {fns.get('post_spec', 'true')} }} (`synthesize` converts a model's answer in "
            "this form itself)")


def _bodies(spec: str) -> dict[str, str]:
    """The one-line bodies of ``pre_spec`` and ``post_spec`` in a filled skeleton."""
    import re

    out = {}
    for name in ("pre_spec", "post_spec"):
        m = re.search(rf"spec fn {name}\([^)]*\) -> bool \{{\n(.*?)\n\}}", spec, re.S)
        if m:
            body = " ".join(m.group(1).split())
            out[name] = body if len(body) <= 200 else body[:197] + "..."
    return out
