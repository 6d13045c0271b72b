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

from .lexer import Token, tokenize
from .members import JavaClass, JavaField, JavaMethod, SpecFile
from .scopes import Scopes

ASSIGN = {"=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=", ">>>="}
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
SELF_RETURNING = frozenset({"append", "insert", "reverse", "delete", "deleteCharAt",
                            "replace"})
"""StringBuilder methods that return their receiver: ``new StringBuilder(s).reverse()``
and ``sb.append(a).append(b)`` change only what was allocated."""
NEW = "\0new"
"""The root of a receiver that is a constructor call."""
KEYWORDS_BEFORE_NAME = {"return", "new", "throw", "case", "else", "do", "yield", "assert",
                        "instanceof", "this", "super", "break", "continue"}
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


def local_names(m: JavaMethod, toks: list[Token], cls: JavaClass, file: str | None) -> set[str]:
    """The names a method's body declares (locals, lambda and catch parameters): what the
    body type checker (``jml.bodies``) must not read as fields."""
    # the class's name maps are built once per class (one call per helper body)
    return _Method(m, toks, cls, file, cls.methods_by_name, cls.fields_by_name).locals


class _Method:
    def __init__(self, m: JavaMethod, toks: list[Token], cls: JavaClass, file: str | None,
                 own: dict[str, list[JavaMethod]], fields: dict[str, JavaField]) -> None:
        self.m, self.t, self.cls, self.file = m, toks, cls, file
        self.fields = fields
        self.params = {n for _t, n in m.params}
        self.own = own
        self.locals: set[str] = set()
        self.unfresh: set[str] = set()
        self.builders: set[str] = set()
        self.grids: set[str] = set()
        """Locals only ever holding ``new T[n][m]...`` (every inner array allocated with it)
        and never given another inner array: their inner elements may be assigned."""
        self.gap: str | None = None
        self.scopes = Scopes(toks)
        """Where each local is in scope (JLS 6.3): a local named like a field is the local
        only there."""
        self.starts = {d.start for d in self.scopes.decls}
        self.at = {id(x): k for k, x in enumerate(toks)}
        self._declarations()

    def _own_method(self, name: str) -> JavaMethod | None:
        """The class's method of that name declared last (overloads are not told apart)."""
        found = self.own.get(name)
        return found[-1] if found else None

    def err(self, msg: str, tok: Token) -> SpecInvalid:
        return SpecInvalid(f"pure method {self.m.name}: {msg}", file=self.file, line=tok.line)

    def note(self, why: str) -> None:
        if self.gap is None:
            self.gap = f"pure method {self.m.name} {why}, whose purity the engines cannot check"

    def tok(self, k: int) -> Token:
        return self.t[k] if 0 <= k < len(self.t) else Token("eof", "", 0)

    # ------------------------------------------------------------------ locals and freshness
    def _declarations(self) -> None:
        """Locals (declared in the body, lambda parameters) and whether each only ever holds
        what the method allocated (``new``, an array initializer, a ``clone``)."""
        t = self.t
        for k, x in enumerate(t):
            if x.kind != "ident":
                continue
            nxt = self.tok(k + 1)
            if nxt.is_op("->") or (nxt.is_op(",", ")") and self._in_lambda_params(k)):
                self.locals.add(x.text)
                self.unfresh.add(x.text)
                continue
            if self._after_type(k) and nxt.is_op("=", ";", ",", ":", ")"):
                self.locals.add(x.text)
                if nxt.is_op(":", ")"):
                    self.unfresh.add(x.text)  # for-each variable, catch parameter
        # what the token scan above misses: C-style declarators (``int a[]``), ``\bigint``
        # locals, declarators after the first; a name read only there is not trusted fresh
        for d in self.scopes.decls:
            if d.name not in self.locals:
                self.locals.add(d.name)
                if not self.tok(d.start + 1).is_op("=", "["):
                    self.unfresh.add(d.name)
        spoiled: set[str] = set()
        for k, x in enumerate(t):
            if x.kind == "ident" and x.text in self.locals and self.tok(k + 1).is_op("=") and \
                    not self.tok(k - 1).is_op("."):
                self._holds(x.text, k + 2, spoiled)
            elif x.kind == "ident" and x.text in self.locals and k in self.starts and \
                    self.tok(k + 1).is_op("[") and self.tok(k + 2).is_op("]"):
                j = k + 1
                while self.tok(j).is_op("[") and self.tok(j + 1).is_op("]"):
                    j += 2
                if self.tok(j).is_op("="):
                    self._holds(x.text, j + 1, spoiled)  # ``int a[] = {...}``
            elif x.kind == "ident" and self.tok(k + 1).is_op("[") and \
                    not self.tok(k - 1).is_op(".") and self._one_index_assigned(k + 1):
                spoiled.add(x.text)  # given another inner array: ``g[0] = memo``
        self.grids -= spoiled

    def _holds(self, name: str, k: int, spoiled: set[str]) -> None:
        """Classify the value given to the local ``name`` by the expression at ``k``."""
        rhs = self._until_end(k)
        if self._fresh(rhs):
            if len(rhs) > 1 and rhs[1].text in ("StringBuilder", "StringBuffer"):
                self.builders.add(name)
            if _full_dims(rhs):
                self.grids.add(name)
            else:
                spoiled.add(name)
        else:
            self.unfresh.add(name)

    def _one_index_assigned(self, k: int) -> bool:
        """Whether the ``[`` at ``k`` closes into a direct assignment (``g[i] = ...``)."""
        nest = 0
        while k < len(self.t):
            if self.t[k].is_op("["):
                nest += 1
            elif self.t[k].is_op("]"):
                nest -= 1
                if nest == 0:
                    break
            k += 1
        nxt = self.tok(k + 1)
        return nxt.kind == "op" and nxt.text in ASSIGN

    def _after_type(self, k: int) -> bool:
        """Whether the name at ``k`` follows a type (``int x``, ``int[] x``, ``List<T> x``),
        i.e. is being declared; ``a > x`` and ``a[i] x`` are not declarations."""
        prev = self.tok(k - 1)
        if prev.kind == "ident":
            return prev.text not in KEYWORDS_BEFORE_NAME
        if prev.is_op("]"):
            return self.tok(k - 2).is_op("[") and self._after_type(k - 2)
        if prev.is_op(">"):
            j, depth = k - 1, 0
            while j >= 0:
                x = self.t[j]
                if x.is_op(">"):
                    depth += 1
                elif x.is_op("<"):
                    depth -= 1
                    if depth == 0:
                        return self.tok(j - 1).kind == "ident"
                elif not (x.kind == "ident" or x.is_op(",", ".", "?", "[", "]")):
                    return False
                j -= 1
        return False

    def _in_lambda_params(self, k: int) -> bool:
        j = k
        while j >= 0 and not self.t[j].is_op("("):
            if not (self.t[j].kind == "ident" or self.t[j].is_op(",")):
                return False
            j -= 1
        close = k
        while close < len(self.t) and not self.t[close].is_op(")"):
            close += 1
        return self.tok(close + 1).is_op("->")

    def _until_end(self, k: int) -> list[Token]:
        out: list[Token] = []
        depth = 0
        while k < len(self.t):
            x = self.t[k]
            if x.is_op("(", "[", "{"):
                depth += 1
            elif x.is_op(")", "]", "}"):
                if depth == 0:
                    break
                depth -= 1
            elif depth == 0 and x.is_op(";", ","):
                break
            out.append(x)
            k += 1
        return out

    @staticmethod
    def _fresh(rhs: list[Token]) -> bool:
        if not rhs:
            return False
        if rhs[0].is_op("{") or rhs[0].is_ident("new"):
            return True
        texts = [x.text for x in rhs]
        while len(texts) > 2 and texts[0][:1].islower() and texts[1] == ".":
            texts = texts[2:]  # a package prefix: java.util.Arrays.copyOf
        return texts[-3:] == ["clone", "(", ")"] or texts[:4] in (
            ["Arrays", ".", "copyOf", "("], ["Arrays", ".", "copyOfRange", "("])

    def allocated(self, name: str, at: int | Token | None = None) -> bool:
        if name == NEW:
            return True
        return self._allocated_local(name, self.at.get(id(at)) if isinstance(at, Token) else at)

    def _allocated_local(self, name: str, at: int | None) -> bool:
        """Whether ``name`` at token ``at`` is a local that only ever holds what the method
        allocated. A name that is also a field's is the local only inside the local's scope
        (JLS 6.4.1); where the place is not known it is not trusted."""
        if name not in self.locals or name in self.unfresh:
            return False
        return name not in self.fields or at is not None and self.scopes.is_local(name, at)

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
        return self.gap

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

    def _is_local_declaration(self, k: int) -> bool:
        j = k - 1
        while self.tok(j).is_op("]") and self.tok(j - 1).is_op("["):
            j -= 2
        if self.t[k].text == "=" and j in self.starts and self.tok(j).kind == "ident":
            return True  # a declarator (``int a[] = ...``, ``\bigint b = ...``)
        name, prev = self.tok(k - 1), self.tok(k - 2)
        return name.kind == "ident" and self.t[k].text == "=" and (
            (prev.kind == "ident" and prev.text not in KEYWORDS_BEFORE_NAME)
            or prev.is_op(">", "]")) and name.text in self.locals

    def _end_of_primary(self, k: int) -> int:
        """Index of the last token of the primary starting at ``k`` (``a``, ``a.b``, ``a[i]``)."""
        j = k
        while j + 1 < len(self.t):
            nxt = self.t[j + 1]
            if nxt.is_op(".") and self.tok(j + 2).kind == "ident":
                j += 2
            elif nxt.is_op("["):
                depth = 0
                j += 1
                while j < len(self.t):
                    if self.t[j].is_op("["):
                        depth += 1
                    elif self.t[j].is_op("]"):
                        depth -= 1
                        if depth == 0:
                            break
                    j += 1
            else:
                break
        return j

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

    def _built_as_builder(self, k: int) -> bool:
        """Whether the receiver chain of the call at ``k`` starts with ``new StringBuilder``
        (or ``StringBuffer``)."""
        j = k
        while j >= 0 and not self.t[j].is_ident("new"):
            j -= 1
        return self.tok(j + 1).text in ("StringBuilder", "StringBuffer") or (
            self.tok(j + 1).text == "java" and self.tok(j + 5).text in
            ("StringBuilder", "StringBuffer"))

    def _package_before(self, k: int) -> bool:
        """Whether the class name at ``k`` is qualified by a package (``java.util.Arrays``)
        whose first name is no variable."""
        j = k
        while self.tok(j - 1).is_op(".") and self.tok(j - 2).kind == "ident" and \
                self.tok(j - 2).text[:1].islower():
            j -= 2
        first = self.tok(j).text
        return j < k and first not in self.locals and first not in self.params and \
            first not in self.fields and not self.tok(j - 1).is_op(".")

    def _root(self, k: int) -> Token | None:
        """The name a receiver expression ending at ``k`` starts from (``a`` in ``a.b[i]``),
        or None when it starts with a call or a parenthesis."""
        j = k
        while j >= 0:
            x = self.t[j]
            if x.is_op("]", ")"):
                close, open_ = x.text, "[" if x.text == "]" else "("
                depth = 0
                while j >= 0:
                    if self.t[j].is_op(close):
                        depth += 1
                    elif self.t[j].is_op(open_):
                        depth -= 1
                        if depth == 0:
                            break
                    j -= 1
                if open_ == "(":
                    callee = self.tok(j - 1)
                    q = j - 1
                    while self.tok(q - 1).is_op(".") and self.tok(q - 2).kind == "ident":
                        q -= 2
                    if callee.kind == "ident" and self.tok(q - 1).is_ident("new"):
                        return Token("ident", NEW, callee.line)  # new T(...): allocated here
                    if callee.text in SELF_RETURNING and self.tok(j - 2).is_op("."):
                        j -= 3  # sb.append(x).reverse(): the receiver is sb again
                        continue
                    return None
                j -= 1
                continue
            if x.kind == "ident" and self.tok(j - 1).is_op("."):
                j -= 2
                continue
            return x if x.kind == "ident" else None
        return None

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


def _full_dims(rhs: list[Token]) -> bool:
    """``new T[a][b]`` with every dimension given (so every inner array is new) and at
    least two of them."""
    if len(rhs) < 2 or not rhs[0].is_ident("new"):
        return False
    dims = 0
    k = 2
    while k < len(rhs) and rhs[k].is_op("."):
        k += 2
    while k < len(rhs) and rhs[k].is_op("["):
        if k + 1 < len(rhs) and rhs[k + 1].is_op("]"):
            return False
        nest = 0
        while k < len(rhs):
            if rhs[k].is_op("["):
                nest += 1
            elif rhs[k].is_op("]"):
                nest -= 1
                if nest == 0:
                    break
            k += 1
        dims += 1
        k += 1
    return dims >= 2 and k == len(rhs)
