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
- Numbered migrations (postgres_migrations.py, the SQLite numbers) recorded in
  `schema_migrations`, applied at `open` under an advisory lock.
- The outbox claims of several processes (`claim_notices`) take rows with
  `FOR UPDATE SKIP LOCKED` and hold them by a lease (DECISIONS.md).
- A server that goes away (stopped, restarted, unreachable) raises `StorageUnavailable`:
  a read or a write that failed before its COMMIT is tried once more on a fresh
  connection (a pooled one may have died with the old server), then told as "nothing
  was stored". A connection that dies during COMMIT leaves the outcome unknown: the
  table's row and log are read back, as soon as the server answers, to find out
  (`base.landed_change`); a commit that landed is returned as if nothing happened.
  The pool opens new connections by itself once the server is back.

All SQL for PostgreSQL lives in this module; the service only sees `storage.base`.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, TypeVar

import asyncpg

from . import ratings
from .base import (
    OPEN_STATUSES,
    RECHECK_DELAYS,
    ActionRecord,
    AwayRecord,
    Change,
    ChannelBusy,
    Claim,
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
from .migrations import RATINGS
from .postgres_migrations import MIGRATIONS
from .ratings import Key, Recomputed, Scope
from .sqlite import _json_list, _table_record
from .transfer import ORDER, TABLES, Rows, normalise

log = logging.getLogger(__name__)

T = TypeVar("T")

_OPEN = "('lobby','active','paused')"
assert set(OPEN_STATUSES) == {"lobby", "active", "paused"}

#: Any constant: the advisory lock that serialises migrations of one database.
_MIGRATION_LOCK = 0x45706F6368
#: Any constant: with one of 1,024 buckets of servers and games, the advisory lock that
#: serialises the transactions that fold a server's ratings of a game (the two-key form).
#: Buckets, not one lock per server and game: a rebuild holds a lock for each scope it
#: folds until it commits, and PostgreSQL's lock table holds some thousands in all.
_RATINGS_LOCK = 0x52617465
#: A record that counts in statistics and ratings (`r`: the records table's alias).
_COUNTED = "NOT {r}.practice AND {r}.reason IN ('end','resign')"

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


_TABLE = """
SELECT g.id, g.guild, g.channel, g.game, g.status, g.creator, g.options, g.seed, g.version, g.created,
       g.updated, g.remind_every, g.meta, g.revision,
       (SELECT json_agg(json_build_array(s.user_id, s.name, s.seat, s.resigned, s.joined, s.bot)
                        ORDER BY s.joined, s.pos)
          FROM seats s WHERE s.game = g.id)::text AS seats
  FROM games g
"""

_NOTICE = "SELECT id, game, channel, payload, created FROM outbox"


def _dumps(obj: Any) -> str:
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


def _column(name: str) -> str:
    """SQLite's column name as spelled here (`user` is reserved in PostgreSQL)."""
    return "user_id" if name == "user" else name


def redact(url: str) -> str:
    """The URL without its password, for messages and logs."""
    return re.sub(r"(://[^:/@]+):[^@]*@", r"\1:***@", url)


class PostgresStorage:
    """`Storage` on a PostgreSQL database. `async with PostgresStorage(url) as db:` or open()/close().

    `url` is a libpq URL (`postgresql://user:password@host:port/database`); its
    query parameters may set server settings (`?search_path=epochs`)."""

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
        async with self._p.acquire() as conn:
            await conn.execute("SELECT pg_advisory_lock($1)", _MIGRATION_LOCK)
            try:
                await conn.execute(
                    "CREATE TABLE IF NOT EXISTS schema_migrations ("
                    "number INTEGER PRIMARY KEY, applied TIMESTAMPTZ NOT NULL DEFAULT now())"
                )
                current = await conn.fetchval("SELECT COALESCE(max(number), 0) FROM schema_migrations")
                for number, sql in MIGRATIONS:
                    if number <= current:
                        continue
                    async with conn.transaction():
                        await conn.execute(sql)
                        if number == RATINGS:
                            await self._recompute(conn, write=True)
                        await conn.execute("INSERT INTO schema_migrations (number) VALUES ($1)", number)
            finally:
                await conn.execute("SELECT pg_advisory_unlock($1)", _MIGRATION_LOCK)

    async def schema_version(self) -> int:
        return int(await self._fetchval("SELECT COALESCE(max(number), 0) FROM schema_migrations"))

    # ---------------------------------------------------------------- reads
    async def _read(self, method: str, sql: str, *args: Any) -> Any:
        """One query on a pooled connection, tried a second time on a fresh one when the
        first connection turns out dead (the server was restarted); `StorageUnavailable`
        when the server cannot be reached."""
        for attempt in (1, 2):
            try:
                return await getattr(self._p, method)(sql, *args)
            except _GONE as err:
                if attempt == 2:
                    raise StorageUnavailable(_gone(self.url, err)) from err
        raise AssertionError("unreachable")

    async def _fetch(self, sql: str, *args: Any) -> list[asyncpg.Record]:
        return list(await self._read("fetch", sql, *args))

    async def _fetchrow(self, sql: str, *args: Any) -> asyncpg.Record | None:
        return await self._read("fetchrow", sql, *args)

    async def _fetchval(self, sql: str, *args: Any) -> Any:
        return await self._read("fetchval", sql, *args)

    @staticmethod
    def _table_row(row: asyncpg.Record) -> TableRecord:
        """A games row and its seats. Columns are typed here, so only the JSON text can be
        unreadable: read as on SQLite, a garbled options or meta is marked damaged."""
        rec = _table_record(tuple(row[:14]))
        rec.seats = [
            SeatRecord(int(u), n, None if s is None else int(s), bool(r), float(j), b)
            for u, n, s, r, j, b in json.loads(row[14] or "[]")
        ]
        return rec

    async def open_table(self, channel: int) -> TableRecord | None:
        row = await self._fetchrow(_TABLE + f" WHERE g.channel = $1 AND g.status IN {_OPEN}", channel)
        return self._table_row(row) if row else None

    async def latest_table(self, channel: int) -> TableRecord | None:
        row = await self._fetchrow(_TABLE + " WHERE g.channel = $1 ORDER BY g.id DESC LIMIT 1", channel)
        return self._table_row(row) if row else None

    async def table(self, table_id: int) -> TableRecord | None:
        row = await self._fetchrow(_TABLE + " WHERE g.id = $1", table_id)
        return self._table_row(row) if row else None

    async def tables(self, guild: int | None, *, include_closed: bool = False) -> list[TableRecord]:
        where = "g.guild IS NOT DISTINCT FROM $1"
        if not include_closed:
            where += f" AND g.status IN {_OPEN}"
        rows = await self._fetch(_TABLE + f" WHERE {where} ORDER BY g.id DESC", guild)
        return [self._table_row(r) for r in rows]

    async def snapshot(self, table_id: int) -> tuple[int, str] | None:
        row = await self._fetchrow("SELECT version, state FROM snapshots WHERE game = $1", table_id)
        return (row[0], row[1]) if row else None

    async def actions(self, table_id: int, after: int = 0) -> list[ActionRecord]:
        rows = await self._fetch(
            "SELECT seq, seat, action, time, undone, via, user_id, events FROM actions "
            "WHERE game = $1 AND seq > $2 ORDER BY seq",
            table_id,
            after,
        )
        return [ActionRecord(r[0], r[1], r[2], r[3], r[4], r[5], r[6], *_json_list(r[7])) for r in rows]

    async def reminders(self, table_id: int) -> list[ReminderRecord]:
        rows = await self._fetch(
            "SELECT game, user_id, due, count FROM reminders WHERE game = $1 ORDER BY user_id", table_id
        )
        return [ReminderRecord(*r) for r in rows]

    async def due_reminders(self, now: float, shards: Shards | None = None) -> list[ReminderRecord]:
        where, params = _shard_filter("g.guild", shards, first=2)
        rows = await self._fetch(
            "SELECT r.game, r.user_id, r.due, r.count FROM reminders r JOIN games g ON g.id = r.game "
            f"WHERE r.due <= $1 AND {where} ORDER BY r.due",
            now,
            *params,
        )
        return [ReminderRecord(*r) for r in rows]

    async def notices(self) -> list[NoticeRecord]:
        rows = await self._fetch(_NOTICE + " WHERE sent IS NULL ORDER BY id")
        return [NoticeRecord(r[0], r[1], r[2], json.loads(r[3]), r[4]) for r in rows]

    async def history(self, guild: int | None, *, game: str | None = None, limit: int = 10) -> list[GameRecord]:
        rows = await self._fetch(
            "SELECT game, guild, kind, reason, started, ended, moves, practice FROM records "
            "WHERE guild IS NOT DISTINCT FROM $1 AND ($2::text IS NULL OR kind = $2) "
            "ORDER BY ended DESC, game DESC LIMIT $3",
            guild,
            game,
            int(limit),
        )
        records = [GameRecord(*r) for r in rows]
        by_id = {r.table: r for r in records}
        if by_id:
            for r in await self._fetch(
                "SELECT game, seat, user_id, name, bot, score, place, winner, resigned FROM record_seats "
                "WHERE game = ANY($1::bigint[]) ORDER BY game, seat",
                list(by_id),
            ):
                by_id[r[0]].seats.append(RecordSeat(*r[1:]))
        return records

    async def standings(self, guild: int | None, *, game: str | None = None, user: int | None = None) -> list[Standing]:
        counted = "{r}.guild IS NOT DISTINCT FROM $1 AND " + _COUNTED
        latest = (
            "SELECT s2.name FROM record_seats s2 JOIN records r2 ON r2.game = s2.game "
            f"WHERE {counted.format(r='r2')} AND r2.kind = r.kind AND s2.user_id = s.user_id "
            "AND s2.bot IS NOT DISTINCT FROM s.bot ORDER BY r2.ended DESC, r2.game DESC LIMIT 1"
        )
        rows = await self._fetch(
            f"SELECT r.kind, s.user_id, s.bot, ({latest}), count(*), count(*) FILTER (WHERE s.winner), "
            "COALESCE(sum(s.score), 0), count(s.score), COALESCE(sum(s.place), 0), count(s.place) "
            f"FROM record_seats s JOIN records r ON r.game = s.game WHERE {counted.format(r='r')} "
            "AND ($2::text IS NULL OR r.kind = $2) AND ($3::bigint IS NULL OR s.user_id = $3) "
            "GROUP BY r.kind, s.user_id, s.bot ORDER BY r.kind, s.user_id, s.bot NULLS FIRST",
            guild,
            game,
            user,
        )
        # the counts and sums come as bigint / numeric: plain ints like SQLite's
        return [Standing(r[0], r[1], r[2], r[3], *(int(v) for v in r[4:])) for r in rows]

    async def ratings(self, guild: int | None, *, game: str | None = None, user: int | None = None) -> list[Rating]:
        rows = await self._fetch(
            "SELECT kind, user_id, name, mu, sigma, games FROM ("
            "SELECT r.kind, s.user_id, s.name, s.mu, s.sigma, count(*) OVER (PARTITION BY r.kind, s.user_id) AS games, "
            "row_number() OVER (PARTITION BY r.kind, s.user_id ORDER BY r.ended DESC, r.game DESC) AS latest "
            "FROM record_seats s JOIN records r ON r.game = s.game "
            f"WHERE r.guild IS NOT DISTINCT FROM $1 AND s.mu IS NOT NULL AND {_COUNTED.format(r='r')} "
            "AND ($2::text IS NULL OR r.kind = $2) AND ($3::bigint IS NULL OR s.user_id = $3)"
            ") AS rated WHERE latest = 1 ORDER BY kind, user_id",
            guild,
            game,
            user,
        )
        return [Rating(r[0], r[1], r[2], Skill(r[3], r[4]), int(r[5])) for r in rows]

    async def prefs(self, user: int) -> PlayerPrefs:
        row = await self._fetchrow(
            "SELECT quiet_start, quiet_end, utc_offset, dm, heads_up FROM players WHERE user_id = $1", user
        )
        if row is None:
            return PlayerPrefs(user)
        return PlayerPrefs(user, *row)

    # --------------------------------------------------------------- writes
    async def _write(
        self,
        work: Callable[[asyncpg.Connection], Awaitable[T]],
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
                    result = await work(conn)
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
        async def work(conn: asyncpg.Connection) -> int:
            try:
                async with conn.transaction():  # a savepoint: the unique index may refuse the row
                    table_id = await conn.fetchval(
                        "INSERT INTO games (guild, channel, game, status, creator, options, seed, version, created, "
                        "updated, remind_every, meta) VALUES ($1, $2, $3, 'lobby', $4, $5, $6, 1, $7, $7, $8, $9) "
                        "RETURNING id",
                        guild,
                        channel,
                        game,
                        creator,
                        _dumps(options),
                        seed,
                        now,
                        remind_every,
                        _dumps(meta or {}),
                    )
            except asyncpg.UniqueViolationError:
                raise ChannelBusy(f"channel {channel} already has an open game") from None
            await self._put_seats(conn, table_id, seats)
            return table_id

        async def landed(table_id: int) -> bool:
            row = await self._fetchrow("SELECT channel, created FROM games WHERE id = $1", table_id)
            return row is not None and (row[0], row[1]) == (channel, now)

        table_id = await self._write(work, landed)
        rec = await self.table(table_id)
        assert rec is not None
        return rec

    @staticmethod
    async def _put_seats(conn: asyncpg.Connection, table_id: int, seats: list[SeatRecord]) -> None:
        await conn.execute("DELETE FROM seats WHERE game = $1", table_id)
        await conn.executemany(
            "INSERT INTO seats (game, user_id, name, seat, resigned, joined, pos, bot) "
            "VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
            [(table_id, s.user, s.name, s.seat, s.resigned, s.joined, pos, s.bot) for pos, s in enumerate(seats)],
        )

    async def commit(self, table: TableRecord, change: Change, now: float) -> int:
        version = await self._write(
            lambda conn: self._apply(conn, table, change, now),
            lambda version: self._landed(table, change, now, version),
        )
        table.version, table.revision = version, table.revision + 1
        return version

    async def _landed(self, table: TableRecord, change: Change, now: float, version: int) -> bool | None:
        """Did this change's commit land? The table's row and log as the server has them now."""
        row = await self._fetchrow("SELECT revision, version, updated FROM games WHERE id = $1", table.id)
        first = None
        if change.actions:
            line = await self._fetchrow(
                "SELECT seat, action, time FROM actions WHERE game = $1 AND seq = $2", table.id, change.actions[0].seq
            )
            first = None if line is None else (line[0], line[1], line[2])
        return landed_change(None if row is None else (row[0], row[1], row[2]), table, change, now, version, first)

    @classmethod
    async def _apply(cls, conn: asyncpg.Connection, table: TableRecord, change: Change, now: float) -> int:
        table_id = table.id
        version = table.version + 1 if change.bump else table.version
        values: list[Any] = [version, now]
        sets = ["version = $1", "revision = revision + 1", "updated = $2"]
        for column, value in (
            ("status", change.status),
            ("remind_every", change.remind_every),
            ("options", None if change.options is None else _dumps(change.options)),
            ("meta", None if change.meta is None else _dumps(change.meta)),
        ):
            if value is not None:
                values.append(value)
                sets.append(f"{column} = ${len(values)}")
        n = len(values)
        moved = await conn.fetchval(
            f"UPDATE games SET {', '.join(sets)} WHERE id = ${n + 1} AND revision = ${n + 2} AND version = ${n + 3} "
            "RETURNING revision",
            *values,
            table_id,
            table.revision,
            table.version,
        )
        if moved is None:
            actual = await conn.fetchval("SELECT revision FROM games WHERE id = $1", table_id)
            raise StaleWrite(table_id, table.revision, actual)
        if change.seats is not None:
            await cls._put_seats(conn, table_id, change.seats)
        if change.undo_from is not None:
            await conn.execute(
                "UPDATE actions SET undone = TRUE WHERE game = $1 AND seq >= $2 AND NOT undone",
                table_id,
                change.undo_from,
            )
        if change.actions:
            await conn.executemany(
                "INSERT INTO actions (game, seq, seat, action, time, undone, via, user_id, events) "
                "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
                [
                    (table_id, a.seq, a.seat, a.action, a.time, a.undone, a.via, a.user, _dumps(a.events))
                    for a in change.actions
                ],
            )
        if change.snapshot is not None:
            await conn.execute(
                "INSERT INTO snapshots (game, version, state) VALUES ($1, $2, $3) "
                "ON CONFLICT (game) DO UPDATE SET version = excluded.version, state = excluded.state",
                table_id,
                version,
                change.snapshot,
            )
        if change.reminders is not None:
            await conn.execute("DELETE FROM reminders WHERE game = $1", table_id)
            if change.reminders:
                await conn.executemany(
                    "INSERT INTO reminders (game, user_id, due, count) VALUES ($1, $2, $3, $4)",
                    [(table_id, r.user, r.due, r.count) for r in change.reminders],
                )
        if change.notices:
            await conn.executemany(
                "INSERT INTO outbox (game, channel, payload, created) VALUES ($1, $2, $3, $4)",
                [(table_id, channel, _dumps(p), now) for channel, p in change.notices],
            )
        if change.record is not None:
            await cls._put_record(conn, table_id, change.record)
        return version

    @classmethod
    async def _put_record(cls, conn: asyncpg.Connection, table_id: int, record: GameRecord) -> None:
        """Write the record (replacing any earlier one of the table) and rate its people: the
        ratings are folded again from the earlier of the old and the new record on. The
        scope's lock comes first, before any row of it is touched (the order every writer of
        ratings keeps, so none waits for another in a circle)."""
        await cls._lock_ratings(conn, (record.guild, record.game))
        old = await conn.fetch(  # its seats go with it
            "DELETE FROM records WHERE game = $1 RETURNING ended, reason, practice", table_id
        )
        await conn.execute(
            "INSERT INTO records (game, guild, kind, reason, started, ended, moves, practice) "
            "VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
            table_id,
            record.guild,
            record.game,
            record.reason,
            record.started,
            record.ended,
            record.moves,
            record.practice,
        )
        await conn.executemany(
            "INSERT INTO record_seats (game, seat, user_id, name, bot, score, place, winner, resigned, ended) "
            "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
            [
                (table_id, s.seat, s.user, s.name, s.bot, s.score, s.place, s.winner, s.resigned, record.ended)
                for s in record.seats
            ],
        )
        since = ratings.refold_from(table_id, record, old)
        if since is not None:  # a table's server and game never change: one scope
            await cls._refold(conn, (record.guild, record.game), since)

    async def forget(self, table_id: int) -> bool:
        async def work(conn: asyncpg.Connection) -> Any:
            scope = await conn.fetchrow("SELECT guild, kind FROM records WHERE game = $1", table_id)
            if scope is not None:
                await self._lock_ratings(conn, (scope[0], scope[1]))
            rated = await self._rated_key(conn, table_id)
            deleted = await conn.fetchval("DELETE FROM games WHERE id = $1 RETURNING id", table_id)
            if rated is not None:
                await self._refold(conn, *rated)
            return deleted

        return await self._write(work) is not None

    # -------------------------------------------------------------- ratings
    @staticmethod
    async def _lock_ratings(conn: asyncpg.Connection, scope: Scope) -> None:
        """Hold the scope's ratings until this transaction ends: another one folding them
        waits, then reads what this one wrote (READ COMMITTED reads afresh per statement)."""
        await conn.execute(
            "SELECT pg_advisory_xact_lock($1, hashtext($2) & 1023)", _RATINGS_LOCK, f"{scope[0]}:{scope[1]}"
        )

    @staticmethod
    async def _rated_key(conn: asyncpg.Connection, table_id: int) -> tuple[Scope, Key] | None:
        """Where the table's record stands among the ratings, when it counts: its server and
        game, and its place in the order of updates."""
        row = await conn.fetchrow(
            f"SELECT guild, kind, ended FROM records r WHERE game = $1 AND {_COUNTED.format(r='r')}", table_id
        )
        return None if row is None else ((row[0], row[1]), (row[2], table_id))

    @classmethod
    async def _refold(
        cls, conn: asyncpg.Connection, scope: Scope, since: Key | None, *, write: bool = True
    ) -> list[Recomputed]:
        """Fold the counted records of `scope` from `since` on (None: all of them), starting
        from the ratings stored before it, and store what differs (unless not `write`)."""
        await cls._lock_ratings(conn, scope)
        guild, kind = scope
        # the conditions written for the case at hand, not `IS NOT DISTINCT FROM $1` or
        # `$3 IS NULL OR ...`: an index cannot serve those, and every game's end would read
        # every record of its server and game
        where = "r.guild = $1" if guild is not None else "r.guild IS NULL AND $1::bigint IS NULL"
        where += f" AND r.kind = $2 AND {_COUNTED.format(r='r')}"
        later = "" if since is None else "AND (r.ended, r.game) >= ($3, $4::bigint) "
        games = ratings.games(
            await conn.fetch(
                "SELECT r.game, r.ended, s.seat, s.user_id, s.name, s.place, s.resigned, s.mu, s.sigma "
                "FROM records r JOIN record_seats s ON s.game = r.game "
                f"WHERE {where} {later}"
                "ORDER BY r.ended, r.game, s.seat",
                guild,
                kind,
                *(since or ()),
            )
        )
        users = sorted({s.user for g in games for s in g.seats})
        before: dict[int, Skill] = {}
        if since is not None and users:
            # each person's own rated seats newest first (index record_seats_rated), the first of
            # this server and game: a few rows whatever the number of records
            rows = await conn.fetch(
                "SELECT person, latest.mu, latest.sigma FROM unnest($3::bigint[]) AS person CROSS JOIN LATERAL ("
                "SELECT s.mu, s.sigma FROM record_seats s JOIN records r ON r.game = s.game "
                "WHERE s.user_id = person AND s.mu IS NOT NULL AND (s.ended, s.game) < ($4, $5::bigint) "
                f"AND {where} ORDER BY s.ended DESC, s.game DESC LIMIT 1) AS latest",
                guild,
                kind,
                users,
                *since,
            )
            before = {r[0]: Skill(r[1], r[2]) for r in rows}
        results = ratings.fold(games, before)
        if write:
            await conn.executemany(
                "UPDATE record_seats SET mu = $1, sigma = $2 WHERE game = $3 AND seat = $4", ratings.updates(results)
            )
        return results

    @classmethod
    async def _recompute(cls, conn: asyncpg.Connection, *, write: bool) -> list[Recomputed]:
        """Every server's and game's ratings folded from their first record."""
        out = []
        scopes = await conn.fetch(f"SELECT DISTINCT guild, kind FROM records r WHERE {_COUNTED.format(r='r')}")
        for guild, kind in scopes:
            out.extend(await cls._refold(conn, (guild, kind), None, write=write))
        return out

    async def recompute_ratings(self, *, write: bool) -> list[Recomputed]:
        return await self._write(lambda conn: self._recompute(conn, write=write))

    async def add_notice(self, table_id: int | None, channel: int, payload: dict[str, Any], now: float) -> int:
        return int(
            await self._write(
                lambda conn: conn.fetchval(
                    "INSERT INTO outbox (game, channel, payload, created) VALUES ($1, $2, $3, $4) RETURNING id",
                    table_id,
                    channel,
                    _dumps(payload),
                    now,
                )
            )
        )

    async def mark_sent(self, notice_id: int, now: float) -> None:
        await self._write(
            lambda conn: conn.execute("UPDATE outbox SET sent = $1 WHERE id = $2 AND sent IS NULL", now, notice_id)
        )

    async def claim_notices(self, claim: Claim, now: float) -> list[NoticeRecord]:
        """Claim in one transaction: rows another process is claiming at this moment are
        skipped (SKIP LOCKED), never waited for; the owner's claims with less than half
        their lease left are renewed; then every notice the owner holds is returned."""
        where, params = _shard_filter("g.guild", claim.shards, first=5)

        async def work(conn: asyncpg.Connection) -> list[asyncpg.Record]:
            await conn.execute(
                "WITH free AS (SELECT o.id FROM outbox o LEFT JOIN games g ON g.id = o.game "
                f"WHERE o.sent IS NULL AND (o.game IS NULL OR {where}) AND (o.claimed_by IS NULL "
                "OR o.claimed_until <= $3 OR (o.claimed_by = $1 AND o.claimed_until < $4)) "
                "FOR UPDATE OF o SKIP LOCKED) "
                "UPDATE outbox SET claimed_by = $1, claimed_until = $2 FROM free WHERE outbox.id = free.id",
                claim.owner,
                now + claim.lease,
                now,
                now + claim.lease / 2,
                *params,
            )
            return await conn.fetch(
                _NOTICE + " WHERE sent IS NULL AND claimed_by = $1 AND claimed_until > $2 ORDER BY id", claim.owner, now
            )

        rows = await self._write(work)
        return [NoticeRecord(r[0], r[1], r[2], json.loads(r[3]), r[4]) for r in rows]

    async def release_notices(self, owner: str) -> None:
        await self._write(
            lambda conn: conn.execute(
                "UPDATE outbox SET claimed_by = NULL, claimed_until = NULL WHERE claimed_by = $1", owner
            )
        )

    async def set_prefs(self, prefs: PlayerPrefs) -> None:
        await self._write(
            lambda conn: conn.execute(
                "INSERT INTO players (user_id, quiet_start, quiet_end, utc_offset, dm, heads_up) "
                "VALUES ($1, $2, $3, $4, $5, $6) "
                "ON CONFLICT (user_id) DO UPDATE SET quiet_start = excluded.quiet_start, "
                "quiet_end = excluded.quiet_end, utc_offset = excluded.utc_offset, dm = excluded.dm, "
                "heads_up = excluded.heads_up",
                prefs.user,
                prefs.quiet_start,
                prefs.quiet_end,
                prefs.utc_offset,
                prefs.dm,
                prefs.heads_up,
            )
        )

    # ------------------------------------------------------------- transfer
    async def secret(self, name: str, make: Callable[[], str], now: float) -> str:
        found = await self._fetchval("SELECT value FROM secrets WHERE name = $1", name)
        if found is not None:
            return str(found)

        async def work(conn: asyncpg.Connection) -> str:
            await conn.execute(
                "INSERT INTO secrets (name, value, created) VALUES ($1, $2, $3) ON CONFLICT (name) DO NOTHING",
                name,
                make(),
                now,
            )
            return str(await conn.fetchval("SELECT value FROM secrets WHERE name = $1", name))

        return await self._write(work)

    async def link_generation(self, table_id: int, user: int) -> int:
        found = await self._fetchval("SELECT generation FROM links WHERE game = $1 AND user_id = $2", table_id, user)
        return int(found) if found is not None else 0

    async def reset_link(self, table_id: int, user: int) -> int:
        async def work(conn: asyncpg.Connection) -> int:
            return int(
                await conn.fetchval(
                    "INSERT INTO links (game, user_id, generation) VALUES ($1, $2, 1) "
                    "ON CONFLICT (game, user_id) DO UPDATE SET generation = links.generation + 1 "
                    "RETURNING generation",
                    table_id,
                    user,
                )
            )

        return await self._write(work)

    async def versions(self, table_ids: Sequence[int]) -> dict[int, int]:
        if not table_ids:
            return {}
        rows = await self._fetch("SELECT id, version FROM games WHERE id = ANY($1::bigint[])", list(table_ids))
        return {int(r[0]): int(r[1]) for r in rows}

    # ------------------------------------------------- time away, posts (issue 27)
    async def away(self, user: int, since: float) -> list[AwayRecord]:
        rows = await self._fetch(
            "SELECT user_id, begins, ends, note FROM away WHERE user_id = $1 AND ends > $2 ORDER BY begins",
            user,
            since,
        )
        return [AwayRecord(int(r[0]), float(r[1]), float(r[2]), str(r[3])) for r in rows]

    async def set_away(self, away: AwayRecord, *, forget_before: float) -> None:
        async def work(conn: asyncpg.Connection) -> None:
            await conn.execute("DELETE FROM away WHERE user_id = $1 AND ends < $2", away.user, forget_before)
            await conn.execute(
                "INSERT INTO away (user_id, begins, ends, note) VALUES ($1, $2, $3, $4) "
                "ON CONFLICT (user_id, begins) DO UPDATE SET ends = excluded.ends, note = excluded.note",
                away.user,
                away.begins,
                away.ends,
                away.note,
            )

        await self._write(work)

    async def seated_tables(self, user: int) -> list[TableRecord]:
        rows = await self._fetch(
            _TABLE + " WHERE g.status IN ('active','paused') "
            "AND g.id IN (SELECT game FROM seats WHERE user_id = $1) ORDER BY g.id",
            user,
        )
        return [self._table_row(r) for r in rows]

    async def set_post(self, table_id: int, message: int, now: float) -> None:
        await self._write(
            lambda conn: conn.execute(
                "INSERT INTO posts (game, message, time) SELECT $1, $2, $3 WHERE EXISTS "
                "(SELECT 1 FROM games WHERE id = $1) "
                "ON CONFLICT (game) DO UPDATE SET message = excluded.message, time = excluded.time",
                table_id,
                message,
                now,
            )
        )

    async def posts(self, table_ids: Sequence[int]) -> dict[int, int]:
        if not table_ids:
            return {}
        rows = await self._fetch("SELECT game, message FROM posts WHERE game = ANY($1::bigint[])", list(table_ids))
        return {int(r[0]): int(r[1]) for r in rows}

    async def row_counts(self) -> dict[str, int]:
        return {table: int(await self._fetchval(f"SELECT count(*) FROM {table}")) for table, _ in TABLES}

    async def export_rows(self) -> Rows:
        """Every table (transfer.TABLES) from one consistent snapshot of the database."""
        out: Rows = {}
        async with self._p.acquire() as conn:
            async with conn.transaction(isolation="repeatable_read", readonly=True):
                for table, columns in TABLES:
                    order = ORDER[table].format(pos="pos", user="user_id")
                    rows = await conn.fetch(f"SELECT {', '.join(map(_column, columns))} FROM {table} ORDER BY {order}")
                    out[table] = [normalise(table, tuple(r)) for r in rows]
        return out

    async def import_rows(self, rows: Rows) -> None:
        """Write a whole database's rows (ids kept) in one transaction, by COPY; the
        identity sequences then continue after the highest id copied."""

        async def work(conn: asyncpg.Connection) -> None:
            for table, columns in TABLES:
                records = rows.get(table, [])
                names = [_column(c) for c in columns]
                if table == "seats":  # the joining order as an explicit position
                    names.append("pos")
                    position: dict[int, int] = {}
                    records = [(*r, _next(position, r[0])) for r in records]
                await conn.copy_records_to_table(table, records=records, columns=names)
            for table in ("games", "outbox"):
                await conn.execute(
                    f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                    f"COALESCE((SELECT max(id) FROM {table}), 0) + 1, false)"
                )

        await self._write(work)


def _gone(url: str, err: BaseException) -> str:
    """Why the server cannot be used, for logs: the URL without its password, and asyncpg's words."""
    return f"the PostgreSQL database {redact(url)} cannot be reached ({type(err).__name__}: {err})"


def _next(position: dict[int, int], game: int) -> int:
    """The next seat position within `game` (0, 1, 2, ... in the order rows come)."""
    pos = position.get(game, 0)
    position[game] = pos + 1
    return pos


def _shard_filter(guild: str, shards: Shards | None, *, first: int) -> tuple[str, list[Any]]:
    """SQL true for the guilds on `shards` (Discord's `(guild_id >> 22) % count`), with
    its parameters numbered from `$first`."""
    if shards is None:
        return "TRUE", []
    return (f"((COALESCE({guild}, 0) >> 22) % ${first}) = ANY(${first + 1}::int[])", [shards.count, sorted(shards.ids)])
