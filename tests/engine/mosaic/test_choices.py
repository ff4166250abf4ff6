"""Issue 25 §1: every legal action of Mosaic described for a person (engine/mosaic/choices.py).

What a choice must be (CHOICES.md): the legal actions in their order, each with a group, a unique
label by printed name and a detail within Discord's sizes; a prompt of one plain line; the same
choices in two positions the seat cannot tell apart; every place a choice names drawn on the
board; golden choices from the rules summary's own examples, with its numbers in the details.
"""

from __future__ import annotations

import random
import re

import pytest

from engine.core.choices import problems
from engine.mosaic import GAME
from engine.mosaic.words import hex_name
from renderers.mosaic.board import places
from renderers.mosaic.parts import hex_number
from tests.engine.ai.positions import positions, scramble

from .helpers import D, act, blank_turn, free_hex, hexes, tax, to_play

#: An action costs or gains something when its verb names a cost or a gain (these), when it places a
#: piece on a hex holding a tile (trade good, fish, cache: the player takes it) or completes a build
#: or a wonder by its hex, or when it names the region a City State scores or a free unit goes to.
#: Its choice then has a detail.
COSTLY = {
    "work",
    "population",
    "build",
    "wonder",
    "technology",
    "tax",
    "tariff",
    "military",
    "government",
    "claim",
    "flip",
    "convert",
    "pay",
    "recruit",
    "move",
    "art",
    "library",
    "production",
    "leader",
    "draft",
    "spend",
}


def costs_or_gains(s, action: str) -> bool:
    verb, _, rest = action.partition(" ")
    top = s.pending.top
    if verb in COSTLY or verb == "unit" or (verb == "region" and top.kind == "city-state"):
        return True
    if verb == "hex" and top.kind == "place":
        takes = rest in s.goods_on or rest in s.fish_on or rest in s.cache_on
        return takes or "card" in top.data or "wonder" in top.data
    return False


def fresh(n=4):
    s = blank_turn(to_play(n, 3), 0)
    for p in s.players:
        p.leader = "engineer"
        p.techs, p.hidden, p.units, p.goods, p.builds, p.wonders = [], [], {}, {}, [], []
        p.production = {t: 0 for t in p.production}
    return s


def by_action(s, seat=0):
    return {c.action: c for c in GAME.choices(s, seat)}


# ---- over random games ------------------------------------------------------------------------


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_every_legal_action_is_described_in_random_games(n):
    for seed in range(20):
        s = GAME.setup([f"p{i}" for i in range(n)], seed)
        rng = random.Random(seed)
        while not GAME.is_over(s):
            seat = rng.choice(GAME.to_act(s))
            legal = GAME.legal_actions(s, seat)
            described = GAME.choices(s, seat)
            assert problems(legal, described) == [], (seed, problems(legal, described))
            text = GAME.prompt(s, seat)
            assert text.strip() and "\n" not in text and "`" not in text and len(text) <= 120, text
            assert not re.search(r"\d+\.\d+", text), text
            for action, choice in zip(legal, described, strict=True):
                if costs_or_gains(s, action):
                    assert choice.detail, (action, choice)
            s = GAME.apply(s, seat, rng.choice(legal)).state
        assert GAME.choices(s, 0) == [] and GAME.prompt(s, 0) == "The game is over."


def test_a_seat_not_to_act_has_no_choices_and_reads_whom_it_waits_for():
    s = fresh()
    assert GAME.choices(s, 1) == []
    assert GAME.prompt(s, 1) == "Waiting for p0 to take an action."
    draft = GAME.setup(["ann", "bob", "cy"], 2)
    while draft.phase == "leaders":
        seat = GAME.to_act(draft)[0]
        draft = GAME.apply(draft, seat, GAME.legal_actions(draft, seat)[0]).state
    draft = GAME.apply(draft, 0, "draft 1").state
    assert GAME.prompt(draft, 0) == "Waiting for bob and cy to draft a starting technology."


# ---- honesty ----------------------------------------------------------------------------------


