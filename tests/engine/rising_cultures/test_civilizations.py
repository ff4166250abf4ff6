"""Civilization boards and overviews, and the card effects in the data."""

from __future__ import annotations

from engine.rising_cultures import rules, scoring
from engine.rising_cultures.data import CIVS, DATA, EFFECT_TYPES

from .helpers import GAME, act, at_phase3, at_play, cid, filler_progress, ids, lay_out

GAUL, LIBYA = 1, 14


def test_every_board_has_6_red_bands_7_levels_and_a_golden_age():
    for civ in CIVS:
        board = DATA.boards[civ]
        assert len(board.military_bands) == 6 and len(board.levels) == 7
        assert any(e.type == "golden_age" for e in board.levels[4])
    assert DATA.boards["rome"].military_bands[0] == "sword"
    assert DATA.boards["egypt"].coin_limit == 5 and DATA.boards["rome"].coin_limit == 7


def test_golden_age_side_at_level_5_gives_income_and_3_vp():
    s = at_play(("rome", "persia"))
    lay_out(s, 0, buildings=[], leaders=[])
    filler_progress(s, 0, 4)
    assert not rules.golden_age(s.players[0]) and rules.income(s, 0) == 2  # board 1 + level 1
    filler_progress(s, 0, 5)
    assert rules.golden_age(s.players[0]) and rules.income(s, 0) == 3 and scoring.board_vp(s, 0) == 3
    assert GAME.view(s, None)["players"][0]["golden_age"] is True


def test_persia_two_leader_stacks_and_choice_of_leader_to_cover():
    """RULES-NOTES "Leaders": with a free leader stack Persia chooses where the new leader goes,
    the free stack first; with both stacks taken it covers one of them, its choice."""
    s = at_play(("persia", "rome"), coins=(30, 0))
    lay_out(s, 0, hand=["darius-i", "xerxes-i", "atossa", "qanat"], leaders=[["cambyses-ii"]])
    s, _ = act(s, 0, "play darius-i build")
    assert GAME.legal_actions(s, 0) == ["cover nothing", "cover cambyses-ii"]
    s, ev = act(s, 0, "cover nothing")
    assert s.players[0].leaders == [ids(s, 0, "cambyses-ii"), ids(s, 0, "darius-i")]  # both uncovered
    assert "places Darius I on their free leader stack" in ev[0]
    s, _ = act(s, 0, "progress no")
    s, _ = act(s, 1, GAME.legal_actions(s, 1)[0])
    s, _ = act(s, 0, "play xerxes-i build")
    assert GAME.legal_actions(s, 0) == ["cover cambyses-ii", "cover darius-i"]
    s, ev = act(s, 0, "cover darius-i")
    assert s.players[0].leaders == [ids(s, 0, "cambyses-ii"), ids(s, 0, "darius-i", "xerxes-i")]
    assert GAME.legal_actions(s, 0)[-1] == "progress no"


def test_abbasid_progress_move_may_use_a_discard_pile_card():
    s = at_play(("abbasid", "rome"), coins=(30, 0))
    lay_out(s, 0, hand=["souk", "ribat", "hammam", "madrasa"], resources=["khan"], discard=["observatory"])
    s, _ = act(s, 0, "play souk build")
    assert GAME.legal_actions(s, 0) == ["progress yes", "progress observatory", "progress no"]
    s, _ = act(s, 0, "progress observatory")
    assert s.players[0].progress == ids(s, 0, "observatory") and s.players[0].resources == ids(s, 0, "khan")
    # Rome's board has no such option
    s2 = at_play(("rome", "abbasid"), coins=(30, 0))
    lay_out(s2, 0, hand=["market", "forum", "villa", "curia"], resources=["insula"], discard=["colosseum"])
    s2, _ = act(s2, 0, "play market build")
    assert GAME.legal_actions(s2, 0) == ["progress yes", "progress no"]


