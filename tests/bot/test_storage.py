"""The storage backends (issue 3 §3, issue 16 §1): versions, atomic commits, migrations.

Every test taking `db` runs on both backends, SQLite and PostgreSQL (the
session's throwaway server, tests/conftest.py). `sqlite_db` / `pg_db` tests check
what only one backend has (pragmas; the migration table).
"""

from __future__ import annotations

import copy
import sqlite3

import asyncpg
import pytest

from bot.storage import (
    ActionRecord,
    Change,
    ChannelBusy,
    Claim,
    PlayerPrefs,
    ReminderRecord,
    SeatRecord,
    Shards,
    SQLiteStorage,
    StaleWrite,
    StorageError,
    migrations,
    open_storage,
    shard_of,
)
from bot.storage.base import AwayRecord, GameRecord, RecordSeat
from bot.storage.postgres import PostgresStorage
from bot.storage.schema import LATEST
from tests.conftest import BACKENDS, database_url

#: What each backend raises when a change breaks the schema's rules (a duplicate sequence number).
INTEGRITY = (sqlite3.IntegrityError, asyncpg.IntegrityConstraintViolationError)


@pytest.fixture(params=BACKENDS)
async def db(request, tmp_path):
    storage = open_storage(database_url(request, request.param, tmp_path, "s"))
    await storage.open()
    yield storage
    await storage.close()


@pytest.fixture
async def sqlite_db(tmp_path):
    storage = SQLiteStorage(tmp_path / "s.sqlite")
    await storage.open()
    yield storage
    await storage.close()


async def new(db, channel=1, guild=9):
    return await db.create_table(
        guild=guild,
        channel=channel,
        game="fake-race",
        creator=1,
        options={"pile": 3},
        seed=5,
        seats=[SeatRecord(1, "ann", None, False, 1.0)],
        remind_every=60.0,
        now=1.0,
    )


async def test_pragmas_and_migrations(sqlite_db, tmp_path):
    db = sqlite_db
    assert await db.schema_version() == LATEST
    con = sqlite3.connect(tmp_path / "s.sqlite")
    assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    con.close()
    async with db._w.execute("PRAGMA foreign_keys") as cur:
        assert (await cur.fetchone())[0] == 1
    # reopening applies nothing twice
    await db.close()
    await db.open()
    assert await db.schema_version() == LATEST


async def test_both_backends_number_their_migrations_alike(db):
    """Schema version N means the same tables on both: `epochs migrate` relies on it."""
    assert [n for n, _ in migrations.STEPS] == list(range(1, LATEST + 1))
    assert await db.schema_version() == LATEST
    await db.close()
    await db.open()  # reopening applies nothing twice
    assert await db.schema_version() == LATEST


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
    with pytest.raises(INTEGRITY):
        await db.commit(
            rec, Change(snapshot="B", actions=[ActionRecord(2, 0, "y", 3.0), ActionRecord(1, 0, "z", 3.0)]), 3.0
        )
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
    await db.commit(rec, Change(actions=[ActionRecord(i, 0, f"a{i}", 2.0, events=[f"e{i}"]) for i in (1, 2, 3)]), 2.0)
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
    with pytest.raises(INTEGRITY):
        await db._write(
            lambda w: w.run("INSERT INTO actions (game, seq, seat, action, time) VALUES (999, 1, 0, 'x', 1)")
        )


async def test_seats_keep_discord_sized_ids_and_joining_order(db):
    big = 1_234_567_890_123_456_789
    rec = await db.create_table(
        guild=None,
        channel=2,
        game="g",
        creator=big,
        options={},
        seed=1,
        seats=[SeatRecord(big, "ann", None, False, 1.0), SeatRecord(5, "bob", None, False, 2.0)],
        remind_every=1.0,
        now=1.0,
    )
    assert [s.user for s in rec.seats] == [big, 5]
    assert [t.id for t in await db.tables(None)] == [rec.id]


