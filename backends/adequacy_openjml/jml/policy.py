"""The front end's rule on the task's code: a spec may add JML and pure helpers, nothing else.

Kept apart from the reader because it is a decision about what counts as the same program
(the adequacy of a spec for different code means nothing), not a fact about the file.
"""

from __future__ import annotations

from adequacy.plugin import SpecInvalid

from .members import SpecFile


def check_code(spec: SpecFile, original: SpecFile, allow_pure_helpers: bool = True) -> None:
    """Raise ``SpecInvalid("code altered at line N")`` unless the spec's Java is the task's.

    JML is stripped on both sides and the Java tokens compared one by one. Added methods that
    carry a JML ``pure`` modifier and do not exist in the task are allowed (spec helpers, as
    language models write them); everything else, however small, is an alteration, because
    the adequacy of a spec for different code means nothing.
    """
    orig_names = {m.name for c in original.classes for m in c.methods}
    skip: list[tuple[int, int]] = []
    if allow_pure_helpers:
        for c in spec.classes:
            for m in c.methods:
                # never a constructor: rac makes the receiver of an instance method with it
                if m.is_pure and m.name not in orig_names and m.return_type is not None:
                    skip.append(m.tok_range)
    skipped = bytearray(len(spec.java_tokens))
    for lo, hi in skip:
        skipped[lo:hi] = b"\x01" * (hi - lo)
    mine = [t for k, t in enumerate(spec.java_tokens) if not skipped[k]]
    theirs = original.java_tokens
    for k, (a, b) in enumerate(zip(mine, theirs, strict=False)):
        if a.kind == "eof" and b.kind == "eof":
            return
        if a.text != b.text or a.kind != b.kind:
            if a.kind == "eof":
                raise SpecInvalid(f"code altered at line {a.line}: the task's code continues "
                                  f"with {b.text!r} (line {b.line} of the task) but the spec "
                                  "ends", file=spec.file, line=a.line)
            found = a.text
            want = b.text if b.kind != "eof" else "end of file"
            raise SpecInvalid(f"code altered at line {a.line}: found {found!r} where the task's "
                              f"code has {want!r} (line {b.line}); only JML comments and pure "
                              "helper methods may be added", file=spec.file, line=a.line)
        del k

