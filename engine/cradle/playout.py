"""Cradle of Civilization for the fill-in bot's rollouts (engine/ai): a random legal action, quickly.

`draw(state, seat, rand)` has the distribution of a uniform choice among
`legal_actions(state, seat)`. Most rollout steps are growth (5.4-5.6), whose
list holds one `place` action per number of Armies that fit each target Area
(`place uruk`, `place 2 uruk`, ...), one `attack` per hostile Area and the
Non-Combat Expansion attempts (rounds.grow_actions). Here the targets are
found by the rules' own `growth_targets`, the actions counted per target,
one index drawn among them all and only that action written out. Every other
step (combat rolls, displacement, allocation, events) lists few actions and
is drawn from `legal_actions` itself. tests/engine/ai/test_playout.py
compares the two on random positions.
"""

from __future__ import annotations

import random

from .board import C, areas_of, counted, growth_targets
from .game import CradleGame
from .rounds import can_colonize, wonder_sites
from .state import DUMMY, State

GAME = CradleGame()


def draw(state: State, seat: int, rand: random.Random) -> str:
    rnd = state.rnd
    if state.phase != "strategy" or rnd is None or rnd.step != "grow":
        legal = GAME.legal_actions(state, seat)
        return legal[rand.randrange(len(legal))]
    own = areas_of(state, rnd.civ)
    place, attack = growth_targets(state, rnd, own)
    if rnd.seat == DUMMY:  # 9.0: one Army at a time, no Non-Combat Expansion
        k = rand.randrange(len(place) + len(attack))
        return f"place {place[k]}" if k < len(place) else f"attack {attack[k - len(place)]}"
    pool, armies, stacking = rnd.pool, state.count, C.stacking  # rounds.placeable, for each Area at once
    sizes = [min(pool, stacking[a] - armies.get(a, 0)) for a in place]
    expansion = ["colonize"] if can_colonize(state, rnd, own) else []
    expansion += [f"wonder {a}" for a in wonder_sites(state, rnd, own)]
    if rnd.current and not rnd.tried_culture:
        expansion.append("culture")
    if not place and not attack and expansion:
        expansion.append("done")  # as in rounds.grow_actions (RULES-NOTES 5.4)
    k = rand.randrange(sum(sizes) + len(attack) + len(expansion))
    for area, size in zip(place, sizes, strict=True):
        if k < size:
            return counted("place", k + 1, area)
        k -= size
    if k < len(attack):
        return f"attack {attack[k]}"
    return expansion[k - len(attack)]
