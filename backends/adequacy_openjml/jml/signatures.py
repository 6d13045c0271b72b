"""Signatures of the JDK members a JML spec may use: one line per method, read by ``typecheck``.

Why a table: the type checker must know what ``s.charAt(i)`` returns and that ``String`` has no
``size()``; keeping the JDK's facts in one place makes adding a method one line. A class in
``CLOSED`` is listed in full for what specs use (an unknown member is a type error, as javac
says ``cannot find symbol``); any other class is open: listed members get their types, unlisted
ones are accepted untyped, because calling a valid spec invalid is as wrong as scoring a bad one.
Sources: the Java SE API documentation of each class (java.lang.String, Math, Integer, Long,
Character, ...); OpenJML's specs for them declare the same signatures.
"""

from __future__ import annotations

from dataclasses import dataclass

# class  static?  name  (parameter types)  return type;  one method per line
_TABLE = """
String  -  length()  int
String  -  charAt(int)  char
String  -  isEmpty()  boolean
String  -  isBlank()  boolean
String  -  substring(int)  String
String  -  substring(int,int)  String
String  -  subSequence(int,int)  CharSequence
String  -  indexOf(String)  int
String  -  indexOf(int)  int
String  -  indexOf(String,int)  int
String  -  indexOf(int,int)  int
String  -  lastIndexOf(String)  int
String  -  lastIndexOf(int)  int
String  -  lastIndexOf(String,int)  int
String  -  lastIndexOf(int,int)  int
String  -  contains(CharSequence)  boolean
String  -  startsWith(String)  boolean
String  -  startsWith(String,int)  boolean
String  -  endsWith(String)  boolean
String  -  equals(Object)  boolean
String  -  equalsIgnoreCase(String)  boolean
String  -  contentEquals(CharSequence)  boolean
String  -  compareTo(String)  int
String  -  compareToIgnoreCase(String)  int
String  -  toUpperCase()  String
String  -  toLowerCase()  String
String  -  trim()  String
String  -  strip()  String
String  -  stripLeading()  String
String  -  stripTrailing()  String
String  -  concat(String)  String
String  -  replace(char,char)  String
String  -  replace(CharSequence,CharSequence)  String
String  -  replaceAll(String,String)  String
String  -  replaceFirst(String,String)  String
String  -  matches(String)  boolean
String  -  repeat(int)  String
String  -  toCharArray()  char[]
String  -  split(String)  String[]
String  -  split(String,int)  String[]
String  -  hashCode()  int
String  -  toString()  String
String  -  intern()  String
String  -  codePointAt(int)  int
String  -  codePointCount(int,int)  int
String  -  chars()  ?
String  -  codePoints()  ?
String  -  lines()  ?
String  -  codePointBefore(int)  int
String  -  offsetByCodePoints(int,int)  int
String  -  toUpperCase(?)  String
String  -  toLowerCase(?)  String
String  -  formatted(?...)  String
String  -  indent(int)  String
String  -  stripIndent()  String
String  -  translateEscapes()  String
String  -  describeConstable()  ?
String  -  getBytes()  byte[]
String  -  getClass()  ?
String  -  regionMatches(int,String,int,int)  boolean
String  -  regionMatches(boolean,int,String,int,int)  boolean
String  static  valueOf(Object)  String
String  static  valueOf(char[],int,int)  String
String  static  copyValueOf(char[])  String
String  static  copyValueOf(char[],int,int)  String
String  static  join(?...)  String
String  static  format(?...)  String
Math  static  abs(int)  int
Math  static  abs(long)  long
Math  static  abs(float)  float
Math  static  abs(double)  double
Math  static  max(int,int)  int
Math  static  max(long,long)  long
Math  static  max(float,float)  float
Math  static  max(double,double)  double
Math  static  min(int,int)  int
Math  static  min(long,long)  long
Math  static  min(float,float)  float
Math  static  min(double,double)  double
Math  static  addExact(int,int)  int
Math  static  addExact(long,long)  long
Math  static  subtractExact(int,int)  int
Math  static  subtractExact(long,long)  long
Math  static  multiplyExact(int,int)  int
Math  static  multiplyExact(long,int)  long
Math  static  multiplyExact(long,long)  long
Math  static  negateExact(int)  int
Math  static  negateExact(long)  long
Math  static  incrementExact(int)  int
Math  static  incrementExact(long)  long
Math  static  decrementExact(int)  int
Math  static  decrementExact(long)  long
Math  static  absExact(int)  int
Math  static  absExact(long)  long
Math  static  toIntExact(long)  int
Math  static  floorDiv(int,int)  int
Math  static  floorDiv(long,int)  long
Math  static  floorDiv(long,long)  long
Math  static  floorMod(int,int)  int
Math  static  floorMod(long,int)  int
Math  static  floorMod(long,long)  long
Math  static  ceilDiv(int,int)  int
Math  static  ceilDiv(long,long)  long
Math  static  multiplyHigh(long,long)  long
Math  static  multiplyFull(int,int)  long
Math  static  round(float)  int
Math  static  round(double)  long
Math  static  signum(float)  float
Math  static  signum(double)  double
Math  static  pow(double,double)  double
Math  static  sqrt(double)  double
Math  static  cbrt(double)  double
Math  static  hypot(double,double)  double
Math  static  exp(double)  double
Math  static  expm1(double)  double
Math  static  log(double)  double
Math  static  log10(double)  double
Math  static  log1p(double)  double
Math  static  ceil(double)  double
Math  static  floor(double)  double
Math  static  rint(double)  double
Math  static  sin(double)  double
Math  static  cos(double)  double
Math  static  tan(double)  double
Math  static  asin(double)  double
Math  static  acos(double)  double
Math  static  atan(double)  double
Math  static  atan2(double,double)  double
Math  static  toRadians(double)  double
Math  static  toDegrees(double)  double
Math  static  random()  double
Math  static  ulp(double)  double
Math  static  ulp(float)  float
Math  static  clamp(long,int,int)  int
Math  static  clamp(long,long,long)  long
Math  static  clamp(double,double,double)  double
Math  static  fma(double,double,double)  double
Math  static  copySign(double,double)  double
Math  static  nextUp(double)  double
Math  static  nextDown(double)  double
Math  static  getExponent(double)  int
Math  static  IEEEremainder(double,double)  double
Math  static  sinh(double)  double
Math  static  cosh(double)  double
Math  static  tanh(double)  double
Math  static  scalb(double,int)  double
Math  static  nextAfter(double,double)  double
Math  static  ceilMod(int,int)  int
Math  static  ceilMod(long,long)  long
Math  static  floorDivExact(int,int)  int
Math  static  floorDivExact(long,long)  long
Math  static  ceilDivExact(int,int)  int
Math  static  ceilDivExact(long,long)  long
Math  static  unsignedMultiplyHigh(long,long)  long
Integer  static  parseInt(String)  int
Integer  static  valueOf(int)  Integer
Integer  static  toString(int)  String
Integer  static  toBinaryString(int)  String
Integer  static  bitCount(int)  int
Integer  static  compare(int,int)  int
Integer  static  signum(int)  int
Integer  static  max(int,int)  int
Integer  static  min(int,int)  int
Integer  static  sum(int,int)  int
Integer  static  highestOneBit(int)  int
Integer  static  lowestOneBit(int)  int
Integer  static  numberOfLeadingZeros(int)  int
Integer  static  numberOfTrailingZeros(int)  int
Integer  static  reverse(int)  int
Long  static  parseLong(String)  long
Long  static  toString(long)  String
Long  static  bitCount(long)  int
Long  static  compare(long,long)  int
Long  static  signum(long)  int
Long  static  max(long,long)  long
Long  static  min(long,long)  long
Long  static  sum(long,long)  long
Long  static  numberOfTrailingZeros(long)  int
Long  static  numberOfLeadingZeros(long)  int
Character  static  isDigit(int)  boolean
Character  static  isLetter(int)  boolean
Character  static  isLetterOrDigit(int)  boolean
Character  static  isAlphabetic(int)  boolean
Character  static  isUpperCase(int)  boolean
Character  static  isLowerCase(int)  boolean
Character  static  isWhitespace(int)  boolean
Character  static  isSpaceChar(char)  boolean
Character  static  toUpperCase(char)  char
Character  static  toUpperCase(int)  int
Character  static  toLowerCase(char)  char
Character  static  toLowerCase(int)  int
Character  static  getNumericValue(int)  int
Character  static  digit(int,int)  int
Character  static  compare(char,char)  int
"""

