"""`epochs migrate FROM TO` (issue 16 §3): every row copied, the copy verified, both ways."""

from __future__ import annotations

import random

import pytest

import engine
from bot.__main__ import main
from bot.migrate import MigrateError, migrate
from bot.service import Service, Settings
from bot.storage import open_storage
from bot.storage.postgres import PostgresStorage
from bot.storage.transfer import TABLES
from tests.conftest import database_url

from .conftest import GAMES, Clock

GUILD = 7


async def community(database: str, clock: Clock) -> None:
    """A server's worth of history: a finished game, one running with an undo, a vote and
    a resignation, a lobby, a cancelled table, reminders, sent and unsent notices, prefs."""
    storage = open_storage(database)
    await storage.open()
    service = Service(storage, clock=clock, games=GAMES, settings=Settings(images=False, absent_after=1))

    async def say(channel: int, user: int, line: str) -> None:
        reply = await service.handle(channel, user, f"p{user}", line, guild=GUILD)
        assert not reply.error, (line, reply.text)

    try:
        await say(1, 1, "settings quiet 22-7 utc+2")
        await say(1, 2, "settings dm on")
        # channel 1: a fake-race game played to its end
        for user, line in ((1, "game new fake-race seed=3 pile=5"), (2, "game join"), (1, "game start fixed")):
            await say(1, user, line)
        rng = random.Random(1)
        while (rec := await storage.open_table(1)) is not None:
            state = await service.tables.state(rec)
            seat = GAMES["fake-race"].to_act(state)[0]
            player = rec.user_at(seat)
            assert player is not None
            await say(1, player.user, "play " + rng.choice(GAMES["fake-race"].legal_actions(state, seat)))
        # channel 2: three players (equal joining times), an undo, a resignation, a reminder and a vote
        for user, line in (
            (1, "game new fake-race seed=4 pile=30 clock=2d"),  # a clock in its meta (issue 27 §1)
            (2, "game join"),
            (3, "game join"),
            (1, "game start fixed"),
            (1, "play take 1"),
            (2, "play take 2"),
            (2, "undo"),
            (3, "resign"),
        ):
            await say(2, user, line)
        clock.advance(13)
        notices = await service.tick()
        await service.delivered(notices[0].id)  # one delivered, the rest wait in the outbox
        await say(2, 1, "vote skip")
        # channel 3: a lobby; channel 4: a cancelled table; channel 5: a real game under way
        await say(3, 4, "game new fake-race")
        await say(4, 1, "game new fake-race seed=9")
        await say(4, 2, "game join")
        await say(4, 1, "game start")
        await say(4, 1, "game cancel")
        if "rising-cultures" in engine.GAMES:
            await say(5, 1, "game new rising-cultures seed=11")
            await say(5, 2, "game join")
            await say(5, 1, "game start fixed")
            for _ in range(12):
                rec = await storage.open_table(5)
                assert rec is not None
                state = await service.tables.state(rec)
                game = GAMES[rec.game]
                seat = game.to_act(state)[0]
                player = rec.user_at(seat)
                assert player is not None
                await say(5, player.user, "play " + rng.choice(game.legal_actions(state, seat)))
            rec = await storage.open_table(5)
            assert rec is not None
            state = await service.tables.state(rec)
            waiting = next(p for p in rec.players if p.seat not in GAMES[rec.game].to_act(state))
            await say(5, waiting.user, "plan done")  # a planned move (issue 51)
        await storage.add_notice(None, 66, {"text": "a held post of no table"}, clock.now)
        await storage.secret("web", lambda: "a signing key", clock.now)  # the web table's (issue 28)
        cancelled = await storage.latest_table(4)
        assert cancelled is not None
        await storage.reset_link(cancelled.id, 2)
        await say(1, 2, "away 3d back on Monday")  # a time away (issue 27 §2)
        # a table's latest post, as Discord's adapter records it
        await service.posted(cancelled.id, 1234567890123456789)
    finally:
        await storage.close()


async def rows_of(database: str) -> dict:
    storage = open_storage(database)
    await storage.open()
    try:
        return await storage.export_rows()
    finally:
        await storage.close()


async def test_sqlite_to_postgres_to_sqlite_keeps_every_row_and_every_replay(request, tmp_path, clock):
    first = database_url(request, "sqlite", tmp_path, "first")
    middle = database_url(request, "postgres", tmp_path)
    last = database_url(request, "sqlite", tmp_path, "last")
    await community(first, clock)
    original = await rows_of(first)
    assert all(original[t] for t, _ in TABLES), {t: len(r) for t, r in original.items()}  # every table has rows
    assert {row[5] is None for row in original["outbox"]} == {True, False}  # sent and unsent notices
    said: list[str] = []
    there = await migrate(first, middle, games=GAMES, say=said.append)
    assert there.ok, there.problems
    assert there.counts == {t: len(original[t]) for t, _ in TABLES}
    assert there.replayed == len(original["snapshots"]) and there.without_position == 1  # the lobby
    assert await rows_of(middle) == original
    back = await migrate(middle, last, games=GAMES, say=said.append)
    assert back.ok, back.problems
    assert await rows_of(last) == original
    assert "copying" in said[0] and "postgresql://" in said[0]


