"""The dispatcher on its own, with a courier that waits when told to (issue 26 §2).

Cradle with two bots, once a game: a bot's post was put in the outbox while the
channel's delivery task was still sending the one before; the round that claimed it
found the channel busy and skipped it, and nothing asked for another round until the
next poll (30 s) or someone's next command. By then the person it pinged had been
passed by (the game moved on), so it went out late, without its ping.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from bot.discord.dispatcher import Dispatcher
from bot.service import Notice, Private, Reply


@dataclass
class Outbox:
    """The service's side as the dispatcher sees it: notices until delivered."""

    notices: dict[int, Notice] = field(default_factory=dict)

    async def tick(self, claim: Any = None) -> list[Notice]:
        return list(self.notices.values())

    async def delivered(self, notice_id: int) -> None:
        self.notices.pop(notice_id, None)

    async def prepare(self, notice: Notice) -> Reply:
        return notice.reply

    async def release(self, claim: Any) -> None:
        pass


@dataclass
class SlowCourier:
    """Sends instantly, except while `gate` is closed for a post of `held` text."""

    gate: asyncio.Event = field(default_factory=asyncio.Event)
    held: str = "first"
    posted: list[str] = field(default_factory=list)
    direct_to: list[int] = field(default_factory=list)
    nudged: list[int] = field(default_factory=list)
    pending: list[Any] = field(default_factory=list)

    async def post(self, channel: int, reply: Reply, *, buttons: str | None = None) -> None:
        if reply.text == self.held:
            await self.gate.wait()
        self.posted.append(reply.text)

    async def direct(self, user: int, parts: Any, *, fallback_channel: int | None, **_: Any) -> bool:
        self.direct_to.append(user)
        return True

    async def nudge(self, channel: int, user: int) -> None:
        self.nudged.append(user)


async def wait_until(predicate: Any, timeout: float = 5.0) -> None:
    async def poll() -> None:
        while not predicate():
            await asyncio.sleep(0.01)

    await asyncio.wait_for(poll(), timeout)


async def test_a_notice_arriving_while_its_channel_is_busy_goes_when_the_channel_is_free():
    outbox, courier = Outbox(), SlowCourier()
    dispatcher = Dispatcher(outbox, courier, poll=3600)  # no poll comes to help
    outbox.notices[1] = Notice(1, 7, Reply("first"))
    dispatcher.start()
    try:
        await wait_until(lambda: dispatcher._workers.get(7) is not None)
        outbox.notices[2] = Notice(2, 7, Reply("second"))  # a bot's post, while "first" is being sent
        dispatcher.wake()
        await asyncio.sleep(0.05)
        assert courier.posted == []
        courier.gate.set()
        await wait_until(lambda: courier.posted == ["first", "second"])
        assert not outbox.notices
    finally:
        await dispatcher.stop()


async def test_a_private_part_not_meant_for_dms_is_never_told_as_closed_dms():
    """A held post's private part of a player who did not ask for DMs is theirs to read in
    their panel: nobody is told "your DMs are closed" for it (issue 26 §2)."""
    outbox, courier = Outbox(), SlowCourier()
    courier.gate.set()
    reply = Reply("a post", private=[Private(5, "since your last turn"), Private(6, "by DM", dm=True)])
    outbox.notices[1] = Notice(1, 7, reply)
    dispatcher = Dispatcher(outbox, courier, poll=3600)
    await dispatcher.drain()
    assert courier.posted == ["a post"] and courier.direct_to == [6] and courier.nudged == []


async def test_stop_right_after_a_wake_stops_the_dispatcher():
    """A command's `wake()` and the process's `stop()` in one go (the last command before a
    shutdown): the wait for the wake-up ends as the cancellation comes. Python 3.11's
    `asyncio.wait_for` then returned instead of cancelling, the loop polled on and `stop`
    waited for ever (seen as a service process that never stopped, under load, in
    tests/bot/test_plans' kill -9 test)."""
    dispatcher = Dispatcher(Outbox(), SlowCourier(), poll=3600)
    dispatcher.start()
    await asyncio.sleep(0.05)  # its first round done, it waits to be woken
    dispatcher.wake()
    stopping = asyncio.create_task(dispatcher.stop())
    done, _ = await asyncio.wait([stopping], timeout=5)  # (not cancelled on the way: it must end by itself)
    assert stopping in done