def test_honesty_what_a_seat_cannot_see_never_changes_its_choices_or_prompt():
    rand = random.Random(5)
    pairs = 0
    for s, seat in positions("mosaic", 240, seed=25):
        other = scramble("mosaic", s, seat, rand)
        assert [c.to_json() for c in GAME.choices(s, seat)] == [c.to_json() for c in GAME.choices(other, seat)]
        assert GAME.prompt(s, seat) == GAME.prompt(other, seat)
        assert GAME.needs_private_view(s, seat) == GAME.needs_private_view(other, seat)
        pairs += 1
    assert pairs >= 200


# ---- names, not codes ---------------------------------------------------------------------------


def test_setup_the_draft_names_each_technology_in_the_hand_and_needs_the_private_view():
    """Issue 25: `draft 1` … `draft 5` named the cards by position only; the label is the card."""
    s = GAME.setup(["ann", "bob", "cy"], 4)
    assert GAME.needs_private_view(s, GAME.to_act(s)[0])  # the leader choice looks at the dealt hand
    while s.phase == "leaders":
        seat = GAME.to_act(s)[0]
        s = GAME.apply(s, seat, GAME.legal_actions(s, seat)[0]).state
    hand = s.players[0].hand
    choices = GAME.choices(s, 0)
    assert [c.action for c in choices] == [f"draft {i}" for i in range(1, len(hand) + 1)]
    assert [c.label for c in choices] == [D.technologies[t].name for t in hand]
    assert all(c.group == "Keep a starting technology" for c in choices)
    assert GAME.needs_private_view(s, 0) and GAME.prompt(s, 0).startswith("Keep one starting technology")


def test_setup_city_placement_names_hexes_by_region_and_the_number_drawn_on_the_board():
    """Issue 25: `hex assyria-1` … with no numbers on the map. A hex is "Assyria 12": the region's
    name and the number the board draws on it, with what lies there."""
    s = GAME.setup(["ann", "bob"], 3)
    while not (s.pending and s.pending.top.kind == "place"):
        seat = GAME.to_act(s)[0]
        s = GAME.apply(s, seat, GAME.legal_actions(s, seat)[0]).state
    seat = GAME.to_act(s)[0]
    regions = GAME.choices(s, seat)
    assert regions[0].label == D.regions[regions[0].action.split()[1]].name and "free hexes" in regions[0].detail
    s = GAME.apply(s, seat, regions[-1].action).state
    for c in GAME.choices(s, seat):
        h = c.action.split()[1]
        assert c.label.startswith(hex_name(D, h)) and hex_name(D, h).endswith(" " + hex_number(h))
        assert c.refers == (h,) and c.group.startswith("Place your starting city in ")
        if h in s.goods_on:
            assert D.trade_goods[s.goods_on[h]].name in c.label
        if h in s.cache_on:
            assert "a face-down cache" in c.detail


def test_every_place_a_choice_names_is_drawn_on_the_board_image():
    for s, _seat in positions("mosaic", 150, seed=31):
        for seat in GAME.to_act(s):
            drawn = places(GAME.view(s, None))
            for c in GAME.choices(s, seat):
                assert set(c.refers) <= drawn, (c, drawn)
                for h in (r for r in c.refers if r in D.hexes):  # named as drawn: region name and number
                    assert hex_name(D, h) == f"{D.regions[D.hexes[h].region].name} {hex_number(h)}"


def test_cards_by_printed_names_not_codes():
    s = fresh()
    s.players[0].ideas, s.players[0].stone, s.players[0].money = 20, 20, 20
    choices = by_action(s)
    for t in s.tech_offer:
        assert choices[f"technology {t}"].label == D.technologies[t].name
    for b in s.build_offer:
        if f"build {b}" in choices:
            assert choices[f"build {b}"].label.startswith(D.builds[b].name + " (")
    assert all(re.fullmatch(r"[a-z0-9-]+", c.label) is None for c in choices.values())


# ---- what surprises players ---------------------------------------------------------------------


def test_n29_the_technology_choice_says_what_scientific_counts():
    """Scientific counts played technologies only: said in the technology's choice, face up or not."""
    s = fresh()
    free = next(t for t, c in D.technologies.items() if not c.requires and t not in s.tech_offer)
    needy = next(t for t, c in D.technologies.items() if c.requires and t not in s.tech_offer)
    s.tech_offer[0], s.tech_offer[1] = free, needy
    s.players[0].ideas = 5
    choices = by_action(s)
    assert "face up, counts for Scientific" in choices[f"technology {free}"].detail
    assert "face down: Scientific counts it once flipped" in choices[f"technology {needy}"].detail
    assert "Scientific counts it once flipped" in choices[f"technology {free} face-down"].detail
    assert choices[f"technology {free} face-down"].group == "Technology, kept face down"