def test_abbasid_house_of_wisdom_bonus_progress_from_discard():
    s = at_play(("abbasid", "rome"), coins=(30, 0))
    lay_out(s, 0, hand=["house-of-wisdom", "khan", "ribat", "hammam"], resources=["souk"], discard=["observatory"])
    s, _ = act(s, 0, "play house-of-wisdom build")
    s, _ = act(s, 0, "progress yes")
    assert GAME.to_act(s) == [0] and GAME.legal_actions(s, 0) == ["progress observatory", "progress no"]
    assert (
        GAME.view(s, 0)["pending"]["text"]
        == "whether to move up a progress level with a card from your discard pile (House of Wisdom)"
    )
    assert (
        GAME.view(s, None)["pending"]["text"]
        == "whether to move up a progress level with a card from ann's discard pile (House of Wisdom)"
    )
    s, _ = act(s, 0, "progress observatory")
    assert rules.level(s.players[0]) == 2 and GAME.to_act(s) == [1]


def egypt_with_nile(coins=(10, 10)):
    s = at_play(("egypt", "rome"), coins=coins)
    lay_out(s, 0, hand=["nilometer", "luxor-temple", "mastaba", "obelisk"], resources=["granary"])
    return s


def test_egypt_develops_nile_cards_with_cards_and_at_level_2():
    s = egypt_with_nile()
    assert s.nile_developed == [False, False, False]
    s, _ = act(s, 0, "play nilometer build")
    assert GAME.legal_actions(s, 0) == ["develop inundation", "develop fertile-banks", "develop delta-trade"]
    s, ev = act(s, 0, "develop fertile-banks")
    assert s.nile_developed == [False, True, False]
    filler_progress(s, 0, 1)
    s, _ = act(s, 0, "progress yes")  # level 2 develops another Nile card
    assert GAME.legal_actions(s, 0) == ["develop inundation", "develop delta-trade"]


def test_egypt_nile_coins_shared_effects_limit_and_scoring():
    s = egypt_with_nile(coins=(9, 9))
    s.nile_developed = [True, True, False]
    lay_out(s, 0, hand=[], military=[])
    lay_out(s, 1, hand=[], military=[])
    s = at_phase3(s, LIBYA)  # nobody has shields; Nile placement before the coin limit
    assert s.phase == "nile" and GAME.to_act(s) == [s.marker]
    first = s.marker
    assert GAME.legal_actions(s, first) == ["nile inundation", "nile fertile-banks", "done"]
    s, _ = act(s, first, "nile inundation")
    s, _ = act(s, first, "nile inundation")
    assert GAME.legal_actions(s, first) == ["nile fertile-banks", "done"]  # 2 spaces per card
    s, _ = act(s, first, "done")
    other = 1 - first
    s, _ = act(s, other, "nile fertile-banks")
    s, _ = act(s, other, "done")
    # Nile coins do not count toward the limit (Egypt 5, Rome 7)
    assert s.players[0].coins == 5 and s.players[1].coins == 7
    assert s.nile_coins == [[first, first], [other], []]
    # Egypt (seat 0) scores 1 VP per opponent (Rome, seat 1) coin on the Nile
    assert scoring.board_vp(s, 0) == sum(owners.count(1) for owners in s.nile_coins) == (2 if first == 1 else 1)


def test_egypt_nile_effect_is_granted_by_a_coin_on_the_card():
    s = egypt_with_nile()
    s.nile_developed = [True, True, True]
    base_income = rules.income(s, 1)
    base_wood = rules.resources(s, 1)["wood"]
    egypt_income = rules.income(s, 0)
    s.nile_coins = [[1], [1], []]  # Rome (the opponent) owns coins on Inundation and Fertile Banks
    assert rules.income(s, 1) == base_income + 1 and rules.resources(s, 1)["wood"] == base_wood + 1
    assert rules.income(s, 0) == egypt_income  # Egypt has no coin there: no effect for Egypt
    s.nile_coins = [[1], [1], [0]]
    brewery_like = DATA.cards[cid("egypt", "pyramids-of-giza")]
    short, price = rules.build_price(s, 0, brewery_like)
    assert price == 2 * short - 1  # Delta Trade: one missing resource costs 1 coin


def test_card_effect_extra_draw_then_bottom():
    s = at_play(("persia", "rome"))
    lay_out(s, 0, leaders=[["atossa"]])
    s.phase, s.turn = "draw", 0
    for p in s.players:
        p.step = "income"
    s.players[0].hand = []
    s, _ = act(s, 0, "income")
    assert len(s.players[0].hand) == 5 and s.players[0].step == "bottom"
    s, _ = act(s, 0, GAME.legal_actions(s, 0)[0])
    assert len(s.players[0].hand) == 4


