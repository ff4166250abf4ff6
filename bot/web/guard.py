"""Who is asking, and may they (issue 28 §3): a request's link read into a `Viewer`, a
move's origin and form token checked, requests counted on what the link means (a seat's
link: that seat's; the table's public link, shared by a whole channel: per client; issue 53).

Every refusal is an `HTTPRefusal` with the status that says what went wrong and a sentence
a person understands; nothing is read or changed after one.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .tokens import Signer, TokenError

if TYPE_CHECKING:
    from ..service import Service

#: HTTP statuses of the token problems: not a token at all, a bad signature, too old.
TOKEN_STATUS = {"malformed": 404, "forged": 403, "expired": 410}


class HTTPRefusal(Exception):
    """A request refused: `status` (HTTP) and `text` (what was wrong, what to do)."""

    def __init__(self, status: int, text: str, *, retry_after: float | None = None) -> None:
        super().__init__(text)
        self.status = status
        self.text = text
        self.retry_after = retry_after


@dataclass(frozen=True)
class Viewer:
    """The reader of a page: a table's public (`seat` None) or one seat's player.

    `token` is the link's own token; `base` the page's path ("/t/<token>" or "/s/<token>"),
    under which its parts live; `generation` the seat link's (`game link reset` raises it).
    A seat's reader also keeps what the table's record said when the link was checked (read
    once a request): its channel and server (where a move is played), the player's name, the
    table's version."""

    table: int
    token: str
    base: str
    seat: int | None = None
    user: int | None = None
    generation: int | None = None
    channel: int | None = None
    guild: int | None = None
    name: str = ""
    version: int | None = None

    @property
    def key(self) -> Hashable:
        """What the link means, whatever its text: a seat's link made on another day (another
        expiry) counts with this one."""
        if self.seat is None:
            return ("table", self.table)
        return ("seat", self.table, self.seat, self.user, self.generation)

    @property
    def person(self) -> Hashable | None:
        """The player a seat page acts for, at this table (None on the public page)."""
        return None if self.user is None else ("person", self.table, self.user)


def public_viewer(signer: Signer, token: str) -> Viewer:
    """The public reader of the table a `/t/` token names (the table itself is looked up by the page)."""
    try:
        table = signer.read_table(token)
    except TokenError as err:
        raise HTTPRefusal(TOKEN_STATUS[err.why], err.text) from None
    return Viewer(table, token, f"/t/{token}")


async def seat_viewer(signer: Signer, service: Service, token: str, now: float) -> Viewer:
    """The player a `/s/` token names, when it is signed, not expired, not replaced by a
    `game link reset`, and its user still sits at its seat of its table."""
    try:
        named = signer.read_seat(token, now)
    except TokenError as err:
        raise HTTPRefusal(TOKEN_STATUS[err.why], err.text) from None
    rec = await service.table_record(named.table)
    if rec is None:
        raise HTTPRefusal(404, "This table is no longer kept (its game was deleted).")
    player = rec.user_at(named.seat)
    if player is None or player.user != named.user:
        raise HTTPRefusal(403, "This link is for a seat its player no longer holds; nothing is shown.")
    if await service.link_generation(named.table, named.user) != named.generation:
        raise HTTPRefusal(
            410,
            "This seat link was replaced by a newer one and no longer works. For the new one, press "
            "“Open my seat” under your turn in Discord, or ask the bot there for your game link.",
        )
    return Viewer(
        named.table,
        token,
        f"/s/{token}",
        named.seat,
        named.user,
        named.generation,
        rec.channel,
        rec.guild,
        player.name,
        rec.version,
    )


def limit_key(signer: Signer, token: str, *, seat: bool, now: float, client: str) -> Hashable:
    """What a request is counted on by the rate limits (checked before the database is asked):
    a seat link's meaning (table, seat, user, generation: every day's link to one seat counts
    as one); the public link's table *and the client asking*, since a whole channel shares
    that link and one client spending it must not stop every other reader; and for what is
    no link of ours, the client alone."""
    try:
        if seat:
            named = signer.read_seat(token, now)
            return ("seat", named.table, named.seat, named.user, named.generation)
        return ("table", signer.read_table(token), client)
    except TokenError:
        return ("refused", client)


def same_origin(origin: str | None, allowed: set[str]) -> bool:
    """A move's `Origin` header, when the browser sent a real one, must be this site's own
    (a form on another site cannot act for a seat). An absent or "null" origin proves
    nothing either way: the form token decides then."""
    if origin is None or origin == "null":
        return True
    return origin.rstrip("/").lower() in allowed


class Limiter:
    """A token bucket per key: `burst` requests at once, then `rate` a second. Kept per
    process, for the `size` keys seen last (an idle link's bucket is full again anyway)."""

    def __init__(
        self, rate: float, burst: float, *, size: int = 10_000, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.rate = rate
        self.burst = burst
        self.size = size
        self.clock = clock
        self._buckets: OrderedDict[Hashable, tuple[float, float]] = OrderedDict()

    def take(self, key: Hashable) -> float:
        """0 when the request may go; else the seconds until it may."""
        now = self.clock()
        level, then = self._buckets.pop(key, (self.burst, now))
        level = min(self.burst, level + (now - then) * self.rate)
        wait = 0.0
        if level >= 1:
            level -= 1
        else:
            wait = (1 - level) / self.rate
        self._buckets[key] = (level, now)
        while len(self._buckets) > self.size:
            self._buckets.popitem(last=False)
        return wait

    def check(self, key: Hashable) -> None:
        wait = self.take(key)
        if wait:
            raise HTTPRefusal(
                429, f"Too many requests from this link; try again in {wait:.0f} s.", retry_after=max(1.0, wait)
            )
