"""A small inline SVG line chart: each top player's total after every round.

Pure Python, no JavaScript: the public board must stay light on a projector's laptop.
"""

from __future__ import annotations

from html import escape

from tournaments.templatetags.figures import num

COLORS = ["#0b6e4f", "#b3261e", "#1f5fbf", "#c77700", "#6a3d9a", "#2b8a8a", "#8c564b", "#555"]


LABEL_GAP = 14  # px between the names at the lines' ends, so they never overlap


def _names(series):
    return [(name, COLORS[n % len(COLORS)]) for n, (name, _vals) in enumerate(series)]


def _spread(ys: list[float], gap: float, top: float, bottom: float) -> list[float]:
    """The names' heights moved apart by at least ``gap``, in the lines' order, kept as
    near their lines' ends as the gap allows."""
    order = sorted(range(len(ys)), key=lambda i: ys[i])
    placed: dict[int, float] = {}
    last = top - gap
    for i in order:
        placed[i] = max(ys[i], last + gap)
        last = placed[i]
    overflow = last - bottom
    if overflow > 0:  # pushed past the bottom: shift the whole column up
        for i in placed:
            placed[i] -= overflow
    return [placed[i] for i in range(len(ys))]


def cumulative(rounds: list[dict], numbers: list[int]) -> list[int]:
    by_round = {r["round"]: r["score"] for r in rounds}
    total, out = 0, []
    for number in numbers:
        total += by_round.get(number, 0)
        out.append(total)
    return out


def line_chart(series: list[tuple[str, list[int]]], labels: list[str],
               width: int = 640, height: int = 280) -> str:
    """SVG with one polyline per (name, values); values align with ``labels``."""
    if not series or not labels:
        return ""
    pad_l, pad_r, pad_t, pad_b = 48, 130, 12, 28
    values = [v for _name, vals in series for v in vals] + [0]
    low, high = min(values), max(values)
    span = (high - low) or 1
    step = (width - pad_l - pad_r) / max(len(labels) - 1, 1)

    def x(i: int) -> float:
        return pad_l + i * step

    def y(v: int) -> float:
        return pad_t + (high - v) * (height - pad_t - pad_b) / span

    # named by the heading above it (id chart-title in templates/board/page.html)
    parts = [f'<svg viewBox="0 0 {width} {height}" role="img" aria-labelledby="chart-title" '
             'xmlns="http://www.w3.org/2000/svg">',
             f'<line x1="{pad_l}" y1="{y(0):.1f}" x2="{width - pad_r}" y2="{y(0):.1f}" '
             'stroke="#ccc"/>']
    for i, label in enumerate(labels):
        parts.append(f'<text x="{x(i):.1f}" y="{height - 8}" font-size="12" '
                     f'text-anchor="middle">{escape(label)}</text>')
    parts.append(f'<text x="4" y="{y(high) + 4:.1f}" font-size="12">{num(high)}</text>')
    parts.append(f'<text x="4" y="{y(low) + 4:.1f}" font-size="12">{num(low)}</text>')
    for n, (name, vals) in enumerate(series):
        color = COLORS[n % len(COLORS)]
        points = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(vals))
        parts.append(f'<polyline fill="none" stroke="{color}" stroke-width="2.5" '
                     f'points="{points}"><title>{escape(name)}</title></polyline>')
        parts.extend(f'<circle cx="{x(i):.1f}" cy="{y(v):.1f}" r="3" fill="{color}"/>'
                     for i, v in enumerate(vals))
    for (name, color), label_y in zip(_names(series), _spread(
            [y(vals[-1]) + 4 for _name, vals in series], LABEL_GAP, pad_t + 8, height - pad_b),
            strict=True):
        parts.append(f'<text x="{width - pad_r + 6}" y="{label_y:.1f}" font-size="12" '
                     f'fill="{color}">{escape(name[:18])}</text>')
    parts.append("</svg>")
    return "".join(parts)
