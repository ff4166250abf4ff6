"""Every effect printed in the data works in play, not just loads.

Each card's bottom half ("4) Construct a Building or Place a Leader": "This allows you
to use the effects printed on the bottom half of the card") and each level of each
civilization board ("Moving up unlocks additional abilities, rewards, and victory
points") is put in play on an otherwise empty table, and the quantity it changes is
measured before and after through the rules, or the decision it opens is played.
"""

from __future__ import annotations

import pytest

from engine.rising_cultures import rules, scoring
from engine.rising_cultures.data import CIVS, DATA
from engine.rising_cultures.state import COINS_PER_MISSING

from .helpers import GAME, act, at_phase3, at_play, filler_progress, ids, lay_out

CAUCASUS = 3
OTHER = {"rome": "persia", "persia": "rome", "egypt": "rome", "abbasid": "egypt"}


def clean(civ: str, marker: int = 0, coins: int = 20):
    """Round 1, Phase II, seat 0 (`civ`) to play; seat 0's areas empty."""
    s = at_play((civ, OTHER[civ]), marker=marker, coins=(coins, 0))
    lay_out(s, 0, hand=[], resources=[], military=[], buildings=[], leaders=[], progress=[], discard=[], provinces=[])
    return s


def put(s, seat: int, cid: str) -> None:
    """Construct the building / place the leader `cid` directly in the display."""
    p = s.players[seat]
    if DATA.cards[cid].kind == "building":
        p.buildings.append(cid)
    else:
        p.leaders.append([cid])


def dearest(civ: str) -> str:
    """The card with the largest requirement: with no resources it is short of several."""
    return max(DATA.decks[civ], key=lambda c: sum(vars(DATA.cards[c].cost).values()))


PASSIVE = {
    "income": (lambda s, e: rules.income(s, 0), lambda e: e.amount),
    "resource": (lambda s, e: rules.resources(s, 0)[e.resource], lambda e: e.amount),
    "military": (lambda s, e: rules.military(s, 0)[e.symbol], lambda e: e.amount),
    "free_swap": (lambda s, e: rules.free_swaps(s, 0), lambda e: e.per_round),
    "coin_limit": (lambda s, e: rules.coin_limit(s, 0), lambda e: e.amount),
    "shortfall_discount": (
        lambda s, e: -rules.build_price(s, 0, DATA.cards[dearest(s.players[0].civ)])[1],
        lambda e: (COINS_PER_MISSING - e.coins_per_missing) * e.max_per_build,
    ),
}


def check_passive(before_state, after_state, e) -> None:
    measure, delta = PASSIVE[e.type]
    assert measure(after_state, e) - measure(before_state, e) == delta(e), e


def play_card(civ: str, cid: str, **areas):
    """Seat 0 constructs / places `cid` from its hand (resources none, 20 coins)."""
    s = clean(civ)
    lay_out(s, 0, **areas)
    s.players[0].hand = [cid] + [c for c in DATA.decks[civ] if c != cid][:3]
    price = rules.build_price(s, 0, DATA.cards[cid])[1]
    s, ev = act(s, 0, f"play {DATA.slug[cid]} build")
    return s, ev, price


def check_card_effect(civ: str, cid: str, e) -> None:
    t = e.type
    if t in PASSIVE:
        before = clean(civ)
        after = before.copy()
        put(after, 0, cid)
        check_passive(before, after, e)
    elif t == "on_build_coins":
        s, ev, price = play_card(civ, cid)
        assert s.players[0].coins == 20 - price + sum(
            x.amount for x in DATA.cards[cid].effects if x.type == "on_build_coins"
        )
    elif t == "develop_nile":
        s, _, _ = play_card(civ, cid)
        assert GAME.legal_actions(s, 0)[0].startswith("develop ")
        s, _ = act(s, 0, GAME.legal_actions(s, 0)[0])
        assert sum(s.nile_developed) == e.amount
    elif t == "on_build_progress_from_discard":
        s, _, _ = play_card(civ, cid, discard=["souk", "khan"])
        s, _ = act(s, 0, "progress souk")  # the board's own move (Abbasid: from the discard pile)
        s, _ = act(s, 0, "progress khan")  # the card's bonus move
        assert rules.level(s.players[0]) == 2
    elif t == "extra_draw":
        s = clean(civ)
        put(s, 0, cid)
        s.phase = "draw"
        for p in s.players:
            p.step, p.hand = "income", []
        s, _ = act(s, 0, "income")
        assert len(s.players[0].hand) == 4 + e.amount and s.players[0].step == "bottom"
    elif t in ("province_tie_win", "province_keep_military", "on_province_coins"):
        s = clean(civ, marker=1, coins=0)
        put(s, 0, cid)
        lay_out(s, 1, hand=[], military=[], buildings=[], leaders=[], provinces=[])
        s.players[0].military = [DATA.decks[civ][0]]
        if t == "province_tie_win":  # the opponent lays out as much, and holds the marker
            s.players[1].military = [DATA.decks[s.players[1].civ][0]]
        mine, theirs = (rules.province_strength(s, seat, CAUCASUS) for seat in (0, 1))
        if t == "province_tie_win":
            assert mine == theirs  # the marker holder (seat 1) would win the tie without the card
        s = at_phase3(s, CAUCASUS)
        while s.phase == "province" and s.pending and s.pending[-1].kind == "compete":
            s, _ = act(s, s.pending[-1].seat, "province compete")
        assert s.players[0].provinces == [CAUCASUS]
        if t == "province_keep_military":
            assert GAME.legal_actions(s, 0) == ["military keep", "military discard"]
        if t == "on_province_coins":
            assert s.players[0].provinces == [CAUCASUS] and s.players[0].coins == e.amount
    elif t == "vp_per":
        pass  # per counter, with the rulebook-style numbers, in test_card_vp_per_* below
    else:  # pragma: no cover - a new effect type needs a check here
        raise AssertionError(f"no check for effect type {t}")


