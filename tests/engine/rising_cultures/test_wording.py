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
    naqsh = next(c for c in DATA.cards.values() if c.name == "Naqsh-e Rustam")
    assert naqsh.effects[0].describe() == "Game end: 1 VP per province with icon B."


def test_phase_1_income_event_says_1_coin_not_1_coins():
    s = finish_opening(new_game(("rome", "persia")))
    s.players[0].buildings = []
    s, ev = act(s, 0, "income")
    assert "takes 1 coin income and draws 4 cards." in ev[0]
