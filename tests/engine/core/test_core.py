"""engine/core: the pieces every game shares."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from pathlib import Path

import pytest

import engine
from engine.core import (
    BaseGame,
    DataError,
    DecisionStack,
    IllegalAction,
    Rng,
    Simultaneous,
    best,
    canonical,
    clockwise,
    count,
    from_json,
    listing,
    load_entries,
    match,
    next_in_order,
    ranks,
    resolve,
    slug,
    to_json,
    winners_by,
)


def test_rng_is_reproducible_and_serialisable():
    a, b = Rng.from_seed(42), Rng.from_seed(42)
    assert [a.die() for _ in range(20)] == [b.die() for _ in range(20)]
    saved = Rng(a.state)
    assert a.shuffled(range(10)) == saved.shuffled(range(10))
    assert Rng.from_seed(42, "deck") != Rng.from_seed(42, "dice")


def test_rng_dice_cover_all_faces_and_stay_in_range():
    r = Rng.from_seed(1)
    rolls = r.dice(600)
    assert set(rolls) == {1, 2, 3, 4, 5, 6}
    assert all(0 <= r.below(7) < 7 for _ in range(100))
    with pytest.raises(ValueError):
        r.below(0)


def test_rng_die_is_randint_written_out():
    """`die` is `randint(1, sides)` inlined for speed: the same rolls and the same state after."""
    for seed in range(200):
        for sides in (1, 2, 3, 5, 6, 7, 12, 20, 100):
            a, b = Rng.from_seed(seed, str(sides)), Rng.from_seed(seed, str(sides))
            assert [a.die(sides) for _ in range(30)] == [b.randint(1, sides) for _ in range(30)]
            assert a.state == b.state
    with pytest.raises(ValueError):
        Rng(1).die(0)


def test_canonical_folds_case_and_spacing():
    assert canonical("  Play   Brewery\tBUILD ") == "play brewery build"
    assert slug("Abbasid Caliphate") == "abbasid-caliphate"


def test_match_says_why_and_what_is_legal():
    legal = ["play brewery build", "play brewery coins", "swap 1"]
    assert match(" PLAY brewery  build", legal, known_verbs=("play", "swap")) == "play brewery build"
    with pytest.raises(IllegalAction) as err:
        match("dance", legal, known_verbs=("play", "swap"))
    assert err.value.kind == "unreadable" and "swap 1" in str(err.value)
    with pytest.raises(IllegalAction) as err:
        match("play brewery", legal, known_verbs=("play", "swap"))
    assert err.value.kind == "not-legal" and "Did you mean" in str(err.value)


def test_match_reads_names_as_players_read_them():
    """Issue 13: `play julius caesar build` and `place South Zagros` name the slugs."""
    legal = ["play julius-caesar build", "play al-mu-tasim coins", "place south-zagros", "swap 1"]
    verbs = ("play", "place", "swap")
    assert match("play Julius Caesar build", legal, known_verbs=verbs) == "play julius-caesar build"
    assert match("place South Zagros", legal, known_verbs=verbs) == "place south-zagros"
    assert match("PLAY al-Mu'tasim coins", legal, known_verbs=verbs) == "play al-mu-tasim coins"
    assert match("play julius-caesar build", legal, known_verbs=verbs) == "play julius-caesar build"
    assert resolve("place south  zagros", legal) == "place south-zagros"
    assert resolve("place southzagros", legal) is None  # the letters of a name must still be its own
    with pytest.raises(IllegalAction) as err:
        match("julius caesar build", legal, known_verbs=verbs)
    assert err.value.kind == "unreadable"


def test_match_reports_ambiguous_names():
    legal = ["move upper-nile delta", "move upper nile-delta"]
    assert resolve("move upper nile delta", legal) is None
    with pytest.raises(IllegalAction) as err:
        match("Move Upper Nile Delta", legal, known_verbs=("move",))
    assert err.value.kind == "ambiguous"
    assert "`move upper-nile delta`, `move upper nile-delta`" in str(err.value)
    assert match("move upper-nile delta", legal) == "move upper-nile delta"  # as listed: no doubt


def test_match_hands_why_not_the_names_as_slugs() -> None:
    asked: list[str] = []

    def why_not(text: str) -> str:
        asked.append(text)
        return "Not affordable."

    legal = ["play julius-caesar coins"]
    with pytest.raises(IllegalAction) as err:
        match("play Julius Caesar build", legal, known_verbs=("play",), why_not=why_not)
    assert err.value.kind == "not-legal" and "Not affordable." in str(err.value)
    with pytest.raises(IllegalAction):  # a card the legal actions do not name: the game lists its names
        match("play Marcus Aurelius build", legal, known_verbs=("play",), why_not=why_not, names={"marcus-aurelius"})
    assert asked == ["play julius-caesar build", "play marcus-aurelius build"]


def test_text_helpers():
    assert listing([]) == "" and listing(["ann"]) == "ann" and listing(["ann", "bob"]) == "ann and bob"
    assert listing(["a", "b", "c"], "or") == "a, b or c"
    assert count(1, "coin") == "1 coin" and count(2, "coin") == "2 coins" and count(0, "card") == "0 cards"
    assert count(3, "Army") == "3 Armies" and count(2, "way") == "2 ways"


def test_turn_helpers():
    assert clockwise(2, 4) == [2, 3, 0, 1]
    assert next_in_order([3, 1, 2], 1) == 2 and next_in_order([3, 1, 2], 2) is None
    step = Simultaneous.of([1, 0])
    step.done(0)
    assert step.waiting == [1] and not step.finished
    step.done(1)
    assert step.finished


def test_ties_keep_everyone_tied_and_break_on_later_keys():
    assert winners_by([5, 7, 7]) == [1, 2]
    assert winners_by([5, 7, 7], [0, 0, 1]) == [2]
    assert best(["a", "bb", "cc"], key=len) == ["bb", "cc"]
    assert ranks([1, 3, 3, 2], key=lambda x: x) == [[3, 3], [2], [1]]


def test_decision_stack():
    stack = DecisionStack()
    assert not stack and stack.top is None
    stack.push("use-card", 0, card="market")
    stack.push("progress", 0)
    assert stack.top.kind == "progress" and len(stack) == 2
    stack.pop()
    assert stack.top.data == {"card": "market"}


class Colour(enum.Enum):
    RED = "red"


@dataclass
class Inner:
    n: int
    tags: list[str] = field(default_factory=list)


@dataclass
class Outer:
    colour: Colour
    inner: Inner
    by_seat: dict[int, int] = field(default_factory=dict)
    maybe: Inner | None = None
    rng: Rng = field(default_factory=Rng)


def test_serial_round_trip_is_exact():
    o = Outer(Colour.RED, Inner(3, ["x"]), {0: 2, 1: 5}, None, Rng(99))
    text = to_json(o)
    back = from_json(Outer, text)
    assert back == o and to_json(back) == text


def test_serial_names_the_field_that_does_not_fit():
    with pytest.raises(ValueError, match=r"inner.n: expected int"):
        from_json(Outer, '{"colour": "red", "inner": {"n": "three"}}')


@dataclass
class Card:
    id: str
    cost: int
    source: str


def test_data_loader_names_file_entry_and_field(tmp_path: Path):
    good = tmp_path / "cards.toml"
    good.write_text('[[card]]\nid = "a"\ncost = 1\nsource = "rulebook"\n')
    assert load_entries(good, "card", Card)[0].cost == 1
    bad = tmp_path / "bad.toml"
    bad.write_text('[[card]]\nid = "a"\ncost = "x"\nsource = "rulebook"\n')
    with pytest.raises(DataError, match=r"bad.toml: \[\[card\]\] #1 \(id = 'a'\): field cost"):
        load_entries(bad, "card", Card)
    unsourced = tmp_path / "unsourced.toml"
    unsourced.write_text('[[card]]\nid = "a"\ncost = 1\nsource = "guess"\n')
    with pytest.raises(DataError, match="field source"):
        load_entries(unsourced, "card", Card)
    dup = tmp_path / "dup.toml"
    dup.write_text('[[card]]\nid = "a"\ncost = 1\nsource = "rulebook"\n' * 2)
    with pytest.raises(DataError, match="duplicate id 'a'"):
        load_entries(dup, "card", Card)


@dataclass
class CountState:
    total: int = 0
    turn: int = 0


class CountTo3(BaseGame[CountState]):
    """The smallest game: players take turns adding 1 or 2; reaching 3 ends it."""

    id, title, min_players, max_players = "count", "Count", 2, 2
    state_type = CountState
    verbs = ("add",)

    def setup(self, players, seed, options=None):
        return CountState()

    def to_act(self, s):
        return [] if s.total >= 3 else [s.turn]

    def legal_actions(self, s, seat):
        return ["add 1", "add 2"] if seat in self.to_act(s) else []

    def play(self, s, seat, action):
        s.total += int(action.split()[1])
        s.turn = 1 - s.turn
        return [f"seat {seat} {action}"]


def test_base_game_apply_checks_turn_spelling_and_leaves_state_untouched():
    g = CountTo3()
    s = g.setup(["a", "b"], 0)
    step = g.apply(s, 0, "  ADD  2 ")
    assert step.state.total == 2 and s.total == 0 and step.events == ["seat 0 add 2"]
    with pytest.raises(IllegalAction) as err:
        g.apply(s, 1, "add 1")
    assert err.value.kind == "not-your-turn"
    with pytest.raises(IllegalAction):
        g.apply(s, 0, "add 3")
    assert g.loads(g.dumps(step.state)) == step.state


class CountWithReasons(CountTo3):
    def why_not(self, s, seat, action):
        return "You may add at most 2." if action.startswith("add ") else None


def test_base_game_refusal_carries_the_games_reason_for_readable_actions_only():
    g = CountWithReasons()
    s = g.setup(["a", "b"], 0)
    with pytest.raises(IllegalAction) as err:
        g.apply(s, 0, "Add 3")
    assert err.value.kind == "not-legal"
    assert str(err.value).startswith("`add 3` is not legal now. You may add at most 2.")
    assert "Legal now: `add 1`, `add 2`" in str(err.value)
    with pytest.raises(IllegalAction) as err:
        g.apply(s, 0, "jump")
    assert err.value.kind == "unreadable" and "at most" not in str(err.value)


@dataclass
class NamedState(CountState):
    """A count whose players have names, for the refusals to name them."""

    players: list[str] = field(default_factory=list)


class NamedCount(CountTo3):
    state_type = NamedState

    def setup(self, players, seed, options=None):
        return NamedState(players=list(players))

    def legal_actions(self, s, seat):
        return ["add 1", "add 2"] if seat in self.to_act(s) else []


def test_base_game_refusals_name_players_not_seats():
    g = NamedCount()
    s = g.setup(["ann", "bob"], 0)
    with pytest.raises(IllegalAction) as err:
        g.apply(s, 1, "add 1")
    assert str(err.value) == "It is not bob's turn; waiting for ann."


class NamedCountWithWaiting(NamedCount):
    def why_waiting(self, s, seat):
        return f"{s.players[s.turn]} counts first."


def test_base_game_not_your_turn_adds_why_the_seat_waits():
    g = NamedCountWithWaiting()
    with pytest.raises(IllegalAction) as err:
        g.apply(g.setup(["ann", "bob"], 0), 1, "add 1")
    assert err.value.kind == "not-your-turn"
    assert str(err.value) == "It is not bob's turn; waiting for ann. ann counts first."


def test_base_game_refuses_a_seat_that_does_not_exist_in_apply_and_legal_actions():
    g = NamedCount()
    s = g.setup(["ann", "bob"], 0)
    for seat in (2, -1, None):
        for refuse in (lambda seat: g.legal_actions(s, seat), lambda seat: g.apply(s, seat, "add 1")):
            with pytest.raises(IllegalAction) as err:
                refuse(seat)
            assert err.value.kind == "no-such-seat"
            assert str(err.value) == f"There is no seat {seat!r} in this game; the seats are 0 (ann), 1 (bob)."
    assert g.legal_actions(s, 0) == ["add 1", "add 2"]


@pytest.mark.parametrize("game_id", sorted(engine.GAMES))
def test_every_game_refuses_a_seat_that_does_not_exist(game_id: str):
    """Issue 13: `legal_actions` for a missing seat raised IndexError in some games."""
    game = engine.get(game_id)
    n = game.max_players
    state = game.setup([f"p{i}" for i in range(n)], 1)
    for seat in (n, -1, 99):
        with pytest.raises(IllegalAction, match=rf"no seat {seat} in this game; the seats are 0 \(p0\), 1 \(p1\)"):
            game.legal_actions(state, seat)
        with pytest.raises(IllegalAction, match="no seat"):
            game.apply(state, seat, "done")


def test_base_game_public_action_shows_the_action_unless_the_game_hides_part():
    assert CountTo3().public_action("add 2") == "add 2"


def test_law_4_serial_keeps_dict_insertion_order() -> None:
    """Rules iterate dicts (cubes per region, pieces on the map): a reloaded state
    must see them in the order the original had, not sorted (law 4)."""

    @dataclass
    class Board:
        cubes: dict[str, int] = field(default_factory=dict)
        owners: dict[int, str] = field(default_factory=dict)

    board = Board(cubes={"zagros": 1, "anatolia": 2, "levant": 3}, owners={2: "b", 0: "a"})
    back = from_json(Board, to_json(board))
    assert list(back.cubes) == ["zagros", "anatolia", "levant"]
    assert list(back.owners) == [2, 0]
    assert to_json(back) == to_json(board)


def test_refers_of_gives_the_places_of_the_described_choice_of_an_action():
    """What a front end frames on the map after an action (issue 26): its choice's `refers`."""
    from types import SimpleNamespace

    from engine.core import Choice, refers_of

    described = SimpleNamespace(
        choices=lambda state, seat: [
            Choice("place 2 ur", "Place", "Ur ×2", refers=("ur",)),
            Choice("done", "Done", "End"),
        ]
    )
    assert refers_of(described, None, 0, "place 2 ur") == ("ur",)
    assert refers_of(described, None, 0, "done") == ()
    assert refers_of(described, None, 0, "not an action") == ()
