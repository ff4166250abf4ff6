"""PostgreSQL storage through asyncpg, for a bot that outgrows one process.

The same guarantees as the SQLite backend, by PostgreSQL's own means:

- A commit returns only once PostgreSQL has flushed it (`synchronous_commit=on`,
  the server's default, set explicitly per connection): every accepted action is
  stored before anyone is told. `durable=False` (filling a benchmark database)
  turns that off for this storage's connections only.
- `commit` runs one transaction that first moves the table's revision with
  `UPDATE ... WHERE id = $1 AND revision = $2 AND version = $3`. Under READ
  COMMITTED a concurrent writer of the same table waits for the first one, then
  finds the revision moved and matches no row: `StaleWrite`, nothing written —
  across processes as within one. Log lines, snapshot, reminders and outbox rows
  of one command land in that one transaction.
- No group commit of our own: each command has its own transaction on a pooled
  connection, and PostgreSQL flushes the WAL of transactions committing together
  at once.
- A write runs in its own task, shielded from its caller: a caller that gives up
  (a cancelled interaction) never leaves a transaction half done, and `close`
  waits for writes in flight.
- Migrations (migrations.py, the same numbers as SQLite's; a new schema is created
  from schema.py) recorded in `schema_migrations`, applied at `open` under an
  advisory lock, all pending ones in one transaction.
- The outbox claims of several processes (`claim_notices`) take rows with
  `FOR UPDATE SKIP LOCKED` and hold them by a lease (DECISIONS.md).
- A server that goes away (stopped, restarted, unreachable) raises `StorageUnavailable`:
  a read or a write that failed before its COMMIT is tried once more on a fresh
  connection (a pooled one may have died with the old server), then told as "nothing
  was stored". A connection that dies during COMMIT leaves the outcome unknown: the
  table's row and log are read back, as soon as the server answers, to find out
  (`base.landed_change`); a commit that landed is returned as if nothing happened.
  The pool opens new connections by itself once the server is back.

The queries shared with SQLite are queries.py's (`SQLStorage`), their `?` numbered
for PostgreSQL (sql.py); this module keeps what is PostgreSQL's alone: the pool, the
retry on a fresh connection, in-doubt commits, `SKIP LOCKED` claims, advisory locks,
COPY. The service only sees `storage.base`.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Awaitable, Callable, Iterable, Sequence
from typing import Any, TypeVar

import asyncpg

from .base import (
    RECHECK_DELAYS,
    Change,
    Claim,
    NoticeRecord,
    StorageError,
    StorageUnavailable,
    TableRecord,
    find_out,
    note_write,
)
from .migrations import RATINGS, plan
from .queries import SQLStorage, claimable, with_positions
from .ratings import Scope
from .sql import POSTGRES, Conn, Row
from .transfer import TABLES, Rows

log = logging.getLogger(__name__)

T = TypeVar("T")

#: Any constant: the advisory lock that serialises migrations of one database.
_MIGRATION_LOCK = 0x45706F6368
#: Any constant: with one of 1,024 buckets of servers and games, the advisory lock that
#: serialises the transactions that fold a server's ratings of a game (the two-key form).
#: Buckets, not one lock per server and game: a rebuild holds a lock for each scope it
#: folds until it commits, and PostgreSQL's lock table holds some thousands in all.
_RATINGS_LOCK = 0x52617465

#: What a server that went away raises: no connection (refused, reset, closed in the middle
#: of an operation), the server shutting down or starting up, out of connections or disk.
_GONE: tuple[type[BaseException], ...] = (
    OSError,
    asyncio.TimeoutError,
    asyncpg.PostgresConnectionError,
    asyncpg.InterfaceError,
    asyncpg.exceptions.OperatorInterventionError,
    asyncpg.exceptions.InsufficientResourcesError,
)


class _InDoubt(Exception):
    """The connection died during COMMIT: whether the transaction landed is unknown."""

    def __init__(self, result: Any, cause: BaseException) -> None:
        super().__init__(str(cause))
        self.result = result
        self.cause = cause


class _Pg:
    """An asyncpg connection speaking the shared SQL (sql.Conn)."""

    __slots__ = ("conn",)

    def __init__(self, conn: asyncpg.Connection) -> None:
        self.conn = conn

    async def rows(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return [tuple(r) for r in await self.conn.fetch(POSTGRES.text(sql), *params)]

    async def run(self, sql: str, params: Sequence[Any] = ()) -> None:
        await self.conn.execute(POSTGRES.text(sql), *params)

    async def many(self, sql: str, params: Iterable[Sequence[Any]]) -> None:
        await self.conn.executemany(POSTGRES.text(sql), params)


def redact(url: str) -> str:
    """The URL without its password, for messages and logs."""
    return re.sub(r"(://[^:/@]+):[^@]*@", r"\1:***@", url)


class PostgresStorage(SQLStorage):
    """`Storage` on a PostgreSQL database. `async with PostgresStorage(url) as db:` or open()/close().

    `url` is a libpq URL (`postgresql://user:password@host:port/database`); its
    query parameters may set server settings (`?search_path=epochs`)."""

    dialect = POSTGRES
    _unique_violation = (asyncpg.UniqueViolationError,)

    def __init__(self, url: str, *, durable: bool = True, pool_size: int = 10) -> None:
        self.url = url
        self.durable = durable
        self.pool_size = pool_size
        self._pool: asyncpg.Pool | None = None
        self._writes: set[asyncio.Task[Any]] = set()
        self.recheck_delays: tuple[float, ...] = RECHECK_DELAYS

    async def __aenter__(self) -> PostgresStorage:
        await self.open()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # ------------------------------------------------------------ lifecycle
    async def open(self) -> None:
        try:
            self._pool = await asyncpg.create_pool(
                self.url,
                min_size=1,
                max_size=self.pool_size,
                server_settings={"synchronous_commit": "on" if self.durable else "off", "application_name": "epochs"},
            )
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as err:
            raise StorageError(f"cannot open the PostgreSQL database {redact(self.url)}: {err}") from None
        await self._migrate()

    async def close(self) -> None:
        if self._writes:
            await asyncio.gather(*list(self._writes), return_exceptions=True)
        if self._pool is not None:
            await self._pool.close()
        self._pool = None

    @property
    def _p(self) -> asyncpg.Pool:
        if self._pool is None:
            raise StorageError("storage is not open")
        return self._pool

    async def _migrate(self) -> None:
        """Bring the schema to `LATEST` under the migration lock: the pending migrations, and
        the ratings fold when they add ratings, in one transaction."""
        async with self._p.acquire() as conn:
            await conn.execute("SELECT pg_advisory_lock($1)", _MIGRATION_LOCK)
            try:
                await conn.execute(
                    "CREATE TABLE IF NOT EXISTS schema_migrations ("
                    "number INTEGER PRIMARY KEY, applied TIMESTAMPTZ NOT NULL DEFAULT now())"
                )
                current = await conn.fetchval("SELECT COALESCE(max(number), 0) FROM schema_migrations")
                steps = plan(POSTGRES, current)
                if not steps:
                    return
                async with conn.transaction():
                    for _, statements in steps:
                        for statement in statements:
                            await conn.execute(statement)
                    if 0 < current < RATINGS:
                        await self._recompute(_Pg(conn), write=True)
                    numbers = range(current + 1, steps[-1][0] + 1)
                    await conn.executemany(
                        "INSERT INTO schema_migrations (number) VALUES ($1)", [(n,) for n in numbers]
                    )
            finally:
                await conn.execute("SELECT pg_advisory_unlock($1)", _MIGRATION_LOCK)
        # statements prepared before a schema change cannot be run after it: start afresh
        await self._p.expire_connections()

    async def schema_version(self) -> int:
        rows = await self._fetch("SELECT COALESCE(max(number), 0) FROM schema_migrations")
        return int(rows[0][0])

    # ---------------------------------------------------------------- reads
    async def _fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """One query on a pooled connection, tried a second time on a fresh one when the
        first connection turns out dead (the server was restarted); `StorageUnavailable`
        when the server cannot be reached."""
        text = POSTGRES.text(sql)
        for attempt in (1, 2):
            try:
                return [tuple(r) for r in await self._p.fetch(text, *params)]
            except _GONE as err:
                if attempt == 2:
                    raise StorageUnavailable(_gone(self.url, err)) from err
        raise AssertionError("unreachable")

    # --------------------------------------------------------------- writes
    async def _write(
        self,
        work: Callable[[_Pg], Awaitable[T]],
        landed: Callable[[T], Awaitable[bool | None]] | None = None,
    ) -> T:
        """Run `work(conn)` in one transaction on a pooled connection.

        The transaction runs in a task of its own that the caller only waits for
        (shielded): a cancelled caller stops waiting, the transaction still ends
        committed whole or rolled back whole, and `close` waits for it.

        A server gone before the COMMIT: nothing was written, so the transaction is tried
        once more on a fresh connection, then `StorageUnavailable` (stored False). Gone
        during the COMMIT: `landed(result)` reads back whether it went through, as soon as
        the server answers; the result when it did, else `StorageUnavailable` (stored
        False when it did not, None when that could not be told in time)."""

        async def once() -> T:
            async with self._p.acquire() as conn:
                transaction = conn.transaction()
                await transaction.start()
                try:
                    result = await work(_Pg(conn))
                except BaseException:
                    try:
                        await transaction.rollback()
                    except _GONE:
                        pass  # the server ends a transaction whose connection is gone
                    raise
                try:
                    await transaction.commit()
                except _GONE as err:
                    raise _InDoubt(result, err) from err
                return result

        async def run() -> T:
            try:
                try:
                    return await once()
                except _GONE:
                    return await once()  # nothing was written: once more, on a fresh connection
            except _GONE as err:
                raise StorageUnavailable(_gone(self.url, err)) from err
            except _InDoubt as doubt:
                reason, result = _gone(self.url, doubt.cause), doubt.result
                verdict = None if landed is None else await find_out(lambda: landed(result), self.recheck_delays)
                if verdict:
                    log.warning("%s; the COMMIT it broke went through", reason)
                    return result
                raise StorageUnavailable(reason, stored=verdict) from doubt.cause

        task = asyncio.get_running_loop().create_task(run())
        self._writes.add(task)
        task.add_done_callback(self._writes.discard)
        result = await asyncio.shield(task)
        note_write()
        return result

    async def commit(self, table: TableRecord, change: Change, now: float) -> int:
        version = await self._write(
            lambda conn: self._apply(conn, table, change, now),
            lambda version: self._landed(table, change, now, version),
        )
        table.version, table.revision = version, table.revision + 1
        return version

    async def _lock_ratings(self, conn: Conn, scope: Scope) -> None:
        """Hold the scope's ratings until this transaction ends: another one folding them
        waits, then reads what this one wrote (READ COMMITTED reads afresh per statement)."""
        await conn.run("SELECT pg_advisory_xact_lock(?, hashtext(?) & 1023)", (_RATINGS_LOCK, f"{scope[0]}:{scope[1]}"))

    async def claim_notices(self, claim: Claim, now: float) -> list[NoticeRecord]:
        """Claim in one transaction: rows another process is claiming at this moment are
        skipped (SKIP LOCKED), never waited for; the owner's claims with less than half
        their lease left are renewed; then every notice the owner holds is returned."""
        free, args = claimable(claim, now)
        await self._write(
            lambda conn: conn.run(
                f"WITH free AS ({free} FOR UPDATE OF o SKIP LOCKED) "
                "UPDATE outbox SET claimed_by = ?, claimed_until = ? FROM free WHERE outbox.id = free.id",
                (*args, claim.owner, now + claim.lease),
            )
        )
        return await self._held(claim.owner, now)

    # ------------------------------------------------------------- transfer
    async def export_rows(self) -> Rows:
        """Every table (transfer.TABLES) from one consistent snapshot of the database."""
        async with self._p.acquire() as conn:
            async with conn.transaction(isolation="repeatable_read", readonly=True):
                return await self._export(_Pg(conn))

    async def import_rows(self, rows: Rows) -> None:
        """Write a whole database's rows (ids kept) in one transaction, by COPY; the
        identity sequences then continue after the highest id copied."""

        async def work(conn: _Pg) -> None:
            for table, columns in TABLES:
                records = rows.get(table, [])
                if table == "seats":  # the joining order as an explicit position
                    columns, records = (*columns, "pos"), with_positions(records)
                await conn.conn.copy_records_to_table(table, records=records, columns=columns)
            for table in ("games", "outbox"):
                await conn.run(
                    f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                    f"COALESCE((SELECT max(id) FROM {table}), 0) + 1, false)"
                )

        await self._write(work)


def _gone(url: str, err: BaseException) -> str:
    """Why the server cannot be used, for logs: the URL without its password, and asyncpg's words."""
    return f"the PostgreSQL database {redact(url)} cannot be reached ({type(err).__name__}: {err})"
