"""Issue 25 §1: every legal action described in the player's words (CHOICES.md).

Random games check the contract of `choices`, `prompt`, `rule` and `needs_private_view`;
scrambled pairs check that nothing hidden leaks into them; the rulebook's worked examples
come back as golden choices with the rulebook's numbers in their details.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator

import pytest

from bot.service.rules import find
from engine.core import Choice, count, problems
from engine.rising_cultures import rules
from engine.rising_cultures.rules import CARDS
from engine.rising_cultures.state import State
from tests.engine.ai.positions import positions, scramble

from .helpers import GAME, act, at_phase3, at_play, cid, filler_progress, finish_opening, lay_out, new_game, set_coins

GAUL = 1
ARMENIA = 5


def games(seeds: range, options: dict) -> Iterator[tuple[State, int]]:
    """Every step of random games: (state, acting seat)."""
    for seed in seeds:
        rng = random.Random(seed)
        s = GAME.setup(["ann", "bob"], seed, options)
        while not GAME.is_over(s):
            seat = rng.choice(GAME.to_act(s))
            yield s, seat
            s = GAME.apply(s, seat, rng.choice(GAME.legal_actions(s, seat))).state


def by_action(s: State, seat: int) -> dict[str, Choice]:
    return {c.action: c for c in GAME.choices(s, seat)}


# ---- the contract over random games ---------------------------------------------------------------

#: "Costs or gains something": every action moves a card, coins, a progress level or a Province,
#: except saying no to a move (`progress no`) or to a Province (`province decline`), which may
#: have no detail. `done` keeps what the player has and still says what (the hand, the coins).
MAY_HAVE_NO_DETAIL = {"progress no", "province decline"}


@pytest.mark.parametrize("options", [{}, {"match": True}], ids=["game", "match"])
def test_every_legal_action_is_described_in_random_games(options):
    steps = 0
    for s, seat in games(range(20), options):
        actions = GAME.legal_actions(s, seat)
        described = GAME.choices(s, seat)
        assert problems(actions, described) == [], (actions, described)
        for c in described:
            assert c.detail or c.action in MAY_HAVE_NO_DETAIL, c
            assert not re.search(r"\b[a-z]+-[a-z]+\b", c.label.replace("al-", "")), c  # no slugs in labels
        for who in (seat, 1 - seat):
            text = GAME.prompt(s, who)
            assert text and "\n" not in text and "`" not in text and len(text) <= 120, text
            assert not re.search(r"\(\d+\.\d+", text), text
        other = 1 - seat
        if other not in GAME.to_act(s):
            assert GAME.choices(s, other) == [] and GAME.prompt(s, other).startswith("Waiting for ")
            assert GAME.rule(s, other) == "" and GAME.needs_private_view(s, other) is False
        steps += 1
    assert steps > 20 * 100


def visible_names(view: dict) -> set[str]:
    """What the board image writes by name: the province row, each player's display, won
    provinces and last-played resource card, the Nile cards (renderers/rising_cultures/board.py)."""
    names = {p["name"] for p in view["province_row"]} | {n["name"] for n in view["nile"]}
    for p in view["players"]:
        names |= {c["name"] for c in p["display"]["buildings"] + p["display"]["leaders"]}
        names |= {q["name"] for q in p["provinces"]}
        if p["resource_area"]:
            names.add(p["resource_area"][-1]["name"])
    return names


def test_every_place_a_choice_refers_to_is_named_on_the_board():
    referred = 0
    for s, seat in games(range(10), {}):
        shown = visible_names(GAME.view(s, None))
        for c in GAME.choices(s, seat):
            assert set(c.refers) <= shown, (c, shown)
            referred += len(c.refers)
    assert referred > 100


def test_rule_names_a_section_the_rules_command_finds():
    """The rulebook has no section numbers: `rule` gives a heading of its table of contents,
    and the service's `rules <heading>` finds exactly that section."""
    rules = {GAME.rule(s, seat) for s, seat in games(range(6), {})}
    assert {"Phase II: Play Cards from Your Hand", "Phase III: Province, Progress Marker, Coin Limit"} <= rules
    for heading in rules - {""}:
        section = find("rising-cultures", heading)
        assert section is not None and section.heading == heading


