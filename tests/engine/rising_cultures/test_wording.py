"""Event lines and card texts read as a player at the table would say them."""

from __future__ import annotations

from .helpers import DATA, act, finish_opening, new_game


def _all_effect_texts() -> list[str]:
    texts = [e.describe() for card in DATA.cards.values() for e in card.effects]
    texts += [e.describe() for board in DATA.boards.values() for level in board.levels for e in level]
    texts += [e.describe() for nile in DATA.nile for e in nile.effects]
    return texts


def test_card_effect_texts_carry_no_data_tokens_or_plural_brackets():
    """Naqsh-e Rustam scores per province with icon B - not "per 1 province_icon:B"."""
    texts = _all_effect_texts()
    assert texts
    for text in texts:
        assert "_" not in text and "(s)" not in text and "per 1 " not in text, text
        assert " 1 coins" not in text and " 1 cards" not in text, text
    naqsh = next(c for c in DATA.cards.values() if c.name == "Naqsh-e Rustam")
    assert naqsh.effects[0].describe() == "Game end: 1 VP per province with icon B."


def test_phase_1_income_event_says_1_coin_not_1_coins():
    s = finish_opening(new_game(("rome", "persia")))
    s.players[0].buildings = []
    s, ev = act(s, 0, "income")
    assert "takes 1 coin income and draws 4 cards." in ev[0]


def test_phase_3_opening_event_names_the_province_symbols_counts_and_who_decides() -> None:
    """Phase III 1): the players about to answer `province compete|decline` learn from the
    public log which Province, which symbols count, both counts and the tie rule."""
    from .helpers import at_phase3, at_play, lay_out

    events: list[str] = []
    s = at_play(marker=1)
    lay_out(s, 0, military=["castra"])  # Rome: a sword on band 1 (+ the printed sword)
    s = at_phase3(s, 1, events)  # Gaul: sword + horse
    line = next((e for e in events if e.startswith("Phase III: Gaul")), None)
    assert line == (
        "Phase III: Gaul goes to the most sword + horse symbols (ann 2, bob 0); a tie goes to bob, "
        "who holds the progress marker. ann decides whether to compete."
    ), events


def test_phase_3_2_marker_tie_event_counts_in_the_singular() -> None:
    """Progress Marker: a tie passes it on - "a tie at 1 progress card each"."""
    from engine.rising_cultures import flow

    from .helpers import at_play, filler_progress

    s = at_play(marker=0)
    filler_progress(s, 0, 1)
    filler_progress(s, 1, 1)
    events: list[str] = []
    flow.pass_marker(s, events)
    assert (
        "bob (Persia) takes the progress marker: a tie at 1 progress card each passes it to the other player." in events
    )
