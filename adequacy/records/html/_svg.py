"""Charts as inline SVG text: a report must draw with no network and no script library.

Each chart is an ``<svg class="chart">`` whose marks carry ``class="mark"`` and a ``<title>``
(the browser's tooltip), so a test can count what was drawn and a reader can hover for values.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape

PALETTE = ["#3b6fb6", "#e07b39", "#3a9a5b", "#c23b3b", "#8a63b8", "#8c6d46", "#d16aa8",
           "#6b6b6b", "#b5a642", "#2fa3b5"]
W, H = 540, 290
LEFT, RIGHT, TOP, BOTTOM = 48, 12, 28, 84


def color(i: int) -> str:
    return PALETTE[i % len(PALETTE)]


TITLE_CHAR = 7.6
"""Width of one character of a chart's title (13 px, semibold), in px: a chart is at least as
wide as its title, which is centred and would otherwise be cut at both ends."""
PANEL_CHAR = 6.6
"""Width of one character of a small multiple's panel title (11.5 px, semibold)."""


def fit(text: str, room: float, char: float) -> str:
    """``text`` cut with an ellipsis to what ``room`` px hold (``label`` keeps the whole text
    in a tooltip)."""
    most = max(4, int(room / char))
    return text if len(text) <= most else text[:most - 1] + "…"


def label(attrs: str, text: str, room: float, char: float) -> str:
    """A ``<text>`` fitted to ``room`` px; when cut, inside a group whose tooltip is the whole
    text (a ``<title>`` inside the ``<text>`` would join its words)."""
    shown = fit(text, room, char)
    el = f"<text {attrs}>{escape(shown)}</text>"
    return el if shown == text else f"<g><title>{escape(text)}</title>{el}</g>"


def _frame(title: str, body: list[str], legend: Sequence[str], height: int = H,
           width: int = W) -> str:
    """Title, marks, and a legend that wraps onto as many rows as it needs below the plot."""
    width = max(width, int(len(title) * TITLE_CHAR) + 24)
    rows: list[list[tuple[int, str, int]]] = [[]]
    x = LEFT
    for i, name in enumerate(legend):
        item = 24 + 6 * len(name)
        if rows[-1] and x + item > width - RIGHT:
            rows.append([])
            x = LEFT
        rows[-1].append((i, name, x))
        x += item
    height += 16 * (len(rows) - 1)
    leg = []
    for r, row in enumerate(rows):
        y = height - 14 - 16 * (len(rows) - 1 - r)
        for i, name, lx in row:
            leg.append(f'<rect x="{lx}" y="{y}" width="10" height="10" fill="{color(i)}"/>'
                       f'<text x="{lx + 14}" y="{y + 9}" class="legend">{escape(name)}</text>')
    return (f'<svg class="chart" role="img" viewBox="0 0 {width} {height}" width="{width}" '
            f'height="{height}" xmlns="http://www.w3.org/2000/svg">'
            f'<title>{escape(title)}</title>'
            f'<text x="{width / 2}" y="16" text-anchor="middle" class="ctitle">{escape(title)}</text>'
            + "".join(body) + "".join(leg) + "</svg>")


def _y_axis(ymax: float, percent: bool, width: int = W) -> list[str]:
    out = []
    plot_h = H - TOP - BOTTOM
    for i in range(5):
        v = ymax * i / 4
        y = TOP + plot_h - plot_h * i / 4
        label = f"{v * 100:.0f}%" if percent else f"{v:g}"
        out.append(f'<line x1="{LEFT}" x2="{width - RIGHT}" y1="{y:.1f}" y2="{y:.1f}" '
                   f'class="grid"/><text x="{LEFT - 4}" y="{y + 4:.1f}" text-anchor="end" '
                   f'class="tick">{label}</text>')
    return out


Errors = Mapping[str, Sequence["tuple[float, float] | None"]]
"""Series name -> (low, high) per point, drawn as an error bar (a 95% interval)."""


def _error_bar(x: float, lo: float, hi: float, ymax: float, cap: float = 4.0) -> str:
    plot_h = H - TOP - BOTTOM

    def y(v: float) -> float:
        return TOP + plot_h - plot_h * min(max(v, 0.0), ymax) / ymax

    return (f'<path class="errbar" d="M{x - cap:.1f},{y(hi):.1f}H{x + cap:.1f}'
            f'M{x:.1f},{y(hi):.1f}V{y(lo):.1f}M{x - cap:.1f},{y(lo):.1f}H{x + cap:.1f}" '
            f'stroke="#222" stroke-width="1.2" fill="none"/>')


def _ci_label(ci: tuple[float, float] | None, percent: bool) -> str:
    if ci is None:
        return ""
    lo, hi = ci
    return (f" (95% CI {lo * 100:.1f}-{hi * 100:.1f}%)" if percent
            else f" (95% CI {lo:g}-{hi:g})")


