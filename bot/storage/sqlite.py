"""The embedded default storage: one SQLite file through aiosqlite.

- WAL mode, `synchronous=FULL` (a commit is on disk before it returns: every
  accepted action is stored before anyone is told), foreign keys on.
- Two connections: one writer, used under an asyncio lock so this process's
  writes never interleave, always inside `BEGIN IMMEDIATE` (which also
  serialises writers across processes); one reader, whose single-statement
  reads see only committed data (WAL snapshots).
- `commit` checks the table's version inside the write transaction: a stale
  write raises `StaleWrite` and writes nothing. Action log lines, snapshot,
  reminders and outbox rows of one command land in that one transaction.
- Group commit: changes that arrive while a transaction is being written wait
  and then go together, each in its own savepoint (its own version check and
  all-or-nothing), under one COMMIT: one fsync for many commands.
- Numbered migrations (migrations.py) are applied at `open`.
- A database that stops taking writes while the bot runs (made read-only, full, locked
  by another process, an I/O error) raises `StorageUnavailable`: `stored=False` when
  the failure came before COMMIT; when the COMMIT itself failed, the table is read
  back to find out whether it landed (`base.landed_change`). The writer connection is
  then opened afresh for the next write, so a file made writable again is written.

All SQL lives in this module; the service only sees `storage.base`.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import sqlite3
import urllib.parse
from collections.abc import Awaitable, Callable, Iterable, Sequence
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from . import ratings
from .base import (
    OPEN_STATUSES,
    RECHECK_DELAYS,
    ActionRecord,
    AwayRecord,
    Change,
    ChannelBusy,
    Claim,
    DamagedDatabase,
    GameRecord,
    NoticeRecord,
    PlayerPrefs,
    Rating,
    RecordSeat,
    ReminderRecord,
    SeatRecord,
    Shards,
    Skill,
    StaleWrite,
    Standing,
    StorageError,
    StorageUnavailable,
    TableRecord,
    find_out,
    landed_change,
    note_write,
)
from .migrations import MIGRATIONS, RATINGS
from .ratings import Key, Recomputed, Scope
from .transfer import ORDER, TABLES, Rows, normalise

log = logging.getLogger(__name__)

T = TypeVar("T")
#: A change waiting for the next group commit, and where its new version goes.
_Queued = tuple[TableRecord, Change, float, "asyncio.Future[int]"]

_OPEN = "('lobby','active','paused')"
assert set(OPEN_STATUSES) == {"lobby", "active", "paused"}

_TABLE = """
SELECT g.id, g.guild, g.channel, g.game, g.status, g.creator, g.options, g.seed, g.version, g.created,
       g.updated, g.remind_every, g.meta, g.revision
  FROM games g
