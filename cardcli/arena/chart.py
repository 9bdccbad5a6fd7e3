"""The standings page's chart of ratings over time, drawn here as inline SVG.

Drawn on the server, not by a script: it is part of the fragment the page receives on each
update (:mod:`.events`), it needs no charting library (nothing to fetch, nothing to build), and
it shows with scripts off. Each version is a line (mu) over a band (its 95% interval) in one of
:data:`COLOURS` classes of the stylesheet, named in a legend that is ordinary HTML, so a screen
reader reads the names and a table below gives the same numbers as text.
"""

from __future__ import annotations

from typing import Sequence

from .history import Z95, Point
from .markup import esc, when

WIDTH, HEIGHT = 640, 260
LEFT, RIGHT, TOP, BOTTOM = 44, 12, 10, 26
LINES = 8
"""The versions drawn: the top rows of the standings (more lines than this are unreadable)."""
DRAWN = 120
"""The most points drawn per line: a longer history is sampled evenly, keeping its ends."""
COLOURS = LINES
"""Line classes ``s0`` to ``s7`` (arena.css): colours told apart by colour-blind readers too."""


def sample(points: Sequence[Point], most: int = DRAWN) -> list[Point]:
    """At most ``most`` of ``points``, evenly spread, the first and the last kept."""
    if len(points) <= most:
        return list(points)
    step = (len(points) - 1) / (most - 1)
    return [points[round(i * step)] for i in range(most)]


def chart(lines: Sequence[tuple[str, Sequence[Point]]]) -> str:
    """An SVG of ``lines`` (a label and its points, oldest first), with its HTML legend; an
    explanation instead when there is nothing to draw yet."""
    drawn = [(label, sample(points)) for label, points in lines if points][:LINES]
    if not drawn:
        return '<p class="chart-empty">The chart of ratings starts with the first rated matches.</p>'
    times = [p[0] for _, pts in drawn for p in pts]
    lows = [p[1] - Z95 * p[2] for _, pts in drawn for p in pts]
    highs = [p[1] + Z95 * p[2] for _, pts in drawn for p in pts]
    t0, t1 = min(times), max(times)
    y0, y1 = min(lows), max(highs)
    if t1 - t0 < 1e-9:
        t0, t1 = t0 - 1, t1 + 1
    if y1 - y0 < 1e-9:
        y0, y1 = y0 - 1, y1 + 1
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(t: float) -> float:
        return LEFT + (t - t0) / (t1 - t0) * plot_w

    def y(v: float) -> float:
        return TOP + (y1 - v) / (y1 - y0) * plot_h

    parts = [f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-labelledby="chart-title" '
             f'preserveAspectRatio="none" focusable="false"><title id="chart-title">Ratings over time '
             f'(mu with its 95% interval) of the top {len(drawn)} rows</title>']
    for tick in range(5):
        value = y0 + (y1 - y0) * tick / 4
        parts.append(f'<line class="grid" x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y(value):.1f}" y2="{y(value):.1f}"/>'
                     f'<text class="axis" x="{LEFT - 4}" y="{y(value) + 4:.1f}" text-anchor="end">{value:.1f}</text>')
    for i, (label, pts) in enumerate(drawn):
        upper = " ".join(f"{x(t):.1f},{y(mu + Z95 * s):.1f}" for t, mu, s in pts)
        lower = " ".join(f"{x(t):.1f},{y(mu - Z95 * s):.1f}" for t, mu, s in reversed(pts))
        line = " ".join(f"{x(t):.1f},{y(mu):.1f}" for t, mu, _ in pts)
        parts.append(f'<g class="s{i % COLOURS}"><title>{esc(label)}</title>'
                     f'<polygon class="band" points="{upper} {lower}"/>'
                     f'<polyline class="line" points="{line}"/>'
                     f'<circle class="dot" cx="{x(pts[-1][0]):.1f}" cy="{y(pts[-1][1]):.1f}" r="3"/></g>')
    parts.append("</svg>")
    legend = "".join(f'<li><span class="swatch s{i % COLOURS}" aria-hidden="true"></span>{esc(label)}: '
                     f'{pts[-1][1]:.2f} ± {Z95 * pts[-1][2]:.2f}</li>' for i, (label, pts) in enumerate(drawn))
    span = f'<p class="chart-span">From {when(t0)} to {when(t1)}.</p>'
    return f'<figure class="chart-box">{"".join(parts)}<figcaption><ul class="legend">{legend}</ul>{span}</figcaption></figure>'
