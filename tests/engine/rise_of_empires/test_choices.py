"""Issue 25 §1: every choice described for the player (choices.py), the prompt, the rule behind it.

"Costs or gains" in Rise of Empires: every action but `done` takes, pays, places, removes or
keeps something, so every choice but `done` carries a detail.
"""

from __future__ import annotations

import random
import re

import pytest

from engine.core import DETAIL_MAX, DecisionStack, problems
from engine.rise_of_empires.flow import advance
from engine.rise_of_empires.scoring import food_change
from engine.rise_of_empires.state import EMPTY, State
from renderers.rise_of_empires.tables import _offer_lines
from tests.engine.ai.positions import positions, scramble

from .helpers import COMP, GAME, act, actor, legal, new, restart
from .test_sample_turn import LISA, PETER, SANDRA, THOMAS, sample_start

W, R, B, G = range(4)


def described(state, seat=None):
    """{label: (group, detail, action)} of the choices of the seat to act."""
    seat = actor(state) if seat is None else seat
    return {c.label: (c.group, c.detail, c.action) for c in GAME.choices(state, seat)}


def check_step(state, seat):
    actions = GAME.legal_actions(state, seat)
    chosen = GAME.choices(state, seat)
    assert problems(actions, chosen) == [], problems(actions, chosen)
    regions = {r["id"] for r in GAME.view(state, None)["regions"]}  # the map draws every region's name
    for c in chosen:
        assert c.detail or c.action == "done", c
        assert len(c.detail) <= DETAIL_MAX
        assert set(c.refers) <= regions
    text = GAME.prompt(state, seat)
    assert text and "\n" not in text and "`" not in text and len(text) <= 120, text
    assert not re.search(r"\d+\.\d", text), text  # no rule numbers
    assert re.fullmatch(r"(\d+\.\d+(\.\d+)?)?", GAME.rule(state, seat))
    assert GAME.needs_private_view(state, seat) is False  # everything is on the table (6.0)


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_issue_25_every_legal_action_is_described_in_random_games(n):
    for seed in range(20):
        rng = random.Random(seed)
        s = new(n, seed=seed)
        step = 0
        while not GAME.is_over(s):
            seat = actor(s)
            if step % 7 == seed % 7 or s.stack.top.kind not in ("action", "place"):
                check_step(s, seat)
            for other in range(n):
                if other != seat:
                    assert GAME.choices(s, other) == [] and GAME.prompt(s, other).startswith("Waiting for")
                    assert GAME.rule(s, other) == ""
                    break
            s = GAME.apply(s, seat, rng.choice(GAME.legal_actions(s, seat))).state
            step += 1
        assert GAME.choices(s, 0) == [] and GAME.prompt(s, 0) == "The game is over."


def test_issue_25_honesty_what_a_seat_cannot_see_changes_nothing():
    """Only the order of the face-down stacks is hidden (6.0); the choices and prompt never read it."""
    rand = random.Random(25)
    pairs = 0
    for state, seat in positions("rise-of-empires", 220, seed=25):
        other = scramble("rise-of-empires", state, seat, rand)
        assert GAME.choices(other, seat) == GAME.choices(state, seat)
        assert GAME.prompt(other, seat) == GAME.prompt(state, seat)
        pairs += 1
    assert pairs >= 200


def test_issue_25_every_tile_named_by_a_choice_is_on_the_board():
    """The tiles a choice names are in the board's "Tiles on offer" lines; regions are drawn by name."""
    for n, seed in ((2, 3), (4, 5), (5, 8)):
        rng = random.Random(seed)
        s = new(n, seed=seed)
        while not GAME.is_over(s):
            seat = actor(s)
            if s.stack.top.kind == "action":
                board = " ".join(text for _, text in _offer_lines(GAME.view(s, None)))
                for c in GAME.choices(s, seat):
                    if c.action.startswith("take "):
                        name = c.label.removeprefix("Empire tile ").removesuffix(" (wonder)")
                        assert name in board, (c.label, board)
            s = GAME.apply(s, seat, rng.choice(GAME.legal_actions(s, seat))).state


# ---- golden choices: the 12.0 sample turn, with the rulebook's numbers --------------------------