def test_card_effect_free_swap_per_round():
    s = at_play(("rome", "persia"))
    lay_out(s, 0, buildings=["basilica"])
    assert rules.free_swaps(s, 0) == 1


def test_card_effect_province_tie_win_curia():
    s = at_play(("rome", "persia"), marker=1)
    lay_out(s, 0, hand=[], military=["via-appia"], buildings=["curia"])  # sword 1 + horse 1 = 2
    lay_out(s, 1, hand=[], military=["royal-road"])  # horse + printed horse = 2
    s = at_phase3(s, GAUL)
    s, _ = act(s, 1, "province compete")
    s, _ = act(s, 0, "province compete")
    assert s.players[0].provinces == [GAUL]  # Curia beats the marker holder on a tie


def test_card_effect_keep_military_once_per_game_xerxes():
    s = at_play(("persia", "rome"))
    lay_out(s, 0, hand=[], military=["royal-road", "cambyses-ii"], leaders=[["xerxes-i"]])
    lay_out(s, 1, hand=[], military=[])
    s = at_phase3(s, GAUL)
    s, _ = act(s, 0, "province compete")
    assert GAME.legal_actions(s, 0) == ["military keep", "military discard"]
    s, _ = act(s, 0, "military keep")
    assert s.players[0].military == ids(s, 0, "royal-road", "cambyses-ii")
    s = at_phase3(s, 2)  # Indus: the ability is used up now
    s, _ = act(s, 0, "province compete")
    assert s.players[0].military == ids(s, 0, "royal-road") and s.players[0].provinces == [GAUL, 2]


def test_card_effect_coins_on_build_and_per_province():
    s = at_play(("rome", "persia"), coins=(10, 0))
    lay_out(s, 0, hand=["insula", "forum", "villa", "curia"], resources=["theatre"])  # Insula: +2 coins
    s, _ = act(s, 0, "play insula build")
    assert s.players[0].coins == 12
    s = at_play(("rome", "persia"), coins=(0, 0))
    lay_out(s, 0, hand=[], military=["castra"], leaders=[["julius-caesar"]])
    lay_out(s, 1, hand=[], military=[])
    s = at_phase3(s, 11)  # Carthage: +1 coin, Julius Caesar +2 per province won
    s, ev = act(s, 0, "province compete")
    assert s.players[0].coins == 1 + 2  # Carthage 1 + Julius Caesar 2 (next income not taken yet)
    assert any("takes 2 coins from Julius Caesar for winning a province" in e for e in ev)


def test_every_effect_type_in_the_data_is_handled():
    used = {e.type for c in DATA.cards.values() for e in c.effects}
    used |= {e.type for b in DATA.boards.values() for lv in b.levels for e in lv}
    used |= {e.type for n in DATA.nile for e in n.effects}
    assert used <= set(EFFECT_TYPES)
    import inspect

    from engine.rising_cultures import actions, flow
    from engine.rising_cultures import rules as r
    from engine.rising_cultures import scoring as sc

    source = "".join(inspect.getsource(m) for m in (actions, flow, r, sc))
    for t in used:
        assert f'"{t}"' in source, f"effect type {t} is not read anywhere"


def test_every_civilization_overview_rule_is_shown_in_the_view():
    """The overview's own rules (coin limit, leaders, covered leaders, discard progress, printed
    coin, the Nile) are in every view, read from the board data."""
    s = GAME.setup(["a", "b"], 1, {"civs": ["persia", "egypt"]})
    persia, egypt = (pv["overview"] for pv in GAME.view(s, None)["players"])
    assert "Coin limit 7 at the end of each round." in persia and "Coin limit 5 at the end of each round." in egypt
    assert any("Up to 2 leaders at a time" in t for t in persia)
    assert any("From progress level 4, covered leaders score too." == t for t in persia)
    assert any(t.startswith("The Nile:") for t in egypt) and not any("covered leaders" in t for t in egypt)
    s = GAME.setup(["a", "b"], 1, {"civs": ["rome", "abbasid"]})
    rome, abbasid = (pv["overview"] for pv in GAME.view(s, 0)["players"])
    assert "From progress level 5, covered leaders score too." in rome
    assert any("discard pile instead of your last-played resource card" in t for t in abbasid)
    assert any("prints 1 coin" in t for t in abbasid)
    assert GAME.view(GAME.setup(["a", "b"], 1), None)["players"][0]["overview"] == []
