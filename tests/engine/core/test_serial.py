"""engine/core/serial.py: the fast path gives exactly what the precise walk gives.

`to_json` writes a dataclass with a converter built once from its type hints, and
`structure` builds one the same way; where they meet data the hints do not
describe, the precise walk (`unstructure`, `_structure`) answers. These tests hold
the two to the same text, the same values and the same StructureError messages
(the TOML loader passes them on to whoever edits a data file), on states of every
game and on data made to go wrong.
"""

from __future__ import annotations

import enum
import json
import random
from dataclasses import dataclass, field
from typing import Any, Literal

import pytest

import engine
from engine.core import BaseGame, Game, StructureError, from_json, serial, structure, to_json, unstructure


def walked_json(obj: Any) -> str:
    """The text of the precise walk alone: what `to_json` must give."""
    return json.dumps(unstructure(obj), separators=(",", ":"), ensure_ascii=False)


def state_type(game: Game) -> type:
    """The state dataclass of a registered game (each is a BaseGame, which names it).

    Typed `type`, not `type[Any]`, which mypy takes for unhashable (python/mypy#11470).
    """
    assert isinstance(game, BaseGame)
    return game.state_type


def game_states(game: Game, seeds: int = 2, every: int = 5) -> list[Any]:
    """Every `every`-th state of random games at the largest player count (setup and end included)."""
    out = []
    for seed in range(seeds):
        rng = random.Random(seed)
        state = game.setup([f"p{i}é" for i in range(game.max_players)], seed)
        n = 0
        while not game.is_over(state):
            if n % every == 0:
                out.append(state)
            seat = rng.choice(game.to_act(state))
            state = game.apply(state, seat, rng.choice(game.legal_actions(state, seat))).state
            n += 1
        out.append(state)
    return out


@pytest.mark.parametrize("game_id", sorted(engine.GAMES))
def test_law_4_fast_serialiser_gives_the_precise_walks_text_and_values(game_id: str):
    game = engine.get(game_id)
    for state in game_states(game):
        text = game.dumps(state)
        assert text == walked_json(state)
        plain = json.loads(text)
        fast: Any = from_json(state_type(game), text)
        precise = serial._structure(state_type(game), plain)
        assert fast == precise == state
        assert list(fast.__dict__) == list(state.__dict__)
        assert game.dumps(fast) == text


@pytest.mark.parametrize("game_id", sorted(engine.GAMES))
def test_fast_path_covers_every_games_state(game_id: str):
    """No game's state silently takes the slow walk: its hints describe it."""
    game = engine.get(game_id)
    dump = serial._dataclass_dumper(state_type(game))
    load = serial._loader(state_type(game))
    for state in game_states(game, seeds=1, every=20):
        text = serial._encode(dump(state))
        assert load(json.loads(text)) == state


class Colour(enum.Enum):
    RED = "red"
    BLUE = "blue"


@dataclass
class Inner:
    n: int
    tags: list[str] = field(default_factory=list)


@dataclass
class Card:
    id: str
    cost: int
    colour: Colour = Colour.RED
    weight: float = 0.0
    kind: Literal["a", "b"] = "a"
    inner: Inner | None = None
    pair: tuple[int, str] = (0, "")
    many: tuple[int, ...] = ()
    by_seat: dict[int, list[int]] = field(default_factory=dict)
    tags: set[str] = field(default_factory=set)
    either: int | str = 0
    anything: Any = None
    inners: list[Inner] = field(default_factory=list)


@dataclass
class Tree:
    name: str
    children: list[Tree] = field(default_factory=list)


@dataclass
class Special(Inner):
    extra: str = "x"


