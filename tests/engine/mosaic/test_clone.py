"""`apply` changes a copy (law: the given state is never modified); the hand-written copy must
share no list or dict with the original, whatever fields the state gains later."""

from __future__ import annotations

import dataclasses
import random

from engine.mosaic import GAME

from .helpers import new, random_steps


def _containers(obj, path="state"):
    """Every list and dict reachable through dataclass fields, with where it sits."""
    if dataclasses.is_dataclass(obj):
        for f in dataclasses.fields(obj):
            yield from _containers(getattr(obj, f.name), f"{path}.{f.name}")
    elif isinstance(obj, (list, dict)):
        yield path, obj
        for k, v in obj.items() if isinstance(obj, dict) else enumerate(obj):
            yield from _containers(v, f"{path}[{k!r}]")


def test_clone_shares_no_list_or_dict_and_dumps_the_same():
    s = new(4, 3)
    rng = random.Random(3)
    for _ in range(120):  # deep enough for pending decisions, units, trade goods, offers
        seat = rng.choice(GAME.to_act(s))
        s = GAME.apply(s, seat, rng.choice(GAME.legal_actions(s, seat))).state
        c = GAME.clone(s)
        assert GAME.dumps(c) == GAME.dumps(s)
        mine = {id(x): where for where, x in _containers(s)}
        shared = [where for where, x in _containers(c) if id(x) in mine]
        assert not shared, shared


def test_apply_checks_an_action_against_the_part_of_the_legal_list_its_first_word_belongs_to():
    """Law 1 with `MosaicGame.apply`'s narrowed check: an action is in `rules.legal(..., verb)`
    exactly when it is among the legal actions, for every legal action and a spread of others."""
    from engine.mosaic import rules
    from engine.mosaic.data import load

    d = load()
    others = [
        "end",
        "claim wealthy",
        "refresh build",
        "work money",
        "military",
        "convert money",
        "done",
        "peek tax",
        "build thebes",
        "zz",
        "hex italia-1",
        "pay 5 food 0 money",
        "flip coinage",
    ]
    for n in (2, 4, 6):
        for s, _seat, _legal in random_steps(n, 7 + n, n):
            for seat in range(n) if s.phase in ("setup", "play") else ():  # (the draft goes the shared way)
                legal = GAME.legal_actions(s, seat)
                for a in legal + others:
                    assert (a in rules.legal(d, s, seat, a.split(" ", 1)[0])) == (a in legal), (a, s.stage)
