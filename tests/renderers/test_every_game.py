"""Every game's boards: phone-readable sizes, and caches that serve every table (issue 15).

Boards are drawn at each game's smallest and largest player count, at the start,
halfway and at the end of a seeded random game; each must be at least 1200 px
wide (readable on a phone zoomed to width) and its PNG under Discord-friendly 1 MB.
The static layers must be keyed by what the picture depends on, never by the
players' names: tables with other names reuse them.
"""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image as PILImage

import engine
import renderers
from renderers.common import cache

MAX_BYTES = 1_000_000
MIN_WIDTH = 1200


def positions(game_id: str, players: int, seed: int, names: list[str] | None = None):
    """(view of the public board, view of seat 0) at the start, halfway and at the end."""
    game = engine.get(game_id)
    rng = random.Random(seed)
    state = game.setup(names or [f"Player {i + 1}" for i in range(players)], seed)
    states = [state]
    while not game.is_over(state):
        seat = rng.choice(game.to_act(state))
        state = game.apply(state, seat, rng.choice(game.legal_actions(state, seat))).state
        states.append(state)
    for s in (states[0], states[len(states) // 2], states[-1]):
        yield game.view(s, None), game.view(s, 0)


CASES = [(g, n) for g in engine.GAMES for n in sorted({engine.get(g).min_players, engine.get(g).max_players})]


@pytest.mark.parametrize("game_id,players", CASES)
def test_every_board_is_at_least_1200_px_wide_and_under_1_mb(game_id, players):
    for public, private in positions(game_id, players, seed=3):
        for view, seat in ((public, None), (private, 0)):
            img = renderers.render(game_id, view, seat)
            decoded = PILImage.open(io.BytesIO(img.png))
            assert decoded.format == "PNG" and decoded.size == (img.width, img.height)
            assert img.width >= MIN_WIDTH, (game_id, players, seat, img.width)
            assert len(img.png) < MAX_BYTES, (game_id, players, seat, len(img.png))
            assert img.alt.strip()


@pytest.mark.parametrize("game_id", list(engine.GAMES))
def test_tables_with_other_players_reuse_the_static_layers(game_id):
    """A layer keyed by names never hits at the next table (Rising Cultures' did: 0 hits in 25 tables)."""
    game = engine.get(game_id)
    tables = [[f"{first}{i}" for i in range(game.min_players)] for first in ("Ann", "Bob", "Cyd", "Dee", "Eve")]
    views = [game.view(game.setup(names, 11), None) for names in tables]
    cache.LAYERS.clear()
    renderers.render(game_id, views[0])
    drawn = len(cache.LAYERS)
    assert drawn >= 1
    for view in views[1:]:
        renderers.render(game_id, view)
    assert len(cache.LAYERS) == drawn, f"{game_id}: tables that differ only in names drew new layers"
