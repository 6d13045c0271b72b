"""Java's own text conversions, re-stated in Python for reading and printing harness text.

A raw test pair means what the Java harness made of it, so each conversion follows the JDK
method the harness calls (``Integer.parseInt`` rejects ``" 1"`` and ``"1.0"``,
``Boolean.parseBoolean`` maps anything but "true" to false, ``String.trim`` strips every char up
to U+0020, ``Double.toString`` switches to ``E`` notation outside [1e-3, 1e7)).
"""

from __future__ import annotations

import math
import re
import struct
from decimal import Decimal
from typing import Any

from adequacy.plugin import DatasetError


class JavaConversionError(DatasetError):
    """The Java call would have thrown (NumberFormatException, index out of bounds, ...)."""


_INT = re.compile(r"[+-]?[0-9]+")
_BITS = {"Integer.parseInt": 32, "Long.parseLong": 64, "Short.parseShort": 16,
         "Byte.parseByte": 8}
_FLOAT = re.compile(
    r"[+-]?(?:NaN|Infinity|(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?[fFdD]?)")
_LINE_SEP = re.compile("\r\n|[\n\r\u2028\u2029\u0085]")


def scanner_lines(text: str) -> list[str]:
    """The successive results of ``Scanner.nextLine()`` until ``hasNextLine()`` is false."""
    if not text:
        return []
    parts = _LINE_SEP.split(text)
    if parts and parts[-1] == "":
        parts.pop()
    return parts


def java_trim(s: str) -> str:
    i, j = 0, len(s)
    while i < j and s[i] <= " ":
        i += 1
    while j > i and s[j - 1] <= " ":
        j -= 1
    return s[i:j]


def split_ws(s: str) -> list[str]:
    """``s.split("\\\\s+")``: a leading empty piece is kept, trailing ones are dropped."""
    if s == "":
        return [""]
    parts = re.split(r"[ \t\n\x0b\f\r]+", s)
    while parts and parts[-1] == "":
        parts.pop()
    return parts


def parse_integer(s: str, conv: str = "Integer.parseInt") -> int:
    if not _INT.fullmatch(s):
        raise JavaConversionError(f"{conv}({s!r}) throws NumberFormatException")
    v = int(s)
    bits = _BITS[conv]
    if not -(1 << (bits - 1)) <= v < (1 << (bits - 1)):
        raise JavaConversionError(f"{conv}({s!r}) throws NumberFormatException (out of range)")
    return v


def parse_double(s: str, conv: str = "Double.parseDouble") -> float:
    t = java_trim(s)
    if not _FLOAT.fullmatch(t):
        raise JavaConversionError(f"{conv}({s!r}) throws NumberFormatException")
    t = t.rstrip("fFdD") if not t.endswith(("NaN", "Infinity")) else t
    v = float(t.replace("Infinity", "inf"))
    if conv == "Float.parseFloat":
        v = struct.unpack("f", struct.pack("f", v))[0] if math.isfinite(v) and abs(v) < 3.5e38 \
            else (math.copysign(math.inf, v) if not math.isnan(v) else v)
    return v


def parse_boolean(s: str) -> bool:
    return s.lower() == "true"


def convert(conv: str, s: str) -> Any:
    """Apply a ``Type.parseX`` conversion by its Java name."""
    if conv in _BITS:
        return parse_integer(s, conv)
    if conv in ("Double.parseDouble", "Float.parseFloat"):
        return parse_double(s, conv)
    if conv == "Boolean.parseBoolean":
        return parse_boolean(s)
    raise JavaConversionError(f"unknown conversion {conv}")


def _java_layout(digits: str, exp10: int, neg: bool) -> str:
    """Lay out ``0.digits * 10**exp10`` as Double.toString does."""
    sign = "-" if neg else ""
    # value = d1.d2d3... * 10**(exp10 - 1)
    sci = exp10 - 1
    if -3 <= sci < 7:
        if exp10 <= 0:
            return f"{sign}0.{'0' * -exp10}{digits}"
        ip = digits[:exp10].ljust(exp10, "0")
        fp = digits[exp10:] or "0"
        return f"{sign}{ip}.{fp}"
    frac = digits[1:] or "0"
    return f"{sign}{digits[0]}.{frac}E{sci}"


def _digits_of(text: str) -> tuple[str, int]:
    d = Decimal(text)
    t = d.as_tuple()
    digits = "".join(map(str, t.digits)).rstrip("0") or "0"
    exp = int(t.exponent) + len(t.digits)  # value = 0.DIGITS * 10**exp
    return digits, exp


def double_to_string(v: float) -> str:
    """``Double.toString(v)`` (shortest round-trip digits, Java layout)."""
    if math.isnan(v):
        return "NaN"
    if math.isinf(v):
        return "Infinity" if v > 0 else "-Infinity"
    if v == 0:
        return "-0.0" if math.copysign(1, v) < 0 else "0.0"
    digits, exp = _digits_of(repr(abs(v)))
    return _java_layout(digits, exp, v < 0)


def float_to_string(v: float) -> str:
    """``Float.toString(v)``: the shortest decimal that reads back as the same float32."""
    if math.isnan(v) or math.isinf(v) or v == 0:
        return double_to_string(v)
    f32 = struct.unpack("f", struct.pack("f", v))[0]
    for prec in range(1, 10):
        text = f"{abs(f32):.{prec}e}"
        if struct.unpack("f", struct.pack("f", float(text)))[0] == abs(f32):
            break
    digits, exp = _digits_of(text)
    return _java_layout(digits, exp, f32 < 0)


def float_json(v: float) -> Any:
    """A float as a schema JSON value (docs/tasks.md spells the non-finite ones)."""
    if math.isnan(v):
        return "NaN"
    if math.isinf(v):
        return "Infinity" if v > 0 else "-Infinity"
    return v


def json_float(v: Any) -> float:
    if isinstance(v, str):
        return {"NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf}[v]
    return float(v)


_FLOATISH = re.compile(r"[+-]?(?:NaN|Infinity|[0-9]*\.[0-9]*(?:E-?[0-9]+)?)")


def same_text(raw: str, rendered: str) -> bool:
    """Equal up to whitespace; a token printed as a Java floating-point number (rendered with
    a ``.``, ``E``, ``NaN`` or ``Infinity``) also matches any spelling of the same number, since
    ``Double.parseDouble`` reads ``-2`` and ``-2.0`` alike."""
    a, b = raw.split(), rendered.split()
    if a == b:
        return True
    if len(a) != len(b):
        return False
    for x, y in zip(a, b, strict=True):
        if x == y:
            continue
        if not _FLOATISH.fullmatch(y) or not _FLOAT.fullmatch(x):
            return False
        try:
            fx, fy = parse_double(x), parse_double(y)
        except JavaConversionError:
            return False
        if not (fx == fy or (math.isnan(fx) and math.isnan(fy))):
            return False
    return True
