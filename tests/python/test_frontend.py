"""The front end: what a Python spec may say, each refusal with its line, and the forms it
reads (no worker is started here)."""

from __future__ import annotations

from pathlib import Path

import pytest

from adequacy.plugin import SpecInvalid, Task

from .pysupport import loaded, make_task


@pytest.fixture(scope="module")
def task(tmp_path_factory: pytest.TempPathFactory) -> Task:
    return make_task(tmp_path_factory.mktemp("fe") / "t", {"x": "int", "xs": "list<int>"},
                     "int")


def invalid(task: Task, text: str) -> SpecInvalid:
    with pytest.raises(SpecInvalid) as e:
        loaded(task, text)
    return e.value


REFUSED = [
    ("import os\ndef pre(x, xs):\n    return True\n", 1, "import of 'os'"),
    ("def pre(x, xs):\n    return __import__('os') is None\n", 2, "'__import__'"),
    ("import ctypes\n", 1, "import of 'ctypes'"),
    ("import gc\ndef pre(x, xs):\n    return len(gc.get_objects()) > 0\n", 1, "'gc'"),
    ("import sys\ndef pre(x, xs):\n    sys.setrecursionlimit(10**6)\n    return True\n", 1,
     "'sys'"),
    ("def pre(x, xs):\n    return open('/proc/self/fd/0').read() == ''\n", 2, "no I/O"),
    ("def pre(x, xs):\n    print(x)\n    return True\n", 2, "no I/O"),
    ("def pre(x, xs):\n    return x.__class__ is int\n", 2, "dunder"),
    ("def pre(x, xs):\n    return ().__class__.__base__ is None\n", 2, "dunder"),
    ("def pre(x, xs):\n    return eval('1') == 1\n", 2, "runs only the code"),
    ("def pre(x, xs):\n    exec('y = 1')\n    return True\n", 2, "runs only the code"),
    ("n = 0\ndef pre(x, xs):\n    global n\n    n += 1\n    return n == 1\n", 3, "global"),
    ("def pre(x, xs):\n    c = 0\n    def g():\n        nonlocal c\n        c += 1\n"
     "    g()\n    return True\n", 4, "nonlocal"),
    ("class A:\n    def __del__(self):\n        pass\n", 1, "class"),
    ("def f(self):\n    pass\ndef pre(x, xs):\n    return type('A', (), {'__del__': f}) is None\n",
     4, "dunder"),
    ("def pre(x, xs):\n    return type('A', (), {}) is None\n", 2, "makes a class"),
    ("def pre(x, xs):\n    return getattr(x, 'real') == x\n", 2, "by name"),
    ("def pre(x, xs):\n    return '{0.real}'.format(x) == ''\n", 2, "reads an attribute"),
    ("import operator\ndef pre(x, xs):\n    return operator.attrgetter('real')(x) == x\n", 3,
     "attrgetter"),
    ("import re\ndef pre(x, xs):\n    return re.enum is None\n", 3, "re has no public name"),
    ("import re\ndef pre(x, xs):\n    return re.functools is None\n", 3, "re has no public"),
    ("import functools\n@functools.lru_cache\ndef h(n):\n    return n\n", 2, "decorators"),
    ("import functools\ndef pre(x, xs):\n    return functools.lru_cache(None)(abs)(x) >= 0\n",
     3, "cache"),
    ("import math as m\ndef pre(x, xs):\n    k = m\n    return True\n", 3, "not a value"),
    ("def pre(x, xs):\n    return (y for y in xs).gi_frame is None\n", 2, "gi_frame"),
    ("def pre(x, xs):\n    return id(xs) > 0\n", 2, "address"),
    ("def pre(x, xs):\n    return hash('a') != 0\n", 2, "hash"),
    ("def pre(x, xs):\n    return xs is [] or x is 1\n", 2, "`is`"),
    ("def pre(x, xs):\n    try:\n        return xs[0] > 0\n    except:\n        return False\n",
     4, "bare"),
    ("def pre(x, xs):\n    try:\n        return xs[0] > 0\n    except BaseException:\n"
     "        return False\n", 4, "BaseException"),
    ("def pre(x, xs):\n    try:\n        return len('x' * 10**12) > 0\n"
     "    except MemoryError:\n        return True\n", 4, "MemoryError"),
    ("def pre(x, xs):\n    return undefined_name > 0\n", 2, "not defined"),
    ("def pre(x, xs):\n    _adq_guard = 1\n    return True\n", 2, "evaluator"),
    ("for i in range(3):\n    pass\n", 1, "top level"),
    ("def pre(x, xs, y):\n    return True\n", 1, "'y'"),
    ("def pre(x, xs):\n    x = 1\n", 1, "never returns"),
    ("def pre(x, xs):\n    return (\n", 2, "syntax error"),
    ("def pre(x, xs):\n    return x.real_part > 0\n", 2, ".real_part"),
    ("async def pre(x, xs):\n    return True\n", 1, "asynchronous"),
    ("import icontract\n@icontract.require(lambda x: x > 0, enabled=False)\n"
     "def f(x, xs):\n    pass\n", 2, "enabled"),
    ("import deal\n@deal.raises(ValueError)\ndef f(x, xs):\n    pass\n", 2, "deal.raises"),
    ("import icontract\n@icontract.ensure(lambda OLD, result: True)\ndef f(x, xs):\n    pass\n",
     2, "OLD"),
    ("import deal\n@deal.pre(lambda x: x > 0)\ndef f(x, xs):\n    pass\n", 2,
     "by position"),
    ("def pre(x, xs):\n    return True\nassert return_value > 0\n"
     "def post(x, xs, result):\n    return True\n", 3, "two postconditions"),
]