def test_needs_private_view_while_the_seat_decides_holding_its_hand():
    s = at_play()
    assert GAME.needs_private_view(s, 0) and not GAME.needs_private_view(s, 1)  # seat 1 waits
    s, _ = act(s, 0, GAME.legal_actions(s, 0)[0])
    assert GAME.needs_private_view(s, 1)
    lay_out(s, 0, hand=[], military=["castra"])
    lay_out(s, 1, hand=[], military=[])
    s = at_phase3(s, GAUL)
    assert GAME.prompt(s, 0) == "Decide whether to compete for Gaul." and not GAME.needs_private_view(s, 0)
    s = GAME.setup(["ann", "bob"], 1)
    assert not GAME.needs_private_view(s, 0)  # the civilization choice is public


# ---- honesty -----------------------------------------------------------------------------------------


def test_states_differing_only_in_what_the_seat_cannot_see_give_the_same_choices():
    rand = random.Random(25)
    pairs = differ = 0
    for s1, seat in positions("rising-cultures", 240, seed=7):
        s2 = scramble("rising-cultures", s1, seat, rand)
        assert GAME.view(s2, seat) == GAME.view(s1, seat)
        differ += GAME.dumps(s2) != GAME.dumps(s1)
        assert GAME.choices(s2, seat) == GAME.choices(s1, seat)
        assert GAME.prompt(s2, seat) == GAME.prompt(s1, seat)
        assert GAME.rule(s2, seat) == GAME.rule(s1, seat)
        assert GAME.needs_private_view(s2, seat) == GAME.needs_private_view(s1, seat)
        pairs += 1
    assert pairs >= 200 and differ >= 200


def test_phase_2_swap_names_the_card_the_player_put_on_top_and_only_that():
    """RULES-NOTES "What a player knows of their own deck": the card returned to the top is
    known to its owner; a swap draws it, so the swap's detail names it."""
    s = finish_opening(new_game())
    top = s.players[0].deck[0]
    s.players[0].known_top = top
    s, _ = act(s, 0, "income")
    assert s.players[0].known_top == ""  # drawn with the 4
    s.players[0].known_top = s.players[0].deck[0]
    name = GAME.view(s, 0)["players"][0]["known_top"]["name"]
    set_coins(s, 0, 3)
    swaps = by_action(s, 0)
    assert f"draw {name} ·" in swaps["swap 1"].detail + " ·"
    assert f"draw {name} and an unknown card" in swaps["swap 2"].detail
    assert name not in GAME.prompt(s, 1)


# ---- golden choices from the rulebook's worked examples ----------------------------------------------


def brewery_table() -> State:
    """The rulebook's Rome: 2 wood and 2 brick available, no stone, Market played last."""
    s = at_play(("rome", "persia"), coins=(3, 0))
    lay_out(s, 0, hand=["brewery", "villa", "colosseum", "castra"], resources=["portus", "forum", "market"])
    return s


def test_4_construct_a_building_brewery_example_pays_2_coins_for_the_missing_stone():
    """ "Rome must have 2 wood, 2 brick, and 1 stone available. Rome has 2 wood and 2 brick but
    no stone, so they pay 2 coins to the general supply for the missing stone." """
    s = brewery_table()
    assert GAME.view(s, 0)["players"][0]["resources"] == {"wood": 2, "brick": 2, "stone": 0, "gold": 3}
    brewery = by_action(s, 0)["play brewery build"]
    assert (brewery.group, brewery.label) == ("Play Brewery", "Brewery → build")
    assert brewery.detail == "2 coins for 1 stone (3 → 1) · 2 VP · +1 income"
    # an unaffordable build is no choice: the card's other uses say what it would cost
    assert "play colosseum build" not in by_action(s, 0)  # 3 stone short: 6 coins
    assert "cannot build: 6 coins needed" in by_action(s, 0)["play colosseum coins"].detail


