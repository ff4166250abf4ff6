"""The score chart (issue 17 §3): image checks as for the boards — 1200 px wide, no text below
18 px, each player's colour with a second cue (dash, letter, pattern) — and alt text that
gives the numbers within Discord's limit."""

from __future__ import annotations

import io

from PIL import Image as PILImage

from renderers.common import MIN_TEXT, PLAYER_COLORS, player_color
from renderers.common.chart import ALT_BUDGET, DASHES, alt_text, nice_step, score_chart
from renderers.common.palette import PLAYER_PATTERNS
from renderers.scores import ChartLine, ScoreChart


def chart(players: int = 3, points: int = 7, *, finished: bool = True, note: str = "") -> ScoreChart:
    labels = ["start"] + [str(i) for i in range(1, points)]
    if not finished:
        labels[-1] += " so far"
    lines = [
        ChartLine(seat, f"Player {seat + 1}", [seat * 3 + i * (seat + 2) for i in range(points)], seat == 1)
        for seat in range(players)
    ]
    return ScoreChart("Rise of Empires", "game turn", labels, lines, finished, note)


def decode(image) -> PILImage.Image:
    im = PILImage.open(io.BytesIO(image.png))
    im.load()
    return im.convert("RGB")


def test_the_chart_is_as_wide_as_a_board_and_draws_every_player_in_their_colour():
    image = score_chart(chart(6))
    im = decode(image)
    assert im.size == (image.width, image.height) and image.width == 1200 and 800 < image.height < 1200
    colours = {rgb for _, rgb in im.getcolors(1 << 20)}
    for seat in range(6):
        assert any(sum(abs(a - b) for a, b in zip(c, player_color(seat), strict=False)) < 12 for c in colours), seat
    assert len(image.png) < 200_000


def test_no_text_on_the_chart_is_smaller_than_the_minimum():
    from renderers.common import recording

    with recording() as marks:
        score_chart(chart(6, 40))
    assert marks and min(m.size for m in marks) >= MIN_TEXT


def test_every_player_has_a_dash_of_their_own_so_lines_part_in_greyscale():
    assert len({DASHES[p] for p in PLAYER_PATTERNS}) == len(PLAYER_PATTERNS) == len(PLAYER_COLORS)
    # drawn along a straight stretch, every dash leaves a different trace
    from renderers.common import Canvas
    from renderers.common.chart import _dashed

    traces = set()
    for pattern in PLAYER_PATTERNS:
        c = Canvas.blank(400, 40)
        _dashed(c, [(0, 20), (200, 20), (400, 20)], (0, 0, 0), DASHES[pattern])
        traces.add(tuple(c.im.getpixel((x, 20)) == (0, 0, 0) for x in range(400)))
    assert len(traces) == 6


def test_the_legend_shows_each_players_fill_pattern_and_the_winner():
    image = score_chart(chart(2))
    im = decode(image)
    legend = im.crop((0, im.height - 130, 600, im.height))
    first = player_color(0)
    assert any(sum(abs(a - b) for a, b in zip(c, first, strict=False)) < 12 for _, c in legend.getcolors(1 << 20))
    assert "Player 2 (B) " in image.alt and "(winner)" in image.alt


def test_alt_text_gives_the_numbers_of_every_point():
    text = alt_text(chart(3, 7))
    assert text.startswith("Score chart, Rise of Empires: every player's score after each game turn (final).")
    assert "Final: Player 1 (A) 12, Player 2 (B) 21 (winner), Player 3 (C) 30." in text
    assert "Scores in the order Player 1, Player 2, Player 3:" in text
    assert "start: 0, 3, 6; game turn 1: 2, 6, 10;" in text and "game turn 6: 12, 21, 30." in text


def test_alt_text_of_a_long_game_is_thinned_evenly_and_stays_within_discords_limit():
    long = chart(6, 60, finished=False, note="open practice game")
    text = alt_text(long)
    assert len(text) <= ALT_BUDGET
    assert "(so far)" in text and "Now: " in text and "open practice game." in text
    assert "start: " in text and "game turn 59 so far: " in text and "shown.)" in text


def test_a_running_game_marks_its_last_point_as_so_far():
    image = score_chart(chart(2, 4, finished=False))
    assert "(so far)" in image.alt
    decode(image)


def test_nice_steps_are_round_numbers():
    assert [nice_step(s) for s in (5, 30, 100, 160, 999)] == [1, 5, 20, 50, 200]
