"""The score chart: every player's score after each round, as a picture (issue 17 §3).

Drawn like the boards (README, "Decisions"): 1200 px wide, no text below 18 px, the
players' Okabe-Ito colours each with a second cue — the line's dash pattern, the
letter badge at its end, and the fill pattern in the legend — so the chart reads in
greyscale and on a phone. The alt text gives the numbers themselves.

Input is plain data (`ScoreChart`, renderers/scores.py, which loads no Pillow): the bot
works the points out of the game's public views (bot/service/story.py) and sends them to
a drawing worker; this module only draws.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from ..scores import ScoreChart
from .encode import Image
from .fonts import font
from .layout import MARGIN, WIDTH, Box, Canvas, Header, draw_header, fill_pattern, header_height, join_alt
from .palette import INK, MUTED, PANEL, RULE, player_color, player_letter, player_pattern

#: The dash of each fill pattern, as (on, off, on, off, ...) lengths in pixels along the line.
DASHES: dict[str, tuple[int, ...]] = {
    "solid": (),
    "stripes": (30, 12),
    "dots": (7, 11),
    "cross": (24, 9, 7, 9),
    "hstripes": (15, 11),
    "vstripes": (24, 8, 7, 8, 7, 8),
}
LINE = 6
LABEL = 22
PLOT_HEIGHT = 560
LEFT, RIGHT = 96, 170  # room for the score axis and for the labels at the lines' ends
LEGEND_ROW = 48
#: Discord keeps 1,024 characters of alt text.
ALT_BUDGET = 1000


def nice_step(span: float, ticks: int = 6) -> int:
    """A round step (1, 2, 5 times a power of ten) giving about `ticks` gridlines."""
    raw = max(span, 1) / ticks
    power = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 5, 10):
        if factor * power >= raw:
            return max(1, int(factor * power))
    return max(1, int(10 * power))


def _dashed(
    c: Canvas, points: Sequence[tuple[float, float]], color: tuple[int, int, int], dash: tuple[int, ...]
) -> None:
    """A polyline in `dash` (continuous across corners), `LINE` px wide."""
    if not dash:
        c.d.line(points, fill=color, width=LINE, joint="curve")
        return
    index, left, on = 0, float(dash[0]), True
    for (x0, y0), (x1, y1) in zip(points, points[1:], strict=False):  # consecutive pairs
        length = math.hypot(x1 - x0, y1 - y0)
        done = 0.0
        while done < length - 1e-9:
            run = min(left, length - done)
            if on:
                a, b = done / length, (done + run) / length
                c.d.line(
                    [(x0 + (x1 - x0) * a, y0 + (y1 - y0) * a), (x0 + (x1 - x0) * b, y0 + (y1 - y0) * b)],
                    fill=color,
                    width=LINE,
                )
            done += run
            left -= run
            if left <= 1e-9:
                index = (index + 1) % len(dash)
                left, on = float(dash[index]), index % 2 == 0


def _spread(wanted: list[tuple[float, int]], gap: int, low: float, high: float) -> dict[int, float]:
    """End labels at their lines' heights, pushed apart so that none overlaps another."""
    placed: dict[int, float] = {}
    last = -1e9
    for y, key in sorted(wanted):
        y = max(y, last + gap)
        placed[key] = y
        last = y
    overflow = last - high
    if overflow > 0:
        for key in placed:
            placed[key] = max(low, placed[key] - overflow)
    return placed


def _values(chart: ScoreChart) -> list[float]:
    return [v for line in chart.lines for v in line.values if v is not None]


def alt_text(chart: ScoreChart) -> str:
    """The chart's numbers, within Discord's alt-text limit: the final scores, then the
    scores at each point (evenly thinned when a long game would not fit)."""
    names = [line.name for line in chart.lines]
    status = "final" if chart.finished else "so far"
    head = [f"Score chart, {chart.title}: every player's score after each {chart.word} ({status})."]
    if chart.note:
        head.append(chart.note + ".")
    last = [
        f"{line.name} ({player_letter(line.seat)}) {_num(line.values[-1])}" + (" (winner)" if line.winner else "")
        for line in chart.lines
        if line.values
    ]
    head.append(("Final: " if chart.finished else "Now: ") + ", ".join(last) + ".")
    head.append(f"Scores in the order {', '.join(names)}:")
    points = [
        f"{label if label == 'start' else chart.word + ' ' + label}: "
        + ", ".join(_num(line.values[i]) for line in chart.lines)
        for i, label in enumerate(chart.labels)
    ]
    budget = ALT_BUDGET - sum(len(h) + 1 for h in head) - 40
    shown, every = points, 1
    while every < len(points) and sum(len(p) + 2 for p in shown) > budget:
        every += 1
        keep = sorted(set(range(0, len(points), every)) | {len(points) - 1})
        shown = [points[i] for i in keep]
    body = "; ".join(shown) + "."
    if every > 1:
        body += f" (Every {every}th {chart.word} shown.)"
    return join_alt([*head, body])


def _num(value: float | None) -> str:
    if value is None:
        return "-"
    return str(int(value)) if float(value).is_integer() else f"{value:.1f}"


