"""How the log and the prompts name things: players, counts of goods, lists.

One place for the game's words, so every line says "1 cube" and "2 cubes",
names a player with their colour, and never writes "(s)". Goods have the
rulebook's words ("resource disc"; gold, food and VP do not take an s), so
`amount` keeps its own table (lists: engine.core's `listing`).
"""

from __future__ import annotations

from .state import State

GOOD_WORDS = {
    "gold": ("gold", "gold"),
    "vp": ("VP", "VP"),
    "food": ("food", "food"),
    "resource": ("resource disc", "resource discs"),
    "resources": ("resource disc", "resource discs"),
    "cube": ("cube", "cubes"),
    "cubes": ("cube", "cubes"),
    "tile": ("tile", "tiles"),
    "region": ("region", "regions"),
    "disc": ("disc", "discs"),
}


def who(state: State, seat: int) -> str:
    p = state.players[seat]
    return f"{p.name} ({p.colour})"


def amount(k: int, good: str) -> str:
    """`1 resource disc`, `3 cubes`, `2 VP`: a count with the rulebook's word for the good."""
    one, many = GOOD_WORDS.get(good, (good, good))
    return f"{k} {one if k == 1 else many}"


def holding(state: State, region: str) -> str:
    """Who has how many cubes in `region` after a change, e.g. `red 2, blue 1` (or `empty`)."""
    held = [f"{state.players[s].colour} {n}" for s, n in enumerate(state.cubes[region]) if n > 0]
    return ", ".join(held) or "empty"