"""
_SEATS = (
    "SELECT game, user, name, seat, resigned, joined, bot FROM seats WHERE game IN ({}) ORDER BY game, joined, rowid"
)
#: A record that counts in statistics and ratings: played to its end or ended by resignation,
#: not practice.
_COUNTED = "r.practice = 0 AND r.reason IN ('end','resign')"

#: The first 16 bytes of every SQLite 3 database file.
_MAGIC = b"SQLite format 3\x00"
#: SQLite's (primary) result codes of a database that cannot be used at the moment, as
#: opposed to a fault in a statement: busy or locked by another process, read-only, an I/O
#: error, a full disk, a file that cannot be opened or is not permitted, out of memory.
_OUTAGES = {
    sqlite3.SQLITE_BUSY: "it is locked by another process",
    sqlite3.SQLITE_LOCKED: "it is locked",
    sqlite3.SQLITE_READONLY: "it cannot be written (read-only)",
    sqlite3.SQLITE_IOERR: "the disk reported an I/O error",
    sqlite3.SQLITE_FULL: "the disk is full",
    sqlite3.SQLITE_CANTOPEN: "the file cannot be opened",
    sqlite3.SQLITE_PERM: "access to the file is denied",
    sqlite3.SQLITE_NOMEM: "SQLite ran out of memory",
    sqlite3.SQLITE_PROTOCOL: "its locking protocol failed",
}
#: Result codes after which a failed COMMIT certainly wrote nothing: the others (an I/O
#: error while syncing) may have left a commit that a later recovery brings back.
_NOTHING_WRITTEN = {
    sqlite3.SQLITE_BUSY,
    sqlite3.SQLITE_LOCKED,
    sqlite3.SQLITE_READONLY,
    sqlite3.SQLITE_FULL,
    sqlite3.SQLITE_CANTOPEN,
    sqlite3.SQLITE_PERM,
}


def _outage(err: BaseException) -> int | None:
    """The primary result code of an error that means the database cannot be used right now."""
    code = getattr(err, "sqlite_errorcode", None)
    if isinstance(err, sqlite3.Error) and code is not None and code & 0xFF in _OUTAGES:
        return int(code & 0xFF)
    return None


def _unavailable(path: Path, code: int, err: BaseException, stored: bool | None = False) -> StorageUnavailable:
    return StorageUnavailable(f"the database {path}: {_OUTAGES[code]} ({err})", stored=stored)


def inspect_file(path: Path) -> str | None:
    """What makes `path` unusable as a database, or None (also for a new, empty file).

    Cheap enough for every start (header, size, schema; no full scan), and read
    only: a damaged file is left exactly as it was. Damage deeper inside a table
    shows when that table is read, as that table's problem alone."""
    if not path.exists():
        return None
    if path.is_dir():
        return "it is a folder, not a file"
    try:
        with path.open("rb") as handle:
            header = handle.read(100)
        size = path.stat().st_size
    except OSError as err:
        return f"it cannot be read ({err.strerror or err})"
    if size == 0:
        return None
    if len(header) < 100 or not header.startswith(_MAGIC):
        return "it is not a SQLite database (it does not start with SQLite's header)"
    page_size = int.from_bytes(header[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    if page_size < 512 or page_size & (page_size - 1):
        return f"its header names an impossible page size ({page_size})"
    pages = int.from_bytes(header[28:32], "big")
    header_valid = header[24:28] == header[92:96] and pages > 0
    if size % page_size or (header_valid and pages * page_size > size):
        return f"it is truncated (its header describes {pages * page_size:,} bytes, the file holds {size:,})"
    try:
        # immutable: read the main file alone, creating no -wal/-shm beside a damaged file
        conn = sqlite3.connect(f"file:{urllib.parse.quote(str(path.resolve()))}?mode=ro&immutable=1", uri=True)
        try:
            conn.execute("SELECT name, sql FROM sqlite_master").fetchall()
            (schema,) = conn.execute("PRAGMA user_version").fetchone()
        finally:
            conn.close()
    except sqlite3.DatabaseError as err:
        return f"SQLite cannot read it ({err})"
    latest = max(number for number, _ in MIGRATIONS)
    if schema > latest:
        return f"it was written by a newer Epochs (schema {schema}; this one knows up to {latest})"
    return None


def _dumps(obj: Any) -> str:
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


def _json_table(text: Any) -> tuple[dict[str, Any], bool]:
    """A stored JSON object, or ({}, True) when it cannot be read."""
    try:
        value = json.loads(text)
    except (TypeError, ValueError):
        return {}, True
    return (value, False) if isinstance(value, dict) else ({}, True)


def _json_list(text: Any) -> tuple[list[Any], bool]:
    try:
        value = json.loads(text)
    except (TypeError, ValueError):
        return [], True
    return (value, False) if isinstance(value, list) and all(isinstance(v, str) for v in value) else ([], True)


def _table_record(row: Sequence[Any]) -> TableRecord:
    """A games row as a record; an unreadable options or meta column is marked, not raised."""
    options, bad_options = _json_table(row[6])
    meta, bad_meta = _json_table(row[12])
    damaged = [name for name, bad in (("options", bad_options), ("meta", bad_meta)) if bad]
    return TableRecord(
        id=row[0],
        guild=row[1],
        channel=row[2],
        game=row[3],
        status=row[4],
        creator=row[5],
        options=options,
        seed=row[7],
        version=row[8],
        created=row[9],
        updated=row[10],
        remind_every=row[11],
        meta=meta,
        revision=row[13],
        damaged=damaged,
    )


def _seat_record(row: Sequence[Any]) -> SeatRecord | None:
    """A seats row, or None when its values are not what the schema promises."""
    user, name, seat, resigned, joined, bot = row
    if not (
        type(user) is int
        and isinstance(name, str)
        and (seat is None or type(seat) is int)
        and type(resigned) is int
        and isinstance(joined, (int, float))
        and (bot is None or isinstance(bot, str))
    ):
        return None
    return SeatRecord(user, name, seat, bool(resigned), float(joined), bot)


class SQLiteStorage:
    """`Storage` on one SQLite file. Use `async with SQLiteStorage(path) as db:` or open()/close()."""

    def __init__(self, path: str | Path, *, durable: bool = True) -> None:
        if str(path) == ":memory:":
            raise StorageError("SQLiteStorage needs a file (WAL and two connections); use a temporary file.")
        self.path = Path(path)
        self.durable = durable
        self._writer: aiosqlite.Connection | None = None
        self._reader: aiosqlite.Connection | None = None
        self._lock = asyncio.Lock()
        self._queue: list[_Queued] = []
        self._flusher: asyncio.Task[None] | None = None
        #: The writer failed for a reason outside (read-only, locked, full): open it afresh
        #: before the next write, so a file made writable again is written.
        self._renew_writer = False
        self.recheck_delays: tuple[float, ...] = RECHECK_DELAYS

    async def __aenter__(self) -> SQLiteStorage:
        await self.open()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # ------------------------------------------------------------ lifecycle
    async def open(self) -> None:
        """Connect and migrate; DamagedDatabase (nothing written) when the file is unusable.

        A failure closes whatever was opened: aiosqlite's connection threads must
        end, or the process could never exit."""
        problem = inspect_file(self.path)
        if problem:
            raise DamagedDatabase(str(self.path), problem)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._writer = await aiosqlite.connect(self.path, isolation_level=None)
            await self._pragmas(self._writer)
            await self._writer.execute(f"PRAGMA synchronous={'FULL' if self.durable else 'NORMAL'}")
            await self._migrate()
            self._reader = await aiosqlite.connect(self.path, isolation_level=None)
            await self._pragmas(self._reader)
            if not os.access(self.path, os.W_OK):  # SQLite then opens it read-only, without a word
                log.warning("the database %s cannot be written: every command that stores will be refused", self.path)
        except (sqlite3.DatabaseError, OSError) as err:
            await self.close()
            code = _outage(err)
            if code is not None:  # not damaged: read-only, locked, a full disk
                raise _unavailable(self.path, code, err) from None
            raise DamagedDatabase(str(self.path), f"SQLite cannot use it ({err})") from None
        except BaseException:
            await self.close()
            raise

    @staticmethod
    async def _pragmas(conn: aiosqlite.Connection) -> None:
        await conn.execute("PRAGMA busy_timeout=10000")
        await conn.execute("PRAGMA cache_size=-1024")  # 1 MB of pages per connection: reads are by key
        await conn.execute("PRAGMA journal_mode=WAL")
        await conn.execute("PRAGMA foreign_keys=ON")

    async def close(self) -> None:
        if self._flusher is not None:
            await asyncio.shield(self._flusher)  # let queued writes finish first
        for conn in (self._reader, self._writer):
            if conn is not None:
                try:
                    await conn.close()
                except sqlite3.Error:
                    log.warning("closing %s failed", self.path, exc_info=True)
        self._reader = self._writer = None

    async def _migrate(self) -> None:
        w = self._w
        current = await _user_version(w)
        for number, sql in MIGRATIONS:
            if number <= current:
                continue
            await w.execute("BEGIN IMMEDIATE")
            try:
                for statement in _statements(sql):
                    await w.execute(statement)
                if number == RATINGS:
                    await self._recompute(w, write=True)
                await w.execute(f"PRAGMA user_version={int(number)}")
                await _commit(w)
            except BaseException:
                await _rollback(w)
                raise

    async def schema_version(self) -> int:
        return await _user_version(self._r)

    @property
    def _w(self) -> aiosqlite.Connection:
        if self._writer is None:
            raise StorageError("storage is not open")
        return self._writer

    @property
    def _r(self) -> aiosqlite.Connection:
        if self._reader is None:
            raise StorageError("storage is not open")
        return self._reader

    # ---------------------------------------------------------------- reads
    async def _fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[tuple[Any, ...]]:
        try:
            async with self._r.execute(sql, tuple(params)) as cur:
                # plain tuples (no row_factory is set; aiosqlite declares them `sqlite3.Row`)
                return [tuple(row) for row in await cur.fetchall()]
        except sqlite3.Error as err:
            code = _outage(err)
            if code is None:
                raise
            raise _unavailable(self.path, code, err) from err

    async def _tables(self, where: str, params: Iterable[Any]) -> list[TableRecord]:
        """Tables and their seats; one table's unreadable row never hides another's."""
        records = [_table_record(row) for row in await self._fetchall(_TABLE + where, params)]
        if records:
            marks = ", ".join("?" * len(records))
            by_id = {r.id: r for r in records}
            for row in await self._fetchall(_SEATS.format(marks), [r.id for r in records]):
                rec = by_id[row[0]]
                seat = _seat_record(row[1:])
                if seat is None:
                    if "seats" not in rec.damaged:
                        rec.damaged.append("seats")
                else:
                    rec.seats.append(seat)
        return records

    async def open_table(self, channel: int) -> TableRecord | None:
        rows = await self._tables(f" WHERE g.channel = ? AND g.status IN {_OPEN}", (channel,))
        return rows[0] if rows else None

    async def latest_table(self, channel: int) -> TableRecord | None:
        rows = await self._tables(" WHERE g.channel = ? ORDER BY g.id DESC LIMIT 1", (channel,))
        return rows[0] if rows else None

    async def table(self, table_id: int) -> TableRecord | None:
        rows = await self._tables(" WHERE g.id = ?", (table_id,))
        return rows[0] if rows else None

    async def tables(self, guild: int | None, *, include_closed: bool = False) -> list[TableRecord]:
        where = "g.guild IS ?" if guild is None else "g.guild = ?"
        if not include_closed:
            where += f" AND g.status IN {_OPEN}"
        return await self._tables(f" WHERE {where} ORDER BY g.id DESC", (guild,))

    async def snapshot(self, table_id: int) -> tuple[int, str] | None:
        rows = await self._fetchall("SELECT version, state FROM snapshots WHERE game = ?", (table_id,))
        return (rows[0][0], rows[0][1]) if rows else None

    async def actions(self, table_id: int, after: int = 0) -> list[ActionRecord]:
        rows = await self._fetchall(
            "SELECT seq, seat, action, time, undone, via, user, events FROM actions "
            "WHERE game = ? AND seq > ? ORDER BY seq",
            (table_id, after),
        )
        out = []
        for r in rows:
            events, damaged = _json_list(r[7])
            out.append(ActionRecord(r[0], r[1], r[2], r[3], bool(r[4]), r[5], r[6], events, damaged))
        return out

    async def reminders(self, table_id: int) -> list[ReminderRecord]:
        rows = await self._fetchall(
            "SELECT game, user, due, count FROM reminders WHERE game = ? ORDER BY user", (table_id,)
        )
        return [ReminderRecord(*r) for r in rows]

    async def due_reminders(self, now: float, shards: Shards | None = None) -> list[ReminderRecord]:
        where, params = _shard_filter("g.guild", shards)
        rows = await self._fetchall(
            "SELECT r.game, r.user, r.due, r.count FROM reminders r JOIN games g ON g.id = r.game "
            f"WHERE r.due <= ? AND {where} ORDER BY r.due",
            (now, *params),
        )
        return [ReminderRecord(*r) for r in rows]

    async def notices(self) -> list[NoticeRecord]:
        rows = await self._fetchall(
            "SELECT id, game, channel, payload, created FROM outbox WHERE sent IS NULL ORDER BY id"
        )
        return [NoticeRecord(r[0], r[1], r[2], json.loads(r[3]), r[4]) for r in rows]

    async def claim_notices(self, claim: Claim, now: float) -> list[NoticeRecord]:
        """A read first: the write lock is taken only when something is to be claimed or
        renewed (a renewal when less than half the lease is left), so a dispatcher round
        with nothing new costs no write. BEGIN IMMEDIATE serialises claims across processes."""
        where, params = _shard_filter("g.guild", claim.shards)
        claimable = (
            f"o.sent IS NULL AND (o.game IS NULL OR {where}) AND (o.claimed_by IS NULL "
            "OR o.claimed_until <= ? OR (o.claimed_by = ? AND o.claimed_until < ?))"
        )
        args = (*params, now, claim.owner, now + claim.lease / 2)
        candidates = f"SELECT o.id FROM outbox o LEFT JOIN games g ON g.id = o.game WHERE {claimable}"
        if await self._fetchall(candidates + " LIMIT 1", args):

            async def work(w: aiosqlite.Connection) -> None:
                await w.execute(
                    f"UPDATE outbox SET claimed_by = ?, claimed_until = ? WHERE id IN ({candidates})",
                    (claim.owner, now + claim.lease, *args),
                )

            await self._write(work)
        rows = await self._fetchall(
            "SELECT id, game, channel, payload, created FROM outbox "
            "WHERE sent IS NULL AND claimed_by = ? AND claimed_until > ? ORDER BY id",
            (claim.owner, now),
        )
        return [NoticeRecord(r[0], r[1], r[2], json.loads(r[3]), r[4]) for r in rows]

    async def history(self, guild: int | None, *, game: str | None = None, limit: int = 10) -> list[GameRecord]:
        where = "r.guild IS ?"
        params: list[int | str | None] = [guild]
        if game is not None:
            where += " AND r.kind = ?"
            params.append(game)
        rows = await self._fetchall(
            "SELECT r.game, r.guild, r.kind, r.reason, r.started, r.ended, r.moves, r.practice FROM records r "
            f"WHERE {where} ORDER BY r.ended DESC, r.game DESC LIMIT ?",
            (*params, int(limit)),
        )
        records = [GameRecord(r[0], r[1], r[2], r[3], r[4], r[5], r[6], bool(r[7])) for r in rows]
        if records:
            by_id = {r.table: r for r in records}
            marks = ", ".join("?" * len(records))
            for row in await self._fetchall(
                "SELECT game, seat, user, name, bot, score, place, winner, resigned FROM record_seats "
                f"WHERE game IN ({marks}) ORDER BY game, seat",
                list(by_id),
            ):
                by_id[row[0]].seats.append(
                    RecordSeat(row[1], row[2], row[3], row[4], row[5], row[6], bool(row[7]), bool(row[8]))
                )
        return records

    async def standings(self, guild: int | None, *, game: str | None = None, user: int | None = None) -> list[Standing]:
        counted = f"r.guild IS ? AND {_COUNTED}"
        where, params = _narrowed(counted, [guild], game, user)
        latest = (
            "SELECT s2.name FROM record_seats s2 JOIN records r2 ON r2.game = s2.game "
            f"WHERE {counted.replace('r.', 'r2.')} AND r2.kind = r.kind AND s2.user = s.user "
            "AND s2.bot IS s.bot ORDER BY r2.ended DESC, r2.game DESC LIMIT 1"
        )
        rows = await self._fetchall(
            f"SELECT r.kind, s.user, s.bot, ({latest}), COUNT(*), SUM(s.winner), COALESCE(SUM(s.score), 0), "
            "COUNT(s.score), COALESCE(SUM(s.place), 0), COUNT(s.place) "
            f"FROM record_seats s JOIN records r ON r.game = s.game WHERE {where} "
            "GROUP BY r.kind, s.user, s.bot ORDER BY r.kind, s.user, s.bot",
            (guild, *params),
        )
        return [Standing(*row) for row in rows]

    async def ratings(self, guild: int | None, *, game: str | None = None, user: int | None = None) -> list[Rating]:
        where, params = _narrowed(f"r.guild IS ? AND s.mu IS NOT NULL AND {_COUNTED}", [guild], game, user)
        rows = await self._fetchall(
            "SELECT kind, user, name, mu, sigma, games FROM ("
            "SELECT r.kind, s.user, s.name, s.mu, s.sigma, COUNT(*) OVER (PARTITION BY r.kind, s.user) AS games, "
            "ROW_NUMBER() OVER (PARTITION BY r.kind, s.user ORDER BY r.ended DESC, r.game DESC) AS latest "
            f"FROM record_seats s JOIN records r ON r.game = s.game WHERE {where}"
            ") WHERE latest = 1 ORDER BY kind, user",
            params,
        )
        return [Rating(kind, u, name, Skill(mu, sigma), games) for kind, u, name, mu, sigma, games in rows]

    async def prefs(self, user: int) -> PlayerPrefs:
        rows = await self._fetchall(
            "SELECT quiet_start, quiet_end, utc_offset, dm, heads_up FROM players WHERE user = ?", (user,)
        )
        if not rows:
            return PlayerPrefs(user)
        qs, qe, off, dm, heads_up = rows[0]
        return PlayerPrefs(user, qs, qe, off, bool(dm), bool(heads_up))

    # --------------------------------------------------------------- writes
    async def _write(
        self,
        work: Callable[[aiosqlite.Connection], Awaitable[T]],
        landed: Callable[[T], Awaitable[bool | None]] | None = None,
    ) -> T:
        """Run `work(conn)` inside BEGIN IMMEDIATE ... COMMIT, rolling back on any error.

        Cancellation-safe: a caller cancelled while its COMMIT runs (in aiosqlite's
        thread, which goes on regardless) waits for the COMMIT's outcome before the
        CancelledError goes up, so it never sends a ROLLBACK after a finished COMMIT
        ("cannot rollback - no transaction is active") and never leaves the writer
        inside a transaction. A cancelled write is thus either committed whole or
        rolled back whole; the caller only stops waiting for the answer.

        A database that cannot be used raises `StorageUnavailable` (see the module doc);
        `landed(result)` tells, after a failed COMMIT, whether it went through after all.
        """
        async with self._lock:
            w = await self._writing()
            committing = False
            try:
                await w.execute("BEGIN IMMEDIATE")
                result = await work(w)
                committing = True
                await _commit(w)
            except BaseException as err:
                await self._abandon(w)
                code = _outage(err)
                if code is None:
                    raise
                check = partial(landed, result) if committing and landed is not None else None
                failure = await self._unusable(err, code, committing, check)
                if failure is not None:
                    raise failure from err
        note_write()
        return result

    async def _unusable(
        self, err: BaseException, code: int, committing: bool, landed: Callable[[], Awaitable[bool | None]] | None
    ) -> StorageUnavailable | None:
        """What the callers of a write that met an outage are told; None when its COMMIT
        failed but `landed()` finds it went through all the same."""
        self._renew_writer = True
        if not committing or code in _NOTHING_WRITTEN:
            return _unavailable(self.path, code, err)
        if landed is not None and await find_out(landed, self.recheck_delays):
            log.warning("%s: the COMMIT failed (%s) but went through", self.path, err)
            return None
        return _unavailable(self.path, code, err, stored=None)

    async def _writing(self) -> aiosqlite.Connection:
        """The writer connection, opened afresh after an outage (see `_renew_writer`)."""
        if self._renew_writer:
            old, self._writer = self._writer, None
            if old is not None:
                try:
                    await old.close()
                except sqlite3.Error:
                    log.warning("closing the writer of %s failed", self.path, exc_info=True)
            try:
                conn = await aiosqlite.connect(self.path, isolation_level=None)
            except sqlite3.Error as err:
                raise _unavailable(self.path, _outage(err) or sqlite3.SQLITE_CANTOPEN, err) from err
            try:
                await self._pragmas(conn)
                await conn.execute(f"PRAGMA synchronous={'FULL' if self.durable else 'NORMAL'}")
            except sqlite3.Error as err:
                await conn.close()
                raise _unavailable(self.path, _outage(err) or sqlite3.SQLITE_CANTOPEN, err) from err
            self._writer, self._renew_writer = conn, False
        return self._w

    async def _abandon(self, w: aiosqlite.Connection) -> None:
        """Roll back what is still open after a failure; a rollback that fails too (the
        database went away) leaves the connection to be opened afresh."""
        try:
            await _rollback(w)
        except sqlite3.Error:
            self._renew_writer = True

    async def create_table(
        self,
        *,
        guild: int | None,
        channel: int,
        game: str,
        creator: int,
        options: dict[str, Any],
        seed: int,
        seats: list[SeatRecord],
        remind_every: float,
        now: float,
        meta: dict[str, Any] | None = None,
    ) -> TableRecord:
        async def work(w: aiosqlite.Connection) -> int:
            try:
                cur = await w.execute(
                    "INSERT INTO games (guild, channel, game, status, creator, options, seed, version, created, "
                    "updated, remind_every, meta) VALUES (?, ?, ?, 'lobby', ?, ?, ?, 1, ?, ?, ?, ?)",
                    (guild, channel, game, creator, _dumps(options), seed, now, now, remind_every, _dumps(meta or {})),
                )
            except sqlite3.IntegrityError:
                raise ChannelBusy(f"channel {channel} already has an open game") from None
            table_id = _inserted(cur)
            await self._put_seats(w, table_id, seats)
            return table_id

        async def landed(table_id: int) -> bool:
            found = await self._fetchall("SELECT channel, created FROM games WHERE id = ?", (table_id,))
            return bool(found) and found[0] == (channel, now)

        table_id = await self._write(work, landed)
        rec = await self.table(table_id)
        assert rec is not None
        return rec

    @staticmethod
    async def _put_seats(w: aiosqlite.Connection, table_id: int, seats: list[SeatRecord]) -> None:
        await w.execute("DELETE FROM seats WHERE game = ?", (table_id,))
        await w.executemany(
            "INSERT INTO seats (game, user, name, seat, resigned, joined, bot) VALUES (?, ?, ?, ?, ?, ?, ?)",
            [(table_id, s.user, s.name, s.seat, int(s.resigned), s.joined, s.bot) for s in seats],
        )

    async def commit(self, table: TableRecord, change: Change, now: float) -> int:
        """Group commit: commands arriving together share one transaction and one
        fsync, each inside its own savepoint with its own version check, so one
        stale or failing change never disturbs the others."""
        future: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self._queue.append((table, change, now, future))
        if self._flusher is None:
            self._flusher = asyncio.get_running_loop().create_task(self._flush())
        # The write goes on in its own task: a caller that gives up waiting (a
        # cancelled interaction) can never leave a commit half-reported.
        version = await asyncio.shield(future)
        table.version, table.revision = version, table.revision + 1
        note_write()
        return version

    async def _flush(self) -> None:
        """Write queued changes, batch after batch, until the queue is empty."""
        try:
            async with self._lock:
                while self._queue:
                    batch, self._queue = self._queue, []
                    await self._commit_batch(batch)
        finally:
            self._flusher = None

    async def _commit_batch(self, batch: list[_Queued]) -> None:
        outcomes: list[tuple[asyncio.Future[int], int | Exception]] = []  # the new version, or the refusal
        committing = False
        try:
            w = await self._writing()
            await w.execute("BEGIN IMMEDIATE")
            alone = len(batch) == 1  # no savepoint needed: a failure rolls the whole back
            for table, change, now, future in batch:
                if not alone:
                    await w.execute("SAVEPOINT change")
                try:
                    version = await self._apply(w, table, change, now)
                except (StaleWrite, sqlite3.IntegrityError) as err:
                    if alone:
                        raise
                    await w.execute("ROLLBACK TO change")
                    await w.execute("RELEASE change")
                    outcomes.append((future, err))
                else:
                    if not alone:
                        await w.execute("RELEASE change")
                    outcomes.append((future, version))
            committing = True
            await _commit(w)
        except BaseException as err:
            if self._writer is not None:
                await self._abandon(self._writer)
            failure = await self._failed_batch(err, batch, outcomes, committing)
            if failure is not None:
                for *_, future in batch:
                    if not future.done():
                        future.set_exception(failure)
                if not isinstance(err, Exception):
                    raise
                return
        for future, outcome in outcomes:
            if future.done():
                continue
            if isinstance(outcome, Exception):
                future.set_exception(outcome)
            else:
                future.set_result(outcome)

    async def _failed_batch(
        self,
        err: BaseException,
        batch: list[_Queued],
        outcomes: list[tuple[asyncio.Future[int], int | Exception]],
        committing: bool,
    ) -> Exception | None:
        """What the callers of a batch that failed are told; None when its COMMIT failed but
        the batch landed all the same (the outcomes stand)."""
        code = _outage(err)
        if code is None:
            return err if isinstance(err, Exception) else StorageError(str(err))
        applied = [(entry, o) for entry, (_, o) in zip(batch, outcomes, strict=False) if isinstance(o, int)]
        landed = None
        if applied:  # one COMMIT for the batch: one change tells for all
            (table, change, now, _), version = applied[0]
            landed = partial(self._landed, table, change, now, version)
        return await self._unusable(err, code, committing, landed)

    async def _landed(self, table: TableRecord, change: Change, now: float, version: int) -> bool | None:
        """Did this change's commit land? The table and its log as the reader sees them now."""
        rows = await self._fetchall("SELECT revision, version, updated FROM games WHERE id = ?", (table.id,))
        first = None
        if change.actions:
            found = await self._fetchall(
                "SELECT seat, action, time FROM actions WHERE game = ? AND seq = ?", (table.id, change.actions[0].seq)
            )
            first = found[0] if found else None
        return landed_change(rows[0] if rows else None, table, change, now, version, first)

    @classmethod
    async def _apply(cls, w: aiosqlite.Connection, table: TableRecord, change: Change, now: float) -> int:
        table_id = table.id
        version = table.version + 1 if change.bump else table.version
        sets = ["version = ?", "revision = revision + 1", "updated = ?"]
        params: list[str | float] = [version, now]
        for column, value in (("status", change.status), ("remind_every", change.remind_every)):
            if value is not None:
                sets.append(f"{column} = ?")
                params.append(value)
        for column, data in (("options", change.options), ("meta", change.meta)):
            if data is not None:
                sets.append(f"{column} = ?")
                params.append(_dumps(data))
        cur = await w.execute(
            f"UPDATE games SET {', '.join(sets)} WHERE id = ? AND revision = ? AND version = ?",
            (*params, table_id, table.revision, table.version),
        )
        if cur.rowcount != 1:
            async with w.execute("SELECT revision FROM games WHERE id = ?", (table_id,)) as found:
                row = await found.fetchone()
            raise StaleWrite(table_id, table.revision, None if row is None else row[0])
        if change.seats is not None:
            await cls._put_seats(w, table_id, change.seats)
        if change.undo_from is not None:
            await w.execute(
                "UPDATE actions SET undone = 1 WHERE game = ? AND seq >= ? AND undone = 0", (table_id, change.undo_from)
            )
        if change.actions:
            await w.executemany(
                "INSERT INTO actions (game, seq, seat, action, time, undone, via, user, events) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (table_id, a.seq, a.seat, a.action, a.time, int(a.undone), a.via, a.user, _dumps(a.events))
                    for a in change.actions
                ],
            )
        if change.snapshot is not None:
            await w.execute(
                "INSERT INTO snapshots (game, version, state) VALUES (?, ?, ?) "
                "ON CONFLICT (game) DO UPDATE SET version = excluded.version, state = excluded.state",
                (table_id, version, change.snapshot),
            )
        if change.reminders is not None:
            await w.execute("DELETE FROM reminders WHERE game = ?", (table_id,))
            if change.reminders:
                await w.executemany(
                    "INSERT INTO reminders (game, user, due, count) VALUES (?, ?, ?, ?)",
                    [(table_id, r.user, r.due, r.count) for r in change.reminders],
                )
        if change.notices:
            await w.executemany(
                "INSERT INTO outbox (game, channel, payload, created) VALUES (?, ?, ?, ?)",
                [(table_id, channel, _dumps(p), now) for channel, p in change.notices],
            )
        if change.record is not None:
            await cls._put_record(w, table_id, change.record)
        return version

    @classmethod
    async def _put_record(cls, w: aiosqlite.Connection, table_id: int, record: GameRecord) -> None:
        """Write the record (replacing any earlier one of the table) and rate its people: the
        ratings are folded again from the earlier of the old and the new record on."""
        old = await _rows(  # its seats go with it
            w, "DELETE FROM records WHERE game = ? RETURNING ended, reason, practice", (table_id,)
        )
        await w.execute(
            "INSERT INTO records (game, guild, kind, reason, started, ended, moves, practice) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                table_id,
                record.guild,
                record.game,
                record.reason,
                record.started,
                record.ended,
                record.moves,
                int(record.practice),
            ),
        )
        await w.executemany(
            "INSERT INTO record_seats (game, seat, user, name, bot, score, place, winner, resigned, ended) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    table_id,
                    s.seat,
                    s.user,
                    s.name,
                    s.bot,
                    s.score,
                    s.place,
                    int(s.winner),
                    int(s.resigned),
                    record.ended,
                )
                for s in record.seats
            ],
        )
        since = ratings.refold_from(table_id, record, old)
        if since is not None:  # a table's server and game never change: one scope
            await cls._refold(w, (record.guild, record.game), since)

    async def forget(self, table_id: int) -> bool:
        async def work(w: aiosqlite.Connection) -> bool:
            rated = await self._rated_key(w, table_id)
            cur = await w.execute("DELETE FROM games WHERE id = ?", (table_id,))  # the rest cascades
            if rated is not None:
                await self._refold(w, *rated)
            return cur.rowcount == 1

        return await self._write(work)

    # -------------------------------------------------------------- ratings
    @staticmethod
    async def _rated_key(w: aiosqlite.Connection, table_id: int) -> tuple[Scope, Key] | None:
        """Where the table's record stands among the ratings, when it counts: its server and
        game, and its place in the order of updates."""
        rows = await _rows(w, f"SELECT guild, kind, ended FROM records r WHERE game = ? AND {_COUNTED}", (table_id,))
        return ((rows[0][0], rows[0][1]), (rows[0][2], table_id)) if rows else None

    @staticmethod
    async def _refold(
        w: aiosqlite.Connection, scope: Scope, since: Key | None, *, write: bool = True
    ) -> list[Recomputed]:
        """Fold the counted records of `scope` from `since` on (None: all of them), starting
        from the ratings stored before it, and store what differs (unless not `write`)."""
        guild, kind = scope
        where = f"r.guild IS ? AND r.kind = ? AND {_COUNTED}"
        params: tuple[Any, ...] = (guild, kind)
        if since is not None:
            where += " AND (r.ended, r.game) >= (?, ?)"
            params += since
        games = ratings.games(
            await _rows(
                w,
                "SELECT r.game, r.ended, s.seat, s.user, s.name, s.place, s.resigned, s.mu, s.sigma FROM records r "
                f"JOIN record_seats s ON s.game = r.game WHERE {where} ORDER BY r.ended, r.game, s.seat",
                params,
            )
        )
        users = sorted({s.user for g in games for s in g.seats})
        before: dict[int, Skill] = {}
        if since is not None and users:
            # each person's own rated seats newest first (index record_seats_rated), the first of
            # this server and game: a few rows whatever the number of records
            latest = (
                "SELECT * FROM (SELECT s.user, s.mu, s.sigma FROM record_seats s CROSS JOIN records r "
                f"ON r.game = s.game WHERE s.user = ? AND s.mu IS NOT NULL AND (s.ended, s.game) < (?, ?) "
                f"AND r.guild IS ? AND r.kind = ? AND {_COUNTED} ORDER BY s.ended DESC, s.game DESC LIMIT 1)"
            )
            rows = await _rows(
                w,
                " UNION ALL ".join([latest] * len(users)),
                [value for user in users for value in (user, *since, guild, kind)],
            )
            before = {user: Skill(mu, sigma) for user, mu, sigma in rows}
        results = ratings.fold(games, before)
        if write:
            await w.executemany(
                "UPDATE record_seats SET mu = ?, sigma = ? WHERE game = ? AND seat = ?", ratings.updates(results)
            )
        return results

    @classmethod
    async def _recompute(cls, w: aiosqlite.Connection, *, write: bool) -> list[Recomputed]:
        """Every server's and game's ratings folded from their first record."""
        out = []
        for guild, kind in await _rows(w, f"SELECT DISTINCT guild, kind FROM records r WHERE {_COUNTED}"):
            out.extend(await cls._refold(w, (guild, kind), None, write=write))
        return out

    async def recompute_ratings(self, *, write: bool) -> list[Recomputed]:
        return await self._write(partial(self._recompute, write=write))

    async def add_notice(self, table_id: int | None, channel: int, payload: dict[str, Any], now: float) -> int:
        async def work(w: aiosqlite.Connection) -> int:
            cur = await w.execute(
                "INSERT INTO outbox (game, channel, payload, created) VALUES (?, ?, ?, ?)",
                (table_id, channel, _dumps(payload), now),
            )
            return _inserted(cur)

        return await self._write(work)

    async def mark_sent(self, notice_id: int, now: float) -> None:
        async def work(w: aiosqlite.Connection) -> None:
            await w.execute("UPDATE outbox SET sent = ? WHERE id = ? AND sent IS NULL", (now, notice_id))

        await self._write(work)

    async def release_notices(self, owner: str) -> None:
        async def work(w: aiosqlite.Connection) -> None:
            await w.execute("UPDATE outbox SET claimed_by = NULL, claimed_until = NULL WHERE claimed_by = ?", (owner,))

        await self._write(work)

    async def set_prefs(self, prefs: PlayerPrefs) -> None:
        async def work(w: aiosqlite.Connection) -> None:
            await w.execute(
                "INSERT INTO players (user, quiet_start, quiet_end, utc_offset, dm, heads_up) "
                "VALUES (?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (user) DO UPDATE SET quiet_start = excluded.quiet_start, "
                "quiet_end = excluded.quiet_end, utc_offset = excluded.utc_offset, dm = excluded.dm, "
                "heads_up = excluded.heads_up",
                (prefs.user, prefs.quiet_start, prefs.quiet_end, prefs.utc_offset, int(prefs.dm), int(prefs.heads_up)),
            )

        await self._write(work)

    # ------------------------------------------------------------ web table
    async def secret(self, name: str, make: Callable[[], str], now: float) -> str:
        rows = await self._fetchall("SELECT value FROM secrets WHERE name = ?", (name,))
        if rows:
            return str(rows[0][0])

        async def work(w: aiosqlite.Connection) -> str:
            await w.execute(
                "INSERT INTO secrets (name, value, created) VALUES (?, ?, ?) ON CONFLICT (name) DO NOTHING",
                (name, make(), now),
            )
            async with w.execute("SELECT value FROM secrets WHERE name = ?", (name,)) as cur:
                row = await cur.fetchone()
            assert row is not None
            return str(row[0])

        return await self._write(work)

    async def link_generation(self, table_id: int, user: int) -> int:
        rows = await self._fetchall("SELECT generation FROM links WHERE game = ? AND user = ?", (table_id, user))
        return int(rows[0][0]) if rows else 0

    async def reset_link(self, table_id: int, user: int) -> int:
        async def work(w: aiosqlite.Connection) -> int:
            await w.execute(
                "INSERT INTO links (game, user, generation) VALUES (?, ?, 1) "
                "ON CONFLICT (game, user) DO UPDATE SET generation = generation + 1",
                (table_id, user),
            )
            async with w.execute("SELECT generation FROM links WHERE game = ? AND user = ?", (table_id, user)) as cur:
                row = await cur.fetchone()
            assert row is not None
            return int(row[0])

        return await self._write(work)

    async def versions(self, table_ids: Sequence[int]) -> dict[int, int]:
        if not table_ids:
            return {}
        ids = list(dict.fromkeys(int(i) for i in table_ids))
        rows = await self._fetchall(f"SELECT id, version FROM games WHERE id IN ({', '.join('?' * len(ids))})", ids)
        return {int(i): int(v) for i, v in rows}

    # ------------------------------------------------- time away, posts (issue 27)
    async def away(self, user: int, since: float) -> list[AwayRecord]:
        rows = await self._fetchall(
            "SELECT user, begins, ends, note FROM away WHERE user = ? AND ends > ? ORDER BY begins", (user, since)
        )
        return [AwayRecord(int(u), float(b), float(e), str(n)) for u, b, e, n in rows]

    async def set_away(self, away: AwayRecord, *, forget_before: float) -> None:
        async def work(w: aiosqlite.Connection) -> None:
            await w.execute("DELETE FROM away WHERE user = ? AND ends < ?", (away.user, forget_before))
            await w.execute(
                "INSERT INTO away (user, begins, ends, note) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (user, begins) DO UPDATE SET ends = excluded.ends, note = excluded.note",
                (away.user, away.begins, away.ends, away.note),
            )

        await self._write(work)

    async def seated_tables(self, user: int) -> list[TableRecord]:
        return await self._tables(
            " WHERE g.status IN ('active','paused') AND g.id IN (SELECT game FROM seats WHERE user = ?) ORDER BY g.id",
            (user,),
        )

    async def set_post(self, table_id: int, message: int, now: float) -> None:
        async def work(w: aiosqlite.Connection) -> None:
            await w.execute(
                "INSERT INTO posts (game, message, time) "
                "SELECT ?, ?, ? WHERE EXISTS (SELECT 1 FROM games WHERE id = ?) "
                "ON CONFLICT (game) DO UPDATE SET message = excluded.message, time = excluded.time",
                (table_id, message, now, table_id),
            )

        await self._write(work)

    async def posts(self, table_ids: Sequence[int]) -> dict[int, int]:
        if not table_ids:
            return {}
        ids = list(dict.fromkeys(int(i) for i in table_ids))
        rows = await self._fetchall(f"SELECT game, message FROM posts WHERE game IN ({', '.join('?' * len(ids))})", ids)
        return {int(g): int(m) for g, m in rows}

    # ------------------------------------------------------------- transfer
    async def row_counts(self) -> dict[str, int]:
        return {table: (await self._fetchall(f"SELECT count(*) FROM {table}"))[0][0] for table, _ in TABLES}

    async def export_rows(self) -> Rows:
        """Every table (transfer.TABLES) from one consistent snapshot (a read transaction)."""
        out: Rows = {}
        await self._r.execute("BEGIN")
        try:
            for table, columns in TABLES:
                order = ORDER[table].format(pos="rowid", user="user")
                rows = await self._fetchall(f"SELECT {', '.join(columns)} FROM {table} ORDER BY {order}")
                out[table] = [normalise(table, r) for r in rows]
        finally:
            await self._r.execute("COMMIT")
        return out

    async def import_rows(self, rows: Rows) -> None:
        """Write a whole database's rows (ids kept, seats in the order given) in one transaction."""

        async def work(w: aiosqlite.Connection) -> None:
            for table, columns in TABLES:
                await w.executemany(
                    f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})",
                    rows.get(table, []),
                )

        await self._write(work)