def test_12_0_sample_turn_choices_carry_the_rulebook_numbers():
    s = sample_start()
    first = described(s)
    # Sandra: Mining "giving 1 resource disc per Mountain during the Income phase"
    assert first["Mining"] == (
        "Take a progress tile",
        "+1 resource disc per Mountain at Income",
        "take progress mining",
    )
    assert GAME.prompt(s, SANDRA) == "Choose an action: place a disc in a row and take that row's action."
    assert GAME.rule(s, SANDRA) == "6.0" and GAME.prompt(s, LISA).startswith("Waiting for Sandra (white)")
    s = act(s, "take progress mining")
    # Lisa: "the city tile earning 1 victory point that does not cost any food ... She pays 2 gold"
    assert described(s)["Athens"][:2] == ("Take a city tile", "2 gold · 1 VP a turn")
    # (Peter's Rome: "brings 2 VPs per game turn. He pays 4 gold"; it costs 3 food, 12.0 Food)
    assert described(s)["Rome"][1] == "4 gold · 2 VP a turn · upkeep 3 food"
    s = act(s, "take city athens", "take progress iron-weapons")
    # Peter: Plains "will earn him 2 food points and 1 player cube per game turn"
    assert described(s)["Plains"][1] == "+1 cube, +2 food a turn"
    s = act(s, "take territory plains", "take territory mountain")
    # Lisa: a "2" water empire tile "allowing placement in the Mediterranean"
    tile = described(s)["Empire tile 2 water 1-1"]
    assert tile == ("Take an empire tile", "2 regions, water · attacker loses 1, defender 1 · a new empire", tile[2])
    s = act(s, tile[2])
    place = described(s)
    assert place["Mediterranean ×2"][0] == "Place 2 cubes"
    assert place["Mediterranean ×2"][1] == "you 0 → 2: you control · region 1 of 2 · VP 2/1, +2 food"
    assert all(c.refers == (c.action.split(" ")[2],) for c in GAME.choices(s, LISA) if c.action.startswith("place"))
    s = act(s, "place 2 mediterranean", "place 2 se-europe", "done", "take progress haven", "take territory forest")
    s = act(s, "take territory mountain", "take territory mountain", "take empire 2 water 1-1")
    s = act(s, "place 2 mediterranean", "place 2 sw-europe")
    # Thomas "fights a battle and eliminates one of Lisa's cubes in the Mediterranean"
    battle = described(s)["Attack Lisa (green) in Mediterranean"]
    assert battle[1] == "ends placing · green loses 1, you 1 · you 2 → 1, green 1: you share control"
    s = act(s, "battle mediterranean green")
    # "Finally, he flips over his Iron Weapons tile": after the action (6.1), beside Haven
    after = described(s)
    assert set(after) == {"End your turn", "Iron Weapons", "Haven"} and GAME.rule(s, THOMAS) == "6.1"
    assert after["Iron Weapons"] == (
        "Free action",
        "remove 1 cube of another player where you have cubes",
        "use iron-weapons",
    )
    s = act(s, "use iron-weapons")
    assert described(s)["Lisa (green) in Mediterranean"][1] == "green 1 → 0"
    s = act(s, "remove mediterranean green", "done", "take progress iron-axe")
    s = act(s, "take territory mountain", "take progress agriculture")
    # Thomas "flips over his Haven and exchanges 1 gold for 1 resource disc. Then he spends all 3 discs"
    assert described(s)["Haven"][1] == "1 gold → 1 resource disc"
    s = act(s, "use haven")
    assert described(s)["Trade 3 discs → 2 VP"][1] == "you have 3 resource discs"
    s = act(s, "trade 3 for 2 vp", "take city rome", "trade 2 for 4 gold", "take territory island")
    s = act(s, "take territory forest")
    # Peter: "the "3" empire tile ... puts his 5 cubes into the three eastern most regions"
    assert described(s)["Empire tile 3 1-1"][1] == "3 regions · attacker loses 1, defender 1 · a new empire"
    s = act(s, "take empire 3 1-1", "place 2 anatolia", "place 2 near-east", "place 1 sw-asia")
    # Sandra: the "2" empire tile "with the 0-1-battle"; Lisa's "with the 0-2-battle"
    assert described(s)["Empire tile 2 0-1"][1] == "2 regions · attacker loses 0, defender 1 · a new empire"
    assert described(s)["Empire tile 2 0-2"][1] == "2 regions · attacker loses 0, defender 2 · a new empire"
    s = act(s, "take empire 2 0-1", "place 3 sw-europe", "place 2 nw-africa")
    # "eliminates one of the cubes of Thomas (red) in SW Europe"
    assert described(s)["Attack Thomas (red) in SW Europe"][1].startswith(
        "ends placing · red loses 1, you 0 · you 3 → 3"
    )
    s = act(s, "battle sw-europe red", "take empire 2 0-2", "place 1 anatolia", "done", "take progress agriculture")
    # Peter concludes with "exchanging 2 resource discs for 3 gold"
    assert described(s)["Trade 2 discs → 3 gold"][0] == "Trade resource discs"
    s = act(s, "trade 2 for 3 gold")
    # Food: Peter "loses 3 points for his city and 2 points for his Forest but gains 2 points for his
    # Plains ... moved to the "13" space"
    food = described(s)
    assert food["Keep your cities, pay their food"] == ("Keep and pay", "food 16 → 13", "keep cities")
    assert food["Rome"] == ("Discard a city", "saves 3 food · gives up 2 VP a turn · food 16 → 16", "discard rome")
    assert GAME.prompt(s, PETER) == "Keep your cities and pay their food upkeep, or discard one first."
    s = act(s, "keep cities")
    # Turn order: Lisa picks first and "decides to stay in second place"
    assert actor(s) == LISA and described(s)["Position 2"][1] == "you act second in game turn 2"
    assert GAME.rule(s, LISA) == "10.0"


