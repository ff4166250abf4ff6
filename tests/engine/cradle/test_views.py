"""Views (law 5) and the log: concealed Civilization Cards stay private (3.0); every die is logged."""

from __future__ import annotations

import json
import random
import re

import pytest

from engine.cradle import GAME
from engine.cradle.data import components

C = components()


def _to_allocation(seed=2):
    rng = random.Random(seed)
    s = GAME.setup(["ann", "bob", "cyd", "dee"], seed)
    log = []
    while s.phase != "allocate":
        seat = GAME.to_act(s)[0]
        step = GAME.apply(s, seat, rng.choice(GAME.legal_actions(s, seat)))
        s = step.state
        log += step.events
    return s, log, rng


def _hidden_part(view):
    """The view without the Epoch Civilization Summary Card (1.5), which lists every card of the Epoch."""
    return {k: v for k, v in view.items() if k != "summary"}


def test_3_0_concealed_cards_never_in_public_view_or_events():
    s, log, rng = _to_allocation()
    names = {C.card_name(c) for c in C.cards_of_epoch[2]}
    ids = set(C.cards_of_epoch[2])
    while s.alloc is not None:
        seat = GAME.to_act(s)[0]
        public = json.dumps(_hidden_part(GAME.view(s, None)))
        assert not any(n in public for n in names) and not any(f'"{i}"' in public for i in ids)
        for other in range(4):
            mine = GAME.view(s, other)["allocation"]["private"]
            if other != seat:
                assert "drawn" not in mine
        step = GAME.apply(s, seat, rng.choice(GAME.legal_actions(s, seat)))
        if step.state.alloc is not None:
            assert not any(n in e for e in step.events for n in names)
        s = step.state
    assert sum(1 for c in s.cards if c.startswith("2-")) == 4


def test_view_is_json_and_names_the_round_and_its_pool():
    s = GAME.setup(["ann", "bob", "cyd", "dee"], 9)
    v = GAME.view(s, None)
    json.dumps(v)
    assert v["round"]["civ"] == s.rnd.civ and v["round"]["pool"] == s.rnd.pool
    assert v["legal"] == []
    seat = GAME.to_act(s)[0]
    assert GAME.view(s, seat)["legal"] == GAME.legal_actions(s, seat)


def dice_reported(line: str) -> int:
    """How many dice a log line reports (the forms the engine writes)."""
    if "rolls for Plague: rolls " in line or ("Plague strikes" in line and ": rolls " in line):
        rest = line.split(": rolls ", 1)[1]
        return len(re.findall(r" (\d)(?=,|\.$)", rest))
    n = 0
    for m in re.finditer(r"\brolls? (\d)(?: and (\d))?", line):  # "bob's raiders roll 2"
        n += 1 + (m.group(2) is not None)
    n += len(re.findall(r"then \d on the End", line))
    return n


@pytest.mark.parametrize("seed,players,option", [(11, 4, False), (12, 6, False), (13, 5, True)])
def test_every_die_roll_appears_in_the_events(seed, players, option):
    """Over a whole game, each step's events report exactly the dice the generator gave."""
    from engine.core import Rng
    from tests.engine.cradle.helpers import Scripted

    s = GAME.setup([f"p{i}" for i in range(players)], seed, {"non_player": True} if option else None)
    s.rng = Scripted([], Rng.from_seed(seed))
    rng = random.Random(seed)
    total = 0
    while not GAME.is_over(s):
        seat = GAME.to_act(s)[0]
        legal = [a for a in GAME.legal_actions(s, seat) if a != "done"] or GAME.legal_actions(s, seat)
        before = len(s.rng.used)
        step = GAME.apply(s, seat, rng.choice(legal))
        rolled = len(step.state.rng.used) - before
        assert rolled == sum(dice_reported(e) for e in step.events), step.events
        total += rolled
        s = step.state
    assert total > 100


def test_dumps_round_trip_and_replay():
    s = GAME.setup(["ann", "bob", "cyd", "dee", "eve"], 21)
    rng = random.Random(3)
    history = []
    for _ in range(150):
        seat = GAME.to_act(s)[0]
        action = rng.choice(GAME.legal_actions(s, seat))
        history.append((seat, action))
        s = GAME.apply(s, seat, action).state
    assert GAME.dumps(GAME.loads(GAME.dumps(s))) == GAME.dumps(s)
    r = GAME.setup(["ann", "bob", "cyd", "dee", "eve"], 21)
    for seat, action in history:
        r = GAME.apply(r, seat, action).state
    assert GAME.dumps(r) == GAME.dumps(s)