async def test_the_copy_plays_on_where_the_source_stopped(request, tmp_path, clock):
    source = database_url(request, "sqlite", tmp_path, "source")
    target = database_url(request, "postgres", tmp_path)
    await community(source, clock)
    assert (await migrate(source, target, games=GAMES, say=lambda _: None)).ok
    storage = open_storage(target)
    await storage.open()
    try:
        service = Service(storage, clock=clock, games=GAMES, settings=Settings(images=False, absent_after=1))
        rec = await storage.open_table(2)
        state = await service.tables.state(rec)
        seat = GAMES["fake-race"].to_act(state)[0]
        legal = GAMES["fake-race"].legal_actions(state, seat)
        status = await service.handle(2, 1, "ann", "game status", guild=GUILD)
        assert "Clock (2d, +1d a move, at most 2d):" in status.text  # the clocks came along (issue 27)
        reply = await service.handle(2, rec.user_at(seat).user, "x", "play " + legal[0], guild=GUILD)
        assert not reply.error, reply.text
        open_channels = {t.channel for t in await storage.tables(GUILD)}
        assert {2, 3} <= open_channels and not {1, 4} & open_channels  # finished and cancelled stay closed
        created = await service.handle(9, 1, "ann", "game new fake-race", guild=GUILD)
        assert not created.error and (await storage.open_table(9)).id > max(
            r[0] for r in (await rows_of(source))["games"]
        )
        assert (await storage.prefs(1)).quiet_start == 22 and (await storage.prefs(2)).dm
        held = [n.channel for n in await service.pending_notices()]
        assert 66 in held  # the unsent notices came along, the delivered one did not come back
    finally:
        await storage.close()


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
async def test_a_target_that_is_not_empty_is_refused_and_left_alone(request, tmp_path, clock, backend):
    source = database_url(request, "sqlite", tmp_path, "source")
    target = database_url(request, backend, tmp_path, "target")
    await community(source, clock)
    storage = open_storage(target)
    await storage.open()
    await storage.create_table(
        guild=1, channel=1, game="fake-race", creator=1, options={}, seed=1, seats=[], remind_every=1.0, now=1.0
    )
    await storage.close()
    before = await rows_of(target)
    with pytest.raises(MigrateError, match="not empty .*1 games"):
        await migrate(source, target, games=GAMES)
    assert await rows_of(target) == before


async def test_a_missing_source_or_the_same_database_is_refused(tmp_path):
    with pytest.raises(MigrateError, match="no SQLite database"):
        await migrate(str(tmp_path / "nothing.sqlite"), str(tmp_path / "t.sqlite"))
    assert not (tmp_path / "nothing.sqlite").exists()
    with pytest.raises(MigrateError, match="same database"):
        await migrate(str(tmp_path / "a.sqlite"), str(tmp_path / "a.sqlite"))


async def test_a_log_that_does_not_replay_to_its_snapshot_fails_the_check(request, tmp_path, clock):
    source = database_url(request, "sqlite", tmp_path, "source")
    await community(source, clock)
    storage = open_storage(source)
    await storage.open()
    rec = await storage.open_table(2)
    await storage._write(
        lambda w: w.run(
            "UPDATE snapshots SET state = replace(state, '\"pile\"', '\"pile\" ') WHERE game = ?", (rec.id,)
        )
    )
    await storage.close()
    outcome = await migrate(source, database_url(request, "postgres", tmp_path), games=GAMES, say=lambda _: None)
    assert not outcome.ok
    assert outcome.problems == [f"table {rec.id}: replaying its log does not give its stored position"]


def test_the_copy_covers_every_table_of_both_schemas(tmp_path, postgres):
    """A table added by a later migration must be added to transfer.TABLES too."""
    import asyncio
    import sqlite3

    async def schemas() -> tuple[set[str], set[str]]:
        lite = open_storage(str(tmp_path / "s.sqlite"))
        await lite.open()
        await lite.close()
        url = postgres.schema()
        pg = open_storage(url)
        assert isinstance(pg, PostgresStorage)  # its pool, to list the tables
        await pg.open()
        try:
            names = {
                r[0]
                for r in await pg._p.fetch(
                    "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
                )
            }
        finally:
            await pg.close()
            postgres.drop_schema(url)
        con = sqlite3.connect(tmp_path / "s.sqlite")
        lite_names = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        con.close()
        return lite_names - {"sqlite_sequence"}, names - {"schema_migrations"}

    lite_names, pg_names = asyncio.run(schemas())
    assert lite_names == pg_names == {t for t, _ in TABLES}


def test_epochs_migrate_on_the_command_line(request, tmp_path, capsys, clock):
    import asyncio

    source = database_url(request, "sqlite", tmp_path, "cli")
    target = database_url(request, "postgres", tmp_path)

    async def fill() -> None:
        storage = open_storage(source)
        await storage.open()
        service = Service(storage, clock=clock, settings=Settings(images=False))
        for user, line in ((1, "game new rising-cultures seed=5"), (2, "game join"), (1, "game start fixed")):
            assert not (await service.handle(1, user, f"p{user}", line, guild=GUILD)).error
        await storage.close()

    asyncio.run(fill())
    assert main(["migrate", source, target]) == 0
    out = capsys.readouterr()
    assert "verified: counts, every row and every replay match" in out.out and "games 1" in out.out
    assert main(["migrate", source, target]) == 2  # now the target is not empty
    assert "is not empty" in capsys.readouterr().err
