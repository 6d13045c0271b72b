"""Parser and printer of abs-diff: "a b\\n" <-> {"a": a, "b": b}; "d\\n" <-> {"result": d}."""


def parse_input(text):
    line, rest = text.split("\n", 1)
    if rest:
        raise ValueError("expected one line")
    a, b = line.split(" ")
    return {"a": int(a), "b": int(b)}


def print_input(value):
    return f"{value['a']} {value['b']}\n"


def parse_output(text, input):
    line, rest = text.split("\n", 1)
    if rest:
        raise ValueError("expected one line")
    return {"result": int(line)}


def print_output(value, input):
    return f"{value['result']}\n"