@pytest.mark.parametrize("text,line,words", REFUSED, ids=[r[2] for r in REFUSED])
def test_refused_with_its_line(task: Task, text: str, line: int, words: str) -> None:
    e = invalid(task, text)
    assert e.line == line, (e.line, e.message)
    assert words in e.message, e.message
    assert e.engine is None  # the front end, not an engine, says invalid


ACCEPTED = [
    ("def pre(x, xs):\n    return x >= 0\n\n\ndef post(x, xs, result):\n    return result >= x\n",
     ("functions",)),
    ("def post(x, xs, result):\n    assert result >= x\n    assert result in xs\n",
     ("functions",)),
    ("from typing import List\n\ndef f(x: int, xs: List[int]) -> int:\n    \"\"\"Doc.\"\"\"\n\n"
     "assert return_value >= x\nassert return_value in xs\n", ("assert block",)),
    ("import icontract\n\n@icontract.require(lambda x: x >= 0)\n"
     "@icontract.ensure(lambda x, result: result >= x)\ndef f(x, xs):\n    \"\"\"Doc.\"\"\"\n",
     ("icontract",)),
    ("import deal\n\ndef ok(x, xs, result):\n    return result >= x\n\n"
     "@deal.pre(lambda x, xs: x >= 0)\n@deal.post(lambda r: r >= 0)\n@deal.ensure(ok)\n"
     "def f(x, xs):\n    pass\n", ("deal",)),
    ("import math\nfrom collections import Counter\n\ndef helper(v, acc=[]):\n"
     "    acc.append(v)\n    return len(acc)\n\ndef pre(x, xs):\n    try:\n"
     "        return math.isqrt(x) >= 0 and Counter(xs).most_common(1) is not None\n"
     "    except ValueError:\n        return False\n", ("functions",)),
]


@pytest.mark.parametrize("text,forms", ACCEPTED, ids=[f[0] for _, f in ACCEPTED])
def test_accepted_forms(task: Task, text: str, forms: tuple[str, ...]) -> None:
    spec = loaded(task, text)
    assert spec.data.forms == forms


def test_order_sensitivity_is_flagged(task: Task) -> None:
    plain = loaded(task, "def pre(x, xs):\n    return sorted(xs) == xs\n")
    assert plain.data.order_sensitive == ()
    sets = loaded(task, "def pre(x, xs):\n    return list(set(xs)) == xs\n")
    assert "a set" in sets.data.order_sensitive
    text = loaded(task, "def pre(x, xs):\n    return f'{x}' != ''\n")
    assert "an f-string" in text.data.order_sensitive


def test_the_normal_form_ignores_comments_and_layout(task: Task) -> None:
    a = loaded(task, "def pre(x, xs):  # note\n    return x>0\n")
    b = loaded(task, "def pre(x, xs):\n\n    return (x > 0)\n")
    c = loaded(task, "def pre(x, xs):\n    return x >= 0\n")
    assert a.normalized == b.normalized != c.normalized


def test_a_task_type_without_a_python_reading_is_a_task_error(tmp_path: Path) -> None:
    from adequacy.plugin import TaskError

    t = make_task(tmp_path / "t", {"xs": "set<list<int>>"})
    with pytest.raises(TaskError, match="hashable"):
        loaded(t, "def pre(xs):\n    return True\n")