# class  static field  type
_FIELDS = """
Integer  MAX_VALUE  int
Integer  MIN_VALUE  int
Integer  SIZE  int
Integer  BYTES  int
Integer  TYPE  ?
Long  SIZE  int
Long  BYTES  int
Long  TYPE  ?
Short  SIZE  int
Short  BYTES  int
Short  TYPE  ?
Byte  SIZE  int
Byte  BYTES  int
Byte  TYPE  ?
Long  MAX_VALUE  long
Long  MIN_VALUE  long
Short  MAX_VALUE  short
Short  MIN_VALUE  short
Byte  MAX_VALUE  byte
Byte  MIN_VALUE  byte
Character  MAX_VALUE  char
Character  MIN_VALUE  char
Double  MAX_VALUE  double
Double  MIN_VALUE  double
Double  POSITIVE_INFINITY  double
Double  NEGATIVE_INFINITY  double
Double  NaN  double
Float  MAX_VALUE  float
Float  MIN_VALUE  float
Math  PI  double
Math  E  double
"""

CLOSED = frozenset({"String", "Math"})
"""Classes whose every method a spec may use is listed above (others are open)."""

CLOSED_FIELDS = frozenset({"Integer", "Long", "Short", "Byte"})
"""Classes whose every static field is listed above (java.lang.Integer etc. have exactly these
five: MIN_VALUE, MAX_VALUE, SIZE, BYTES, TYPE)."""

