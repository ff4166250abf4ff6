"""Law 2 / issue 22: a merge of several rulebook steps into one choice reaches every position the separate
steps reach, and no other.

For each merge the engine keeps (RULES-NOTES, "What the engine plays without asking"), the positions
reachable through the engine's choices are compared, on random positions of random games, with those
reachable through the rulebook's steps written out here as the rulebook describes them:

- 6.0 B turn: "take a row's action" removes the player's cheapest disc in the row, the payment follows,
  then the action; `remove <row> <circle>` removes a particular disc. The rulebook: remove any one of your
  discs, pay one good per disc to its left, then perform that row's action or do nothing.
- 6.4, 6.4.5: `place <n> <region>` (n = 1-3 or the whole pool), a battle beside the placements ending them,
  `done`. The rulebook: place any number of cubes into up to the tile's number of regions, then fight
  none, one or (Era III) two battles in different regions, each with a row of the tile.
- 6.4: `withdraw` as an empire action of its own. The rulebook: take an empire tile, then, before placing,
  you may remove all your cubes from the map.
Free actions (6.1) are left out on both sides: they are offered beside every step alike.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator

from engine.core import Decision, DecisionStack
from engine.rise_of_empires.actions import legal as step_legal
from engine.rise_of_empires.actions import perform, resolve, tile_battle_rows
from engine.rise_of_empires.board import allied, remove_cubes, start_placement, target_kind
from engine.rise_of_empires.display import holdings, holds_effect, row_actions
from engine.rise_of_empires.points import PAID_FOR_DISCS, gain_vp
from engine.rise_of_empires.state import EMPTY, ROWS, State

from .helpers import COMP, GAME, act, empty_map, legal, new, restart

#: The steps a row action leaves pending (they follow alike after either way of choosing it).
ROW_STEPS = ("place", "ally", "empire-tile")


def top(state: State) -> Decision:
    """The decision open now (every position these tests look at has one)."""
    d = state.stack.top
    assert d is not None
    return d


def random_positions(want: Callable[[State, int], bool], count: int, seed: int) -> Iterator[tuple[State, int]]:
    """`count` positions of random games (2-5 players) where the seat to act faces what `want` asks for."""
    rng = random.Random(seed)
    found, game_no = 0, 0
    while found < count:
        n = 2 + game_no % 4
        state = GAME.setup([f"p{i}" for i in range(n)], seed * 100 + game_no)
        game_no += 1
        taken_here = 0
        while not GAME.is_over(state) and found < count and taken_here < 3:
            seat = GAME.to_act(state)[0]
            if want(state, seat) and rng.random() < 0.5:
                found += 1
                taken_here += 1
                yield state, seat
            state = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat))).state


def _step(state: State) -> dict[str, object] | None:
    """The open decision as a position sees it: the regions used so far in any order, an empire tile by
    its side (two tiles with the same side are the same choice)."""
    d = state.stack.top
    if d is None:
        return None
    data = {**d.data, "used": sorted(d.data.get("used", []))}
    if "tile" in data:
        data["tile"] = COMP.empire_sides[data["tile"]].name
    return {"kind": d.kind, "seat": d.seat, "data": data}


def position(state: State) -> str:
    """What a position is: every holding, the display, the offers, the map and the row's pending step."""
    era = state.era
    players = []
    for p in state.players:
        held: dict[str, object] = {k: v for k, v in vars(p).items() if k not in ("actions", "actions_total")}
        held["empires"] = sorted(COMP.empire(t, era).name for t in p.empires)
        players.append(held)
    step = _step(state)
    return json.dumps(
        {
            "players": players,
            "rows": state.rows,
            "offers": [sorted(state.offer_progress), sorted(state.offer_territory), sorted(state.offer_city)],
            "track": sorted(COMP.empire(t, era).name for t in state.empire_track),
            "trade": sorted(state.trade_used.items()),
            "cubes": state.cubes,
            "pending": step if step and step["kind"] in ROW_STEPS else None,
        },
        sort_keys=True,
    )


def through_the_engine(state: State, seat: int, steps: tuple[str, ...], first: Callable[[str], bool]) -> set[str]:
    """The positions the engine's choices reach from `state` while `seat` answers steps of the kinds in
    `steps` (the first step's choices filtered by `first`), free actions aside."""
    out: set[str] = set()
    seen: set[str] = set()
    todo = [state]
    while todo:
        s = todo.pop()
        d = s.stack.top
        if d is None or d.seat != seat or d.kind not in steps:
            out.add(position(s))
            continue
        for action in step_legal(COMP, s, d):
            if action.startswith("use ") or (s is state and not first(action)):
                continue
            t = s.clone()
            resolve(COMP, t, top(t), action)
            here = position(t) + json.dumps(_step(t), sort_keys=True)
            if here not in seen:
                seen.add(here)
                todo.append(t)
    return out