async def _rows(conn: aiosqlite.Connection, sql: str, params: Iterable[Any] = ()) -> list[tuple[Any, ...]]:
    """A query's rows on `conn` (the writer, inside its transaction: it sees its own writes)."""
    async with conn.execute(sql, tuple(params)) as cur:
        return [tuple(row) for row in await cur.fetchall()]


async def _user_version(conn: aiosqlite.Connection) -> int:
    """The schema version SQLite keeps in the file's header (`PRAGMA user_version`: always one row)."""
    async with conn.execute("PRAGMA user_version") as cur:
        row = await cur.fetchone()
    return int(row[0]) if row is not None else 0


def _inserted(cur: aiosqlite.Cursor) -> int:
    """The id SQLite gave the row `cur` just inserted."""
    if cur.lastrowid is None:
        raise StorageError("SQLite reported no id for an inserted row")
    return cur.lastrowid


async def _commit(w: aiosqlite.Connection) -> None:
    """COMMIT, and know how it ended even when the caller is cancelled meanwhile.

    The statement runs in aiosqlite's worker thread, which a cancellation cannot
    stop: the COMMIT may well succeed after the awaiting task was cancelled. So
    the COMMIT is shielded and waited for to the end (through repeated
    cancellations); then a pending cancellation is raised. Whoever handles it sees
    `in_transaction` as it really is (False after a successful COMMIT).
    """
    task = asyncio.ensure_future(w.execute("COMMIT"))
    cancelled = False
    while not task.done():
        try:
            await asyncio.shield(task)
        except asyncio.CancelledError:
            cancelled = True
    task.result()  # the COMMIT's own error, if any (a busy or full database)
    if cancelled:
        raise asyncio.CancelledError()