def test_optional_move_up_1_progress_level_example_flips_market():
    """ "After placing the Brewery, they flip their last-played resource card (Market) face down
    and place it in the progress area"."""
    s, _ = act(brewery_table(), 0, "play brewery build")
    move = by_action(s, 0)
    assert move["progress yes"].label == "Move up with Market"
    assert move["progress yes"].detail == "level 1: +1 income · loses Market's 1 wood, 1 brick, 1 gold"
    assert move["progress yes"].refers == ("Market",)
    assert move["progress no"].label == "Stay at level 0"
    assert GAME.prompt(s, 0) == "Decide whether to move up to progress level 1."


def test_3_increase_your_resources_market_example_adds_1_wood_1_brick_1_gold_and_1_coin():
    """ "It adds 1 wood, 1 brick, and 1 gold to their available resources. Rome then
    immediately gains 1 coin shown on that card"."""
    s = at_play(("rome", "persia"), coins=(3, 0))
    lay_out(s, 0, hand=["market", "villa", "augustus", "castra"], resources=[])
    market = by_action(s, 0)["play market resources"]
    assert market.detail.startswith("+1 wood, 1 brick, 1 gold · +1 coin (3 → 4) now")


def test_2_increase_your_military_strength_example_horse_and_the_printed_sword():
    """ "The horse symbol on the card ... increases their military strength by 1 horse. Rome's
    card also activates the sword symbol on their civilization board"."""
    s = at_play(("rome", "persia"), coins=(3, 0))
    lay_out(s, 0, hand=["market", "villa", "augustus", "castra"], military=[])
    s.row = [GAUL] + [p for p in s.row if p != GAUL]
    market = by_action(s, 0)["play market military"]
    assert market.label == "Market → military"
    assert market.detail.startswith("band 1: +1 horse, +1 printed sword · Gaul: you 0 → 2, bob ")
    assert market.refers == ("Gaul",)


def test_1_receive_2_coins_discards_the_card_for_2_coins():
    s = at_play(("rome", "persia"), coins=(3, 0))
    lay_out(s, 0, hand=["market", "villa", "augustus", "castra"])
    assert by_action(s, 0)["play market coins"].detail == "+2 coins (3 → 5) · to your discard pile"


def test_phase_2_swap_up_to_2_cards_for_1_coin_each_choices():
    """ "return 1 or 2 coins ... draw a new card for each coin you return. For each new card you
    draw, place one card from your hand at the bottom of your deck"."""
    s = finish_opening(new_game())
    s, _ = act(s, 0, "income")
    set_coins(s, 0, 4)
    swaps = by_action(s, 0)
    assert swaps["swap 1"].label == "Swap 1 card" and swaps["swap 1"].detail.startswith("1 coin (4 → 3) · draw ")
    assert swaps["swap 2"].detail.endswith("then 2 cards to the bottom") and "2 coins (4 → 2)" in swaps["swap 2"].detail
    assert swaps["done"].label == "Keep your hand"
    assert GAME.prompt(s, 0) == "Swap up to 2 cards for 1 coin each, or keep your hand."


def test_1_province_card_example_rome_wins_with_the_most_swords_and_horses():
    """ "Rome has won a province by having the most sword and horse symbols ... Finally, Rome
    discards their last-played military area card"; "In case of a tie, the player with the
    progress marker wins the Province"."""
    s = at_play(marker=0)
    lay_out(s, 0, hand=[], military=["castra", "market"])  # sword + printed sword, horse
    lay_out(s, 1, hand=[], military=["royal-road"])
    s = at_phase3(s, GAUL)
    compete = by_action(s, 0)["province compete"]
    assert compete.label == "Compete for Gaul" and compete.refers == ("Gaul",)
    assert compete.detail == "you 3, bob 2 (decides next) · 1 VP, 1 wood always · costs Market"
    assert by_action(s, 0)["province decline"].detail == "bob may still take it"
    tie = at_play(marker=0)
    lay_out(tie, 0, hand=[], military=["castra"])  # sword + printed sword
    lay_out(tie, 1, hand=[], military=["royal-road"])  # horse + printed horse
    tie = at_phase3(tie, GAUL)
    assert by_action(tie, 0)["province compete"].detail.startswith("you 2, bob 2 (decides next, tie: you) · ")


