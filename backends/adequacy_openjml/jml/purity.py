"""JML's purity rules for the code of ``pure`` helpers and ``model`` methods (JML RM 7.1.1.3).

Why: a pure method is ``assignable \\nothing``, so its value can depend only on its arguments
and the pre-state. A helper that kept state between calls (a static map in a local class,
a counter in a static array, the JVM's thread ids) could accept the first output it sees
per input: the completeness cases run first and the mutants share their inputs, so a
postcondition stating nothing would pass everything. OpenJML rejects such helpers; so does
this pass, as ``SpecInvalid`` with file and line:

- assignments (``=``, compound, ``++``/``--``) to a field, a static, or an element of an array
  the method did not allocate itself;
- local, anonymous and nested class declarations (their fields would keep state);
- calls of the class's own non-pure methods (OpenJML: "A non-pure method is being called
  where it is not permitted"), and known mutators (``add``, ``put``...) on an object the
  method did not allocate.

What OpenJML would decide from the JDK's own specifications, which we do not have (a call of
a JDK method outside the short list of known-pure ones, ``new`` of a class outside it), is
not a rejection: ``purity_gap`` names it and the engines answer ``unknown`` for the spec.
The reader is a token scan (no Java statement parser), so it is conservative: whatever it
cannot classify is a gap, never silently allowed.
"""

from __future__ import annotations

from adequacy.plugin import SpecInvalid

from .identity_scan import Scan
from .lexer import Token, tokenize
from .members import JavaClass, JavaMethod, SpecFile
from .purity_body import ASSIGN, KEYWORDS_BEFORE_NAME, NEW, MethodBody

PURE_CLASSES = frozenset({
    "Math", "StrictMath", "Integer", "Long", "Short", "Byte", "Character", "Boolean", "Double",
    "Float", "String", "Arrays", "Objects", "List", "Set", "Map", "Collections", "BigInteger",
    "BigDecimal", "IntStream", "LongStream", "Stream", "Collectors", "Comparator",
})
"""Classes whose static methods a pure helper may call (their state-changing ones are in
``ARG_MUTATORS`` or ``IMPURE_STATIC``)."""
IMPURE_STATIC = frozenset({
    "Integer.getInteger", "Long.getLong", "Boolean.getBoolean", "Math.random",
    "StrictMath.random", "Objects.hashCode", "Objects.hash", "Objects.toString",
    "Arrays.hashCode", "Arrays.deepHashCode", "Arrays.toString",
    "Arrays.deepToString", "Collections.shuffle", "String.format", "Objects.requireNonNull",
})
"""Static methods of ``PURE_CLASSES`` that read global state or an object's identity hash
(which depends on what ran before): a gap, not a rejection."""
ARG_MUTATORS = frozenset({
    "Arrays.sort", "Arrays.fill", "Arrays.setAll", "Arrays.parallelSort",
    "Arrays.parallelPrefix", "Arrays.parallelSetAll", "Collections.sort", "Collections.reverse",
    "Collections.swap", "Collections.fill", "Collections.rotate", "Collections.addAll",
})
"""Static methods that modify their first argument: allowed on what the method allocated."""
FRESH_TYPES = frozenset({
    "int", "long", "short", "byte", "char", "boolean", "double", "float", "String",
    "StringBuilder", "StringBuffer", "ArrayList", "LinkedList", "HashMap", "HashSet",
    "TreeMap", "TreeSet", "LinkedHashMap", "LinkedHashSet", "ArrayDeque", "PriorityQueue",
    "Stack", "BigInteger", "BigDecimal", "Integer", "Long", "Character", "Boolean", "Double",
    "Object", "Throwable", "Exception", "RuntimeException", "Error", "AssertionError",
    "IllegalArgumentException", "IllegalStateException", "ArithmeticException",
    "IndexOutOfBoundsException", "ArrayIndexOutOfBoundsException", "NullPointerException",
    "UnsupportedOperationException", "NumberFormatException",
})
"""Classes a pure helper may allocate (arrays of any of them too). JDK exceptions are among
them: their constructors are pure in OpenJML's specs, so ``throw new ...(msg)`` in a pure
helper is valid JML, and what the message quotes is the gym's business (it is withheld)."""
MUTATORS = frozenset({
    "add", "addAll", "addFirst", "addLast", "put", "putAll", "putIfAbsent", "remove",
    "removeAll", "removeIf", "retainAll", "clear", "set", "offer", "offerFirst", "offerLast",
    "push", "pop", "poll", "pollFirst", "pollLast", "compute", "computeIfAbsent",
    "computeIfPresent", "merge", "replace", "replaceAll", "sort", "append", "insert", "delete",
    "deleteCharAt", "setLength", "setCharAt", "reverse", "fill", "incrementAndGet",
    "getAndIncrement", "decrementAndGet", "getAndDecrement", "addAndGet", "getAndAdd",
    "getAndSet", "lazySet", "compareAndSet", "removeFirst", "removeLast", "trimToSize",
    "ensureCapacity", "setSeed",
})
"""Methods that change their receiver: allowed only on an object the method allocated."""
READERS = frozenset({
    "length", "charAt", "substring", "indexOf", "lastIndexOf", "equals", "equalsIgnoreCase",
    "compareTo", "compareToIgnoreCase", "contains", "startsWith", "endsWith", "isEmpty",
    "isBlank", "toCharArray", "chars", "trim", "strip", "toLowerCase", "toUpperCase", "split",
    "concat", "matches", "repeat", "get", "getOrDefault", "size", "containsKey",
    "containsValue", "keySet", "values", "entrySet", "getKey", "getValue", "iterator",
    "hasNext", "next", "stream", "map", "mapToInt", "mapToObj", "filter", "sum", "count",
    "boxed", "toArray", "intValue", "longValue", "doubleValue", "booleanValue", "charValue",
    "clone", "peek", "peekFirst", "peekLast", "first", "last", "firstKey", "lastKey",
    "floorKey", "ceilingKey", "higherKey", "lowerKey", "floor", "ceiling", "higher", "lower",
    "headSet", "tailSet", "subSet", "headMap", "tailMap", "subMap", "subList", "min", "max",
    "allMatch", "anyMatch", "noneMatch", "distinct", "sorted", "reduce", "average",
    "getAsInt", "getAsLong", "getAsDouble", "orElse", "isPresent", "signum", "abs", "negate",
    "multiply", "divide", "mod", "pow", "subtract", "codePointAt", "element", "getFirst",
    "getLast", "toList", "limit", "skip", "asList", "collect", "apply", "test", "applyAsInt",
    "compare", "toString", "hashCode",
})
"""Methods that only read their receiver (``toString``/``hashCode`` only on what the method
allocated as a string builder: elsewhere they may show an identity hash)."""
IDENTITY = frozenset({"toString", "hashCode"})
TYPE_DECL = {"class", "interface", "enum", "record"}
CONTROL = {"if", "while", "for", "switch", "catch", "synchronized", "return", "throw",
           "assert", "do", "else", "case", "yield", "try", "super", "this"}