def bars(title: str, categories: Sequence[str], series: Mapping[str, Sequence[float | None]],
         ymax: float = 1.0, percent: bool = True, show_na: bool = True,
         errors: Errors | None = None) -> str:
    """Grouped bars: one group per category, one bar per series; ``None`` draws "n/a" (or
    nothing, where a missing value is expected, as for a tag one approach never met).
    Many categories widen the chart rather than crush the bars. ``errors`` adds a 95%
    interval to each bar that has one."""
    width = max(W, LEFT + RIGHT + len(categories) * (12 + 10 * len(series)))
    body = _y_axis(ymax, percent, width)
    plot_w, plot_h = width - LEFT - RIGHT, H - TOP - BOTTOM
    n_series = max(1, len(series))
    gw = plot_w / max(1, len(categories))
    bw = min(36.0, (gw - 10) / n_series)
    for ci_, cat in enumerate(categories):
        gx = LEFT + gw * ci_ + (gw - bw * n_series) / 2
        for si, (name, values) in enumerate(series.items()):
            v = values[ci_]
            x = gx + si * bw
            if v is None:
                if not show_na:
                    continue
                body.append(f'<text x="{x + bw / 2:.1f}" y="{TOP + plot_h - 3}" '
                            f'text-anchor="middle" class="na">n/a</text>')
                continue
            h = max(1.0, plot_h * min(v, ymax) / ymax)
            ci = (errors or {}).get(name, [None] * len(categories))[ci_]
            label = (f"{v * 100:.1f}%" if percent else f"{v:g}") + _ci_label(ci, percent)
            body.append(f'<rect class="mark" x="{x:.1f}" y="{TOP + plot_h - h:.1f}" '
                        f'width="{bw - 2:.1f}" height="{h:.1f}" fill="{color(si)}">'
                        f'<title>{escape(name)} · {escape(cat)}: {label}</title></rect>')
            if ci is not None:
                body.append(_error_bar(x + (bw - 2) / 2, ci[0], ci[1], ymax))
        body.append(_category_label(LEFT + gw * ci_ + gw / 2, TOP + plot_h + 14, cat, gw))
    return _frame(title, body, list(series), width=width)


TICK_CHAR = 6.0
"""Width of one character of a tick label (10.5 px), in px."""


def hbars(title: str, categories: Sequence[str],
          series: Mapping[str, Sequence[float | None]], show_na: bool = False,
          errors: Errors | None = None) -> str:
    """Grouped bars laid sideways: one row per category, its label at the left, one bar per
    series. Labels under vertical bars had to be turned when there were many (task tags, long
    approach names), and turned labels ran into each other and off the chart; a row's label
    has the row to itself. ``errors`` adds a 95% interval to each bar that has one."""
    n = max(1, len(series))
    bar_h, gap = 9, 9
    row_h = n * bar_h + gap
    label_w = min(230.0, max(60.0, TICK_CHAR * max((len(c) for c in categories), default=4)
                             + 10))
    x0, plot_w = 8 + label_w, 320
    width = int(x0 + plot_w + RIGHT + 20)
    top = TOP + 4
    plot_h = row_h * max(1, len(categories))
    body = []
    for i in range(5):
        x = x0 + plot_w * i / 4
        body.append(f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{top}" y2="{top + plot_h}" '
                    f'class="grid"/><text x="{x:.1f}" y="{top + plot_h + 13}" '
                    f'text-anchor="middle" class="tick">{25 * i}%</text>')
    for ci_, cat in enumerate(categories):
        y = top + ci_ * row_h + gap / 2
        body.append(label(f'x="{x0 - 6:.1f}" y="{y + n * bar_h / 2 + 4:.1f}" '
                          'text-anchor="end" class="tick"', cat, label_w - 8, TICK_CHAR))
        for si, (name, values) in enumerate(series.items()):
            v = values[ci_]
            by = y + si * bar_h
            if v is None:
                if show_na:
                    body.append(f'<text x="{x0 + 3:.1f}" y="{by + bar_h - 1:.1f}" '
                                f'class="na">n/a</text>')
                continue
            w = max(1.0, plot_w * min(max(v, 0.0), 1.0))
            ci = (errors or {}).get(name, [None] * len(categories))[ci_]
            body.append(f'<rect class="mark" x="{x0:.1f}" y="{by:.1f}" width="{w:.1f}" '
                        f'height="{bar_h - 1}" fill="{color(si)}"><title>{escape(name)} · '
                        f'{escape(cat)}: {v * 100:.1f}%{_ci_label(ci, True)}</title></rect>')
            if ci is not None:
                lo, hi = (x0 + plot_w * min(max(e, 0.0), 1.0) for e in ci)
                cy = by + (bar_h - 1) / 2
                body.append(f'<path class="errbar" d="M{lo:.1f},{cy - 3:.1f}V{cy + 3:.1f}'
                            f'M{lo:.1f},{cy:.1f}H{hi:.1f}M{hi:.1f},{cy - 3:.1f}V{cy + 3:.1f}" '
                            'stroke="#222" stroke-width="1.1" fill="none"/>')
    return _frame(title, body, list(series), height=int(top + plot_h + 52), width=width)


