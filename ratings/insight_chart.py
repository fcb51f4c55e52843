"""A player's placements against the ratings' expectation as a small inline SVG (no
JavaScript, no chart library; as ``ratings.chart``): two lines over the sheets in date
order — the placement reached (solid) and the placement the ratings predicted (dashed,
so the two part in black-and-white print too) — rank 1 at the top, the first and last
date below, a legend under the plot. A long history is drawn as at most ``MAX_POINTS``
points, each the mean of consecutive sheets, so a line stays a line at 390 px."""

from __future__ import annotations

from html import escape

WIDTH, HEIGHT = 360, 210
PAD_L, PAD_R, PAD_T, PAD_B = 30, 8, 12, 58
MAX_POINTS = 104
REACHED, EXPECTED = "#0b6e4f", "#7a3b00"


def _buckets(values: list[tuple[float, float]]) -> list[tuple[float, float]]:
    if len(values) <= MAX_POINTS:
        return values
    out = []
    for i in range(MAX_POINTS):
        part = values[i * len(values) // MAX_POINTS:(i + 1) * len(values) // MAX_POINTS]
        out.append((sum(p for p, _e in part) / len(part), sum(e for _p, e in part) / len(part)))
    return out


def placement_chart(series: list[dict], dates: tuple[str, str], *, label: str,
                    reached: str, expected: str) -> str:
    """SVG of ``series`` (rows with ``placement`` and ``expected_placement``) between
    ``dates`` (first and last, as text), titled ``label`` for readers of the screen and
    with the two lines' names ``reached`` and ``expected``; "" with fewer than two."""
    if len(series) < 2:
        return ""
    points = _buckets([(row["placement"], row["expected_placement"]) for row in series])
    worst = max(2, max(max(p, e) for p, e in points))
    step = (WIDTH - PAD_L - PAD_R) / (len(points) - 1)
    bottom = HEIGHT - PAD_B

    def x(i: int) -> float:
        return PAD_L + i * step

    def y(rank: float) -> float:
        return PAD_T + (rank - 1) * (bottom - PAD_T) / (worst - 1)

    def line(index: int) -> str:
        return " ".join(f"{x(i):.1f},{y(p[index]):.1f}" for i, p in enumerate(points))

    low = round(worst)
    parts = [
        f'<svg class="insight-chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-label="{escape(label)}" xmlns="http://www.w3.org/2000/svg">',
        f'<line x1="{PAD_L}" y1="{PAD_T}" x2="{PAD_L}" y2="{bottom}" stroke="#999"/>',
        f'<line x1="{PAD_L}" y1="{bottom}" x2="{WIDTH - PAD_R}" y2="{bottom}" stroke="#999"/>',
        f'<text x="{PAD_L - 6}" y="{y(1) + 5:.1f}" font-size="15" text-anchor="end">1</text>',
        f'<text x="{PAD_L - 6}" y="{y(low) + 5:.1f}" font-size="15" '
        f'text-anchor="end">{low}</text>',
        f'<text x="{PAD_L}" y="{bottom + 18}" font-size="14">{escape(dates[0])}</text>',
        f'<text x="{WIDTH - PAD_R}" y="{bottom + 18}" font-size="14" '
        f'text-anchor="end">{escape(dates[1])}</text>',
        f'<polyline fill="none" stroke="{EXPECTED}" stroke-width="2" '
        f'stroke-dasharray="6 4" points="{line(1)}"/>',
        f'<polyline fill="none" stroke="{REACHED}" stroke-width="2.5" points="{line(0)}"/>',
        f'<line x1="{PAD_L}" y1="{HEIGHT - 12}" x2="{PAD_L + 24}" y2="{HEIGHT - 12}" '
        f'stroke="{REACHED}" stroke-width="2.5"/>',
        f'<text x="{PAD_L + 30}" y="{HEIGHT - 7}" font-size="14">{escape(reached)}</text>',
        f'<line x1="{WIDTH / 2 + 10}" y1="{HEIGHT - 12}" x2="{WIDTH / 2 + 34}" '
        f'y2="{HEIGHT - 12}" stroke="{EXPECTED}" stroke-width="2" stroke-dasharray="6 4"/>',
        f'<text x="{WIDTH / 2 + 40}" y="{HEIGHT - 7}" font-size="14">{escape(expected)}</text>',
        "</svg>",
    ]
    return "".join(parts)
