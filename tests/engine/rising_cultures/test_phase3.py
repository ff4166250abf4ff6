"""Phase III: province card, progress marker, coin limit ("Province Cards" 1-15 too)."""

from __future__ import annotations

from engine.rising_cultures import rules

from .helpers import DATA, GAME, act, at_phase3, at_play, filler_progress, ids, lay_out, set_coins

GAUL, INDUS, CAUCASUS, BRITANNIA, ARMENIA, GERMANIA, MAGHREB, AKSUM, MAURETANIA, SCYTHIA, CARTHAGE = range(1, 12)
ANDALUSIA, ANATOLIA, LIBYA, BABYLONIA = range(12, 16)


def table(marker=0, rome_military=(), persia_military=(), coins=(0, 0)):
    s = at_play(("rome", "persia"), marker=marker, coins=coins)
    lay_out(s, 0, military=list(rome_military), hand=[])
    lay_out(s, 1, military=list(persia_military), hand=[])
    return s


def test_province_example_most_symbols_wins_and_last_military_card_is_discarded():
    """Rulebook example: Rome wins with most swords and horses, then discards its last military card."""
    s = table(rome_military=["castra", "via-appia"], persia_military=["royal-road"])
    # Rome: Castra sword + printed sword, Via Appia horse = 3; Persia: Royal Road horse + printed horse = 2
    s = at_phase3(s, GAUL)
    assert GAME.to_act(s) == [0] and GAME.legal_actions(s, 0) == ["province compete", "province decline"]
    s, _ = act(s, 0, "province compete")
    s, ev = act(s, 1, "province compete")
    assert s.players[0].provinces == [GAUL]
    assert s.players[0].military == ids(s, 0, "castra")
    assert s.players[0].discard == ids(s, 0, "via-appia")
    assert any("wins Gaul" in e for e in ev)


def test_province_tie_goes_to_the_progress_marker_holder():
    for marker in (0, 1):
        s = table(marker=marker, rome_military=["via-appia"], persia_military=["royal-road"])
        # Rome: horse (band 1 prints a sword) -> sword 1 horse 1; Persia: horse + printed horse = 2
        s = at_phase3(s, GAUL)
        for _ in range(2):
            s, _ = act(s, GAME.to_act(s)[0], "province compete")
        assert s.players[marker].provinces == [GAUL] and s.players[1 - marker].provinces == []


def test_province_declining_lets_the_other_player_take_it():
    s = table(rome_military=["castra", "forum"], persia_military=["royal-road"])
    s = at_phase3(s, GAUL)
    s, _ = act(s, 0, "province decline")  # Rome keeps its military card
    s, _ = act(s, 1, "province compete")
    assert s.players[1].provinces == [GAUL] and s.players[0].military == ids(s, 0, "castra", "forum")
    assert s.players[1].military == []  # Persia paid its last military card


def test_province_goes_to_the_box_when_nobody_competes():
    s = table(rome_military=["castra"], persia_military=["royal-road"])
    s = at_phase3(s, GAUL)
    s, _ = act(s, 0, "province decline")
    s, ev = act(s, 1, "province decline")
    assert GAUL in s.boxed and s.players[0].provinces == s.players[1].provinces == []
    assert any("back to the box" in e for e in ev)


def test_province_goes_to_the_box_when_neither_player_has_a_required_symbol():
    s = table(rome_military=[], persia_military=["qanat"])  # Persia: shield + printed horse; no swords
    s = at_phase3(s, CARTHAGE)  # swords only
    assert s.phase != "province" and CARTHAGE in s.boxed  # nobody was even asked


def test_province_immediate_coins_britannia_armenia_germania_carthage():
    for pid, coins in ((BRITANNIA, 4), (ARMENIA, 2), (GERMANIA, 3), (CARTHAGE, 1)):
        s = table(rome_military=["castra"], coins=(0, 0))
        s = at_phase3(s, pid)
        s, _ = act(s, 0, "province compete")
        assert s.players[0].provinces == [pid] and s.players[0].coins == coins, DATA.provinces[pid].name


def test_province_permanent_resources_gaul_indus_caucasus_aksum():
    s = table()
    for pid, res in ((GAUL, "wood"), (INDUS, "brick"), (CAUCASUS, "stone"), (AKSUM, "gold")):
        before = rules.resources(s, 0)[res]
        s.players[0].provinces = [pid]
        assert rules.resources(s, 0)[res] == before + 1
        s.players[0].provinces = []


def test_province_7_maghreb_choice_card_from_discard_pile_to_progress():
    s = table(rome_military=["castra", "forum"])
    lay_out(s, 0, discard=["colosseum"])
    s = at_phase3(s, MAGHREB)
    s, _ = act(s, 0, "province compete")
    assert GAME.legal_actions(s, 0) == ["maghreb discard colosseum", "maghreb military"]
    s, ev = act(s, 0, "maghreb discard colosseum")
    p = s.players[0]
    assert p.progress == ids(s, 0, "colosseum") and p.military == ids(s, 0, "castra")
    assert p.discard == ids(s, 0, "forum")  # the cost is still paid


def test_province_7_maghreb_choice_last_military_card_to_progress_instead_of_discard():
    s = table(rome_military=["castra", "forum"])
    lay_out(s, 0, discard=["colosseum"])
    s = at_phase3(s, MAGHREB)
    s, _ = act(s, 0, "province compete")
    s, ev = act(s, 0, "maghreb military")
    p = s.players[0]
    assert p.progress == ids(s, 0, "forum") and p.military == ids(s, 0, "castra")
    assert p.discard == ids(s, 0, "colosseum")  # nothing discarded


