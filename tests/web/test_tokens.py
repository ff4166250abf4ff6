"""Signed links (issue 28 §3): what a token names, and every way one is refused."""

from __future__ import annotations

import base64

import pytest

from bot.web.tokens import DAY, Signer, TokenError, expiry

NOW = 1_767_268_800.0  # 2026-01-01 12:00 UTC


def test_a_table_token_names_its_table_and_nothing_else_reads_it():
    signer = Signer("secret")
    token = signer.table_token(42)
    assert signer.read_table(token) == 42 and len(token) == 32
    with pytest.raises(TokenError) as err:
        Signer("another secret").read_table(token)
    assert err.value.why == "forged"
    with pytest.raises(TokenError) as err:
        signer.read_seat(token, NOW)  # a table's token is no seat's
    assert err.value.why == "malformed"


def test_a_seat_token_names_table_seat_user_generation_and_expiry():
    signer = Signer("secret")
    token = signer.seat_token(7, 2, 1_234_567_890_123_456_789, 3, expiry(NOW, 30))
    seat = signer.read_seat(token, NOW)
    assert (seat.table, seat.seat, seat.user, seat.generation) == (7, 2, 1_234_567_890_123_456_789, 3)
    assert seat.expires == expiry(NOW, 30) and len(token) == 55
    with pytest.raises(TokenError) as err:
        signer.read_seat(token, seat.expires)
    assert err.value.why == "expired" and "Open my seat" in err.value.text and "`" not in err.value.text


def test_a_changed_byte_cut_or_garbage_is_refused():
    signer = Signer("secret")
    token = signer.table_token(42)
    flipped = token[:5] + ("B" if token[5] != "B" else "C") + token[6:]
    for bad, why in ((flipped, "forged"), (token[:-3], "malformed"), ("!!", "malformed"), ("é" * 10, "malformed")):
        with pytest.raises(TokenError) as err:
            signer.read_table(bad)
        assert err.value.why == why, bad


def test_a_form_token_is_bound_to_its_seat_token():
    signer = Signer("secret")
    one, two = (signer.seat_token(1, s, 5, 0, expiry(NOW, 1)) for s in (0, 1))
    assert signer.form_matches(one, signer.form_token(one))
    assert not signer.form_matches(one, signer.form_token(two))
    assert not Signer("other").form_matches(one, signer.form_token(one))


def test_links_made_the_same_day_are_the_same_link():
    assert expiry(NOW, 30) == expiry(NOW + 3 * 3600, 30) == (int(NOW) // DAY + 31) * DAY
    assert expiry(NOW + DAY, 30) == expiry(NOW, 30) + DAY


def test_an_empty_secret_is_refused():
    with pytest.raises(ValueError):
        Signer("")


def spellings(token: str) -> list[str]:
    """Every other way base64 lets `token` be written: the last character's unused low bits
    set otherwise (its 64 characters, those decoding to the same bytes)."""
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
    raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
    others = []
    for last in alphabet:
        other = token[:-1] + last
        if other != token and base64.urlsafe_b64decode(other + "=" * (-len(other) % 4)) == raw:
            others.append(other)
    return others


def test_a_token_has_one_spelling_and_any_other_is_refused_as_forged():
    signer = Signer("secret")
    seat = signer.seat_token(7, 2, 99, 3, expiry(NOW, 30))
    form = signer.form_token(seat)
    assert len(spellings(seat)) == 3 and len(spellings(form)) == 3  # 2 unused bits: 4 spellings
    for other in spellings(seat):
        with pytest.raises(TokenError) as err:
            signer.read_seat(other, NOW)
        assert err.value.why == "forged"
    assert not any(signer.form_matches(seat, other) for other in spellings(form))
    assert signer.read_seat(seat, NOW).table == 7