def test_the_backend_follows_the_database_url():
    with pytest.raises(StorageError):
        SQLiteStorage(":memory:")
    assert isinstance(open_storage("postgresql://x/y"), PostgresStorage)
    assert isinstance(open_storage("postgres://x/y"), PostgresStorage)
    assert isinstance(open_storage("sqlite:///tmp/x.sqlite"), SQLiteStorage)
    assert isinstance(open_storage("epochs.sqlite"), SQLiteStorage)


async def test_an_unreachable_postgres_server_is_a_clear_error_without_the_password():
    from tests.postgres_server import _free_port

    storage = open_storage(f"postgresql://epochs:hunter2@127.0.0.1:{_free_port()}/epochs")
    with pytest.raises(StorageError) as err:
        await storage.open()
    assert "cannot open the PostgreSQL database" in str(err.value) and "hunter2" not in str(err.value)


async def test_group_commit_keeps_each_change_all_or_nothing(db):
    import asyncio

    tables = [await new(db, channel=c) for c in range(10, 20)]
    same = copy.deepcopy(tables[0])
    later = copy.deepcopy(tables[1])
    later.version, later.revision = 2, 1
    results = await asyncio.gather(
        *(db.commit(t, Change(snapshot=f"s{t.id}", actions=[ActionRecord(1, 0, "a", 2.0)]), 2.0) for t in tables),
        db.commit(same, Change(snapshot="late"), 2.0),  # stale: same revision
        db.commit(later, Change(actions=[ActionRecord(1, 0, "dup", 2.0)]), 2.0),  # duplicate seq
        return_exceptions=True,
    )
    assert results[:10] == [2] * 10
    assert isinstance(results[10], StaleWrite)
    # SQLite writes the batch in call order; PostgreSQL runs the commits side by side, so the
    # duplicate may meet its table before or after the first write moved it on
    assert isinstance(results[11], INTEGRITY if isinstance(db, SQLiteStorage) else (StaleWrite, *INTEGRITY))
    for t in tables:
        assert await db.snapshot(t.id) == (2, f"s{t.id}")
        assert [a.action for a in await db.actions(t.id)] == ["a"]
    assert (await db.table(tables[1].id)).version == 2  # the failed change left no trace


async def test_a_new_numbered_migration_is_applied_once_at_start_keeping_the_data(sqlite_db, monkeypatch):
    from bot.storage import sqlite as module

    db = sqlite_db
    rec = await new(db)
    await db.close()
    extra = [*migrations.STEPS, (LATEST + 1, "ALTER TABLE games ADD COLUMN note TEXT NOT NULL DEFAULT 'x'")]
    monkeypatch.setattr(migrations, "STEPS", extra)
    monkeypatch.setattr(module, "LATEST", LATEST + 1)  # the file's version is no longer from a newer build
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
    task = asyncio.ensure_future(
        db.commit(copy.deepcopy(rec), Change(snapshot="A", actions=[ActionRecord(1, 0, "a", 2.0)]), 2.0)
    )
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


async def test_a_write_cancelled_during_its_commit_ends_cancelled_and_committed(sqlite_db, monkeypatch):
    db = sqlite_db
    rec = await new(db)
    await _cancel_during_commit(db, monkeypatch, lambda: db.set_prefs(PlayerPrefs(7, 22, 7, 60, True)))
    assert (await db.prefs(7)).quiet_start == 22  # the COMMIT went through; nothing half done
    await db.set_prefs(PlayerPrefs(7, 1, 2, 0, False))  # and the next writes work
    assert (await db.prefs(7)).quiet_start == 1
    assert await db.commit(rec, Change(snapshot="B"), 3.0) == 2


async def test_a_group_commit_cancelled_during_its_commit_reports_the_truth(sqlite_db, monkeypatch):
    """The flusher itself cancelled mid-COMMIT (loop shutdown): its callers learn an error,
    never a ROLLBACK failure, and the storage goes on."""
    import asyncio

    db = sqlite_db
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


