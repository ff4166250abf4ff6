"""A command's post and the outbox's posts of its channel, in the order of the moves they tell
(issue 50; bot/discord/order.py).

The controller sends a command's public post itself; bots' moves and held posts go through
the outbox and the dispatcher. A bot acting at the same moment as a person (a simultaneous
decision) may store its move right after the person's command committed: its post must not
reach the channel before the post of the person's command, which tells the earlier move.
Here "Discord" is the loopback emulator; the command's post is slowed inside the courier
(a gate), and the bot's post is a notice stored in the outbox meanwhile, as a bot's is.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from bot.service import Reply
from tests.discord.test_faults import first_legal, outbox_empty
from tests.discord.test_play import open_game

BOT = "🤖 a bot's move, stored after Alice's"
EARLIER = "🤖 a bot's move, stored before Alice's"


class SlowPosts:
    """The courier's posts wait at a gate while it is closed: only the posts whose text has
    `marker` (or, without one, the posts without any of `others`)."""

    def __init__(self, harness: Any, *, marker: str | None = None, others: tuple[str, ...] = ()) -> None:
        self.courier = harness.bot.courier
        self.post = self.courier.post
        self.marker = marker
        self.others = others
        self.gate = asyncio.Event()
        self.waiting = asyncio.Event()
        self.courier.post = self._post

    def slowed(self, reply: Reply) -> bool:
        if self.marker is not None:
            return self.marker in reply.text
        return not any(o in reply.text for o in self.others)

    async def _post(self, channel: int, reply: Reply, *, buttons: str | None = None) -> Any:
        if self.slowed(reply) and not self.gate.is_set():
            self.waiting.set()
            await self.gate.wait()
        return await self.post(channel, reply, buttons=buttons)


async def stored(harness: Any, version: int) -> None:
    """Wait until the table moved on from `version`."""
    for _ in range(1000):
        if (await harness.table()).version > version:
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the move was not stored")


def new_posts(emu, before: int) -> list[str]:
    return [m["text"] for m in emu.public_messages(1)[before:]]


async def test_50_a_commands_post_reaches_the_channel_before_a_bots_post_stored_after_it_began(harness, emu):
    alice, _ = await open_game(harness, emu, 1001, 1002)
    before = len(emu.public_messages(1))
    slow = SlowPosts(harness, others=(BOT,))
    press = await emu.slash(alice, 1, "play", {"action": await first_legal(harness, 1001)})
    await asyncio.wait_for(slow.waiting.wait(), 10)  # Alice's move is stored; its post is on its way
    await harness.service.enqueue(1, Reply(BOT))  # a bot moves right after her
    await harness.bot.dispatcher.drain()  # a round of the dispatcher, and its deliveries
    assert new_posts(emu, before) == []  # the bot's post waits for Alice's
    slow.gate.set()
    await emu.finished(press)
    await outbox_empty(harness)
    await harness.bot.dispatcher.drain()
    posted = new_posts(emu, before)
    assert len(posted) == 2 and BOT not in posted[0] and "• Alice" in posted[0], posted
    assert BOT in posted[1]


async def test_50_a_bots_post_in_flight_when_a_command_begins_reaches_the_channel_first(harness, emu):
    alice, _ = await open_game(harness, emu, 1001, 1002)
    before = len(emu.public_messages(1))
    slow = SlowPosts(harness, marker=EARLIER)
    await harness.service.enqueue(1, Reply(EARLIER))  # a bot's move, before Alice's ...
    harness.bot.dispatcher.wake()
    await asyncio.wait_for(slow.waiting.wait(), 10)  # ... its post on its way
    version = (await harness.table()).version
    press = await emu.slash(alice, 1, "play", {"action": await first_legal(harness, 1001)})
    await stored(harness, version)  # Alice's move is stored; her post would follow at once
    with contextlib.suppress(TimeoutError):
        await emu.wait_for(lambda: new_posts(emu, before), timeout=1.0)
    assert new_posts(emu, before) == []  # her post waits for the bot's, which tells an earlier move
    slow.gate.set()
    await emu.finished(press)
    await outbox_empty(harness)
    posted = new_posts(emu, before)
    assert len(posted) == 2 and EARLIER in posted[0] and "• Alice" in posted[1], posted


async def test_50_a_command_whose_post_hangs_holds_its_channel_only_up_to_the_cap(harness, emu, caplog):
    alice, _ = await open_game(harness, emu, 1001, 1002)
    harness.bot.dispatcher.order.cap = 0.3  # (the dispatcher's send_timeout, 60 s by default)
    before = len(emu.public_messages(1))
    slow = SlowPosts(harness, others=(BOT,))
    caplog.set_level(logging.WARNING, logger="bot.discord.order")
    press = await emu.slash(alice, 1, "play", {"action": await first_legal(harness, 1001)})
    await asyncio.wait_for(slow.waiting.wait(), 10)  # Alice's post hangs: Discord does not answer
    await harness.service.enqueue(1, Reply(BOT))
    harness.bot.dispatcher.wake()
    await emu.wait_for(lambda: new_posts(emu, before), timeout=5)  # after the cap, the bot's post goes
    assert [BOT in text for text in new_posts(emu, before)] == [True]
    assert "a command in channel 1 has not posted after" in caplog.text
    slow.gate.set()  # (Discord answers at last)
    await emu.finished(press)
    assert len(new_posts(emu, before)) == 2