VALUE_TYPES = {"int", "long", "short", "byte", "char", "boolean", "double", "float",
               "Integer", "Long", "Short", "Byte", "Character", "Boolean", "Double", "Float",
               "String", "char[]"}


def check_purity(src: SpecFile, cls: JavaClass, file: str | None) -> str | None:
    """Raise ``SpecInvalid`` where a pure or model method of ``cls`` breaks JML's purity
    rules; return why the engines cannot vouch for one (a gap), or None."""
    gaps: list[str] = []
    members = cls.methods + cls.models
    own = cls.methods_by_name
    fields = cls.fields_by_name
    for m in members:
        if not (m.is_pure or m.model) or not m.has_body:
            continue
        if m.return_type is None and not m.model:
            # a pure constructor may assign the fields of the object it makes (JML RM
            # 7.1.1.3); no engine runs one from a spec (``new`` in a spec is unknown)
            continue
        body = body_tokens(src, m, file)
        if body:
            gap = _Method(m, body, cls, file, own, fields).check()
            if gap:
                gaps.append(gap)
    return gaps[0] if gaps else None


def body_tokens(src: SpecFile, m: JavaMethod, file: str | None) -> list[Token]:
    if m.model:
        toks = tokenize(m.source, m.line, file)[:-1]
        return toks
    a, b = m.tok_range
    toks = src.java_tokens[a:b]
    k = next((i for i, t in enumerate(toks) if t.is_op("(")), None)
    if k is None:
        return []
    depth = 0
    for j in range(k, len(toks)):
        if toks[j].is_op("("):
            depth += 1
        elif toks[j].is_op(")"):
            depth -= 1
            if depth == 0:
                rest = toks[j + 1:]
                brace = next((i for i, t in enumerate(rest) if t.is_op("{")), None)
                return rest[brace:] if brace is not None else []
    return []


