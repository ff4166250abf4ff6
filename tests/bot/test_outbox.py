"""Messages a transport could not deliver are kept in the outbox (Service.enqueue) and
go out later, after a restart too; `prepare` draws their board again at send time."""

from __future__ import annotations

import json
from dataclasses import dataclass

import pytest

from bot.service import Reply, Service, Settings
from bot.storage import open_storage

from .conftest import CHANNEL, GAMES, Table


@dataclass
class Picture:
    png: bytes
    alt: str


def renderer(game_id, view, *, seat=None, part=None, highlight=()):
    return Picture(b"\x89PNG-" + str(view["pile"]).encode(), f"pile {view['pile']}")


pytestmark = pytest.mark.both_backends  # the outbox is storage: run on SQLite and PostgreSQL


@pytest.fixture
async def drawn(database, clock):
    """A service that draws boards (a tiny fake renderer)."""
    storage = open_storage(database)
    await storage.open()
    t = Table(
        Service(storage, clock=clock, games=GAMES, settings=Settings(images=True), renderer=renderer),
        storage,
        clock,
        database,
    )
    yield t
    await t.storage.close()


async def reopen(t: Table) -> None:
    await t.reopen()
    t.service.tables.renderer = renderer


async def test_an_enqueued_post_survives_a_restart_without_its_image_bytes(drawn):
    await drawn.started()
    reply = await drawn.ok(1, "play take 2")
    assert reply.image is not None and reply.mentions == [2]
    rec = await drawn.storage.open_table(CHANNEL)
    notice_id = await drawn.service.enqueue(CHANNEL, reply, tags={"buttons": "undo"})
    after = await drawn.storage.open_table(CHANNEL)
    assert (after.version, after.revision) == (rec.version, rec.revision)  # the table is untouched
    await reopen(drawn)
    (notice,) = await drawn.service.tick()
    assert notice.id == notice_id and notice.channel == CHANNEL
    assert notice.board and notice.reply.image is None and notice.tags == {"buttons": "undo"}
    assert notice.reply.text == reply.text and notice.reply.mentions == [2]
    assert notice.reply.table_id == rec.id and notice.reply.version == rec.version
    (row,) = await drawn.storage.notices()
    assert "PNG" not in json.dumps(row.payload)  # no image bytes stored
    sent = await drawn.service.prepare(notice)
    assert sent.image is not None and sent.image.png == reply.image.png and sent.image.alt == reply.image.alt
    assert sent.mentions == [2] and "late" not in sent.text
    await drawn.service.delivered(notice.id)
    assert await drawn.service.tick() == []


async def test_a_held_post_of_a_game_that_moved_on_goes_without_board_or_pings(drawn):
    await drawn.started()
    reply = await drawn.ok(1, "play take 2")
    await drawn.service.enqueue(CHANNEL, reply)
    await drawn.ok(2, "play take 1")
    (notice,) = await drawn.service.tick()
    sent = await drawn.service.prepare(notice)
    assert sent.image is None and sent.mentions == [] and sent.choices == {}
    assert sent.text.startswith(reply.text) and "moved on" in sent.text


async def test_an_enqueued_dm_keeps_its_private_part(drawn):
    from bot.service import Private, Reply

    await drawn.started()
    held = Reply(private=[Private(2, "Since your last turn: ann took 2", None, True)], table_id=1, version=3)
    await drawn.service.enqueue(CHANNEL, held, tags={"dm": 2})
    await reopen(drawn)
    (notice,) = await drawn.service.tick()
    assert not notice.board and notice.tags == {"dm": 2}
    assert [(p.user, p.text, p.dm) for p in notice.reply.private] == [(2, "Since your last turn: ann took 2", True)]
    assert (await drawn.service.prepare(notice)).text == ""


async def test_since_last_turn_is_worked_out_from_the_stored_log(table):
    await table.started()
    await table.ok(1, "play take 2")
    await table.reopen()  # no memory needed
    summary = await table.service.since_last_turn(CHANNEL, 2)
    assert summary == "Since your last turn:\n• ann took 2; 4 left.\n• Scores: ann 0 → 2"
    assert await table.service.since_last_turn(CHANNEL, 1) == ""  # not to act
    assert await table.service.since_last_turn(CHANNEL, 9) == ""  # not a player
    assert await table.service.since_last_turn(CHANNEL + 1, 2) == ""  # no game there
    await table.ok(2, "play take 1")
    assert "• bob took 1; 3 left." in await table.service.since_last_turn(CHANNEL, 1)
    assert "ann" not in await table.service.since_last_turn(CHANNEL, 1)  # only since their last turn