async def test_postgres_records_each_migration_once_and_applies_a_new_one_keeping_the_data(postgres, monkeypatch):
    url = postgres.schema()
    db = PostgresStorage(url)
    await db.open()
    try:
        rec = await new(db)
        await db.close()
        extra = [*migrations.STEPS, (LATEST + 1, "ALTER TABLE games ADD COLUMN note TEXT NOT NULL DEFAULT 'x'")]
        monkeypatch.setattr(migrations, "STEPS", extra)
        await db.open()
        assert await db.schema_version() == extra[-1][0]
        assert (await db.table(rec.id)).channel == 1
        assert [r[0] for r in await db._p.fetch("SELECT note FROM games")] == ["x"]
        await db.close()
        await db.open()  # nothing applied twice (a second ALTER would fail)
        numbers = [r[0] for r in await db._p.fetch("SELECT number FROM schema_migrations ORDER BY number")]
        assert numbers == [n for n, _ in extra]
    finally:
        await db.close()
        postgres.drop_schema(url)


async def test_two_postgres_processes_starting_together_migrate_once(postgres):
    import asyncio

    url = postgres.schema()
    first, second = PostgresStorage(url), PostgresStorage(url)
    try:
        await asyncio.gather(first.open(), second.open())  # the advisory lock lets one migrate
        assert await first.schema_version() == await second.schema_version() == LATEST
        rec = await new(first)
        assert (await second.table(rec.id)).seats == rec.seats
    finally:
        await first.close()
        await second.close()
        postgres.drop_schema(url)


async def test_a_postgres_write_whose_caller_gives_up_ends_whole_and_close_waits_for_it(postgres):
    import asyncio

    url = postgres.schema()
    db = PostgresStorage(url)
    await db.open()
    try:
        rec = await new(db)
        for i in range(20):  # cancelled at every stage of the transaction, by chance
            task = asyncio.ensure_future(
                db.commit(copy.deepcopy(rec), Change(snapshot=f"s{i}", bump=False, reminders=[]), 2.0)
            )
            await asyncio.sleep(0.0005 * i)
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
            await db.close()
            await db.open()
            fresh = await db.table(rec.id)
            if fresh.revision != rec.revision:  # it went through: whole
                assert await db.snapshot(rec.id) == (1, f"s{i}")
                rec = fresh
            else:  # it did not: nothing of it
                assert (await db.snapshot(rec.id) or (0, ""))[1] != f"s{i}"
    finally:
        await db.close()
        postgres.drop_schema(url)


# ------------------------------------------------------------------ claims (issue 16 §2)


def guild_on(shard: int) -> int:
    """A guild id Discord puts on `shard` of 2 (a real-looking snowflake)."""
    guild = (1_100_000_000 + shard) << 22
    assert shard_of(guild, 2) == shard
    return guild


async def notices_in(db, guilds):
    """One table per guild, each with one notice; returns the notice ids by guild."""
    ids = {}
    for n, guild in enumerate(guilds):
        rec = await new(db, channel=500 + n, guild=guild)
        await db.commit(rec, Change(notices=[(rec.channel, {"text": f"n{n}"})], bump=False), 2.0)
        ids[guild] = [r.id for r in await db.notices() if r.table == rec.id]
    return ids


async def test_a_claimed_notice_is_held_by_one_owner_until_its_lease_runs_out(db):
    await notices_in(db, [1, 2])
    a, b = Claim("a", lease=100.0), Claim("b", lease=100.0)
    held = [n.id for n in await db.claim_notices(a, 10.0)]
    assert len(held) == 2
    assert await db.claim_notices(b, 20.0) == []
    assert [n.id for n in await db.claim_notices(a, 70.0)] == held  # renewed: less than half was left
    assert await db.claim_notices(b, 150.0) == []  # ... so still a's at 150
    await db.mark_sent(held[0], 160.0)
    assert [n.id for n in await db.claim_notices(b, 171.0)] == held[1:]  # a stopped renewing: b takes over
    assert await db.claim_notices(a, 172.0) == []
    assert [n.id for n in await db.notices()] == held[1:]