def test_3_coin_limit_7_coins_max_egypt_5_in_the_civilization_choice():
    s = GAME.setup(["ann", "bob"], 1)
    civs = by_action(s, 0)
    assert civs["civ rome"].label == "Rome" and civs["civ rome"].detail.startswith("coin limit 7")
    assert civs["civ egypt"].detail.startswith("coin limit 5")
    assert "recommended while learning" in civs["civ persia"].detail and "more complex" in civs["civ abbasid"].detail
    assert GAME.prompt(s, 1) == "Waiting for ann to choose a civilization."


def test_end_of_the_game_persia_example_golden_age_3_vp_at_level_5():
    """Persia's scoring example: "Golden Age: 3 VP" - the move that reaches it says so."""
    s = at_play(("persia", "rome"), coins=(9, 0))
    lay_out(s, 0, hand=["qanat", "xerxes-i", "atossa", "darius-i"], resources=["persepolis"])
    filler_progress(s, 0, 4)
    s, _ = act(s, 0, "play qanat build")
    assert by_action(s, 0)["progress yes"].detail.startswith("level 5: Golden Age: +1 income, 3 VP")


def test_use_4_persia_leader_choices_name_the_leaders_and_what_covering_costs():
    s = at_play(("persia", "rome"), coins=(9, 0))
    lay_out(s, 0, hand=["darius-i", "xerxes-i", "atossa", "qanat"], leaders=[["cambyses-ii"]])
    assert by_action(s, 0)["play darius-i build"].detail.endswith("then choose its stack")
    s, _ = act(s, 0, "play darius-i build")
    place = GAME.choices(s, 0)
    assert [c.label for c in place] == ["Free leader stack", "On top of Cambyses II"]
    assert place[0].detail == "Darius I and Cambyses II both in play"
    assert place[1].detail == "loses +1 sword · its 2 VP count only from level 4"
    assert GAME.prompt(s, 0) == "Place Darius I on your free leader stack or on top of a leader."


def test_province_7_maghreb_choices_name_the_card_and_the_level_it_reaches():
    s = at_play(("rome", "persia"), marker=0)
    lay_out(s, 0, hand=[], military=["castra", "forum"], discard=["villa"])
    lay_out(s, 1, hand=[], military=[])
    s = at_phase3(s, 7)
    assert by_action(s, 0)["province compete"].detail == (
        "you 3, bob 0 · 2 VP, +1 progress level · costs Forum · or Maghreb moves it up"
    )
    s, _ = act(s, 0, "province compete")
    maghreb = by_action(s, 0)
    assert maghreb["maghreb discard villa"].label == "Villa from your discard pile"
    assert maghreb["maghreb discard villa"].detail == "level 1: +1 income · Forum is discarded as the cost"
    assert maghreb["maghreb military"].detail == "level 1: +1 income · instead of discarding it, -1 sword"


def test_phase_3_xerxes_keeps_the_last_military_card_once_a_game():
    """RULES-NOTES "Province, order of effects": a `province_keep_military` card asks once."""
    s = at_play(("persia", "rome"), marker=0)
    lay_out(s, 0, hand=[], military=["royal-road", "cambyses-ii"], leaders=[["xerxes-i"]])
    lay_out(s, 1, hand=[], military=[])
    s = at_phase3(s, GAUL)
    assert by_action(s, 0)["province compete"].detail.endswith("costs Cambyses II · Xerxes I may keep it")
    s, _ = act(s, 0, "province compete")
    keep = GAME.choices(s, 0)
    assert [(c.label, c.detail) for c in keep] == [
        ("Keep Cambyses II", "uses Xerxes I (once a game) · keeps 1 sword"),
        ("Discard Cambyses II", "-1 sword · Xerxes I stays for later"),
    ]
    assert keep[0].refers == ("Xerxes I",)
    assert GAME.prompt(s, 0) == "Decide whether Xerxes I keeps your last military card, Cambyses II."


