"""Runs a task's ``io.py`` (parser R and printer P) on many texts in one sandboxed process.

Started as ``python -I -S io_driver.py io.py`` inside the sandbox; reads JSON lines
``{"op": "input", "text": T}`` or ``{"op": "output", "text": T, "input": V}`` on stdin and
answers one JSON line each: ``{"value": R(T), "printed": P(R(T))}`` or ``{"error": "..."}``.
The importer compares ``printed`` with ``T`` byte for byte.
"""

import json
import runpy
import sys


def main() -> None:
    mod = runpy.run_path(sys.argv[1], run_name="task_io")
    fns: dict = {n: mod.get(n)
                 for n in ("parse_input", "print_input", "parse_output", "print_output")}
    missing = [n for n, f in fns.items() if not callable(f)]
    out = sys.stdout
    for line in sys.stdin:
        req = json.loads(line)
        try:
            if missing:
                raise NameError("io.py defines no " + ", ".join(missing))
            if req["op"] == "input":
                value = fns["parse_input"](req["text"])
                printed = fns["print_input"](value)
            else:
                value = fns["parse_output"](req["text"], req["input"])
                printed = fns["print_output"](value, req["input"])
            if not isinstance(printed, str):
                raise TypeError(f"the printer returned {type(printed).__name__}, not str")
            ans = {"value": value, "printed": printed}
            text = json.dumps(ans)
        except BaseException as e:  # noqa: BLE001 - the parser's failure is the case's outcome
            text = json.dumps({"error": f"{type(e).__name__}: {e}"[:300]})
        out.write(text + "\n")
    out.flush()


if __name__ == "__main__":
    main()
