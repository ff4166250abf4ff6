"""The SQLite storage (issue 3 §3): WAL, foreign keys, migrations, versions, atomic commits."""
from __future__ import annotations

import copy
import sqlite3

import pytest

from bot.storage import (ActionRecord, Change, ChannelBusy, ReminderRecord, SeatRecord, SQLiteStorage, StaleWrite,
                         StorageError, open_storage)
from bot.storage.migrations import MIGRATIONS


@pytest.fixture
async def db(tmp_path):
    storage = SQLiteStorage(tmp_path / "s.sqlite")
    await storage.open()
    yield storage
    await storage.close()


async def new(db, channel=1, guild=9):
    return await db.create_table(guild=guild, channel=channel, game="fake-race", creator=1, options={"pile": 3},
                                 seed=5, seats=[SeatRecord(1, "ann", None, False, 1.0)], remind_every=60.0, now=1.0)


async def test_pragmas_and_migrations(db, tmp_path):
    assert await db.schema_version() == MIGRATIONS[-1][0]
    con = sqlite3.connect(tmp_path / "s.sqlite")
    assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    con.close()
    async with db._w.execute("PRAGMA foreign_keys") as cur:
        assert (await cur.fetchone())[0] == 1
    # reopening applies nothing twice
    await db.close()
    await db.open()
    assert await db.schema_version() == MIGRATIONS[-1][0]


async def test_one_open_table_per_channel(db):
    rec = await new(db)
    assert rec.version == 1 and rec.status == "lobby" and rec.options == {"pile": 3}
    with pytest.raises(ChannelBusy):
        await new(db)
    await db.commit(rec, Change(status="finished"), 2.0)
    again = await new(db)
    assert again.id != rec.id
    assert [t.id for t in await db.tables(9)] == [again.id]
    assert [t.id for t in await db.tables(9, include_closed=True)] == [again.id, rec.id]
    assert (await db.latest_table(1)).id == again.id


async def test_stale_write_is_rejected_and_writes_nothing(db):
    rec = await new(db)
    old = copy.deepcopy(rec)
    v2 = await db.commit(rec, Change(snapshot="A", actions=[ActionRecord(1, 0, "take 1", 2.0)]), 2.0)
    assert v2 == 2 and (rec.version, rec.revision) == (2, 1)
    with pytest.raises(StaleWrite) as err:
        await db.commit(old, Change(snapshot="B", actions=[ActionRecord(2, 0, "take 2", 3.0)]), 3.0)
    assert err.value.actual == 1
    assert await db.snapshot(rec.id) == (2, "A")
    assert [a.action for a in await db.actions(rec.id)] == ["take 1"]


async def test_log_and_snapshot_are_one_transaction(db):
    rec = await new(db)
    await db.commit(rec, Change(snapshot="A", actions=[ActionRecord(1, 0, "x", 2.0)]), 2.0)
    # a duplicate sequence number fails mid-transaction: the snapshot must not move either
    with pytest.raises(sqlite3.IntegrityError):
        await db.commit(rec, Change(snapshot="B", actions=[ActionRecord(2, 0, "y", 3.0),
                                                           ActionRecord(1, 0, "z", 3.0)]), 3.0)
    assert await db.snapshot(rec.id) == (2, "A")
    assert [a.seq for a in await db.actions(rec.id)] == [1]
    assert (await db.table(rec.id)).version == 2


async def test_unbumped_change_keeps_the_version_but_not_the_revision(db):
    rec = await new(db)
    old = copy.deepcopy(rec)
    version = await db.commit(rec, Change(reminders=[ReminderRecord(rec.id, 1, 50.0, 0)], bump=False), 2.0)
    assert version == 1 and rec.revision == 1
    with pytest.raises(StaleWrite):  # a vote written meanwhile is never overwritten
        await db.commit(old, Change(meta={"votes": {}}, bump=False), 2.0)
    assert await db.due_reminders(49.0) == [] and len(await db.due_reminders(50.0)) == 1