# ---- golden choices: the rules summary's own examples -------------------------------------------


def test_important_money_2_instead_of_1_stone_in_the_cost_and_in_the_payment():
    """ "Money can be used in place of any currency … at a 2:1 rate (e.g. 2 money instead of 1 stone)."""
    s = fresh()
    city = next(b for b, c in D.builds.items() if c.type == "city" and b not in s.build_offer)
    s.build_offer[0] = city
    s.players[0].stone, s.players[0].money, s.players[0].population = 3, 10, 5
    assert by_action(s)[f"build {city}"].detail.startswith("4 stone (3 + 2 money), 2 population")
    s, _ = act(s, "spend money", f"build {city}")
    while s.pending.top.kind == "place":
        s, _ = act(s, GAME.legal_actions(s, 0)[0])
    pay = GAME.choices(s, 0)
    assert [(c.group, c.label) for c in pay[:2]] == [
        ("Pay 4 stone", "3 stone + 2 money"),
        ("Pay 4 stone", "2 stone + 4 money"),
    ]
    assert pay[0].detail == "you keep 0 stone and 8 money" and pay[-1].label == "8 money"
    assert GAME.prompt(s, 0) == "Say how you pay 4 stone: in stone, or 2 money for each."


def test_wonder_your_3rd_wonder_costs_30_stone_and_15_food():
    """ "The cost for every wonder after the first is increased by 5 stone and 5 food. e.g. your 3rd
    wonder would cost 30 stone and 15 food." """
    s = fresh()
    s.players[0].wonders = ["sphinx", "stonehenge"]
    s.wonders = [w for w in s.wonders if w not in s.players[0].wonders]
    s.board[hexes("greece")[0]] = "c0"
    s.players[0].stone, s.players[0].food = 30, 15
    c = by_action(s)["wonder great-library"]
    assert (c.group, c.label) == ("Wonder", "Great Library") and c.detail.startswith("30 stone, 15 food · 5 VP")


def test_work_adds_your_population_to_your_production():
    """ "Add your population to your production of that currency shown on your player board." """
    s = fresh()
    s.players[0].population, s.players[0].production["food"] = 5, 8
    c = by_action(s)["work food"]
    assert (c.group, c.label, c.detail) == ("Work", "Food", "+13 food (5 population + 8 food production)")


def test_building_a_city_costs_4_stone_and_2_population():
    s = fresh()
    city = next(b for b, c in D.builds.items() if c.type == "city" and b not in s.build_offer)
    s.build_offer[0] = city
    s.players[0].stone = 4
    c = by_action(s)[f"build {city}"]
    assert c.label == f"{D.builds[city].name} (city)" and c.detail.startswith("4 stone, 2 population · gives ")


def test_tax_and_tariff_when_all_cards_are_used_2_money_per_population_plus_government_and_tax_production():
    """ "All future tax actions generate 2 money/population + government symbol + your tax production." """
    s = fresh()
    s.tax_offer, s.tax_deck, s.holding = ["", ""], [], 5
    p = s.players[0]
    p.population, p.library, p.production["tax"] = 5, "government", 3
    c = by_action(s)[tax()]
    assert c.label == "Tax: 2 money per population, no unrest"
    assert c.detail == "+20 money · 2×5 population + 2 Government symbols + 3 tax production + 5 from the holding area"


def test_n14_merchant_tax_choice_keeps_the_whole_gain_with_the_holding_area():
    """Issue 49: the Merchant's term made the sum too long, and the holding area was left out: "+25
    money" for an action that gains 35. The total the action gains always stays; its parts follow
    whole or not at all."""
    s = fresh()
    card = next(c for c, t in D.tax_cards.items() if t.kind == "tax" and t.unrest)
    s.tax_offer, s.holding = [card, ""], 10
    p = s.players[0]
    p.leader, p.population, p.library, p.production["tax"] = "merchant", 5, "government", 3
    p.goods = {"wine": 1, "iron": 1, "gold": 1}
    c = by_action(s)[tax(card)]
    before = p.money
    after, _ = act(s, tax(card))
    gained = after.players[0].money - before
    t = D.tax_cards[card]
    assert gained == t.multiplier * 5 + 2 + 3 + 2 * 3 + 10
    assert c.detail.startswith(f"+{gained} money · +{t.unrest} unrest")
    assert "…" not in c.detail and len(c.detail) <= 100


