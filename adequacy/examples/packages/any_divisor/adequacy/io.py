"""Parser and printer of any_divisor: "n\\n" <-> {"n": n}; "d\\n" <-> {"result": d}."""


def parse_input(text):
    if not text.endswith("\n") or text.count("\n") != 1:
        raise ValueError("expected one line")
    return {"n": int(text)}


def print_input(value):
    return f"{value['n']}\n"


def parse_output(text, input):
    if not text.endswith("\n") or text.count("\n") != 1:
        raise ValueError("expected one line")
    return {"result": int(text)}


def print_output(value, input):
    return f"{value['result']}\n"