async def test_claims_and_due_reminders_keep_to_the_owners_shards(db):
    ids = await notices_in(db, [guild_on(0), guild_on(1)])
    loose = await db.add_notice(None, 77, {"text": "no table"}, 3.0)  # no guild known: anyone's
    one = Claim("one", shards=Shards(2, frozenset({1})))
    zero = Claim("zero", shards=Shards(2, frozenset({0})))
    assert [n.id for n in await db.claim_notices(one, 10.0)] == ids[guild_on(1)] + [loose]
    assert [n.id for n in await db.claim_notices(zero, 10.0)] == ids[guild_on(0)]
    for rec in await db.tables(guild_on(0)) + await db.tables(guild_on(1)):
        await db.commit(rec, Change(reminders=[ReminderRecord(rec.id, 1, 5.0)], bump=False), 4.0)
    assert [r.table for r in await db.due_reminders(5.0, Shards(2, frozenset({0})))] == [
        t.id for t in await db.tables(guild_on(0))
    ]
    assert len(await db.due_reminders(5.0)) == 2
    assert await db.due_reminders(5.0, Shards(4, frozenset({2, 3}))) == []


def test_shards_are_discords_and_refuse_impossible_ids():
    assert shard_of(None, 4) == 0 and shard_of(81384788765712384, 4) == (81384788765712384 >> 22) % 4
    assert Shards(3, frozenset({0, 2})).owns(0) and not Shards(3, frozenset({1})).owns(None)
    with pytest.raises(ValueError):
        Shards(2, frozenset({2}))
    with pytest.raises(ValueError):
        Shards(2, frozenset())


async def test_owners_claiming_at_the_same_moment_never_share_a_notice(db):
    """Two storages on one database (two processes' worth), claiming side by side."""
    import asyncio

    url = str(db.url if isinstance(db, PostgresStorage) else db.path)
    other = open_storage(url)
    await other.open()
    try:
        rec = await new(db)
        claimed: dict[str, set[int]] = {"a": set(), "b": set()}
        for round_ in range(15):
            await db.commit(rec, Change(notices=[(1, {"text": f"{round_}.{i}"}) for i in range(4)], bump=False), 2.0)
            got = await asyncio.gather(db.claim_notices(Claim("a"), 10.0), other.claim_notices(Claim("b"), 10.0))
            for owner, notices in zip("ab", got, strict=True):
                claimed[owner] |= {n.id for n in notices}
        assert not claimed["a"] & claimed["b"]
        assert claimed["a"] | claimed["b"] == {n.id for n in await db.notices()}
    finally:
        await other.close()


async def test_export_and_import_carry_every_row_between_backends(db, tmp_path, request):
    from bot.storage.transfer import counts

    rec = await new(db)
    await db.commit(
        rec,
        Change(
            status="active",
            seats=[SeatRecord(1, "ann", 0, False, 1.0), SeatRecord(2, "bob", 1, True, 1.0)],
            actions=[ActionRecord(1, 0, "take 1", 2.0, events=["ann takes 1"], user=1)],
            snapshot="{}",
            reminders=[ReminderRecord(rec.id, 2, 9.0, 1)],
            notices=[(1, {"text": "hi"})],
        ),
        2.0,
    )
    await db.set_prefs(PlayerPrefs(2, 22, 7, 60, True))
    await db.set_away(AwayRecord(2, 2.0, 50.0, "holiday"), forget_before=0.0)
    await db.set_post(rec.id, 123456789012345678, 2.5)
    assert await db.secret("web", lambda: "k" * 43, 2.5) == "k" * 43
    assert await db.reset_link(rec.id, 2) == 1
    await db.commit(
        rec,
        Change(
            status="finished",
            seats=[SeatRecord(1, "ann", 0, False, 1.0), SeatRecord(2, "bob", 1, True, 1.0, "normal")],
            record=GameRecord(
                rec.id,
                9,
                "g",
                "end",
                1.0,
                3.0,
                1,
                True,
                [RecordSeat(0, 1, "ann", None, 5, 1, True), RecordSeat(1, 2, "bob", "normal", 2, 2, False, True)],
            ),
        ),
        3.0,
    )
    rows = await db.export_rows()
    assert counts(rows) == {
        "games": 1,
        "seats": 2,
        "actions": 1,
        "snapshots": 1,
        "reminders": 1,
        "outbox": 1,
        "players": 1,
        "records": 1,
        "record_seats": 2,
        "secrets": 1,
        "links": 1,
        "away": 1,
        "posts": 1,
        "plans": 0,  # a finished table keeps no plans (issue 51; test_migrate.py carries one)
    }
    assert rows["seats"][1][-1] == "normal" and rows["records"][0][-1] is True
    for backend in BACKENDS:
        target = open_storage(database_url(request, backend, tmp_path, f"copy-{backend}"))
        await target.open()
        try:
            await target.import_rows(rows)
            assert await target.export_rows() == rows
            assert await target.row_counts() == counts(rows)
            again = await target.create_table(
                guild=9, channel=2, game="g", creator=1, options={}, seed=1, seats=[], remind_every=1.0, now=3.0
            )
            assert again.id == rec.id + 1  # ids go on after the copied ones
        finally:
            await target.close()


