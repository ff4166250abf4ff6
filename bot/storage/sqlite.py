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
- Migrations (migrations.py; a new file is created from schema.py) are applied at
  `open`, all pending ones in one `BEGIN IMMEDIATE` transaction.
- A database that stops taking writes while the bot runs (made read-only, full, locked
  by another process, an I/O error) raises `StorageUnavailable`: `stored=False` when
  the failure came before COMMIT; when the COMMIT itself failed, the table is read
  back to find out whether it landed (`base.landed_change`). The writer connection is
  then opened afresh for the next write, so a file made writable again is written.

The queries shared with PostgreSQL are queries.py's (`SQLStorage`); this module keeps
what is SQLite's alone: the file and its checks, the two connections, `BEGIN
IMMEDIATE`, group commit, outage codes, claims taken under the write lock. The
service only sees `storage.base`.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sqlite3
import urllib.parse
from collections.abc import Awaitable, Callable, Iterable, Sequence
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from .base import (
    RECHECK_DELAYS,
    Change,
    Claim,
    DamagedDatabase,
    NoticeRecord,
    StaleWrite,
    StorageError,
    StorageUnavailable,
    TableRecord,
    find_out,
    note_write,
)
from .migrations import RATINGS, plan
from .queries import SQLStorage, claimable, with_positions
from .schema import LATEST
from .sql import SQLITE, Row
from .transfer import TABLES, Rows

log = logging.getLogger(__name__)

T = TypeVar("T")
#: A change waiting for the next group commit, and where its new version goes.
_Queued = tuple[TableRecord, Change, float, "asyncio.Future[int]"]

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
    if schema > LATEST:
        return f"it was written by a newer Epochs (schema {schema}; this one knows up to {LATEST})"
    return None


class _Lite:
    """An aiosqlite connection speaking the shared SQL (sql.Conn)."""

    __slots__ = ("conn",)

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self.conn = conn

    async def rows(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        # one trip to aiosqlite's thread (execute, fetch, close); plain tuples (no row_factory
        # is set; aiosqlite declares them `sqlite3.Row`)
        return [tuple(row) for row in await self.conn.execute_fetchall(SQLITE.text(sql), tuple(params))]

    async def run(self, sql: str, params: Sequence[Any] = ()) -> None:
        await self.conn.execute(SQLITE.text(sql), tuple(params))

    async def many(self, sql: str, params: Iterable[Sequence[Any]]) -> None:
        await self.conn.executemany(SQLITE.text(sql), params)


class SQLiteStorage(SQLStorage):
    """`Storage` on one SQLite file. Use `async with SQLiteStorage(path) as db:` or open()/close()."""

    dialect = SQLITE
    _unique_violation = (sqlite3.IntegrityError,)

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
        """Bring the file to `LATEST`: the pending migrations, and the ratings fold when they
        add ratings, in one transaction (the version read inside it: two processes starting
        at once migrate once)."""
        w = self._w
        if not plan(SQLITE, await _user_version(w)):
            return  # up to date: no write lock taken (a read-only file opens, to be read)
        await w.execute("BEGIN IMMEDIATE")
        try:
            current = await _user_version(w)
            steps = plan(SQLITE, current)
            for _, statements in steps:
                for statement in statements:
                    await w.execute(statement)
            if 0 < current < RATINGS:
                await self._recompute(_Lite(w), write=True)
            if steps:
                await w.execute(f"PRAGMA user_version={int(steps[-1][0])}")
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
    async def _fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        try:
            return await _Lite(self._r).rows(sql, params)
        except sqlite3.Error as err:
            code = _outage(err)
            if code is None:
                raise
            raise _unavailable(self.path, code, err) from err

    # --------------------------------------------------------------- writes
    async def _write(
        self,
        work: Callable[[_Lite], Awaitable[T]],
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
                result = await work(_Lite(w))
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
                    version = await self._apply(_Lite(w), table, change, now)
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

    async def claim_notices(self, claim: Claim, now: float) -> list[NoticeRecord]:
        """A read first: the write lock is taken only when something is to be claimed or
        renewed (a renewal when less than half the lease is left), so a dispatcher round
        with nothing new costs no write. BEGIN IMMEDIATE serialises claims across processes."""
        candidates, args = claimable(claim, now)
        if await self._fetch(candidates + " LIMIT 1", args):
            await self._write(
                lambda w: w.run(
                    f"UPDATE outbox SET claimed_by = ?, claimed_until = ? WHERE id IN ({candidates})",
                    (claim.owner, now + claim.lease, *args),
                )
            )
        return await self._held(claim.owner, now)

    # ------------------------------------------------------------- transfer
    async def export_rows(self) -> Rows:
        """Every table (transfer.TABLES) from one consistent snapshot (a read transaction)."""
        await self._r.execute("BEGIN")
        try:
            return await self._export(_Lite(self._r))
        finally:
            await self._r.execute("COMMIT")

    async def import_rows(self, rows: Rows) -> None:
        """Write a whole database's rows (ids kept, seats in the order given) in one transaction."""

        async def work(w: _Lite) -> None:
            for table, columns in TABLES:
                records = rows.get(table, [])
                if table == "seats":  # the joining order as an explicit position
                    columns, records = (*columns, "pos"), with_positions(records)
                await w.many(
                    f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})", records
                )

        await self._write(work)


async def _user_version(conn: aiosqlite.Connection) -> int:
    """The schema version SQLite keeps in the file's header (`PRAGMA user_version`: always one row)."""
    async with conn.execute("PRAGMA user_version") as cur:
        row = await cur.fetchone()
    return int(row[0]) if row is not None else 0


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
