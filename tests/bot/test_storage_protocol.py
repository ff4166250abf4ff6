"""The service runs unchanged on a second Storage written only from the
interface (issue 3 §3: "SQL-dialect-contained, so a PostgreSQL backend can be
added later without touching the service")."""

from __future__ import annotations

import asyncio
import random

import pytest

from bot.service import Service, Settings

from .conftest import CHANNEL, GAMES, NAMES, Clock
from .memory_storage import MemoryStorage


@pytest.fixture
def memory():
    clock = Clock()
    storage = MemoryStorage()
    return Service(storage, clock=clock, games=GAMES, settings=Settings(images=False, absent_after=1)), clock


async def say(service, user, line):
    return await service.handle(CHANNEL, user, NAMES[user], line, guild=1)


async def test_a_whole_game_undo_reminders_and_votes_on_another_backend(memory):
    service, clock = memory
    for user, line in (
        (1, "game new fake-race seed=5 pile=12"),
        (2, "game join"),
        (3, "game join"),
        (1, "game start fixed"),
        (1, "play take 1"),
        (2, "play take 2"),
        (2, "undo"),
    ):
        reply = await say(service, user, line)
        assert not reply.error, (line, reply.text)
    rec = await service.storage.open_table(CHANNEL)
    assert [a.undone for a in await service.storage.actions(rec.id)] == [False, True]
    clock.advance(12)
    (notice,) = await service.tick()
    assert notice.reply.mentions[0] == 2 and "vote skip" in notice.reply.text
    await service.delivered(notice.id)
    assert not (await say(service, 1, "vote skip")).error
    skipped = await say(service, 3, "vote skip")
    assert "voted to skip bob's turn" in skipped.text
    rng = random.Random(3)
    while (rec := await service.storage.open_table(CHANNEL)) is not None:
        choices = (await say(service, 1, "board")).choices
        user, legal = next(iter(choices.items()))
        assert not (await say(service, user, "play " + rng.choice(legal))).error
    rec = await service.storage.latest_table(CHANNEL)
    game = GAMES["fake-race"]
    assert rec.status == "finished"
    assert game.dumps(await service.replay(rec.id)) == (await service.storage.snapshot(rec.id))[1]


async def test_races_on_another_backend(memory):
    service, _ = memory
    for user, line in ((1, "game new fake-race seed=5"), (2, "game join"), (1, "game start fixed")):
        await say(service, user, line)
    replies = await asyncio.gather(say(service, 1, "play take 1"), say(service, 1, "play take 2"))
    assert sorted(r.error for r in replies) == [False, True]
    assert next(r for r in replies if r.error).stale
    assert len(await service.storage.actions(1)) == 1
