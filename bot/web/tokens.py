"""Signed links (issue 28 §3): a table's public token and a seat's private one.

A token is the URL-safe base64 of a small binary record and the first 16 bytes of its
HMAC-SHA256 under the web table's secret, with a purpose byte in the signed text, so a
table's token never passes for a seat's. A table token names the table (public: anyone
with it reads what the channel reads). A seat token names the table, the seat, the user
sitting there, the seat's link generation (`game link reset` raises it, which voids every
older token) and the day it expires; it acts for the seat, so it is sent only to its
player. Reading a token says exactly what is wrong with a bad one (`TokenError.why`).

Pure: no storage, no aiohttp. The service fills links through `Links` (links.py).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import struct
from dataclasses import dataclass

#: Signature bytes kept: 128 bits, far beyond guessing, and the link stays short.
MAC_BYTES = 16
DAY = 86_400
_TABLE = struct.Struct(">Q")  # table id
_SEAT = struct.Struct(">QBqII")  # table id, seat, user id, generation, expiry (Unix seconds)
_PURPOSE = {"table": b"T", "seat": b"S", "form": b"F"}
#: Words, not commands (issue 52): the way back a phone player has is the button in Discord.
EXPIRED = (
    "This seat link has expired. For a fresh one, press “Open my seat” under your turn in Discord, "
    "or ask the bot there for your game link."
)


class TokenError(Exception):
    """A token that cannot be used. `why`: "malformed" (not a token: cut short when copied,
    or typed), "forged" (its signature does not match: not made by this bot, or the bot's
    secret changed), "expired"."""

    def __init__(self, why: str, text: str) -> None:
        super().__init__(text)
        self.why = why
        self.text = text


@dataclass(frozen=True)
class SeatToken:
    """What a seat token names."""

    table: int
    seat: int
    user: int
    generation: int
    expires: int


class Signer:
    """Makes and reads tokens with one secret (any text; config's `[web] secret` or the one
    generated and stored in the database on first start)."""

    def __init__(self, secret: str) -> None:
        if not secret:
            raise ValueError("the web table's secret must not be empty")
        self._key = hashlib.sha256(b"epochs web table\0" + secret.encode("utf-8")).digest()

    def _mac(self, purpose: str, body: bytes) -> bytes:
        return hmac.new(self._key, _PURPOSE[purpose] + body, hashlib.sha256).digest()[:MAC_BYTES]

    def _sign(self, purpose: str, body: bytes) -> str:
        return _encode(body + self._mac(purpose, body))

    def _open(self, purpose: str, token: str, size: int) -> bytes:
        if not isinstance(token, str) or not 0 < len(token) <= 200 or not token.isascii():
            raise TokenError("malformed", "This link is not one of this table's links (it may have been cut short).")
        try:
            raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
        except (binascii.Error, ValueError):
            raise TokenError(
                "malformed", "This link is not one of this table's links (it may have been cut short)."
            ) from None
        if len(raw) != size + MAC_BYTES:
            raise TokenError("malformed", "This link is not one of this table's links (it may have been cut short).")
        body, mac = raw[:size], raw[size:]
        # one spelling only: base64's unused low bits of the last character (and characters
        # the decoder skips) would let one token be written several ways, each counted apart
        if _encode(raw) != token or not hmac.compare_digest(mac, self._mac(purpose, body)):
            raise TokenError(
                "forged",
                "This link's signature does not match: it was not made by this bot (or the bot's secret changed).",
            )
        return body

    # ---- a table's public link ------------------------------------------------------
    def table_token(self, table: int) -> str:
        return self._sign("table", _TABLE.pack(table))

    def read_table(self, token: str) -> int:
        """The table a public token names; TokenError for anything else."""
        (table,) = _TABLE.unpack(self._open("table", token, _TABLE.size))
        return int(table)

    # ---- a seat's private link ------------------------------------------------------
    def seat_token(self, table: int, seat: int, user: int, generation: int, expires: int) -> str:
        return self._sign("seat", _SEAT.pack(table, seat, user, generation, expires))

    def read_seat(self, token: str, now: float) -> SeatToken:
        """What a seat token names, when it is signed and not expired; TokenError otherwise.
        (Whether its generation is still the seat's and its user still sits there is the
        caller's to check against the database.)"""
        seat = SeatToken(*_SEAT.unpack(self._open("seat", token, _SEAT.size)))
        if seat.expires <= now:
            raise TokenError("expired", EXPIRED)
        return seat

    # ---- a form's token against cross-site requests ---------------------------------------
    def form_token(self, seat_token: str) -> str:
        """The token a seat page's forms carry: a request from another site cannot know it
        (it needs the secret and the seat token both)."""
        return self._sign("form", hashlib.sha256(seat_token.encode("utf-8")).digest()[:MAC_BYTES])

    def form_matches(self, seat_token: str, form: str) -> bool:
        return hmac.compare_digest(self.form_token(seat_token).encode("ascii"), form.encode("utf-8", "replace"))


def _encode(raw: bytes) -> str:
    """A token's one spelling: URL-safe base64 without padding."""
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")


def expiry(now: float, days: int) -> int:
    """The end of the UTC day `days` days from now: a link made the same day is the same link."""
    return (int(now) // DAY + 1 + days) * DAY
