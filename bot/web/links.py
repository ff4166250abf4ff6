"""The web table's addresses, as the service fills them into replies (`Headline.table_url`,
`Decision.seat_url`) and the pages link to one another.

The secret comes from config (`[web] secret`, or EPOCHS_WEB_SECRET) or, when absent, from
the database, where the first process to start generates and stores it: every process of
one database then signs alike, so any of them serves any link (issue 28 §1, §3).
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from typing import Protocol

from .tokens import Signer, expiry

#: The name the signing secret is kept under in the database (`secrets` table).
SECRET_NAME = "web"


class Keeper(Protocol):
    """Where the database's secrets are asked for: the service (`Service.secret`), or a storage."""

    async def secret(self, name: str, make: Callable[[], str], now: float) -> str: ...


async def signing_secret(keeper: Keeper, configured: str, now: float) -> str:
    """The configured secret, else the database's (generated and stored on first use)."""
    if configured:
        return configured
    return await keeper.secret(SECRET_NAME, lambda: secrets.token_urlsafe(32), now)


class Links:
    """Signed addresses under `public_url` (no trailing slash): `/t/<table token>` for a
    table, `/s/<seat token>` for a seat, valid for `days` days from the end of today."""

    def __init__(self, public_url: str, signer: Signer, days: int = 30, clock: Callable[[], float] = time.time) -> None:
        self.public_url = public_url.rstrip("/")
        self.signer = signer
        self.days = days
        self.clock = clock

    def table_path(self, table_id: int) -> str:
        return f"/t/{self.signer.table_token(table_id)}"

    def seat_path(self, table_id: int, seat: int, user: int, generation: int) -> str:
        token = self.signer.seat_token(table_id, seat, user, generation, expiry(self.clock(), self.days))
        return f"/s/{token}"

    def table_url(self, table_id: int) -> str:
        return self.public_url + self.table_path(table_id)

    def seat_url(self, table_id: int, seat: int, user: int, generation: int) -> str:
        return self.public_url + self.seat_path(table_id, seat, user, generation)