def every_split(have: list[int], cost: int) -> Iterator[list[int]]:
    """6.0: every way to pay `cost`, one good per disc, any of the five goods."""
    if not have:
        if cost == 0:
            yield []
        return
    for k in range(min(have[0], cost) + 1):
        for rest in every_split(have[1:], cost - k):
            yield [k, *rest]


def pay(state: State, seat: int, split: list[int]) -> None:
    p = state.players[seat]
    gold, cubes, discs, food, vp = split
    p.gold, p.pool, p.resources, p.food = p.gold - gold, p.pool - cubes, p.resources - discs, p.food - food
    gain_vp(p, PAID_FOR_DISCS, -vp)  # VP change on the score breakdown's record (points.py)
    p.stock += cubes


def rulebook_b_turn(state: State, seat: int) -> set[str]:
    """6.0 B turn: "you select an action by removing one of your action discs from a row. Then, you perform
    (i.e., resolve) that action"; "you must either pay one gold, one player cube, one resource disc, one food
    point, or one victory point for each disc to its left" (none with Printing; at most what the player
    holds, RULES-NOTES 6.0); "you may remove an action disc but then do nothing"."""
    out = set()
    for row in ROWS:
        for i, owner in enumerate(state.rows[row]):
            if owner != seat:
                continue
            left = sum(1 for x in state.rows[row][i + 1 :] if x != EMPTY)
            have = holdings(state, seat)
            cost = 0 if holds_effect(COMP, state, seat, "no_b_turn_position_cost") else min(left, sum(have))
            for split in every_split(have, cost):
                t = state.clone()
                t.stack = DecisionStack()
                t.rows[row][i] = EMPTY
                pay(t, seat, split)
                out.add(position(t))  # do nothing
                for action in row_actions(COMP, t, seat, row):  # 6.0: only an action you can perform
                    u = t.clone()
                    perform(COMP, u, seat, action)
                    out.add(position(u))
    return out


def rulebook_placement(state: State, seat: int) -> set[str]:
    """6.4: "place any number of your player cubes from your pool" into up to the tile's number of regions
    where 6.4-6.4.4 allow (one cube at a time here); 6.4.5: "After ... placing any cubes (i.e., 0+ cubes),
    you may fight one or more battles": a region holding your cubes and another player's, the defender
    losing the row's right number, the attacker the left; Era III tiles two battles in different regions,
    "the empire tile row of your choice"."""
    placed: list[State] = []
    seen: set[str] = set()
    todo = [state]
    while todo:
        s = todo.pop()
        d = top(s)
        here = position(s) + json.dumps(_step(s), sort_keys=True)
        if here in seen:
            continue
        seen.add(here)
        placed.append(s)  # placing may stop here
        if s.players[seat].pool == 0:
            continue
        for region in COMP.regions:
            if target_kind(COMP, s, d.data, region):
                t = s.clone()
                resolve(COMP, t, top(t), f"place 1 {region}")
                todo.append(t)
    out: set[str] = set()

    def fight(s: State, rows: list[list[int]], fought: list[str]) -> None:
        out.add(position(s))
        for region, counts in s.cubes.items():
            if region in fought or counts[seat] <= 0:
                continue
            for other, c in enumerate(counts):
                if other == seat or c <= 0 or allied(s, seat, other):
                    continue
                for k, (att, dfn) in enumerate(rows):
                    t = s.clone()
                    remove_cubes(t, region, other, dfn)
                    remove_cubes(t, region, seat, att)
                    fight(t, rows[:k] + rows[k + 1 :], [*fought, region])

    for s in placed:
        rows = tile_battle_rows(COMP, s, top(s).data["tile"])
        s = s.clone()
        s.stack = DecisionStack()
        fight(s, rows, [])
    return out