# ---- the payment choices of issue 22 -----------------------------------------------------------------


def _rome_after_a_payment(gold, vp, **other):
    """B turn: white removes the progress disc with 4 of white's discs to its left; Rome (4 gold) on offer."""
    s = new(4)
    s.turn = 2
    s.rows = {r: [EMPTY] * 8 for r in s.rows}
    s.rows["progress"][:5] = [W] * 5
    s.rows["city"][0] = W
    s.offer_city = ["rome"]
    p = s.players[W]
    p.gold, p.vp = gold, vp
    p.pool, p.resources, p.food = other.get("pool", 0), other.get("resources", 0), other.get("food", 0)
    s = restart(s, [W, R, B, G])
    return act(s, "remove progress 1")


def test_6_0_payment_choices_say_what_they_leave():
    s = _rome_after_a_payment(gold=6, vp=4)
    pay = described(s)
    assert pay["2 gold, 2 VP"] == (
        "Pay with two goods",
        "leaves 4 gold, 2 VP · keeps 4 gold for Rome",
        "pay 2 gold 2 vp",
    )
    assert pay["4 gold"] == ("Cheapest payment", "leaves 2 gold · Rome out of reach (2 of 4 gold)", "pay 4 gold")
    assert pay["4 VP"][0] == "Pay with one good"
    assert GAME.prompt(s, W) == "Pay 4 for the discs to the left of the one you removed, in any mix of goods."


def test_6_0_payment_in_parts_is_described_pick_by_pick():
    s = _rome_after_a_payment(gold=6, vp=4, pool=4, resources=4, food=4)
    pay = described(s)
    assert pay["2 gold now, the rest next"] == (
        "Pay part in gold",
        "leaves 4 gold · keeps 4 gold for Rome · 2 more from cubes, resource discs, food or VP next",
        "pay 2 gold first",
    )
    assert pay["4 food"][0] == "Cheapest payment"  # the Food phase needs none of it
    s = act(s, "pay 2 gold first")
    assert GAME.prompt(s, W) == "Pay the other 2 for the disc with goods you have not used for it yet."
    rest = described(s)
    assert "2 VP" in rest and not any("gold" in label for label in rest)
    assert rest["2 VP"] == ("Pay with one good", "leaves 2 VP", "pay 2 vp")
    assert {c.action for c in GAME.choices(s, W)} == set(legal(s))


def test_6_0_payment_choices_warn_of_a_food_shortfall_and_of_city_upkeep():
    s = _rome_after_a_payment(gold=0, vp=0, resources=2, food=3)
    s.players[W].territories = ("mountain",)  # -3 food at the Food phase
    s.players[W].cities = ("carthage",)  # -2 food more, 1 disc of upkeep
    pay = described(s)
    assert pay["1 resource disc, 3 food"][1] == (
        "leaves 1 resource disc, 0 food · Food phase 5 short (1 VP each) · keeps 1 resource disc for upkeep"
    )
    assert pay["2 resource discs, 2 food"][1] == (
        "leaves 0 resource discs, 1 food · Food phase 4 short (1 VP each) · upkeep 1 resource disc short"
    )


# ---- issue 49: words that never mislead ----------------------------------------------------------


def _b_turn(era_turn: int, row: str, discs: int) -> State:
    """A B turn of game turn `era_turn`: white's disc in `row` with `discs` others' discs to its left."""
    s = new(4)
    s.turn = era_turn
    s.rows = {r: [EMPTY] * 8 for r in s.rows}
    s.rows[row][: discs + 1] = [W] + [R] * discs
    return s