def test_province_9_mauretania_free_swap_once_per_round():
    s = table()
    base = rules.free_swaps(s, 0)
    s.players[0].provinces = [MAURETANIA]
    assert rules.free_swaps(s, 0) == base + 1
    s = at_phase3(s, GAUL)  # runs on to round 2
    while s.phase == "province" or s.pending:
        s, _ = act(s, GAME.to_act(s)[0], GAME.legal_actions(s, GAME.to_act(s)[0])[-1])
    set_coins(s, 0, 0)
    s, _ = act(s, 0, "income")
    set_coins(s, 0, 0)
    assert GAME.legal_actions(s, 0) == ["swap free", "done"]
    s, _ = act(s, 0, "swap free")
    s, _ = act(s, 0, GAME.legal_actions(s, 0)[0])
    assert s.players[0].step == "ready"  # used for this round


def test_province_10_scythia_winner_does_not_discard():
    s = table(persia_military=["royal-road", "cambyses-ii"])
    s = at_phase3(s, SCYTHIA)
    s, _ = act(s, 1, "province compete")
    assert s.players[1].provinces == [SCYTHIA] and s.players[1].military == ids(s, 1, "royal-road", "cambyses-ii")
    assert s.players[1].discard == []


def test_phase_3_progress_marker_to_more_progress_cards():
    s = table(marker=1)
    filler_progress(s, 0, 3)
    filler_progress(s, 1, 2)
    s = at_phase3(s, LIBYA)  # nobody has a shield: no decision
    assert s.marker == 0 and s.round == 2
    s = table(marker=0)
    filler_progress(s, 0, 3)
    s = at_phase3(s, LIBYA)  # nobody has a shield: no decision
    assert s.marker == 0  # keeps it


def test_phase_3_progress_marker_example_tie_passes_to_the_other_player() -> None:
    """Rulebook example: both have 3 progress cards -> the marker passes to the other player."""
    for marker in (0, 1):
        s = table(marker=marker)
        filler_progress(s, 0, 3)
        filler_progress(s, 1, 3)
        ev: list[str] = []
        s = at_phase3(s, LIBYA, ev)  # nobody has a shield: no decision
        assert s.marker == 1 - marker
        assert "a tie at 3 progress cards each passes it to the other player" in " ".join(ev)


def test_phase_3_coin_limit_7_egypt_5():
    s = at_play(("rome", "egypt"), coins=(10, 10))
    lay_out(s, 0, hand=[], military=[])
    lay_out(s, 1, hand=[], military=[])
    s = at_phase3(s, GAUL)
    assert s.players[0].coins == 7 and s.players[1].coins == 5
    assert s.supply + 12 == 28


def test_phase_3_coin_limit_raised_by_cards():
    s = at_play(("persia", "abbasid"), coins=(12, 12))
    lay_out(s, 0, hand=[], military=[], buildings=["treasury-of-susa"])
    lay_out(s, 1, hand=[], military=[], buildings=["mint-of-baghdad"])
    s = at_phase3(s, GAUL)
    assert s.players[0].coins == 9 and s.players[1].coins == 9


def test_phase_3_order_province_then_marker_then_coin_limit():
    s = table(marker=0, rome_military=["castra"], coins=(7, 0))
    filler_progress(s, 1, 1)
    s = at_phase3(s, BRITANNIA)
    s, ev = act(s, 0, "province compete")
    text = "\n".join(ev)
    assert text.index("wins Britannia") < text.index("progress marker") < text.index("above their limit")
    assert s.players[0].coins == 7 and s.marker == 1


def test_province_only_players_with_a_required_symbol_are_asked():
    s = table(marker=1, rome_military=["castra"], persia_military=[])
    s = at_phase3(s, CARTHAGE)
    assert GAME.to_act(s) == [0] and len(s.pending) == 1  # Persia has no sword: not asked


def test_province_7_maghreb_with_nothing_to_place_does_nothing_more():
    s = table(rome_military=[])
    lay_out(s, 0, buildings=["castra"], discard=[])  # +1 sword from a building, empty military area
    s = at_phase3(s, MAGHREB)
    s, ev = act(s, 0, "province compete")
    assert s.players[0].provinces == [MAGHREB] and s.players[0].progress == [] and not s.pending
    assert s.round == 2


def test_province_7_maghreb_progress_card_unlocks_its_level_and_counts_for_the_marker():
    """RULES-NOTES: a Maghreb progress card raises the level at once (Egypt level 2 develops
    a Nile card) and counts for the progress marker in the same Phase III."""
    s = at_play(("egypt", "rome"), marker=1)
    lay_out(s, 0, hand=[], military=["karnak-temple"], discard=[])  # 1 sword
    lay_out(s, 1, hand=[], military=[])
    filler_progress(s, 0, 1)
    filler_progress(s, 1, 1)
    s = at_phase3(s, MAGHREB)
    s, _ = act(s, 0, "province compete")
    assert GAME.legal_actions(s, 0) == ["maghreb military"]
    s, ev = act(s, 0, "maghreb military")
    assert rules.level(s.players[0]) == 2 and s.players[0].military == []
    assert GAME.legal_actions(s, 0)[0] == "develop inundation"
    s, ev = act(s, 0, "develop inundation")
    assert s.nile_developed == [True, False, False]
    assert s.marker == 0 and any("takes the progress marker (progress cards: ann 2, bob 1)" in e for e in ev)