def rulebook_empire_tile(state: State, seat: int) -> set[str]:
    """6.4: "Take one of the empire tiles" (the A-turn disc placed in the empire row, 6.0); "Before placing
    cubes, you may voluntarily remove all of your cubes from the world map and put them in your pool"."""
    out = set()
    for tile in set(state.empire_track):
        for withdraw in (False, True):
            t = state.clone()
            t.stack = DecisionStack()
            cells = t.rows["empire"]
            cells[cells.index(EMPTY)] = seat
            t.empire_track.remove(tile)
            p = t.players[seat]
            p.empires = (*p.empires, tile)
            if withdraw:
                for counts in t.cubes.values():
                    p.pool += counts[seat]
                    counts[seat] = 0
            bonus = sum(
                COMP.progress[x].amount for x in p.progress if COMP.progress[x].effect == "empire_tile_bonus_regions"
            )
            merc = holds_effect(COMP, t, seat, "placement_ignore_adjacency")
            side = COMP.empire(tile, t.era)
            t.stack.push("place", seat, **start_placement(COMP, t, seat, side.id, bonus, merc))
            out.add(position(t))
    return out


def test_6_0_b_turn_row_action_with_the_cheapest_disc_reaches_what_the_separate_steps_reach():
    """Merged: the row's action removes the cheapest disc, the payment follows, then the action."""
    b_turn = lambda s, seat: s.half == "B" and top(s).kind == "action"  # noqa: E731
    checked = 0
    for state, seat in random_positions(b_turn, 16, seed=1):
        merged = through_the_engine(state, seat, ("action", "pay", "b-row"), lambda a: not a.startswith("use "))
        assert merged == rulebook_b_turn(state, seat)
        checked += 1
    assert checked == 16


def test_6_4_5_placing_with_counts_and_battles_beside_reaches_what_the_separate_steps_reach():
    """Merged: `place <n> <region>` with n = 1-3 or the pool, a battle ending the placement, `done`."""

    def start(s: State, seat: int) -> bool:
        d = top(s)
        return d.kind == "place" and not d.data["used"] and 0 < s.players[seat].pool <= 4

    checked = 0
    for state, seat in random_positions(start, 12, seed=2):
        merged = through_the_engine(state, seat, ("place", "battle"), lambda a: True)
        assert merged == rulebook_placement(state, seat)
        checked += 1
    assert checked == 12


def test_6_4_place_counts_left_out_of_a_long_list_are_reached_by_placing_again():
    """A new empire in Era III: every open region is a first region, so `place 3 <region>` is left out
    (law 2: under 60 choices); 3 cubes in one region are still reached, 1 + 2, as the rulebook allows."""
    s = new(3)
    s.turn = 5
    empty_map(s)
    s.cubes["anatolia"] = [0, 2, 1]
    s.cubes["russia"] = [0, 0, 3]
    s.players[0].pool = 5
    s = restart(s, [0, 1, 2])
    s = act(s, "take empire 2 water 0-1")
    assert "place 5 anatolia" in legal(s) and "place 3 anatolia" not in legal(s)
    assert through_the_engine(s, 0, ("place", "battle"), lambda a: True) == rulebook_placement(s, 0)


def test_6_4_withdraw_as_an_empire_action_reaches_what_the_separate_steps_reach():
    """Merged: `withdraw` (then the tile) beside `take empire <tile>`; the rulebook: the tile, then withdraw or not."""

    def start(s: State, seat: int) -> bool:
        return s.half == "A" and top(s).kind == "action" and "withdraw" in GAME.legal_actions(s, seat)

    checked = 0
    for state, seat in random_positions(start, 12, seed=3):
        empire = lambda a: a == "withdraw" or a.startswith("take empire")  # noqa: E731
        merged = through_the_engine(state, seat, ("action", "empire-tile"), empire)
        assert merged == rulebook_empire_tile(state, seat)
        checked += 1
    assert checked == 12


def test_law_2_a_step_plays_itself_only_when_its_seat_has_exactly_one_legal_action(monkeypatch):
    """Issue 22: the engine plays a step alone only when that step's one legal action is the one it plays."""
    from engine.rise_of_empires import flow

    played: list[str] = []
    rules_choice = flow.automatic

    def checked(comp, state, d):
        chosen = rules_choice(comp, state, d)
        if chosen is not None:
            assert step_legal(comp, state, d) == [chosen], (d.kind, d.data)
            played.append(d.kind)
        return chosen

    monkeypatch.setattr(flow, "automatic", checked)
    for n in (2, 3, 4, 5):
        rng = random.Random(n)
        state = GAME.setup([f"p{i}" for i in range(n)], 40 + n)
        while not GAME.is_over(state):
            seat = GAME.to_act(state)[0]
            state = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat))).state
    assert {"place", "after"} <= set(played)