def test_6_3_b_turn_city_choice_keeps_the_citys_gold_cost():
    """Cuzco (4 gold) in a B turn: the disc is free, the city is not (issue 49: it read "your disc
    there is free" alone)."""
    s = _b_turn(4, "city", 0)
    s.offer_city = ["cuzco"]
    s.players[W].gold = 9
    s = restart(s, [W, R, B, G])
    group, detail, _ = described(s)["Cuzco"]
    assert detail.startswith("your disc there is free · 4 gold · 2 VP a turn")
    assert "upkeep 2 food and 1 resource disc" in detail


def test_6_1_b_turn_progress_choice_keeps_the_earlier_era_surcharge():
    """6.1: an Era I tile costs 1 gold in Era II; with a disc cost before it the surcharge stays, the
    effect goes if the detail is full (issue 49: the surcharge was cut with the effect)."""
    s = _b_turn(4, "progress", 3)  # Era II B
    s.offer_progress = ["iron-weapons"]
    s.players[W].gold = 9
    s = restart(s, [W, R, B, G])
    _, detail, _ = described(s)["Iron Weapons"]
    assert detail.startswith("your disc there costs 3 · 1 gold (earlier era)")
    assert len(detail) <= DETAIL_MAX


def _food_upkeep(food: int, cities: tuple[str, ...], territories: tuple[str, ...]) -> State:
    """White decides the food upkeep of their cities at the Food phase (6.3, 7.0)."""
    s = new(4)
    p = s.players[W]
    p.food, p.cities, p.territories = food, cities, territories
    s.phase = "food"
    s.stack = DecisionStack()
    s.stack.push("food", -1)
    s.stack.push("food-upkeep", W)
    advance(COMP, s)
    assert s.stack.top is not None and s.stack.top.kind == "food-upkeep"
    return s


def test_7_0_keep_cities_says_the_top_of_the_food_track_and_its_gold():
    """7.0: above 20 the marker stays at the top and each 2 food beyond give 1 gold (issue 49: the
    words said "food 20 -> 23")."""
    s = _food_upkeep(20, ("carthage",), ("plains", "plains", "island"))
    change = food_change(COMP, s, W)
    assert change == 3
    assert described(s)["Keep your cities, pay their food"][1] == "food 20 → 20, 3 beyond the top: +1 gold"
    gold = s.players[W].gold
    s = act(s, "keep cities")
    assert (s.players[W].food, s.players[W].gold) == (20, gold + 1)


def test_7_0_keep_cities_says_the_food_short_and_the_vp_lost():
    s = _food_upkeep(1, ("carthage",), ())
    s.players[W].vp = 1
    assert described(s)["Keep your cities, pay their food"][1] == "food 1 → 0, 1 short: -1 VP"
    s.players[W].vp = 0
    assert described(s)["Keep your cities, pay their food"][1] == "food 1 → 0, 1 short: -0 VP (never below 0 VP)"


def test_6_3_discarding_a_city_says_what_the_food_phase_then_does():
    """6.3, 7.0: at the top of the food track a discarded city's upkeep turns into gold, not food
    (issue 49: "saves 2 food" alone, though the marker stays at 20)."""
    s = _food_upkeep(20, ("carthage",), ("plains", "plains", "island"))
    assert described(s)["Carthage"][1] == (
        "saves 2 food · gives up 1 VP a turn · food 20 → 20, 5 beyond the top: +2 gold"
    )


def test_6_0_a_part_payment_names_only_the_goods_left_to_pay_with():
    """A part payment's rest can come only from goods held and not needed (issue 49: "... food or VP
    next" with 0 food)."""
    s = _b_turn(2, "progress", 7)
    s.rows["progress"][:8] = [W] * 8  # white's first disc has 7 of white's own to its left
    p = s.players[W]
    p.gold, p.pool, p.resources, p.food, p.vp = 6, 4, 4, 0, 6
    s = restart(s, [W, R, B, G])
    s = act(s, "remove progress 1")
    part = described(s)["2 gold now, the rest next"]
    assert part[1].endswith("5 more from cubes, resource discs or VP next")


def test_8_0_a_payment_does_not_keep_for_upkeep_the_discs_the_chosen_trade_takes():
    """8.0: Carthage's upkeep needs 1 resource disc after income; paying the disc with 1 of white's
    3 discs leaves 2, but the trade chosen with the disc takes both (issue 49: "keeps 1 resource
    disc for upkeep")."""
    s = _b_turn(2, "trade", 1)
    p = s.players[W]
    p.gold, p.pool, p.resources, p.food, p.vp = 0, 0, 3, 0, 0
    p.cities = ("carthage",)
    s = restart(s, [W, R, B, G])
    s = act(s, "trade 2 for 4 gold")
    assert described(s)["1 resource disc"][1] == "leaves 2 resource discs · upkeep 1 resource disc short"