ARRAY_METHODS = {"clone": None, "equals": "boolean", "hashCode": "int", "toString": "String",
                 "getClass": "?"}
"""Members of every array type (JLS 10.7); ``clone`` returns the array's own type."""


@dataclass(frozen=True)
class Sig:
    cls: str
    static: bool
    name: str
    params: tuple[str, ...]
    """``?...`` as the only parameter: any number of arguments of any type."""
    returns: str


def _read() -> dict[tuple[str, str], list[Sig]]:
    out: dict[tuple[str, str], list[Sig]] = {}
    for line in _TABLE.strip().splitlines():
        cls, static, call, ret = line.split()
        name, _, rest = call.partition("(")
        params = tuple(p for p in rest.rstrip(")").split(",") if p)
        out.setdefault((cls, name), []).append(Sig(cls, static == "static", name, params, ret))
    return out


METHODS = _read()
FIELDS = {(c, f): t for c, f, t in (ln.split() for ln in _FIELDS.strip().splitlines())}


def methods(cls: str, name: str) -> list[Sig]:
    return METHODS.get((cls, name), [])


LIBRARY_CLASSES = frozenset({
    "Math", "StrictMath", "Integer", "Long", "Short", "Byte", "Character", "Boolean", "Double",
    "Float", "String", "Arrays", "Objects", "List", "Set", "Map", "Collections", "BigInteger",
    "Collection", "Number", "Object", "CharSequence", "StringBuilder", "ArrayList", "HashSet",
    "HashMap", "LinkedList", "TreeSet", "TreeMap",
})
"""Classes a spec may name as a qualifier (``Math.abs``, ``Integer.MAX_VALUE``)."""
