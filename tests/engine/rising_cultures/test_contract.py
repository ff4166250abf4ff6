"""The engine contract for Rising Cultures: a full game by the contract alone, the laws,
hidden information, the view's documented keys, state serialisation and data loading."""

from __future__ import annotations

import json
import random
from itertools import pairwise
from pathlib import Path

import pytest

import engine
from engine.core import DataError, set_data_dir, to_json
from tests.engine import conformance

from .helpers import GAME


def test_a_full_game_from_the_python_prompt_by_the_contract_alone():
    game = engine.get("rising-cultures")
    state = game.setup(["ann", "bob"], seed=2026)
    log = []
    while not game.is_over(state):
        seat = game.to_act(state)[0]
        choices = game.legal_actions(state, seat)
        # a simple player: build when possible, else play to the military, else the first choice
        action = next((a for a in choices if a.endswith(" build")), None) or next(
            (a for a in choices if a.endswith(" military")), choices[0]
        )
        step = game.apply(state, seat, action)
        state = step.state
        log.extend(step.events)
    assert game.to_act(state) == [] and len(game.scores(state)) == 2 and game.winners(state)
    assert any("The game is over" in line for line in log)
    view = game.view(state, None)
    assert view["phase"] == "over" and view["winners"] == game.winners(state)
    assert game.loads(game.dumps(state)) == state


@pytest.mark.parametrize("seed", range(100, 106))
def test_contract_laws_on_a_few_seeds(seed):
    check = conformance.load()
    result = check.play_one(GAME, engine, 2, seed, max_steps=5000, probe_every=3)
    assert result["actions"] > 100


def _random_games(n, options=None):
    for seed in range(n):
        rng = random.Random(seed)
        s = GAME.setup(["a", "b"], seed, options)
        states = [s]
        events = []
        while not GAME.is_over(s):
            seat = rng.choice(GAME.to_act(s))
            step = GAME.apply(s, seat, rng.choice(GAME.legal_actions(s, seat)))
            s = step.state
            states.append(s)
            events.append((step.events, seat))
        yield states, events


def test_law_6_random_play_always_ends_even_in_a_match_with_every_civilization():
    for states, _ in _random_games(4, {"match": True, "civs": ["egypt", "abbasid"]}):
        assert GAME.is_over(states[-1]) and states[-1].game_no == 2


def test_hidden_information_never_in_the_public_view():
    for states, _ in _random_games(3):
        for s in states[::5]:
            public = GAME.view(s, None)
            for seat, pv in enumerate(public["players"]):
                assert pv["hand"] is None and pv["known_top"] is None and pv["known_bottom"] is None
                assert pv["hand_count"] == len(s.players[seat].hand)
                assert pv["deck_count"] == len(s.players[seat].deck)
                own = GAME.view(s, seat)["players"][seat]
                if s.players[seat].civ:
                    assert [c["id"] for c in own["hand"]] == s.players[seat].hand
                assert GAME.view(s, 1 - seat)["players"][seat]["hand"] is None
                assert GAME.view(s, 1 - seat)["players"][seat]["known_bottom"] is None
                # what the owner put at the bottom is exactly the tail of the deck, in order
                bottom = s.players[seat].known_bottom
                assert s.players[seat].deck[len(s.players[seat].deck) - len(bottom) :] == bottom
            text = json.dumps(public)
            assert '"deck"' not in text


def test_public_events_never_name_a_card_that_stays_hidden():
    """Swaps, bottom placements and the returned 4th card are logged without the card."""
    from engine.rising_cultures.data import DATA

    for states, events in _random_games(3):
        for (lines, seat), (before, after) in zip(events, pairwise(states), strict=True):
            text = " ".join(lines)
            if any(w in text for w in ("swaps", "bottom of their deck", "top of their deck")):
                moved = set(before.players[seat].hand) ^ set(after.players[seat].hand)
                for c in moved:
                    if c in after.players[seat].deck:
                        assert DATA.cards[c].name not in text


VIEW_KEYS = {
    "game",
    "title",
    "seat",
    "match",
    "game_no",
    "first_game_scores",
    "round",
    "rounds",
    "phase",
    "to_act",
    "turn",
    "marker",
    "supply",
    "pending",
    "province_row",
    "current_province",
    "boxed_provinces",
    "nile",
    "scores",
    "winners",
    "players",
}
PLAYER_KEYS = {
    "seat",
    "name",
    "civ",
    "civ_name",
    "coins",
    "coin_limit",
    "income",
    "hand_count",
    "deck_count",
    "step",
    "played",
    "to_bottom",
    "swaps",
    "display",
    "military",
    "resource_area",
    "resources",
    "progress",
    "golden_age",
    "discard",
    "provinces",
    "score",
    "hand",
    "known_top",
    "known_bottom",
    "overview",
}