async def test_undo_marks_lines_and_keeps_them(db):
    rec = await new(db)
    await db.commit(rec, Change(actions=[ActionRecord(i, 0, f"a{i}", 2.0, events=[f"e{i}"])
                                         for i in (1, 2, 3)]), 2.0)
    await db.commit(rec, Change(undo_from=2), 3.0)
    rows = await db.actions(rec.id)
    assert [(r.seq, r.undone, r.events) for r in rows] == [(1, False, ["e1"]), (2, True, ["e2"]), (3, True, ["e3"])]
    assert [r.seq for r in await db.actions(rec.id, after=2)] == [3]


async def test_outbox_rows_wait_until_marked_sent(db):
    rec = await new(db)
    await db.commit(rec, Change(notices=[(1, {"text": "hi"}), (2, {"text": "there"})], bump=False), 2.0)
    rows = await db.notices()
    assert [(r.channel, r.payload["text"]) for r in rows] == [(1, "hi"), (2, "there")]
    await db.mark_sent(rows[0].id, 3.0)
    assert [r.channel for r in await db.notices()] == [2]


async def test_foreign_keys_hold(db):
    ghost = copy.deepcopy(await new(db))
    ghost.id = 999
    with pytest.raises(StaleWrite):
        await db.commit(ghost, Change(), 1.0)  # no such table
    with pytest.raises(sqlite3.IntegrityError):
        await db._write(lambda w: w.execute(
            "INSERT INTO actions (game, seq, seat, action, time) VALUES (999, 1, 0, 'x', 1)"))


async def test_seats_keep_discord_sized_ids_and_joining_order(db):
    big = 1_234_567_890_123_456_789
    rec = await db.create_table(guild=None, channel=2, game="g", creator=big, options={}, seed=1,
                                seats=[SeatRecord(big, "ann", None, False, 1.0), SeatRecord(5, "bob", None, False, 2.0)],
                                remind_every=1.0, now=1.0)
    assert [s.user for s in rec.seats] == [big, 5]
    assert [t.id for t in await db.tables(None)] == [rec.id]


def test_memory_databases_and_postgres_urls_are_refused():
    with pytest.raises(StorageError):
        SQLiteStorage(":memory:")
    with pytest.raises(StorageError):
        open_storage("postgresql://x/y")
    assert isinstance(open_storage("sqlite:///tmp/x.sqlite"), SQLiteStorage)


async def test_group_commit_keeps_each_change_all_or_nothing(db):
    import asyncio

    tables = [await new(db, channel=c) for c in range(10, 20)]
    same = copy.deepcopy(tables[0])
    later = copy.deepcopy(tables[1])
    later.version, later.revision = 2, 1
    results = await asyncio.gather(
        *(db.commit(t, Change(snapshot=f"s{t.id}", actions=[ActionRecord(1, 0, "a", 2.0)]), 2.0)
          for t in tables),
        db.commit(same, Change(snapshot="late"), 2.0),                                # stale: same revision
        db.commit(later, Change(actions=[ActionRecord(1, 0, "dup", 2.0)]), 2.0),      # duplicate seq
        return_exceptions=True)
    assert results[:10] == [2] * 10
    assert isinstance(results[10], StaleWrite)
    assert isinstance(results[11], sqlite3.IntegrityError)
    for t in tables:
        assert await db.snapshot(t.id) == (2, f"s{t.id}")
        assert [a.action for a in await db.actions(t.id)] == ["a"]
    assert (await db.table(tables[1].id)).version == 2  # the failed change left no trace


