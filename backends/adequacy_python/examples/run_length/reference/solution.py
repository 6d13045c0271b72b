def run_length(s: str) -> list[tuple[str, int]]:
    out: list[tuple[str, int]] = []
    for c in s:
        if out and out[-1][0] == c:
            out[-1] = (c, out[-1][1] + 1)
        else:
            out.append((c, 1))
    return out
