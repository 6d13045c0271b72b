"""Which parameter a method's code always returns (a token scan of the body, no statements).

Used where a harness prints an argument's post-state instead of the returned value: when the
code returns that very argument, ``\\result`` is that post-state; otherwise it stays unknown.
"""

from __future__ import annotations

from .members import JavaMethod, SpecFile

_BEFORE_USE = {"return", "new", "instanceof", "else", "do", "case", "throw", "yield", "assert"}
_ASSIGN_OPS = {"=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=", ">>>="}


def returned_parameter(spec: SpecFile, method: JavaMethod) -> str | None:
    """The parameter the method always returns, when its code shows that it does.

    Some harnesses print an array argument after the call instead of the returned value (the
    argument's post-state is the task's output) while the method also returns that same array.
    ``\\result`` is then the post-state object itself; this holds when every ``return`` in the
    body is ``return p;`` and ``p`` is never assigned or redeclared, which a token scan can
    decide without understanding statements. Anything else (no return, another expression, a
    lambda's return, a reassignment) gives None: ``\\result`` stays unknown rather than guessed.
    """
    if method.return_type in (None, "void") or not method.has_body:
        return None
    names = {n for _t, n in method.params}
    a, b = method.tok_range
    toks = spec.java_tokens[a:b]
    body = next((k for k, t in enumerate(toks) if t.is_op("{")), None)
    if body is None:
        return None
    toks = toks[body:]
    returned: set[str] = set()
    for k, t in enumerate(toks):
        if t.is_ident("return"):
            if not (k + 2 < len(toks) and toks[k + 1].kind == "ident"
                    and toks[k + 1].text in names and toks[k + 2].is_op(";")):
                return None
            returned.add(toks[k + 1].text)
    if len(returned) != 1:
        return None
    p = returned.pop()
    for k, t in enumerate(toks):
        if not t.is_ident(p) or k == 0:
            continue
        prev, nxt = toks[k - 1], toks[k + 1] if k + 1 < len(toks) else None
        if prev.is_op(".", "::"):
            continue  # a member named like the parameter
        if nxt is not None and nxt.kind == "op" and nxt.text in _ASSIGN_OPS:
            return None  # reassigned
        if prev.kind == "ident" and prev.text not in _BEFORE_USE or \
                prev.is_op(">", "]"):
            return None  # declared again (a local or lambda parameter shadows it)
        if nxt is not None and nxt.is_op("->"):
            return None
    return p