def test_population_when_all_cards_are_used_2_population_for_15_food():
    s = fresh()
    s.pop_offer, s.pop_deck = ["", ""], []
    s.players[0].food, s.players[0].population = 15, 5
    c = by_action(s)["population 2-for-15-food"]
    assert (c.label, c.detail) == ("+2 population for 15 food", "15 food · population 5 → 7 · every card is used")


def test_claims_and_free_actions_name_what_they_give():
    s = fresh()
    s.achievements, s.players[0].money, s.players[0].population = ["wealthy"], 60, 5
    s.players[0].leader, s.players[0].government = "magistrate", "theocracy"
    choices = by_action(s)
    assert (choices["claim wealthy"].label, choices["claim wealthy"].detail) == (
        "Wealthy achievement",
        "6 VP · 60 money",
    )
    assert choices["refresh technology"].label == "Clear the technology offer"
    assert choices["convert food"].label == "20 food" and "-1 population (5 → 4)" in choices["convert food"].detail
    s, _ = act(s, "work food")
    assert GAME.prompt(s, 0) == "Use a free action, or end your turn." and by_action(s)["end"].label == "End your turn"


def test_n37_the_city_state_region_choice_says_what_it_scores():
    s = fresh()
    it, eg = hexes("italia"), hexes("egypt")
    s.board = {it[0]: "c0", it[1]: "c0", eg[0]: "c0"}
    s.players[0].government = "city-state"
    s.pending.push("city-state", 0)
    choices = GAME.choices(s, 0)
    assert [(c.label, c.detail) for c in choices][:2] == [
        ("Italia", "2 of your cities there: 2 VP"),
        ("Egypt", "1 of your cities there: 1 VP"),
    ]
    assert choices[0].refers == ("italia",) and GAME.prompt(s, 0) == "Choose the region your City State scores."


# ---- the private view and the rule ----------------------------------------------------------------


def test_needs_private_view_for_the_leader_choice_the_draft_and_a_republics_look():
    s = fresh()
    assert not GAME.needs_private_view(s, 0)
    s.players[0].government = "republic"
    s, _ = act(s, "peek build")
    assert GAME.needs_private_view(s, 0) and not GAME.needs_private_view(s, 1)


def test_rule_names_a_passage_the_rules_command_finds():
    """The summary has no section numbers: `rule` gives words of the passage (`rules <topic>`)."""
    from bot.service.rules import find
    from engine.mosaic.choices import RULES

    for topic in RULES.values():
        section = find("mosaic", topic)
        assert section is not None and topic.split()[0].lower() in (section.heading + section.body).lower()
    assert GAME.rule(fresh(), 0) == "Work"


def test_wonder_hex_choice_keeps_its_cost_beside_the_tile_taken():
    """Issue 49: a hex's detail named the tile taken first and dropped the build's cost when both
    did not fit ("you take Stone (+2 stone production)" for a wonder costing 26 money more): what
    completing the build costs always stays, the wonder's name goes first."""
    from engine.mosaic.choices import cost_words
    from engine.mosaic.options import wonder_cost

    s = fresh()
    w = next(w for w in sorted(D.wonders) if D.wonders[w].placement not in ("port", "three_cities"))
    p = s.players[0]
    p.stone, p.food, p.money = 3, 1, 200
    s.board[free_hex(s, "italia")] = "c0"
    s.pending.push("place", 0, purpose="wonder", wonder=w, region="italia")
    h = GAME.legal_actions(s, 0)[0].split()[1]
    s.goods_on[h] = "stone"
    s.cache_on.pop(h, None)
    c = next(c for c in GAME.choices(s, 0) if c.action == f"hex {h}")
    cost = cost_words(D, s, 0, wonder_cost(D, p))
    assert cost in c.detail and "you take Stone (+2 stone production)" in c.detail, c.detail
    assert "…" not in c.detail and len(c.detail) <= 100
