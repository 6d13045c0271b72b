"""The one place the importer meets the Verus backend's skeleton generator.

The skeleton (fixed ``Input``/``Output`` structs and the two spec holes) belongs to the backend,
so that imported and hand-written tasks get byte-identical skeletons and ``adequacy task
validate`` accepts imported tasks.
"""

from __future__ import annotations

from adequacy.plugin import DatasetError, Param, TaskError, parse_type


class NoSkeleton(DatasetError):
    """The backend cannot write a skeleton for this signature (message = its reason)."""


def make_skeleton(inputs: list[tuple[str, str]], output: tuple[str, str], title: str) -> str:
    """``inputs`` and ``output`` are (name, type-language text) pairs."""
    from ..skeleton import generate_skeleton

    try:
        ins = [Param(name=n, type=parse_type(t), type_text=t) for n, t in inputs]
        outs = [Param(name=output[0], type=parse_type(output[1]), type_text=output[1])]
        return generate_skeleton(ins, outs, title)
    except TaskError as e:
        raise NoSkeleton(str(e)) from None