def _category_label(x: float, y: float, text: str, room: float) -> str:
    """A label under a bar group, turned when it would run into its neighbours."""
    if len(text) * 6 <= room:
        return f'<text x="{x:.1f}" y="{y}" text-anchor="middle" class="tick">{escape(text)}</text>'
    head, sep, tail = text.partition(" (")
    if sep and max(len(head), len(tail) + 1) * 6 <= room:
        return (f'<text x="{x:.1f}" y="{y}" text-anchor="middle" class="tick">{escape(head)}'
                f'<tspan x="{x:.1f}" dy="13">({escape(tail)}</tspan></text>')
    short = text if len(text) <= 26 else text[:25] + "…"
    return (f'<text x="{x:.1f}" y="{y - 4}" text-anchor="end" class="tick" '
            f'transform="rotate(-25 {x:.1f} {y - 4})">{escape(short)}</text>')


def lines(title: str, xs: Sequence[float], series: Mapping[str, Sequence[float | None]],
          xlabel: str, ymax: float = 1.0, percent: bool = True, x_is_index: bool = False,
          errors: Errors | None = None) -> str:
    """One polyline per series over ``xs`` (gaps where a value is None), with point marks and,
    where ``errors`` has one, a 95% interval at each point."""
    body = _y_axis(ymax, percent)
    plot_w, plot_h = W - LEFT - RIGHT, H - TOP - BOTTOM
    lo, hi = (0, max(1, len(xs) - 1)) if x_is_index else (min(xs), max(xs))
    span = (hi - lo) or 1

    def px(i: int, x: float) -> float:
        return LEFT + plot_w * (((i if x_is_index else x) - lo) / span)

    for i, x in enumerate(xs):
        if len(xs) <= 12 or i % max(1, len(xs) // 10) == 0:
            body.append(f'<text x="{px(i, x):.1f}" y="{TOP + plot_h + 14}" text-anchor="middle" '
                        f'class="tick">{x:g}</text>')
    body.append(f'<text x="{LEFT + plot_w / 2}" y="{TOP + plot_h + 30}" text-anchor="middle" '
                f'class="axis">{escape(xlabel)}</text>')
    for si, (name, values) in enumerate(series.items()):
        errs = (errors or {}).get(name, [None] * len(xs))
        pts = [(px(i, x), TOP + plot_h - plot_h * min(v, ymax) / ymax, x, v, errs[i])
               for i, (x, v) in enumerate(zip(xs, values, strict=True)) if v is not None]
        if not pts:
            continue
        d = " ".join(f"{'M' if j == 0 else 'L'}{x:.1f},{y:.1f}" for j, (x, y, _, _, _) in
                     enumerate(pts))
        body.append(f'<path class="mark line" d="{d}" stroke="{color(si)}" fill="none" '
                    f'stroke-width="2"/>')
        for x, y, xv, v, ci in pts:
            if ci is not None:
                body.append(_error_bar(x, ci[0], ci[1], ymax, cap=3.0))
            label = (f"{v * 100:.1f}%" if percent else f"{v:g}") + _ci_label(ci, percent)
            body.append(f'<circle class="mark" cx="{x:.1f}" cy="{y:.1f}" r="3" '
                        f'fill="{color(si)}"><title>{escape(name)} · {xlabel} {xv:g}: '
                        f'{label}</title></circle>')
    return _frame(title, body, list(series))


def stacked(title: str, categories: Sequence[str], parts: Mapping[str, Sequence[int]]) -> str:
    """One horizontal bar per category, split into parts (counts), drawn as shares."""
    n = max(1, len(categories))
    row_h = 22
    height = TOP + n * (row_h + 8) + 40
    body = []
    plot_w = W - 140 - RIGHT
    for ci, cat in enumerate(categories):
        y = TOP + ci * (row_h + 8)
        total = sum(vals[ci] for vals in parts.values()) or 1
        x = 140.0
        body.append(label(f'x="134" y="{y + 15}" text-anchor="end" class="tick"', cat, 128,
                          TICK_CHAR))
        for si, (name, vals) in enumerate(parts.items()):
            w = plot_w * vals[ci] / total
            if vals[ci]:
                body.append(f'<rect class="mark" x="{x:.1f}" y="{y}" width="{max(w, 1):.1f}" '
                            f'height="{row_h}" fill="{color(si)}"><title>{escape(cat)} · '
                            f'{escape(name)}: {vals[ci]} of {total}</title></rect>')
            x += w
    return _frame(title, body, list(parts), height=height)


def small_multiples(title: str, xs: Sequence[float],
                    panels: Mapping[str, Mapping[str, Sequence[float | None]]],
                    xlabel: str, columns: int = 3, x_is_index: bool = False,
                    errors: Mapping[str, Errors] | None = None) -> str:
    """One small plot per panel (an approach), each with the same few series on the same axes:
    eight approaches' curves in one plot are a tangle; side by side they can be compared.
    ``x_is_index`` spaces the xs evenly (k = 1, 2, 3, 5, 10); ``errors`` (panel -> series ->
    interval per x) draws 95% intervals."""
    pw, ph = 250, 150
    pl, pt, pb = 34, 22, 26
    names = list(panels)
    cols = max(1, min(columns, len(names)))
    rows = (len(names) + cols - 1) // cols
    width = cols * pw + 8
    series_names: list[str] = []
    for p in panels.values():
        series_names += [n for n in p if n not in series_names]
    height = TOP + rows * ph + 40
    body = []
    pos = list(range(len(xs))) if x_is_index else list(xs)
    lo, hi = min(pos), max(pos)
    span = (hi - lo) or 1
    for idx, name in enumerate(names):
        ox = 4 + (idx % cols) * pw
        oy = TOP + (idx // cols) * ph
        iw, ih = pw - pl - 10, ph - pt - pb
        body.append(label(f'x="{ox + pw / 2:.1f}" y="{oy + 14}" text-anchor="middle" '
                          'class="ptitle"', name, pw - 12, PANEL_CHAR))
        for i in range(3):
            y = oy + pt + ih - ih * i / 2
            body.append(f'<line x1="{ox + pl}" x2="{ox + pl + iw}" y1="{y:.1f}" y2="{y:.1f}" '
                        f'class="grid"/><text x="{ox + pl - 3}" y="{y + 3:.1f}" '
                        f'text-anchor="end" class="tick">{50 * i}%</text>')
        ticks = (list(zip(pos, xs, strict=True)) if x_is_index and len(xs) <= 8 else
                 [(v, v) for v in (lo, (lo + hi) / 2, hi)] if not x_is_index else
                 [(pos[0], xs[0]), (pos[-1], xs[-1])])
        for p_, v in ticks:
            x = ox + pl + iw * (p_ - lo) / span
            body.append(f'<text x="{x:.1f}" y="{oy + pt + ih + 12}" text-anchor="middle" '
                        f'class="tick">{v:g}</text>')

        def yof(v: float, oy: float = oy, ih: float = ih) -> float:
            return oy + pt + ih - ih * min(max(v, 0.0), 1.0)

        for sname, values in panels[name].items():
            si = series_names.index(sname)
            errs = ((errors or {}).get(name) or {}).get(sname) or [None] * len(xs)
            for p_, ci in zip(pos, errs, strict=True):
                if ci is not None:
                    x = ox + pl + iw * (p_ - lo) / span
                    body.append(f'<path class="errbar" d="M{x - 2.5:.1f},{yof(ci[1]):.1f}'
                                f'H{x + 2.5:.1f}M{x:.1f},{yof(ci[1]):.1f}V{yof(ci[0]):.1f}'
                                f'M{x - 2.5:.1f},{yof(ci[0]):.1f}H{x + 2.5:.1f}" '
                                f'stroke="{color(si)}" stroke-width="1" fill="none"/>')
            pts = [(ox + pl + iw * (p_ - lo) / span, yof(v), x, v)
                   for p_, x, v in zip(pos, xs, values, strict=True) if v is not None]
            if not pts:
                continue
            d = " ".join(f"{'M' if j == 0 else 'L'}{x:.1f},{y:.1f}"
                         for j, (x, y, _, _) in enumerate(pts))
            body.append(f'<path class="mark line" d="{d}" stroke="{color(si)}" fill="none" '
                        f'stroke-width="1.8"><title>{escape(name)} · {escape(sname)}</title>'
                        '</path>')
            for x, y, xv, v in pts:
                body.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="1.8" fill="{color(si)}">'
                            f'<title>{escape(name)} · {escape(sname)} at {xlabel} {xv:g}: '
                            f'{v * 100:.1f}%</title></circle>')
    body.append(f'<text x="{width / 2:.1f}" y="{TOP + rows * ph + 6}" text-anchor="middle" '
                f'class="axis">{escape(xlabel)}</text>')
    return _frame(title, body, series_names, height=height, width=width)