async def _rollback(w: aiosqlite.Connection) -> None:
    """ROLLBACK only what is still open: after a COMMIT that went through (the
    caller being cancelled only afterwards) there is nothing to roll back."""
    if w.in_transaction:
        await w.execute("ROLLBACK")


def _shard_filter(guild: str, shards: Shards | None) -> tuple[str, tuple[int, ...]]:
    """SQL true for the guilds on `shards` (Discord's `(guild_id >> 22) % count`)."""
    if shards is None:
        return "1", ()
    ids = sorted(shards.ids)
    return (f"((COALESCE({guild}, 0) >> 22) % ?) IN ({', '.join('?' * len(ids))})", (shards.count, *ids))


def _statements(sql: str) -> list[str]:
    """Split a migration into statements (no semicolons inside our literals)."""
    out = []
    for part in sql.split(";"):
        lines = [ln for ln in part.splitlines() if not ln.strip().startswith("--")]
        text = "\n".join(lines).strip()
        if text:
            out.append(text)
    return out


def _narrowed(
    where: str, params: list[int | str | None], game: str | None, user: int | None
) -> tuple[str, list[int | str | None]]:
    """A records query's conditions narrowed to one game and one person where asked
    (`standings` and `ratings` take the same filters)."""
    if game is not None:
        where += " AND r.kind = ?"
        params = [*params, game]
    if user is not None:
        where += " AND s.user = ?"
        params = [*params, user]
    return where, params