CARD_EFFECTS = [(c.civ, c.id, i) for c in DATA.cards.values() for i, _ in enumerate(c.effects)]


@pytest.mark.parametrize("civ,cid,i", CARD_EFFECTS, ids=[f"{c}-{i}" for _, c, i in CARD_EFFECTS])
def test_use_4_every_card_effect_in_the_data_works_in_play(civ, cid, i):
    check_card_effect(civ, cid, DATA.cards[cid].effects[i])


LEVELS = [(civ, n) for civ in CIVS for n in range(1, len(DATA.boards[civ].levels) + 1)]


@pytest.mark.parametrize("civ,level", LEVELS, ids=[f"{c}-L{n}" for c, n in LEVELS])
def test_progress_every_board_level_unlocks_what_the_board_shows(civ, level):
    """Each level is reached by a real progress move; what it unlocks applies from then on."""
    s = clean(civ)
    filler_progress(s, 0, level - 1)
    s.players[0].leaders = [
        ids(
            s,
            0,
            *[
                DATA.slug[c]
                for c in DATA.decks[civ]
                if DATA.cards[c].kind == "leader" and c not in s.players[0].progress
            ][:2],
        )
    ]
    used = set(s.players[0].progress + s.players[0].leaders[0])
    spare = [c for c in DATA.decks[civ] if c not in used]
    build, res = spare[0], spare[1]
    s.players[0].hand = [build] + spare[2:5]
    s.players[0].resources = [res]
    before = s.copy()
    s, _ = act(s, 0, f"play {DATA.slug[build]} build")
    s, ev = act(s, 0, "progress yes")
    assert rules.level(s.players[0]) == level
    after = s.copy()
    after.players[0].buildings.remove(build)  # compare the level alone
    before.players[0].resources = []
    for e in DATA.boards[civ].levels[level - 1]:
        if e.type in PASSIVE:
            check_passive(before, after, e)
        elif e.type == "golden_age":
            assert not rules.golden_age(before.players[0]) and rules.golden_age(after.players[0])
            assert rules.income(after, 0) - rules.income(before, 0) == DATA.boards[civ].golden_age_income
            assert scoring.board_vp(after, 0) - scoring.board_vp(before, 0) == 3
            assert any("Golden Age" in line for line in ev)
        elif e.type == "covered_leaders_score":
            covered = after.players[0].leaders[0][0]
            gain = scoring.breakdown(after, 0)["buildings_leaders"] - scoring.breakdown(before, 0)["buildings_leaders"]
            assert gain == scoring.card_vp(after, 0, DATA.cards[covered]) > 0
        elif e.type == "vp":
            assert scoring.board_vp(after, 0) - scoring.board_vp(before, 0) == e.amount
        elif e.type == "develop_nile":
            assert GAME.legal_actions(s, 0) == ["develop inundation", "develop fertile-banks", "develop delta-trade"]
        else:  # pragma: no cover
            raise AssertionError(f"no check for level effect {e.type}")


def test_card_vp_per_counters_progress_leaders_building_stone_and_coins():
    """Game-end effects: Marcus Aurelius (1 per 2 progress cards), Apadana (1 per leader, covered
    too), Khufu (1 per 2 stone required by your buildings), Bayt al-Mal (1 per 2 coins, max 4)."""
    s = clean("rome")
    filler_progress(s, 0, 5)
    assert scoring.card_vp(s, 0, DATA.cards[ids(s, 0, "marcus-aurelius")[0]]) == 2 + 2

    s = clean("persia")
    lay_out(s, 0, leaders=[["cambyses-ii", "darius-i"], ["atossa"]])
    assert scoring.card_vp(s, 0, DATA.cards[ids(s, 0, "apadana")[0]]) == 3 + 3

    s = clean("egypt")
    lay_out(s, 0, buildings=["pyramids-of-giza", "obelisk", "mastaba"])  # stone 4 + 2 + 2 = 8
    assert scoring.card_vp(s, 0, DATA.cards[ids(s, 0, "khufu")[0]]) == 3 + 4

    s = clean("abbasid", coins=5)
    bayt = DATA.cards[ids(s, 0, "bayt-al-mal")[0]]
    assert scoring.card_vp(s, 0, bayt) == 3 + 2
    s.players[0].coins = 11
    assert scoring.card_vp(s, 0, bayt) == 3 + 4  # at most 4