async def test_a_held_text_only_post_of_a_game_that_moved_on_loses_its_pings_too(table):
    await table.started()
    reply = await table.ok(1, "play take 2")
    assert reply.image is None and reply.mentions == [2]  # images off: nothing to draw
    await table.service.enqueue(CHANNEL, reply)
    (notice,) = await table.service.tick()
    assert notice.held and not notice.board
    assert (await table.service.prepare(notice)).mentions == [2]  # still current: as it was
    await table.ok(2, "play take 1")
    (notice,) = await table.service.tick()
    sent = await table.service.prepare(notice)
    assert sent.mentions == [] and "moved on" in sent.text


async def test_service_notices_are_not_touched_by_prepare(table):
    await table.started()
    table.clock.advance(13)
    (reminder,) = await table.service.tick()
    assert not reminder.held and not reminder.board
    text = reminder.reply.text
    assert (await table.service.prepare(reminder)).text == text


# ---- issue 50: a held post prepared late never drops the only notification of someone who
# still must act, and never pings someone who no longer must


async def test_50_a_late_held_post_keeps_the_pings_of_those_who_still_must_act(table):
    """The start post pings all three bidders; it is held (Discord refused it) and goes
    after ann's bid. Her bid ends no one else's turn and posts nothing (the turn does not
    pass): the held post is bob's and cy's only notification, so it keeps their pings."""
    start = await table.started(users=(1, 2, 3), options="seed=7 pile=6 bids=true")
    assert sorted(start.mentions) == [2, 3]  # ann started it: her panel, no ping
    await table.service.enqueue(CHANNEL, start)
    bid = await table.ok(1, "play bid 1")
    assert bid.panel and not bid.mentions  # ann's turn is over; nothing posted
    (notice,) = await table.service.tick()
    sent = await table.service.prepare(notice)
    assert sorted(sent.mentions) == [2, 3]
    assert sorted(sent.choices) == [2, 3]  # their choices still stand
    assert "Sent late" not in sent.text  # nobody who acted since was told otherwise


async def test_50_a_late_held_post_pings_only_those_still_in_the_turn_it_named(table):
    """Of the held start post's pings, bob's goes (he still must act); cy's is dropped: she
    has bid since, so she cannot act and must not be pinged."""
    start = await table.started(users=(1, 2, 3), options="seed=7 pile=6 bids=true")
    await table.service.enqueue(CHANNEL, start)
    await table.ok(3, "play bid 2")
    (notice,) = await table.service.tick()
    sent = await table.service.prepare(notice)
    assert sent.mentions == [2] and sorted(sent.choices) == [2]


async def test_50_a_late_held_post_never_pings_a_second_time_a_player_a_later_post_named(table):
    """bob is pinged by the held post, acts, and is to act again at once (a new turn of
    his, pinged by its own post): the held post is late for that turn and must not ping
    him again (one notification per turn, whichever post goes first)."""
    await table.started()
    first = await table.ok(1, "play take 1")
    assert first.mentions == [2]
    await table.service.enqueue(CHANNEL, first)
    await table.ok(2, "play take 1")
    second = await table.ok(1, "play take 1")
    assert second.mentions == [2]
    (notice,) = await table.service.tick()
    sent = await table.service.prepare(notice)
    assert sent.mentions == [] and sent.choices == {}


async def test_50_a_post_tells_only_the_steps_up_to_its_own_commit(table, database, clock):
    """Another process stores bob's move between ann's commit and the reading of ann's post
    (a bot's move does this in play): ann's post tells ann's move alone, and bob's post tells
    bob's alone — no step told twice, none told before the post that should tell it."""
    start = await table.started()
    other = open_storage(database)
    await other.open()
    second = Service(other, clock=clock, games=GAMES, settings=table.service.settings)
    storage = table.service.tables.storage
    read_log = storage.actions
    raced: list[Reply] = []

    async def actions(table_id: int, after: int = 0):
        if not raced:  # ann's post reads what it tells: bob moves first
            raced.append(await second.handle(CHANNEL, 2, "bob", "play take 1", guild=1))
        return await read_log(table_id, after)

    storage.actions = actions
    try:
        ann = await table.ok(1, "play take 1")
    finally:
        storage.actions = read_log
        await other.close()
    assert raced and not raced[0].error, raced
    told = [e.seq for e in ann.story if e.kind == "move"]
    bob = [e.seq for e in raced[0].story if e.kind == "move"]
    assert told and bob and max(told) < min(bob), (told, bob)
    assert not [e for e in start.story if e.kind == "move" and e.seq >= min(told)]
