"""Issue 22: a choice that merges several rulebook steps reaches exactly the positions those steps reach.

Two of Cradle's choices stand for several of the rulebook's steps (RULES-NOTES "Steps that decide
nothing"):

- `place 3 uruk` (5.4): "You take Armies from your Army Pool, placing them one at a time";
- `move 2 babylon` (5.3): each Army in a new Start Area "must move to an adjacent Area that is vacant
  or friendly (subject to stacking limits)", one Army after another.

On positions of random games (4-6 players, with and without a non-player civilization) these tests
play the rulebook's steps one Army at a time — each step's legality written out here as the
rulebook words it — and compare the positions they reach with those of the merged choices. A
position is the whole stored state (dice generator included) but the log of the last move.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

from engine.cradle import GAME
from engine.cradle.board import C, owner, uncounted
from engine.cradle.state import DUMMY, State

#: (players, setup options) of the random games, taken in turn.
TABLES = [(4, {}), (5, {"non_player": True}), (6, {}), (4, {"non_player": True}), (5, {})]


def key(state: State) -> str:
    """The position: everything stored but the last move's log lines (which say "2 Armies" or "an Army")."""
    data = json.loads(GAME.dumps(state))
    data.pop("last")
    return json.dumps(data, sort_keys=True)


def decisions(verb: str, games: int, seed: int, share: float = 1.0) -> Iterator[tuple[State, int]]:
    """Positions of random games where the seat to act has a `verb` choice (`place …`, `move …`), each
    kept with probability `share`."""
    rand = random.Random(seed)
    for g in range(games):
        n, options = TABLES[g % len(TABLES)]
        state = GAME.setup([f"p{i}" for i in range(n)], seed * 100 + g, options)
        while not GAME.is_over(state):
            seat = GAME.to_act(state)[0]
            legal = GAME.legal_actions(state, seat)
            if any(a.startswith(f"{verb} ") for a in legal) and rand.random() < share:
                yield state, seat
            state = GAME.apply(state, seat, rand.choice(legal)).state


def one_more_army_may_join(state: State, area: str, civ: str) -> bool:
    """5.4 / 5.3: an Army may go into an Area its own Civilization holds, "subject to stacking"."""
    return state.civ_at.get(area) == civ and state.count[area] < C.stacking[area]


def test_5_4_placing_several_armies_in_one_choice_reaches_what_one_at_a_time_reaches():
    """`place k <area>` for every k gives exactly the positions of 1..k one-Army placements in that Area
    by the same Civilization in the same round, each allowed by 5.4 (its own Area within stacking)."""
    compared = merged_moves = 0
    for state, seat in decisions("place", games=10, seed=1, share=0.1):
        rnd = state.round_now()
        legal = GAME.legal_actions(state, seat)
        areas = sorted({uncounted(a.split(" ", 1)[1])[1] for a in legal if a.startswith("place ")})
        for area in areas:
            placing = [a for a in legal if a.startswith("place ") and uncounted(a[6:])[1] == area]
            merged = {key(GAME.apply(state, seat, a).state) for a in placing}
            separate = set()
            s = GAME.apply(state, seat, f"place {area}").state  # the first Army: a placement 5.4 allows (legal)
            separate.add(key(s))
            while (
                s.rnd is not None
                and s.rnd.civ == rnd.civ
                and s.rnd.step == "grow"
                and s.rnd.pool > 0
                and rnd.seat != DUMMY  # 9.0: a non-player civilization does "not stack"
                and one_more_army_may_join(s, area, rnd.civ)
            ):
                assert f"place {area}" in GAME.legal_actions(s, seat), "5.4 allows one more Army here"
                s = GAME.apply(s, seat, f"place {area}").state
                separate.add(key(s))
            assert merged == separate, (area, sorted(a for a in legal if area in a))
            compared += 1
            merged_moves += len(merged) > 1
    assert compared > 300 and merged_moves > 100  # the merge was really exercised


def test_5_3_moving_several_displaced_armies_in_one_choice_reaches_what_one_at_a_time_reaches():
    """`move k <area>` for every k gives exactly the positions of 1..k displaced Armies moved into that
    Area one after another by the same player, each move allowed by 5.3 (adjacent, vacant or friendly,
    within stacking)."""
    compared = merged_moves = 0
    for state, seat in decisions("move", games=30, seed=2):
        rnd = state.round_now()
        start, civ = rnd.start, rnd.disp_civ
        legal = GAME.legal_actions(state, seat)
        if owner(state, civ) == DUMMY:  # moved one Army per choice (9.0): nothing merged
            assert all(len(a.split()) == 2 for a in legal)
            continue
        areas = sorted({uncounted(a.split(" ", 1)[1])[1] for a in legal})
        for area in areas:
            assert area in C.adjacent[start]
            assert area not in state.civ_at or one_more_army_may_join(state, area, civ)
            merged = {key(GAME.apply(state, seat, a).state) for a in legal if uncounted(a[5:])[1] == area}
            separate = set()
            s = state
            while True:
                s = GAME.apply(s, seat, f"move {area}").state
                separate.add(key(s))
                r = s.rnd
                if not (r is not None and r.step == "displace" and r.disp_civ == civ and r.start == start):
                    break
                if not one_more_army_may_join(s, area, civ) or GAME.to_act(s) != [seat]:
                    break
            assert merged == separate, (start, area, legal)
            compared += 1
            merged_moves += len(merged) > 1
    assert compared > 100 and merged_moves > 20  # the merge was really exercised