def score_chart(chart: ScoreChart, width: int = WIDTH) -> Image:
    """Draw `chart`: a header, the plot (a line per player, score axis, period axis),
    and the legend (each player's colour, letter, pattern, name and last score)."""
    status = f"Scores after each {chart.word}" + ("" if chart.finished else " · so far")
    header = Header(chart.title, status, subtitle=chart.note)
    rows = math.ceil(len(chart.lines) / 2)
    legend_h = MARGIN + rows * LEGEND_ROW + MARGIN
    top = header_height(header, width)
    plot = Box(LEFT, top + 36, width - LEFT - RIGHT, PLOT_HEIGHT)
    axis_h = 2 * int(LABEL * 1.25) + 16
    c = Canvas.blank(width, plot.bottom + axis_h + legend_h + MARGIN)
    draw_header(c, header)

    values = _values(chart) or [0.0]
    low, high = min(0.0, min(values)), max(1.0, max(values))
    step = nice_step(high - low)
    low, high = math.floor(low / step) * step, math.ceil(high / step) * step
    high = high if high > low else low + step

    def y_of(v: float) -> float:
        return plot.bottom - (v - low) / (high - low) * plot.h

    count = len(chart.labels)

    def x_of(i: int) -> float:
        return plot.x + (plot.w * i / (count - 1) if count > 1 else plot.w / 2)

    c.d.rectangle(plot.rect, fill=PANEL, outline=RULE, width=2)
    tick = low
    while tick <= high + 1e-9:
        y = y_of(tick)
        c.d.line([(plot.x, y), (plot.right, y)], fill=RULE, width=1)
        c.text(plot.x - 10, y, _num(tick), LABEL, fill=MUTED, anchor="rm")
        tick += step
    c.text(plot.x, plot.y - 8, "score", LABEL, bold=True, fill=MUTED, anchor="ld")

    # the period axis: as many labels as fit, always the first and the last
    widest = max((font(LABEL).getlength(str(lb)) for lb in chart.labels), default=10) + 16
    every = max(1, math.ceil(widest * count / max(plot.w, 1)))
    for i, label in enumerate(chart.labels):
        x = x_of(i)
        c.d.line([(x, plot.bottom), (x, plot.bottom + 8)], fill=RULE, width=2)
        if i % every == 0 or i == count - 1:
            if i == count - 1 or count - 1 - i >= every:
                c.text(x, plot.bottom + 12, label.replace(" so far", "*"), LABEL, fill=INK, anchor="ma")
    caption = chart.word + ("  (* so far)" if not chart.finished else "")
    c.text(
        plot.x + plot.w / 2, plot.bottom + 12 + int(LABEL * 1.25), caption, LABEL, bold=True, fill=MUTED, anchor="ma"
    )

    # the lines, winners drawn last (on top); a marker at each point while they stay apart
    order = sorted(chart.lines, key=lambda line: (line.winner, -line.seat))
    ends: list[tuple[float, int]] = []
    for line in order:
        points = [(x_of(i), y_of(v)) for i, v in enumerate(line.values) if v is not None]
        if not points:
            continue
        color = player_color(line.seat)
        if len(points) > 1:
            _dashed(c, points, color, DASHES.get(player_pattern(line.seat), ()))
        if count <= 24 or len(points) == 1:
            for x, y in points:
                c.d.ellipse([x - 7, y - 7, x + 7, y + 7], fill=color, outline=PANEL, width=2)
        ends.append((points[-1][1], line.seat))
    badge = 34
    placed = _spread([(y - badge / 2, seat) for y, seat in ends], badge + 4, top, plot.bottom - badge)
    by_seat = {line.seat: line for line in chart.lines}
    for seat, y in placed.items():
        x = plot.right + 12
        c.badge(seat, x, int(y), badge)
        last = next((v for v in reversed(by_seat[seat].values) if v is not None), None)
        c.text(
            x + badge + 8, y + badge / 2, _num(last), 26, bold=True, fill=INK, anchor="lm", max_width=RIGHT - badge - 24
        )

    # the legend: colour and pattern, the line's dash, letter, name and last score
    y0 = plot.bottom + axis_h
    box = Box(MARGIN, y0, width - 2 * MARGIN, legend_h - MARGIN)
    c.panel(box, fill=PANEL, outline=RULE)
    column = (box.w - 2 * MARGIN) // 2
    for n, line in enumerate(chart.lines):
        x = box.x + MARGIN + (n % 2) * column
        y = box.y + MARGIN + (n // 2) * LEGEND_ROW
        fill_pattern(c.im, Box(x, y + 4, 44, 30), line.seat, radius=5)
        _dashed(
            c, [(x + 54, y + 19), (x + 114, y + 19)], player_color(line.seat), DASHES.get(player_pattern(line.seat), ())
        )
        c.badge(line.seat, x + 124, y + 2, badge)
        last = next((v for v in reversed(line.values) if v is not None), None)
        text = f"{line.name} — {_num(last)}" + ("  ★ winner" if line.winner else "")
        c.text(
            x + 124 + badge + 10,
            y + 19,
            text,
            24,
            bold=line.winner,
            fill=INK,
            anchor="lm",
            max_width=column - 124 - badge - 24,
        )
    return c.finish(alt_text(chart))