async def test_a_released_claim_is_free_at_once(db):
    await notices_in(db, [1])
    (held,) = await db.claim_notices(Claim("a"), 10.0)
    assert await db.claim_notices(Claim("b"), 11.0) == []
    await db.release_notices("a")  # a clean stop gives them back
    assert [n.id for n in await db.claim_notices(Claim("b"), 12.0)] == [held.id]


async def test_times_away_are_kept_per_player_replaced_by_their_start_and_forgotten_when_old(db):
    """Issue 27 §2: a player's times away, the same in every server."""
    await db.set_away(AwayRecord(1, 100.0, 200.0, "holiday"), forget_before=0.0)
    await db.set_away(AwayRecord(1, 300.0, 400.0), forget_before=0.0)
    await db.set_away(AwayRecord(2, 100.0, 500.0), forget_before=0.0)
    assert [(a.begins, a.ends, a.note) for a in await db.away(1, 0.0)] == [
        (100.0, 200.0, "holiday"),
        (300.0, 400.0, ""),
    ]
    assert [a.begins for a in await db.away(1, 250.0)] == [300.0]  # only those ending after `since`
    await db.set_away(AwayRecord(1, 300.0, 320.0, "back early"), forget_before=250.0)  # `away off`: same start
    assert [(a.begins, a.ends, a.note) for a in await db.away(1, 0.0)] == [(300.0, 320.0, "back early")]
    assert [a.user for a in await db.away(2, 0.0)] == [2]


async def test_a_players_tables_in_every_server_and_their_latest_posts(db):
    """Issue 27 §3: `games mine` reads a player's running tables wherever they are, and each
    table's latest post."""
    first, second, lobby = await new(db, channel=1, guild=9), await new(db, channel=2, guild=10), await new(db, 3)
    for rec in (first, second):
        await db.commit(rec, Change(status="active", seats=[SeatRecord(1, "ann", 0), SeatRecord(2, "bob", 1)]), 2.0)
    assert [t.id for t in await db.seated_tables(2)] == [first.id, second.id]
    assert [t.id for t in await db.seated_tables(1)] == [first.id, second.id]  # not the lobby
    assert lobby.id not in {t.id for t in await db.seated_tables(1)}
    await db.set_post(first.id, 2**62 + 5, 3.0)
    await db.set_post(first.id, 2**62 + 6, 4.0)
    await db.set_post(999_999, 1, 4.0)  # a table forgotten meanwhile: nothing to remember
    assert await db.posts([first.id, second.id, 999_999]) == {first.id: 2**62 + 6}


async def test_an_up_to_date_sqlite_file_opens_while_another_process_holds_its_write_lock(tmp_path):
    """Opening takes the write lock only to migrate: a bot starting beside a busy writer
    (or on a file it may only read) opens at once and reads."""
    path = tmp_path / "s.sqlite"
    async with SQLiteStorage(path) as db:
        rec = await new(db)
    other = sqlite3.connect(path, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")  # another process writing
        async with SQLiteStorage(path) as db:
            assert (await db.table(rec.id)).channel == 1
    finally:
        other.execute("ROLLBACK")
        other.close()