async def test_a_new_numbered_migration_is_applied_once_at_start_keeping_the_data(db, monkeypatch):
    from bot.storage import sqlite as module

    rec = await new(db)
    await db.close()
    extra = MIGRATIONS + [(MIGRATIONS[-1][0] + 1, "ALTER TABLE games ADD COLUMN note TEXT NOT NULL DEFAULT 'x'")]
    monkeypatch.setattr(module, "MIGRATIONS", extra)
    await db.open()
    assert await db.schema_version() == extra[-1][0]
    assert (await db.table(rec.id)).channel == 1
    async with db._r.execute("SELECT note FROM games") as cur:
        assert await cur.fetchall() == [("x",)]
    await db.close()
    await db.open()  # nothing applied twice (a second ALTER would fail)
    assert await db.schema_version() == extra[-1][0]


async def test_a_caller_giving_up_never_leaves_a_commit_half_done(db):
    import asyncio

    rec = await new(db)
    task = asyncio.ensure_future(db.commit(copy.deepcopy(rec), Change(snapshot="A",
                                           actions=[ActionRecord(1, 0, "a", 2.0)]), 2.0))
    await asyncio.sleep(0)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    await db.close()  # waits for the write in flight
    await db.open()
    # the write went through whole (the caller just did not wait for the answer)
    assert await db.snapshot(rec.id) == (2, "A")
    assert [a.action for a in await db.actions(rec.id)] == ["a"]
    fresh = await db.table(rec.id)
    assert await db.commit(fresh, Change(), 3.0) == 3  # and the storage goes on


async def _cancel_during_commit(db, monkeypatch, write):
    """Run `write()` and cancel it while its COMMIT is running in aiosqlite's thread."""
    import asyncio

    w = db._w
    real = w.execute
    commit_started = asyncio.Event()

    def execute(sql, *args, **kwargs):
        if sql == "COMMIT":
            commit_started.set()
        return real(sql, *args, **kwargs)

    monkeypatch.setattr(w, "execute", execute)
    task = asyncio.ensure_future(write())
    await commit_started.wait()
    task.cancel()  # lands while the COMMIT is awaited (it goes on in the worker thread)
    with pytest.raises(asyncio.CancelledError):  # not "cannot rollback - no transaction is active"
        await task
    monkeypatch.setattr(w, "execute", real)
    assert not w.in_transaction  # the writer is left clean


async def test_a_write_cancelled_during_its_commit_ends_cancelled_and_committed(db, monkeypatch):
    from bot.storage import PlayerPrefs

    rec = await new(db)
    await _cancel_during_commit(db, monkeypatch, lambda: db.set_prefs(PlayerPrefs(7, 22, 7, 60, True)))
    assert (await db.prefs(7)).quiet_start == 22  # the COMMIT went through; nothing half done
    await db.set_prefs(PlayerPrefs(7, 1, 2, 0, False))  # and the next writes work
    assert (await db.prefs(7)).quiet_start == 1
    assert await db.commit(rec, Change(snapshot="B"), 3.0) == 2


async def test_a_group_commit_cancelled_during_its_commit_reports_the_truth(db, monkeypatch):
    """The flusher itself cancelled mid-COMMIT (loop shutdown): its callers learn an error,
    never a ROLLBACK failure, and the storage goes on."""
    import asyncio

    rec = await new(db)

    async def write():
        waiter = asyncio.ensure_future(db.commit(copy.deepcopy(rec), Change(snapshot="C"), 2.0))
        await asyncio.sleep(0)
        try:
            await asyncio.shield(waiter)
        except asyncio.CancelledError:
            db._flusher.cancel() if db._flusher is not None else None
            # the caller must hear an outcome (the old code left it waiting forever)
            outcome = await asyncio.wait_for(asyncio.gather(waiter, return_exceptions=True), 5)
            assert not isinstance(outcome[0], sqlite3.OperationalError), outcome
            raise

    await _cancel_during_commit(db, monkeypatch, write)
    assert await db.snapshot(rec.id) == (2, "C")
    fresh = await db.table(rec.id)
    assert await db.commit(fresh, Change(snapshot="D"), 3.0) == 3
