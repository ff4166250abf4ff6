"""Delivering a Reply to a channel or to one user's direct messages.

Used by the command flow and by the outbox dispatcher alike. A public post names
exactly the users the service named; a private part goes only to its user — by
direct message, and when their DMs are closed (HTTP 403, code 50007) a short
channel mention tells them to look with `/hand` instead: the private text itself
never lands in a channel. A send that fails (5xx after discord.py's own retries,
429 beyond its patience, network trouble) is not retried here: the controller hands
it to the service's outbox (`Service.enqueue`), which the dispatcher drains with
backoff — after a restart too. `later` keeps a send in memory only as a last resort,
when even the outbox cannot be written.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import aiohttp
import discord

from . import messages
from .views import turn_view, undo_view

if TYPE_CHECKING:  # the service's plain data, as the adapter receives it
    from ..service import Private, Reply

log = logging.getLogger(__name__)

DMS_CLOSED = 50007

#: What a failed send raises: Discord's refusals and rate limits, network trouble.
UNDELIVERED = (discord.HTTPException, discord.RateLimited, aiohttp.ClientError, OSError, asyncio.TimeoutError)


def turn_button(reply: Reply) -> discord.ui.View | None:
    """The persistent "Take your turn" button a message for players who must act carries
    (None: nobody must)."""
    if reply.table_id is None or reply.version is None or not (reply.choices or reply.mentions):
        return None
    return turn_view(reply.table_id, reply.version)


def transient(exc: BaseException) -> bool:
    """Worth retrying later: server errors, rate limits, network trouble."""
    if isinstance(exc, discord.Forbidden | discord.NotFound):
        return False
    if isinstance(exc, discord.HTTPException):
        return exc.status >= 500 or exc.status == 429
    return isinstance(exc, (OSError, TimeoutError, discord.RateLimited))


@dataclass
class Pending:
    """A send that failed for a passing reason, waiting for the dispatcher's next attempt.

    `key` groups retries like the outbox does: a channel id, or minus a user id for
    direct messages, so one failing destination never holds up another.
    """

    key: int
    send: Callable[[], Awaitable[Any]]
    what: str = ""
    created: float = field(default_factory=time.monotonic)


class Courier:
    def __init__(self, client: discord.Client) -> None:
        self.client = client
        self.pending: list[Pending] = []
        #: (channel, user) already told that their DMs are closed (once per process, not every move).
        self.nudged: set[tuple[int, int]] = set()

    def channel(self, channel_id: int) -> discord.abc.Messageable:
        """The cached channel or thread, else a handle that sends by id alone."""
        found = self.client.get_channel(channel_id)
        if isinstance(found, discord.abc.Messageable):
            return found
        return self.client.get_partial_messageable(channel_id)

    async def post(
        self,
        channel: discord.abc.Messageable | int,
        reply: Reply,
        *,
        extra_mentions: Sequence[int] = (),
        view: discord.ui.View | None = None,
        buttons: str | None = None,
    ) -> discord.Message:
        """Post the public part of `reply`; raises one of UNDELIVERED on failure.

        Buttons: `view` if given; "undo" the Approve / Reject pair under an undo request;
        otherwise the "Take your turn" button when someone must act."""
        if view is None and buttons == "undo" and reply.table_id is not None and reply.version is not None:
            view = undo_view(reply.table_id, reply.version)
        target = self.channel(channel) if isinstance(channel, int) else channel
        users = list(dict.fromkeys([*reply.mentions, *extra_mentions]))
        content = messages.clip(messages.with_mentions(reply.text or "", users))
        kwargs: dict[str, Any] = {"allowed_mentions": messages.allowed(users)}
        files = messages.files_of(reply.image, reply.files)
        if files:
            kwargs["files"] = files
        view = view if view is not None else turn_button(reply)
        if view is not None:
            kwargs["view"] = view
        return await target.send(content or None, **kwargs)

    def later(self, key: int, send: Callable[[], Awaitable[Any]], what: str = "") -> None:
        """Keep a failed send for the dispatcher to retry, in this process only: the
        last resort when it cannot be put into the outbox (the database failing too)."""
        self.pending.append(Pending(key, send, what))

    async def direct(self, user: int, parts: Sequence[Private], *, fallback_channel: int | None) -> bool:
        """DM the private parts to `user`. False (and a channel nudge) when DMs are closed."""
        try:
            dm = await self.client.create_dm(discord.Object(user))
            for part in parts:
                files = messages.files_of(part.image)
                await dm.send(
                    messages.clip(part.text), files=files or discord.utils.MISSING, allowed_mentions=messages.NO_PINGS
                )
            return True
        except discord.Forbidden as exc:
            if exc.code != DMS_CLOSED:
                log.warning("direct message to %s refused (%s)", user, exc.code)
            if fallback_channel:
                await self.nudge(fallback_channel, user)
            return False

    async def nudge(self, channel: int, user: int) -> None:
        """Tell a user in the channel that something private waits for them (never what)."""
        if (channel, user) in self.nudged:
            return
        text = (
            f"<@{user}>, I could not send you a direct message (your DMs are closed). "
            "Use `/hand` here to see your private information, or `/settings dm:False`."
        )
        await self.channel(channel).send(text, allowed_mentions=messages.allowed([user]))
        self.nudged.add((channel, user))