def test_view_keys_are_the_documented_ones_and_json_safe():
    s = GAME.setup(["a", "b"], 7, {"civs": ["rome", "egypt"]})
    for seat in (None, 0, 1):
        v = GAME.view(s, seat)
        assert set(v) == VIEW_KEYS
        for pv in v["players"]:
            assert set(pv) == PLAYER_KEYS
            assert [b["band"] for b in pv["military"]["bands"]] == [1, 2, 3, 4, 5, 6]
            assert set(pv["progress"]) == {"level", "max", "cards", "golden_age", "unlocks"}
        json.dumps(v)
    own = GAME.view(s, 0)["players"][0]["hand"][0]
    assert set(own["uses"]) == {"coins", "military", "resources", "build"}
    assert set(own["uses"]["build"]) == {"possible", "met", "missing", "shortfall", "coins"}
    assert len(GAME.view(s, None)["nile"]) == 3  # Egypt in play
    v = GAME.view(GAME.setup(["a", "b"], 7), None)  # before the civilization choice
    assert set(v) == VIEW_KEYS and v["phase"] == "civ"


def test_dumps_is_the_shared_serialisers_text_and_loads_round_trips():
    for states, _ in _random_games(2, {"match": True}):
        for s in states[::7]:
            text = GAME.dumps(s)
            assert text == to_json(s)
            assert GAME.loads(text) == s and GAME.dumps(GAME.loads(text)) == text
    assert len(GAME.dumps(states[-1])) < 20_000


def test_data_files_load_with_sources_and_errors_name_file_entry_and_field(tmp_path):
    from engine.rising_cultures.data import DATA, Components

    assert len(DATA.provinces) == 15 and all(p.source == "rulebook" for p in DATA.provinces.values())
    assert {civ: len(ids) for civ, ids in DATA.decks.items()} == {"rome": 24, "persia": 24, "egypt": 24, "abbasid": 24}
    assert all(c.source in ("rulebook", "published", "reconstructed") for c in DATA.cards.values())
    assert len(DATA.nile) == 3  # Egypt: 24 + 3 = 27 cards
    package = Path(__import__("engine.rising_cultures", fromlist=["x"]).__file__).parent
    broken = (package / "data" / "rome.toml").read_text().replace('military = "shield"', 'military = "axe"', 1)
    (tmp_path / "rising-cultures").mkdir()
    (tmp_path / "rising-cultures" / "rome.toml").write_text(broken)
    set_data_dir(tmp_path)
    try:
        with pytest.raises(DataError, match=r"rome\.toml.*ROM-01.*military"):
            Components(package)
        negative = (
            (package / "data" / "rome.toml")
            .read_text()
            .replace("cost = { wood = 2, brick = 2, stone = 1", "cost = { wood = 2, brick = -2, stone = 1", 1)
        )
        (tmp_path / "rising-cultures" / "rome.toml").write_text(negative)
        with pytest.raises(DataError, match=r"rome\.toml.*ROM-01.*cost: brick must not be negative"):
            Components(package)
    finally:
        set_data_dir(None)


def test_components_every_deck_card_is_in_exactly_one_place_and_the_deck_is_used_up():
    """Setup to End of the Game: 24 cards per deck, each in one place (hand, deck, discard pile,
    military, resource or progress area, display); the 4th card of round 7 goes to the box."""
    from engine.rising_cultures.data import DATA

    def places(p):
        return (
            p.hand
            + p.deck
            + p.discard
            + p.military
            + p.resources
            + p.buildings
            + [c for stack in p.leaders for c in stack]
            + p.progress
        )

    for seed, civs in enumerate([("rome", "persia"), ("egypt", "abbasid"), ("abbasid", "rome")]):
        rng = random.Random(seed)
        s = GAME.setup(["a", "b"], seed, {"civs": list(civs)})
        while not GAME.is_over(s):
            covering = s.pending and s.pending[-1].kind == "cover"  # the new leader waits in the decision
            for p in s.players:
                cards = places(p)
                assert len(set(cards)) == len(cards)
                if not covering and not (s.round == 7 and s.phase not in ("draw", "play")):
                    assert sorted(cards) == sorted(DATA.decks[p.civ])
            seat = rng.choice(GAME.to_act(s))
            s = GAME.apply(s, seat, rng.choice(GAME.legal_actions(s, seat))).state
        for p in s.players:
            assert len(places(p)) == 23 and p.deck == [] and p.hand == []