# ---- issue 49: what decides a build stays in its words --------------------------------------------


def test_4_place_a_leader_choice_keeps_the_leader_it_covers():
    """ "place it on top of (cover) the previous one": the covered leader is named however long the
    new one's effects are (issue 49: the 100-character cut removed it)."""
    s = at_play(("abbasid", "rome"), coins=(9, 0))
    lay_out(s, 0, hand=["al-mu-tasim", "hammam", "madrasa", "zubaidah"], leaders=[["harun-al-rashid"]])
    leader = by_action(s, 0)["play al-mu-tasim build"]
    assert leader.detail.endswith("· covers Harun al-Rashid")
    assert leader.refers == ("Harun al-Rashid",)


def test_4_persia_leader_choice_keeps_that_its_stack_is_chosen_next():
    s = at_play(("persia", "rome"), coins=(9, 0))
    lay_out(s, 0, hand=["xerxes-i", "darius-i", "atossa", "qanat"], leaders=[["cambyses-ii"]])
    assert by_action(s, 0)["play xerxes-i build"].detail.endswith("· then choose its stack")


def test_4_a_building_gives_its_coins_only_from_the_supply():
    """28 coins (RULES-NOTES): a building's "take 2 coins" gives what the supply holds, after the
    build's own price went back to it (issue 49: "+2 coins now" with an empty supply)."""
    s = at_play(("abbasid", "rome"), coins=(0, 0))
    lay_out(s, 0, hand=["hammam", "madrasa", "zubaidah", "al-mu-tasim"], resources=["ribat", "bimaristan"])
    set_coins(s, 1, s.players[1].coins + s.supply)  # bob holds every coin left
    hammam = by_action(s, 0)["play hammam build"]
    assert hammam.detail.startswith("requirement met · 2 VP · no coin: the supply is empty now")
    lay_out(s, 0, resources=["ribat"])  # 1 brick short: the price goes back to the supply first
    price = rules.build_price(s, 0, CARDS[cid("abbasid", "hammam")])[1]
    set_coins(s, 1, s.players[1].coins - price)
    set_coins(s, 0, price)
    assert 0 < price and s.supply == 0
    got = min(2, price)
    assert f"+{count(got, 'coin')} (0 → {got}" in by_action(s, 0)["play hammam build"].detail
    after, _ = act(s, 0, "play hammam build")
    assert after.players[0].coins == got


def test_round_7_income_draw_says_no_extra_card_when_the_deck_is_used_up():
    """Phase II: "draw 1 extra card, then place 1 card ... at the bottom" (Paper Mill) needs a card
    to draw: in round 7 the deck holds the 4 cards of the draw and no more (issue 49: the words
    said "draw 4 + 1, then 1 card to the bottom")."""
    s = finish_opening(new_game(("abbasid", "rome")))
    lay_out(s, 0, buildings=["paper-mill"])
    income = by_action(s, 0)["income"]
    assert income.detail.endswith("draw 4 + 1, then 1 card to the bottom")
    s.players[0].deck = s.players[0].deck[:4]  # round 7: the last 4 cards
    assert by_action(s, 0)["income"].detail.endswith("· draw 4 cards")
    after, _ = act(s, 0, "income")
    assert len(after.players[0].hand) == 4 and after.players[0].step != "bottom"


def test_province_5_armenia_coins_come_from_what_the_supply_holds():
    """A Province's coins are taken from the general supply (28 coins, RULES-NOTES): with the
    supply empty its choice says so (issue 49: it said "2 coins now")."""
    s = at_play(marker=0)
    lay_out(s, 0, hand=[], military=["castra", "market"])
    lay_out(s, 1, hand=[], military=["royal-road"])
    s = at_phase3(s, ARMENIA)
    assert "2 VP, 2 coins now ·" in by_action(s, 0)["province compete"].detail
    set_coins(s, 1, s.players[1].coins + s.supply)  # bob holds every coin left
    assert "0 coins now (the supply is empty)" in by_action(s, 0)["province compete"].detail
