"""The end of a game shows the standings with each player's score breakdown (issue 26 §2), for the
games that record where their points came from as they are scored (Cradle, Rise of Empires)."""

from __future__ import annotations

import logging
import random

import pytest

from bot.service.text import lettered

from .conftest import GAMES
from .test_play import play_to_end


@pytest.mark.parametrize(
    "game_id, users, options",
    [("cradle", (1, 2, 3, 4), "seed=5"), ("rise-of-empires", (1, 2, 3), "seed=5")],
)
async def test_the_final_standings_show_where_each_score_came_from(table, caplog, game_id, users, options):
    await table.started(game_id, users=users, options=options)
    with caplog.at_level(logging.ERROR):
        await play_to_end(table, users, random.Random(3))
    assert "score_breakdown" not in caplog.text  # the parts added up (described.breakdown)
    final = table.replies[-1]
    assert "Game over" in final.text and len(final.standings) == len(users)
    rec = await table.storage.table(1)
    state = GAMES[game_id].loads((await table.storage.snapshot(1))[1])
    assert [s.parts for s in sorted(final.standings, key=lambda s: s.seat)] == GAMES[game_id].score_breakdown(state)
    for s in final.standings:
        assert s.parts and sum(points for _, points in s.parts) == s.score
        shown = " · ".join(f"{label} {points}" for label, points in s.parts if points)
        assert f"{s.place}. {lettered(s.name, s.seat)} {s.score} — {shown}" in final.text
        assert "Regions" in shown and "Not itemised" not in shown
    assert rec.status == "finished"
