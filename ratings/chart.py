"""A rating's history as a small inline SVG line (no JavaScript, as the board's chart):
one point per rated result, the rating after it; the lowest and highest rating on the
left, the first and last date below. The board's chart (``tournaments.pages.chart``)
labels every point on the x-axis and always shows zero, which does not suit a history
of hundreds of results around 1000, so this one is its own."""

from __future__ import annotations

from html import escape

WIDTH, HEIGHT = 360, 180
PAD_L, PAD_R, PAD_T, PAD_B = 46, 6, 12, 26
COLOR = "#0b6e4f"


def history_chart(points: list[tuple[str, int]], label: str) -> str:
    """SVG of ``points`` ((date text, rating) in order), titled ``label`` for readers
    of the screen; "" with fewer than two points."""
    if len(points) < 2:
        return ""
    values = [v for _d, v in points]
    low, high = min(values), max(values)
    if high == low:
        low, high = low - 10, high + 10
    step = (WIDTH - PAD_L - PAD_R) / (len(points) - 1)

    def x(i: int) -> float:
        return PAD_L + i * step

    def y(v: int) -> float:
        return PAD_T + (high - v) * (HEIGHT - PAD_T - PAD_B) / (high - low)

    line = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(values))
    parts = [
        f'<svg class="rating-chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-label="{escape(label)}" xmlns="http://www.w3.org/2000/svg">',
        f'<line x1="{PAD_L}" y1="{PAD_T}" x2="{PAD_L}" y2="{HEIGHT - PAD_B}" stroke="#ccc"/>',
        f'<line x1="{PAD_L}" y1="{HEIGHT - PAD_B}" x2="{WIDTH - PAD_R}" '
        f'y2="{HEIGHT - PAD_B}" stroke="#ccc"/>',
        f'<text x="{PAD_L - 6}" y="{y(high) + 5:.1f}" font-size="15" '
        f'text-anchor="end">{high}</text>',
        f'<text x="{PAD_L - 6}" y="{y(low) + 5:.1f}" font-size="15" '
        f'text-anchor="end">{low}</text>',
        f'<text x="{PAD_L}" y="{HEIGHT - 6}" font-size="15">{escape(points[0][0])}</text>',
        f'<text x="{WIDTH - PAD_R}" y="{HEIGHT - 6}" font-size="15" '
        f'text-anchor="end">{escape(points[-1][0])}</text>',
        f'<polyline fill="none" stroke="{COLOR}" stroke-width="2.5" points="{line}"/>',
    ]
    if len(points) <= 60:  # dots while they can still be told apart
        parts.extend(f'<circle cx="{x(i):.1f}" cy="{y(v):.1f}" r="3" fill="{COLOR}"/>'
                     for i, v in enumerate(values))
    parts.append("</svg>")
    return "".join(parts)