class _Method(MethodBody):
    """One pure method's body checked against the rules (its locals read by ``MethodBody``)."""


    def _own_method(self, name: str) -> JavaMethod | None:
        """The class's method of that name declared last (overloads are not told apart)."""
        found = self.own.get(name)
        return found[-1] if found else None

    def err(self, msg: str, tok: Token) -> SpecInvalid:
        return SpecInvalid(f"pure method {self.m.name}: {msg}", file=self.file, line=tok.line)

    def note(self, why: str) -> None:
        if self.gap is None:
            self.gap = f"pure method {self.m.name} {why}, whose purity the engines cannot check"


    # ------------------------------------------------------------------ the rules
    def check(self) -> str | None:
        t = self.t
        if self.scopes.deep:
            self.note("is nested too deeply for the scan to follow")
        for k, x in enumerate(t):
            if x.kind == "ident" and x.text in TYPE_DECL and self.tok(k + 1).kind == "ident" \
                    and not self.tok(k - 1).is_op("."):
                raise self.err(f"declares {x.text} {self.tok(k + 1).text} inside a pure method; "
                               "its fields would keep state between calls (a pure method is "
                               "assignable \\nothing)", x)
            if x.is_op("::"):
                self._reference(k)
            elif x.is_ident("new"):
                self._new(k)
            elif x.kind == "op" and x.text in ASSIGN:
                if not self._is_local_declaration(k):
                    self._target(k - 1, x)
            elif x.is_op("++", "--"):
                nxt = self.tok(k + 1)
                if nxt.kind == "ident" or nxt.is_op("("):
                    self._target(self._end_of_primary(k + 1), x)
                else:
                    self._target(k - 1, x)
            elif x.kind == "ident" and self.tok(k + 1).is_op("(") and \
                    not self.tok(k - 1).is_ident("new") and x.text not in CONTROL:
                self._call(k)
            elif x.kind == "ident" and x.text in ("synchronized", "Thread", "System", "Runtime",
                                                  "ClassLoader", "Class"):
                self.note(f"uses {x.text}")
        if self.gap is None:
            found = Scan(t, self._declared_type, self._own_return, self._is_builder).run()
            if found is not None:
                self.gap = (f"pure method {self.m.name} {found[0]} (line {found[1]}): its "
                            "value may differ from one run to the next")
        return self.gap


    def _own_return(self, name: str) -> str | None:
        m = self._own_method(name)
        return m.return_type if m is not None else None


    def _reference(self, k: int) -> None:
        """``recv::m``: the call happens later, through an interface method (``apply``...),
        so the method named here is judged now."""
        name, recv = self.tok(k + 1), self.tok(k - 1)
        if name.is_ident("new"):
            if recv.text not in FRESH_TYPES and not recv.is_op("]"):
                self.note(f"allocates a {recv.text}")
        elif name.text in MUTATORS:
            if not (recv.kind == "ident" and self.allocated(recv.text, k - 1)):
                raise self.err(f"refers to {recv.text}::{name.text}, which changes an object "
                               "the method did not allocate (a pure method is assignable "
                               "\\nothing)", name)
        elif recv.text == self.cls.name or recv.is_ident("this"):
            m = self._own_method(name.text)
            if m is None or not (m.is_pure or m.model):
                raise self.err("A non-pure method is being called where it is not permitted: "
                               f"{self.cls.name}.{name.text}", name)
        elif name.text not in READERS and not (recv.text in PURE_CLASSES and
                                               f"{recv.text}.{name.text}" not in IMPURE_STATIC):
            self.note(f"refers to {recv.text}::{name.text}")


    def _target(self, end: int, op: Token) -> None:
        """The assignment target ending at ``end``: a simple local, or an element of an array
        the method allocated; anything else writes state that outlives the call."""
        j = end
        indexed = False
        depth = 0
        while self.tok(j).is_op("]"):
            depth += 1
            nest = 0
            while j >= 0:
                if self.t[j].is_op("]"):
                    nest += 1
                elif self.t[j].is_op("["):
                    nest -= 1
                    if nest == 0:
                        break
                j -= 1
            j -= 1
            indexed = True
        base = self.tok(j)
        qualified = self.tok(j - 1).is_op(".")
        owner = self.tok(j - 2)
        static = base.text in self.fields and "static" in self.fields[base.text].modifiers
        if qualified and not indexed and base.kind == "ident" and owner.kind == "ident" \
                and not self.tok(j - 3).is_op(".") and self.allocated(owner.text, j - 2) \
                and not static:
            return  # a field of an object the method allocated (JML RM 7.1.1.3)
        if base.kind != "ident" or qualified:
            what = f"{self.tok(j - 2).text}.{base.text}" if qualified else op.text
            raise self.err(f"assigns {what}, which is not a local variable (a pure method is "
                           "assignable \\nothing)", op)
        name = base.text
        if indexed:
            if not self.allocated(name, j):
                raise self.err(f"assigns an element of {name}, an array the method did not "
                               "allocate (a pure method is assignable \\nothing)", op)
            if depth > 1 and name not in self.grids:
                self.note(f"assigns an element of an inner array of {name} (which may be "
                          "an array it did not allocate)")
            return
        if name in self.fields and name not in self.params and \
                not self.scopes.is_local(name, j):
            hint = f" (the local {name} declared in this method is out of scope here)" \
                if name in self.locals else ""
            raise self.err(f"assigns field {name}{hint} (a pure method is assignable "
                           "\\nothing)", op)

    def _new(self, k: int) -> None:
        ty = self.tok(k + 1)
        j = k + 1
        while self.tok(j + 1).is_op(".") and self.tok(j + 2).kind == "ident":
            j += 2
            ty = self.tok(j)
        after = self.tok(j + 1)
        if after.is_op("<"):
            depth = 0
            while j + 1 < len(self.t):
                j += 1
                if self.t[j].is_op("<"):
                    depth += 1
                elif self.t[j].is_op(">"):
                    depth -= 1
                    if depth == 0:
                        break
            after = self.tok(j + 1)
        if after.is_op("("):
            depth = 0
            j += 1
            while j < len(self.t):
                if self.t[j].is_op("("):
                    depth += 1
                elif self.t[j].is_op(")"):
                    depth -= 1
                    if depth == 0:
                        break
                j += 1
            if self.tok(j + 1).is_op("{"):
                raise self.err(f"declares an anonymous class (new {ty.text}(...) {{...}}) inside "
                               "a pure method; its fields would keep state between calls", ty)
            if ty.text not in FRESH_TYPES:
                self.note(f"allocates a {ty.text}")
        elif ty.text not in FRESH_TYPES:
            self.note(f"allocates a {ty.text}")

    def _call(self, k: int) -> None:
        name = self.t[k]
        dot = self.tok(k - 1).is_op(".")
        recv = self.tok(k - 2) if dot else None
        own = not dot or (recv is not None and recv.text in ("this", self.cls.name)
                          and not self.tok(k - 3).is_op("."))
        if own:
            if not dot and self.tok(k - 1).kind == "ident" and \
                    self.tok(k - 1).text not in KEYWORDS_BEFORE_NAME:
                return  # a declaration (a local class's method: refused above)
            m = self._own_method(name.text)
            if m is None:
                self.note(f"calls {name.text}")
            elif not (m.is_pure or m.model):
                raise self.err("A non-pure method is being called where it is not permitted: "
                               f"{self.cls.name}.{name.text}", name)
            return
        assert recv is not None
        if recv.kind == "ident" and recv.text[:1].isupper() and self._package_before(k - 2):
            self._static_call(recv, name, k)
            return
        if recv.kind == "ident" and not self.tok(k - 3).is_op(".") and \
                recv.text not in self.locals and recv.text not in self.params and \
                recv.text not in self.fields:
            self._static_call(recv, name, k)
            return
        root = self._root(k - 2)
        if name.text in MUTATORS:
            if root is None or not self.allocated(root.text, root):
                where = root.text if root is not None else "an object"
                raise self.err(f"calls {name.text} on {where}, which the method did not "
                               "allocate (a pure method is assignable \\nothing)", name)
            return
        if name.text in IDENTITY:
            if root is None or root.text not in self.builders and not (
                    root.text == NEW and self._built_as_builder(k)):
                self.note(f"calls {name.text} (it may show an identity hash)")
            return
        if name.text not in READERS:
            self.note(f"calls {name.text}")


    def _static_call(self, cls: Token, name: Token, k: int) -> None:
        qual = f"{cls.text}.{name.text}"
        if qual == "String.valueOf":
            types = {n: t.replace(" ", "") for t, n in self.m.params}
            arg = self.tok(k + 2)
            if not (arg.kind in ("int", "char", "string") or types.get(arg.text) in VALUE_TYPES
                    and self.tok(k + 3).is_op(")")):
                self.note("calls String.valueOf on a value of unknown type (an object's text "
                          "may show its identity hash)")
            return
        if cls.text not in PURE_CLASSES or qual in IMPURE_STATIC:
            self.note(f"calls {qual}")
            return
        if qual in ARG_MUTATORS:
            first = self.tok(k + 2)
            if not (first.kind == "ident" and self.allocated(first.text, k + 2)
                    and self.tok(k + 3).is_op(",", ")")):
                raise self.err(f"{qual} modifies {first.text}, which the method did not "
                               "allocate (a pure method is assignable \\nothing)", name)