#: Data that does not fit `Card`, and the message the precise walk has always given.
BAD_CARDS = [
    ([], "<top>: expected a table for Card, got list"),
    ({"id": "a"}, "cost: missing required field"),
    ({"id": 1, "cost": 1}, "id: expected str, got 1"),
    ({"id": "a", "cost": True}, "cost: expected int, got True"),
    (
        {"id": "a", "cost": 1, "extra": 2, "more": 1},
        "<top>: unknown field(s) extra, more; allowed: id, cost, colour, weight, kind, inner, pair, many, by_seat, "
        "tags, either, anything, inners",
    ),
    ({"id": "a", "cost": 1, "colour": "green"}, "colour: expected one of 'red', 'blue', got 'green'"),
    ({"id": "a", "cost": 1, "weight": True}, "weight: expected a number, got True"),
    ({"id": "a", "cost": 1, "kind": "c"}, "kind: expected one of 'a', 'b', got 'c'"),
    ({"id": "a", "cost": 1, "inner": {"n": "x"}}, "inner: expected Inner or NoneType, got {'n': 'x'}"),
    ({"id": "a", "cost": 1, "pair": [1]}, "pair: expected 2 items, got 1"),
    ({"id": "a", "cost": 1, "pair": [1, 2]}, "pair[1]: expected str, got 2"),
    ({"id": "a", "cost": 1, "many": [1, "x"]}, "many[1]: expected int, got 'x'"),
    ({"id": "a", "cost": 1, "by_seat": {"0": [1, "x"]}}, "by_seat.0[1]: expected int, got 'x'"),
    ({"id": "a", "cost": 1, "by_seat": []}, "by_seat: expected a table, got list"),
    ({"id": "a", "cost": 1, "tags": [1]}, "tags[0]: expected str, got 1"),
    ({"id": "a", "cost": 1, "either": 1.5}, "either: expected int or str, got 1.5"),
    ({"id": "a", "cost": 1, "inners": [{"n": 1}, {"n": 2, "tags": [3]}]}, "inners[1].tags[0]: expected str, got 3"),
    ({"id": "a", "cost": 1, "inners": [{"n": 1}, {}]}, "inners[1].n: missing required field"),
    ("text", "<top>: expected a table for Card, got str"),
]


@pytest.mark.parametrize("data,message", BAD_CARDS)
def test_structure_error_names_the_path_as_the_precise_walk_does(data, message):
    with pytest.raises(StructureError) as err:
        structure(Card, data)
    assert str(err.value) == message
    with pytest.raises(StructureError) as precise:
        serial._structure(Card, data)
    assert str(precise.value) == message


def test_structure_reads_every_supported_kind_like_the_precise_walk():
    data = {
        "id": "a",
        "cost": 2,
        "colour": "blue",
        "weight": 3,
        "kind": "b",
        "inner": {"n": 1, "tags": ["x"]},
        "pair": [1, "y"],
        "many": [1, 2],
        "by_seat": {"2": [1], "0": []},
        "tags": ["q", "p"],
        "either": "s",
        "anything": {"k": [1, None]},
        "inners": [{"n": 4}],
    }
    fast = structure(Card, json.loads(json.dumps(data)))
    assert fast == serial._structure(Card, json.loads(json.dumps(data)))
    assert fast.weight == 3.0 and type(fast.weight) is float and list(fast.by_seat) == [2, 0]
    assert fast.pair == (1, "y") and fast.tags == {"p", "q"} and fast.colour is Colour.BLUE
    assert to_json(fast) == walked_json(fast)
    assert structure(Card, {"id": "a", "cost": 1}) == Card("a", 1)  # defaults for the fields left out


def test_to_json_falls_back_to_the_values_where_the_hints_do_not_describe_them():
    odd = Card("a", 1, inner=Special(1, ["t"]))  # a subclass: its own field must not be lost
    odd.many = [1, 2]  # a list where a tuple is hinted
    odd.inners = [Inner(1, {"b", "a"})]  # a set where a list is hinted: the walk sorts it
    text = to_json(odd)
    assert text == walked_json(odd)
    assert '"extra":"x"' in text and '"tags":["a","b"]' in text
    tree = Tree("root", [Tree("leaf")])
    assert to_json(tree) == walked_json(tree) and from_json(Tree, to_json(tree)) == tree


def test_to_json_of_a_class_whose_hints_cannot_be_read_uses_its_values() -> None:
    @dataclass
    class Unreadable:
        thing: NoSuchType  # type: ignore[name-defined]  # noqa: F821 - on purpose: hints that cannot be read
        n: int = 1

    assert to_json(Unreadable(thing=[1, 2])) == '{"thing":[1,2],"n":1}'


def test_to_json_keeps_each_dict_in_the_order_of_its_instance():
    """An instance whose dict is in another order than its fields (an attribute deleted
    and set again) still comes out in field order, like the precise walk."""
    inner = Inner(1, ["a"])
    del inner.n
    inner.n = 2
    assert to_json(inner) == walked_json(inner) == '{"n":2,"tags":["a"]}'
