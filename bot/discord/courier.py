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

from . import layout, messages

if TYPE_CHECKING:  # the service's plain data, as the adapter receives it
    from ..service import Private, Reply

log = logging.getLogger(__name__)

DMS_CLOSED = 50007

#: What a failed send raises: Discord's refusals and rate limits, network trouble.
UNDELIVERED = (discord.HTTPException, discord.RateLimited, aiohttp.ClientError, OSError, asyncio.TimeoutError)


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
    """`on_post(table, message id)`: told of every public post about a table (issue 27 §3: the
    service keeps the latest, so `games mine` links to it); a failure there costs the link only."""

    def __init__(self, client: discord.Client, *, on_post: Callable[[int, int], Awaitable[None]] | None = None) -> None:
        self.client = client
        self.on_post = on_post
        self.pending: list[Pending] = []
        #: (channel, user) already told that their DMs are closed (once per process, not every move).
        self.nudged: set[tuple[int, int]] = set()

    def channel(self, channel_id: int) -> discord.abc.Messageable:
        """The cached channel or thread, else a handle that sends by id alone."""
        found = self.client.get_channel(channel_id)
        if isinstance(found, discord.abc.Messageable):
            return found
        return self.client.get_partial_messageable(channel_id)

    async def post(self, channel: discord.abc.Messageable | int, reply: Reply, *, buttons: str | None = None) -> Any:
        """Post the public part of `reply` as a layout message (layout.py: who must act and
        where, the story, the board; "Take your turn", or Approve / Reject under an undo
        request with `buttons="undo"`), pinging exactly `reply.mentions`; raises one of
        UNDELIVERED on failure."""
        target = self.channel(channel) if isinstance(channel, int) else channel
        users = list(dict.fromkeys(reply.mentions))
        built = layout.post(reply, pinged=users, buttons=buttons)
        message = await target.send(view=built.view, files=built.files, allowed_mentions=messages.allowed(users))
        if self.on_post is not None and reply.table_id is not None and getattr(message, "id", None):
            try:
                await self.on_post(reply.table_id, int(message.id))
            except Exception:  # noqa: BLE001 - the post went out; only its link is lost
                log.warning("could not remember post %s of table %s", message.id, reply.table_id, exc_info=True)
        return message

    def later(self, key: int, send: Callable[[], Awaitable[Any]], what: str = "") -> None:
        """Keep a failed send for the dispatcher to retry, in this process only: the
        last resort when it cannot be put into the outbox (the database failing too)."""
        self.pending.append(Pending(key, send, what))

    async def direct(
        self,
        user: int,
        parts: Sequence[Private],
        *,
        fallback_channel: int | None,
        reply: Reply | None = None,
        link: str | None = None,
        turn: bool = False,
    ) -> bool:
        """DM the private parts to `user`. False (and a channel nudge) when DMs are closed.

        `turn`: the parts come with the post that starts turns (`link`), so a player whose
        turn starts (`reply.decisions` holds theirs) gets their "your turn": the game,
        where it is played, what happened since their last turn, "Take your turn" and the
        post. Any other part (a heads-up, a hand asked for by DM) goes as its text, with
        where it comes from."""
        try:
            dm = await self.client.create_dm(discord.Object(user))
            for part in parts:
                where = self.where(fallback_channel)
                if turn and reply is not None and user in reply.decisions:
                    built = layout.turn_dm(reply, user, where=where, link=link)
                    await dm.send(view=built.view, allowed_mentions=messages.NO_PINGS)
                    continue
                files = messages.files_of(part.image)
                text = part.text + (f"\n-# {where}" if where and turn else "")
                if link:
                    text += f"\n{link}"
                await dm.send(
                    messages.clip(text), files=files or discord.utils.MISSING, allowed_mentions=messages.NO_PINGS
                )
            return True
        except discord.Forbidden as exc:
            if exc.code != DMS_CLOSED:
                log.warning("direct message to %s refused (%s)", user, exc.code)
            if fallback_channel:
                await self.nudge(fallback_channel, user)
            return False

    def where(self, channel: int | None) -> str:
        """ "in #general (<#1>) on Epochs test server": where a game is played, for a direct message."""
        if not channel:
            return ""
        found = self.client.get_channel(channel)
        guild = getattr(found, "guild", None)
        name = getattr(found, "name", None)
        place = f"in <#{channel}>" + (f" (#{name})" if name else "")
        return place + (f" on {guild.name}" if guild is not None else "")

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
