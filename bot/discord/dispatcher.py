"""The background task that drives reminders and drains the outbox.

Reminders, unprompted notices and messages that could not be delivered during a
command (a move's public post refused by a 503, a long rate limit, the network:
`Service.enqueue`) live in the database, so a restart loses none: after start-up
this task finds them again. Each round it
asks the service to turn due reminders into notices, then delivers the notices of
every channel in its own task — one slow or failing channel never holds up another
game — in order within a channel. A notice is marked delivered only after it went
out; a passing failure (5xx, 429, network) backs the channel off exponentially and
tries again; closed DMs fall back to a channel mention. Delivery is at least once:
a crash between sending and marking may repeat a notice, never lose one. Only a
notice Discord keeps refusing outright (a 4xx other than 429) for `give_up_after`
(a day) is given up — logged as an error — so it cannot block its channel forever.

Several processes: each round claims the notices of this process's shards in the
database (`Service.tick(claim)`) and renews its earlier claims, so two processes
never deliver one notice; a crashed process's claims expire after their lease and
another process of those shards takes them over.

A command's public post and the outbox's posts of its channel go out in the order of the
moves they tell (order.py, `ChannelOrder`, `self.order`, handed to the controller): no
delivery starts in a channel while a command is under way there, up to `send_timeout`.

A held direct message (tag `dm`) queues under minus the user id, so one player's
failing DMs never hold up their channel. A held public post's board is drawn again
at send time (`Service.prepare`), once per notice, not once per attempt.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol

import discord

from ..storage.base import Claim, StorageUnavailable
from .courier import Pending, transient
from .link import ServiceLink
from .order import ChannelOrder

if TYPE_CHECKING:  # the service's plain data, as the adapter receives it
    from ..service import Notice, Private, Reply

log = logging.getLogger(__name__)


class Delivers(Protocol):
    """What the dispatcher needs of a courier (courier.py's `Courier`; the several-process
    tests hand in one that writes to a file)."""

    #: Sends kept in memory for the next round (`Courier.later`).
    pending: list[Pending]

    async def post(self, channel: int, reply: Reply, *, buttons: str | None = None) -> Any: ...

    async def direct(
        self,
        user: int,
        parts: Sequence[Private],
        *,
        fallback_channel: int | None,
        reply: Reply | None = None,
        link: str | None = None,
        turn: bool = False,
    ) -> bool: ...

    async def nudge(self, channel: int, user: int) -> None: ...


class Dispatcher:
    def __init__(
        self,
        link: ServiceLink,
        courier: Delivers,
        *,
        poll: float = 30.0,
        retry_base: float = 2.0,
        retry_cap: float = 600.0,
        send_timeout: float = 60.0,
        give_up_after: float = 86400.0,
        claim: Claim | None = None,
    ) -> None:
        self.link = link
        #: Whose notices these are (owner, lease, shards); None: every notice (one process).
        self.claim = claim
        self.courier = courier
        self.poll = poll
        self.retry_base = retry_base
        self.retry_cap = retry_cap
        self.send_timeout = send_timeout
        #: A notice refused (4xx, not a rate limit) for this long is given up, logged as an error.
        self.give_up_after = give_up_after
        self.delivered = 0
        self._workers: dict[int, asyncio.Task[None]] = {}
        self._backoff: dict[int, tuple[float, int, float]] = {}  # channel -> (not before, failures, first)
        self._sent: dict[int, None] = {}  # recently delivered notice ids (ordered)
        self._done_parts: dict[int, set[str]] = {}  # notice id -> parts already sent
        self._ready: dict[int, Reply] = {}  # notice id -> its reply, prepared for sending
        self._links: dict[int, str | None] = {}  # notice id -> the link of its post, for its DMs
        #: Channels that had new notices while their worker was busy: it runs a round when done.
        self._missed: set[int] = set()
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        #: Commands under way per channel (the controller marks them): their posts go first.
        self.order = ChannelOrder(cap=send_timeout, on_free=self.wake, workers=self._workers)

    def start(self) -> None:
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._run(), name="epochs-dispatcher")

    async def stop(self, grace: float = 5.0) -> None:
        """Stop polling; let deliveries in flight finish (up to `grace` s) so none is cut
        between its send and its `delivered` mark, then cancel what is left."""
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
            self._task = None
        workers = [t for t in self._workers.values() if not t.done()]
        if workers:
            _, late = await asyncio.wait(workers, timeout=grace)
            for task in late:
                task.cancel()
            await asyncio.gather(*late, return_exceptions=True)
        self._workers.clear()
        if self.claim is not None:
            try:
                await self.link.release(self.claim)
            except Exception:  # the database may be gone too: then the claims simply expire
                log.warning(
                    "could not give back this process's outbox claims; they expire in %.0f s",
                    self.claim.lease,
                    exc_info=True,
                )

    def wake(self) -> None:
        """Look at the outbox now (after a command that may have queued notices)."""
        self._wake.set()

    async def _run(self) -> None:
        while True:
            try:
                await self.round()
            except asyncio.CancelledError:
                raise
            except StorageUnavailable as err:  # an outage, not a bug: one line a round, no traceback
                log.warning("dispatcher round: %s; trying again next round", err.reason)
            except Exception:
                log.exception("dispatcher round failed; trying again next round")
            try:  # not `wait_for`: in Python 3.11 it swallows a cancel that comes as the wake-up does
                async with asyncio.timeout(self.poll):
                    await self._wake.wait()
            except TimeoutError:
                pass
            self._wake.clear()

    async def round(self) -> None:
        """One pass: due reminders into the outbox, then start a worker per waiting channel."""
        notices = await self.link.tick(self.claim)
        by_channel: dict[int, list[Notice]] = {}
        for notice in notices:
            by_channel.setdefault(self.key(notice), []).append(notice)
        retries: dict[int, list[Pending]] = {}
        for item in list(self.courier.pending):
            retries.setdefault(item.key, []).append(item)
        now = time.monotonic()
        for channel in set(by_channel) | set(retries):
            worker = self._workers.get(channel)
            if worker is not None and not worker.done():
                # busy with earlier notices (handed over before these were claimed): when it is
                # done it asks for another round, so these go at once, not at the next poll
                self._missed.add(channel)
                continue
            if self._backoff.get(channel, (0.0, 0, 0.0))[0] > now:
                continue
            if self.order.held(channel):
                # a command there is under way: its post tells earlier moves than any notice
                # stored since it began; the round that follows it (on_free) delivers these
                continue
            self._workers[channel] = asyncio.create_task(
                self._deliver_channel(channel, by_channel.get(channel, []), retries.get(channel, []))
            )

    @staticmethod
    def key(notice: Notice) -> int:
        """The delivery queue of a notice: its channel, or minus the user for a held DM."""
        user = notice.tags.get("dm") if getattr(notice, "tags", None) else None
        return -int(user) if user else notice.channel

    async def drain(self, timeout: float = 30.0) -> None:
        """Run a round and wait for its workers (tests, shutdown)."""
        await self.round()
        workers = [t for t in self._workers.values() if not t.done()]
        if workers:
            await asyncio.wait_for(asyncio.gather(*workers, return_exceptions=True), timeout)

    async def _deliver_channel(self, channel: int, notices: list[Notice], retries: list[Pending]) -> None:
        try:
            await self._deliver_all(channel, notices, retries)
        finally:
            if channel in self._missed:
                self._missed.discard(channel)
                self._wake.set()

    async def _deliver_all(self, channel: int, notices: list[Notice], retries: list[Pending]) -> None:
        current: Pending | Notice | None = None
        try:
            for item in retries:
                current = item
                await asyncio.wait_for(item.send(), self.send_timeout)
                self.courier.pending.remove(item)
            for notice in notices:
                if notice.id in self._sent:
                    continue  # read before its delivery was marked; never send twice
                current = notice
                await asyncio.wait_for(self._deliver(notice), self.send_timeout)
                await self._mark(notice.id)
            self._backoff.pop(channel, None)
        except Exception as exc:
            if isinstance(exc, discord.NotFound) and getattr(exc, "code", 0) == 10003:
                log.warning("channel %s is gone; its notices cannot be delivered", channel)
                for notice in notices:
                    await self._mark(notice.id)
                self.courier.pending[:] = [p for p in self.courier.pending if p.key != channel]
                return
            _, failures, first = self._backoff.get(channel, (0.0, 0, time.monotonic()))
            if current is not None and not transient(exc) and time.monotonic() - first > self.give_up_after:
                # a refusal that did not pass in all that time (e.g. a message Discord rejects):
                # let the channel's later notices through rather than block them forever
                if isinstance(current, Pending):
                    log.error(
                        "%s for %s refused for %.0f s (%s); giving up on it",
                        current.what or "a send",
                        channel,
                        time.monotonic() - first,
                        exc,
                    )
                    self.courier.pending.remove(current)
                else:
                    log.error(
                        "notice %s for channel %s refused for %.0f s (%s); giving up on it",
                        current.id,
                        channel,
                        time.monotonic() - first,
                        exc,
                    )
                    await self._mark(current.id)
                self._backoff.pop(channel, None)
                self._wake.set()
                return
            delay = min(self.retry_cap, self.retry_base * (2**failures))
            self._backoff[channel] = (time.monotonic() + delay, failures + 1, first)
            level = logging.INFO if transient(exc) else logging.WARNING
            log.log(level, "delivery to channel %s failed (%s); retrying in %.1fs", channel, exc, delay)
            loop = asyncio.get_running_loop()
            loop.call_later(delay, self._wake.set)

    async def _mark(self, notice_id: int) -> None:
        await self.link.delivered(notice_id)
        self._done_parts.pop(notice_id, None)
        self._ready.pop(notice_id, None)
        self._links.pop(notice_id, None)
        self._sent[notice_id] = None
        while len(self._sent) > 10_000:
            self._sent.pop(next(iter(self._sent)))
        self.delivered += 1

    async def _deliver(self, notice: Notice) -> None:
        """Public part, then private parts; parts already sent are not sent again on a retry."""
        done = self._done_parts.setdefault(notice.id, set())
        reply = self._ready.get(notice.id)
        if reply is None:
            reply = self._ready[notice.id] = await self.link.prepare(notice)
        if "public" not in done and (reply.text or reply.image):
            message = await self.courier.post(notice.channel, reply, buttons=notice.tags.get("buttons"))
            self._links[notice.id] = getattr(message, "jump_url", None)
        done.add("public")
        link = self._links.get(notice.id)
        for index, part in enumerate(reply.private):
            key = f"private-{index}"
            if key in done:
                continue
            if part.dm:  # (closed DMs: the courier tells the player so in the channel)
                # with a post: "your turn" for whoever's turn it starts; held alone: as it was meant
                turn = bool(notice.tags.get("turn", True))
                await self.courier.direct(
                    part.user, [part], fallback_channel=notice.channel, reply=reply, link=link, turn=turn
                )
            # a part not meant for DMs is not delivered apart: its player reads it in their panel
            done.add(key)
