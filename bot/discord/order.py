"""A channel's posts in the order of the moves they tell, within one process (issue 50).

Two senders post to a game's channel: the controller sends a command's public post itself
(`Controller.command`, `_panel_step`, `answer_undo`, a new game's thread), while bots' moves
and held posts go through the outbox and the dispatcher sends them, one worker task per
channel. Nothing used to order the two: at a simultaneous decision a bot may store its move
right after a person's command committed, and the dispatcher may deliver the bot's post
(telling the later move) before the controller's post of the person's command (telling the
earlier one) went out, so players read the moves out of order.

`ChannelOrder`, owned by the dispatcher and handed to the controller, orders them:

- `async with order.command(channel):` marks a command under way in the channel, from before
  the service is asked until its public post was sent or handed to the outbox. Meanwhile the
  dispatcher starts no delivery in that channel (`held`); when the last command there ends,
  the dispatcher is woken (`on_free`) and delivers what waited.
- A dispatcher worker already running in the channel when the command began delivers only the
  notices it fetched before: they were stored before the command began, so they tell moves
  committed before the command's own, and rightly go first. The controller waits for that
  worker before it posts (`settled`), so they also reach the channel first.
- A cap: a command that hangs (Discord not answering its post) holds the channel's notices at
  most `cap` seconds (the dispatcher's `send_timeout`); then the dispatcher goes on, and says so
  in the log. The controller likewise waits for a worker in flight at most that long.

Across processes nothing orders the sends (each process orders its own): bot/DECISIONS.md.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import time
from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import asynccontextmanager

log = logging.getLogger(__name__)


class ChannelOrder:
    def __init__(
        self,
        *,
        cap: float = 60.0,
        on_free: Callable[[], None] = lambda: None,
        workers: Mapping[int, asyncio.Task[None]] | None = None,
    ) -> None:
        #: The longest a command holds its channel's outbox posts (s).
        self.cap = cap
        #: Called when a channel is free again (the dispatcher's `wake`).
        self.on_free = on_free
        #: The dispatcher's delivery task of each channel (read only here).
        self.workers: Mapping[int, asyncio.Task[None]] = workers if workers is not None else {}
        self._commands: dict[int, dict[int, float]] = {}  # channel -> command -> when it began
        self._ids = itertools.count()

    @asynccontextmanager
    async def command(self, channel: int) -> AsyncIterator[None]:
        """A command under way in `channel`, its public post included: the dispatcher starts
        no delivery there until it ends (or `cap` passed)."""
        ident = next(self._ids)
        self._commands.setdefault(channel, {})[ident] = time.monotonic()
        timer = asyncio.get_running_loop().call_later(self.cap, self._overdue, channel)
        try:
            yield
        finally:
            timer.cancel()
            under_way = self._commands.get(channel, {})
            under_way.pop(ident, None)
            if not under_way:
                self._commands.pop(channel, None)
                self.on_free()

    def held(self, channel: int) -> bool:
        """Does a command under way (for less than `cap`) hold the channel's outbox posts?"""
        now = time.monotonic()
        return any(now - began < self.cap for began in self._commands.get(channel, {}).values())

    async def settled(self, channel: int) -> None:
        """Wait until the dispatcher's delivery in flight in `channel`, if any, is done (at
        most `cap`): it tells moves made before the command now posting."""
        worker = self.workers.get(channel)
        if worker is None or worker.done():
            return
        _, late = await asyncio.wait([worker], timeout=self.cap)
        if late:
            log.warning("the outbox's delivery in channel %s took over %.0f s; the command posts", channel, self.cap)

    def _overdue(self, channel: int) -> None:
        """A command held its channel for `cap`: let the dispatcher go on."""
        log.warning(
            "a command in channel %s has not posted after %.0f s (Discord not answering?); "
            "the channel's outbox posts go on without waiting for it",
            channel,
            self.cap,
        )
        self.on_free()
