"""Refused actions say what rule stands in the way (law 1: a clear, specific message), then what is legal."""

from __future__ import annotations

import random

import pytest

from engine.core import IllegalAction
from engine.mosaic import GAME
from engine.mosaic.words import tax_word

from . import helpers
from .helpers import D, act, blank_turn, to_play


def fresh():
    s = blank_turn(to_play(4, 1), 0)
    for p in s.players:
        p.leader = "engineer"
        p.techs, p.hidden, p.builds, p.goods, p.units = [], [], [], {}, {}
        p.population = 5
    return s


def refusal(s, action, seat=0):
    with pytest.raises(IllegalAction) as err:
        GAME.apply(s, seat, action)
    return str(err.value)


def test_refused_wonder_names_its_cost_and_what_you_have():
    s = fresh()
    msg = refusal(s, "wonder sphinx")
    assert "costs 20 stone + 5 food" in msg and "0 stone" in msg and "Legal now" in msg


def test_refused_government_names_the_missing_pillars():
    s = fresh()
    assert "Tyranny needs military ×2; you lack 2 more military" in refusal(s, "government tyranny")


def test_refused_golden_age_names_the_symbols_needed_and_held():
    s = fresh()
    assert "needs 6 science symbols; you have 0" in refusal(s, "claim science")


def test_refused_card_not_on_offer_says_so():
    s = fresh()
    gone = next(t for t in D.technologies if t not in s.tech_offer)
    assert "not among the 5 technologies on offer" in refusal(s, f"technology {gone}")
    tax = next(c for c in s.tax_offer if c)
    other = "tariff" if D.tax_cards[tax].kind == "tax" else "tax"
    assert f"That is a {D.tax_cards[tax].kind} card: `{helpers.tax(tax)}`" in refusal(
        s, f"{other} {tax_word(D.tax_cards[tax])}"
    )


def test_refused_card_code_names_the_cards_on_offer_by_what_they_give_and_cost():
    """Issue 13, cards by code: `population pop08` is no action; the refusal names the offer's words."""
    s = fresh()
    msg = refusal(s, f"population {s.pop_offer[0]}")
    assert "named by the population they give and the food they cost" in msg
    assert helpers.population(s.pop_offer[0]) in msg
    msg = refusal(s, f"tax {next(c for c in s.tax_offer if c)}")
    assert "named by the money they pay per population or trade good and the unrest they bring" in msg


def test_refused_second_action_and_early_end():
    s = fresh()
    assert "Take your action first" in refusal(s, "end")
    s.achievements, s.players[0].money = ["wealthy"], 60  # a tile to claim keeps the turn open (N44)
    s, _ = act(s, "work food")
    assert "taken this turn's action" in refusal(s, "work food")


def test_refused_hex_names_the_placement_rule():
    s = fresh()
    s.players[0].stone = 4
    city = next(b for b, c in D.builds.items() if c.type == "city" and b not in s.build_offer)
    s.build_offer[0] = city
    s, _ = act(s, f"build {city}")
    assert GAME.legal_actions(s, 0)[0].startswith("region")  # a city may go anywhere: region first
    s, _ = act(s, "region greece")
    port = next(h for h in D.region_hexes["greece"] if D.hexes[h].kind == "port" and h not in s.board)
    assert "not be built on port hexes" in refusal(s, f"hex {port}")
    assert "First choose how to pay" not in refusal(s, f"hex {port}")
    assert "First choose where the piece goes" in refusal(s, "work food")
    assert s.pending.top.data.get("region") == "greece"
    far = next(h for h in D.region_hexes["egypt"] if D.hexes[h].kind == "land" and h not in s.board)
    assert "You chose Greece" in refusal(s, f"hex {far}")


def test_refusal_never_breaks_on_any_word_pair():
    """Every verb with every kind of argument, in random positions of random games: always IllegalAction or legal."""
    rng = random.Random(5)
    args = (
        list(D.technologies)[:8]
        + list(D.builds)[:6]
        + list(D.wonders)
        + list(D.governments)
        + list(D.golden_ages)
        + list(D.achievements)
        + list(D.hexes)[:6]
        + ["fallback", "food", "money", "build", "1", "", "zz"]
    )
    for n in (2, 5):
        s = GAME.setup([f"p{i}" for i in range(n)], n)
        for _ in range(300):
            if GAME.is_over(s):
                break
            seat = GAME.to_act(s)[0]
            legal = GAME.legal_actions(s, seat)
            for _ in range(3):
                a = f"{rng.choice(GAME.verbs)} {rng.choice(args)}".strip()
                if a not in legal:
                    with pytest.raises(IllegalAction):
                        GAME.apply(s, seat, a)
            s = GAME.apply(s, seat, rng.choice(legal)).state


def test_refusal_of_a_bare_verb_with_empty_offer_slots():
    """An empty offer slot is "" in the state: a verb with no card must still be refused cleanly."""
    s = fresh()
    s.build_offer[0] = s.pop_offer[0] = s.tax_offer[0] = s.tech_offer[0] = ""
    for verb in ("build", "population", "tax", "tariff", "technology", "wonder", "government", "claim", "flip"):
        assert "needs to say which one" in refusal(s, verb)


def test_refused_spend_money_and_pay_say_when_they_are_asked():
    """N32: `spend money` only while some cost could be paid another way; `pay` only when asked."""
    s = fresh()
    assert "no action on offer now can be paid more than one way" in refusal(s, "spend money")
    assert "`spend money` before it" in refusal(s, "pay 5 ideas")
    s.players[0].ideas, s.players[0].money = 5, 10
    s, _ = act(s, "spend money")
    assert "now take the action" in refusal(s, "spend money")
    s, _ = act(s, f"technology {s.tech_offer[0]}")
    assert "Pay 5 ideas: any number of it in ideas (you have 5)" in refusal(s, "pay 6 ideas")
