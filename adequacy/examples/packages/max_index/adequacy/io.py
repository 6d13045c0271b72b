"""Parser and printer of max_index: "n\\na_1 ... a_n\\n" <-> {"a": [...]}; "k\\n" <-> {"result": k}."""


def parse_input(text):
    first, second, rest = text.split("\n", 2)
    if rest != "":
        raise ValueError("expected exactly two lines")
    n = int(first)
    a = [int(x) for x in second.split(" ")] if second else []
    if len(a) != n:
        raise ValueError(f"n = {n} but {len(a)} numbers follow")
    return {"a": a}


def print_input(value):
    a = value["a"]
    return f"{len(a)}\n{' '.join(str(x) for x in a)}\n"


def parse_output(text, input):
    return {"result": int(text)}


def print_output(value, input):
    return f"{value['result']}\n"
