"""Every query both backends share, written once: `SQLStorage`, the common half of each.

sqlite.py and postgres.py subclass it and bring only what truly differs (their module
docs say what): how a read reaches committed data (`_fetch`), how a write runs in one
transaction (`_write`), which error is a unique key refused (`_unique_violation`), the
ratings lock (`_lock_ratings`), and their own `commit`, `claim_notices`, schema version,
export snapshot and bulk import. The SQL is the one both read (sql.py); a backend's
connection translates it (`Conn`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Sequence
from typing import Any, ClassVar, TypeVar

from . import ratings
from .base import (
    ActionRecord,
    AwayRecord,
    Change,
    ChannelBusy,
    Claim,
    GameRecord,
    NoticeRecord,
    PlanRecord,
    PlayerPrefs,
    Rating,
    RecordSeat,
    ReminderRecord,
    SeatRecord,
    Shards,
    Skill,
    StaleWrite,
    Standing,
    TableRecord,
    landed_change,
)
from .ratings import Key, RatedGame, Recomputed, Scope
from .records import (
    NOTICE_COLUMNS,
    TABLE_COLUMNS,
    action_record,
    dumps,
    notice_record,
    seat_record,
    table_record,
)
from .schema import OPEN, TABLES
from .sql import Conn, Dialect, Row, marks
from .transfer import Rows, columns, normalise

T = TypeVar("T")

#: A record that counts in statistics and ratings (`r`: the records table's alias):
#: played to its end or ended by resignation, not practice (ratings.counted says the same).
COUNTED = "NOT r.practice AND r.reason IN ('end','resign')"


def same(column: str, value: Any) -> tuple[str, list[Any]]:
    """`column` equal to `value`, NULL matching NULL, in a form an index serves on both
    backends (`IS NOT DISTINCT FROM ?` is read through on PostgreSQL)."""
    return (f"{column} IS NULL", []) if value is None else (f"{column} = ?", [value])


def shard_filter(guild: str, shards: Shards | None) -> tuple[str, list[Any]]:
    """SQL true for the guilds on `shards` (Discord's `(guild_id >> 22) % count`)."""
    if shards is None:
        return "TRUE", []
    ids = sorted(shards.ids)
    return f"((COALESCE({guild}, 0) >> 22) % ?) IN ({marks(ids)})", [shards.count, *ids]


def claimable(claim: Claim, now: float) -> tuple[str, list[Any]]:
    """The ids of the outbox rows `claim.owner` may claim now (Storage.claim_notices): unsent,
    of its shards, held by nobody (or a lease run out), or its own with less than half their
    lease left (a renewal)."""
    where, params = shard_filter("g.guild", claim.shards)
    return (
        "SELECT o.id FROM outbox o LEFT JOIN games g ON g.id = o.game WHERE o.sent IS NULL "
        f"AND (o.game IS NULL OR {where}) AND (o.claimed_by IS NULL OR o.claimed_until <= ? "
        "OR (o.claimed_by = ? AND o.claimed_until < ?))",
        [*params, now, claim.owner, now + claim.lease / 2],
    )


def narrowed(where: str, params: list[Any], game: str | None, user: int | None) -> tuple[str, list[Any]]:
    """A records query's conditions narrowed to one game and one person where asked
    (`standings` and `ratings` take the same filters)."""
    if game is not None:
        where, params = where + " AND r.kind = ?", [*params, game]
    if user is not None:
        where, params = where + " AND s.user_id = ?", [*params, user]
    return where, params


class SQLStorage:
    """What both backends do alike (see the module doc)."""

    dialect: ClassVar[Dialect]
    #: The driver's error for a row a unique index refuses (a second open table in a channel).
    _unique_violation: ClassVar[tuple[type[BaseException], ...]]

    # ------------------------------------------------------- the backend's part
    async def _fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """A read of committed data (the backend's outage handling included)."""
        raise NotImplementedError

    async def _write(
        self,
        work: Callable[[Conn], Awaitable[T]],
        landed: Callable[[T], Awaitable[bool | None]] | None = None,
    ) -> T:
        """`work(conn)` in one transaction; `landed(result)` tells, after a COMMIT whose
        answer was lost, whether it went through."""
        raise NotImplementedError

    async def _lock_ratings(self, conn: Conn, scope: Scope) -> None:
        """Hold the scope's ratings until the transaction ends (no-op where writers are serial)."""

    # ------------------------------------------------------------------ tables
    async def _tables(self, where: str, params: Sequence[Any], order: str = "g.id") -> list[TableRecord]:
        """Tables and their seats, in one query (a row per seat); one table's unreadable row
        never hides another's."""
        records: dict[int, TableRecord] = {}
        for row in await self._fetch(
            f"SELECT {TABLE_COLUMNS}, s.user_id, s.name, s.seat, s.resigned, s.joined, s.bot "
            f"FROM games g LEFT JOIN seats s ON s.game = g.id WHERE {where} ORDER BY {order}, s.joined, s.pos",
            params,
        ):
            rec = records.get(row[0])
            if rec is None:
                rec = records[row[0]] = table_record(row[:14])
            if row[14] is None and row[15] is None:  # no seat (user_id and name are NOT NULL)
                continue
            seat = seat_record(row[14:])
            if seat is None:
                if "seats" not in rec.damaged:
                    rec.damaged.append("seats")
            else:
                rec.seats.append(seat)
        return list(records.values())

    async def open_table(self, channel: int) -> TableRecord | None:
        rows = await self._tables(f"g.channel = ? AND g.status IN {OPEN}", (channel,))
        return rows[0] if rows else None

    async def latest_table(self, channel: int) -> TableRecord | None:
        rows = await self._tables("g.id = (SELECT max(id) FROM games WHERE channel = ?)", (channel,))
        return rows[0] if rows else None

    async def table(self, table_id: int) -> TableRecord | None:
        rows = await self._tables("g.id = ?", (table_id,))
        return rows[0] if rows else None

    async def tables(self, guild: int | None, *, include_closed: bool = False) -> list[TableRecord]:
        where, params = same("g.guild", guild)
        if not include_closed:
            where += f" AND g.status IN {OPEN}"
        return await self._tables(where, params, "g.id DESC")

    async def seated_tables(self, user: int) -> list[TableRecord]:
        return await self._tables(
            "g.status IN ('active','paused') AND g.id IN (SELECT game FROM seats WHERE user_id = ?)", (user,)
        )

    async def versions(self, table_ids: Sequence[int]) -> dict[int, int]:
        ids = list(dict.fromkeys(int(i) for i in table_ids))
        if not ids:
            return {}
        rows = await self._fetch(f"SELECT id, version FROM games WHERE id IN ({marks(ids)})", ids)
        return {int(i): int(v) for i, v in rows}

    async def snapshot(self, table_id: int) -> tuple[int, str] | None:
        rows = await self._fetch("SELECT version, state FROM snapshots WHERE game = ?", (table_id,))
        return (rows[0][0], rows[0][1]) if rows else None

    async def actions(self, table_id: int, after: int = 0) -> list[ActionRecord]:
        rows = await self._fetch(
            "SELECT seq, seat, action, time, undone, via, user_id, events FROM actions "
            "WHERE game = ? AND seq > ? ORDER BY seq",
            (table_id, after),
        )
        return [action_record(r) for r in rows]

    async def reminders(self, table_id: int) -> list[ReminderRecord]:
        rows = await self._fetch(
            "SELECT game, user_id, due, count FROM reminders WHERE game = ? ORDER BY user_id", (table_id,)
        )
        return [ReminderRecord(*r) for r in rows]

    async def due_reminders(self, now: float, shards: Shards | None = None) -> list[ReminderRecord]:
        where, params = shard_filter("g.guild", shards)
        rows = await self._fetch(
            "SELECT r.game, r.user_id, r.due, r.count FROM reminders r JOIN games g ON g.id = r.game "
            f"WHERE r.due <= ? AND {where} ORDER BY r.due",
            (now, *params),
        )
        return [ReminderRecord(*r) for r in rows]

    async def prefs(self, user: int) -> PlayerPrefs:
        rows = await self._fetch(
            "SELECT quiet_start, quiet_end, utc_offset, dm, heads_up FROM players WHERE user_id = ?", (user,)
        )
        if not rows:
            return PlayerPrefs(user)
        qs, qe, off, dm, heads_up = rows[0]
        return PlayerPrefs(user, qs, qe, off, bool(dm), bool(heads_up))

    async def set_prefs(self, prefs: PlayerPrefs) -> None:
        await self._write(
            lambda conn: conn.run(
                "INSERT INTO players (user_id, quiet_start, quiet_end, utc_offset, dm, heads_up) "
                "VALUES (?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (user_id) DO UPDATE SET quiet_start = excluded.quiet_start, "
                "quiet_end = excluded.quiet_end, utc_offset = excluded.utc_offset, dm = excluded.dm, "
                "heads_up = excluded.heads_up",
                (
                    prefs.user,
                    prefs.quiet_start,
                    prefs.quiet_end,
                    prefs.utc_offset,
                    bool(prefs.dm),
                    bool(prefs.heads_up),
                ),
            )
        )

    # ------------------------------------------------------------------ outbox
    async def notices(self) -> list[NoticeRecord]:
        rows = await self._fetch(f"SELECT {NOTICE_COLUMNS} FROM outbox WHERE sent IS NULL ORDER BY id")
        return [notice_record(r) for r in rows]

    async def _held(self, owner: str, now: float) -> list[NoticeRecord]:
        """Every notice `owner` holds by a claim still running, oldest first."""
        rows = await self._fetch(
            f"SELECT {NOTICE_COLUMNS} FROM outbox WHERE sent IS NULL AND claimed_by = ? AND claimed_until > ? "
            "ORDER BY id",
            (owner, now),
        )
        return [notice_record(r) for r in rows]

    async def add_notice(self, table_id: int | None, channel: int, payload: dict[str, Any], now: float) -> int:
        async def work(conn: Conn) -> int:
            rows = await conn.rows(
                "INSERT INTO outbox (game, channel, payload, created) VALUES (?, ?, ?, ?) RETURNING id",
                (table_id, channel, dumps(payload), now),
            )
            return int(rows[0][0])

        return await self._write(work)

    async def mark_sent(self, notice_id: int, now: float) -> None:
        await self._write(
            lambda conn: conn.run("UPDATE outbox SET sent = ? WHERE id = ? AND sent IS NULL", (now, notice_id))
        )

    async def release_notices(self, owner: str) -> None:
        await self._write(
            lambda conn: conn.run(
                "UPDATE outbox SET claimed_by = NULL, claimed_until = NULL WHERE claimed_by = ?", (owner,)
            )
        )

    # ----------------------------------------------------------------- writes
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
        async def work(conn: Conn) -> int:
            try:
                rows = await conn.rows(
                    "INSERT INTO games (guild, channel, game, status, creator, options, seed, version, created, "
                    "updated, remind_every, meta) VALUES (?, ?, ?, 'lobby', ?, ?, ?, 1, ?, ?, ?, ?) RETURNING id",
                    (guild, channel, game, creator, dumps(options), seed, now, now, remind_every, dumps(meta or {})),
                )
            except self._unique_violation:
                raise ChannelBusy(f"channel {channel} already has an open game") from None
            table_id = int(rows[0][0])
            await self._put_seats(conn, table_id, seats)
            return table_id

        async def landed(table_id: int) -> bool:
            found = await self._fetch("SELECT channel, created FROM games WHERE id = ?", (table_id,))
            return bool(found) and tuple(found[0]) == (channel, now)

        table_id = await self._write(work, landed)
        rec = await self.table(table_id)
        assert rec is not None
        return rec

    @staticmethod
    async def _put_seats(conn: Conn, table_id: int, seats: list[SeatRecord]) -> None:
        await conn.run("DELETE FROM seats WHERE game = ?", (table_id,))
        await conn.many(
            "INSERT INTO seats (game, user_id, name, seat, resigned, joined, bot, pos) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [(table_id, s.user, s.name, s.seat, bool(s.resigned), s.joined, s.bot, pos) for pos, s in enumerate(seats)],
        )

    async def _landed(self, table: TableRecord, change: Change, now: float, version: int) -> bool | None:
        """Did this change's commit land? The table's row and log as they read now."""
        rows = await self._fetch("SELECT revision, version, updated FROM games WHERE id = ?", (table.id,))
        first = None
        if change.actions:
            found = await self._fetch(
                "SELECT seat, action, time FROM actions WHERE game = ? AND seq = ?", (table.id, change.actions[0].seq)
            )
            first = tuple(found[0]) if found else None
        return landed_change(tuple(rows[0]) if rows else None, table, change, now, version, first)

    async def _apply(self, conn: Conn, table: TableRecord, change: Change, now: float) -> int:
        """Write `change` if the table is still at its revision (StaleWrite otherwise); the
        new version."""
        table_id = table.id
        version = table.version + 1 if change.bump else table.version
        sets = ["version = ?", "revision = revision + 1", "updated = ?"]
        params: list[Any] = [version, now]
        for column, value in (
            ("status", change.status),
            ("remind_every", change.remind_every),
            ("options", None if change.options is None else dumps(change.options)),
            ("meta", None if change.meta is None else dumps(change.meta)),
        ):
            if value is not None:
                sets.append(f"{column} = ?")
                params.append(value)
        moved = await conn.rows(
            f"UPDATE games SET {', '.join(sets)} WHERE id = ? AND revision = ? AND version = ? RETURNING revision",
            (*params, table_id, table.revision, table.version),
        )
        if not moved:
            found = await conn.rows("SELECT revision FROM games WHERE id = ?", (table_id,))
            raise StaleWrite(table_id, table.revision, found[0][0] if found else None)
        if change.seats is not None:
            await self._put_seats(conn, table_id, change.seats)
        if change.undo_from is not None:
            await conn.run(
                "UPDATE actions SET undone = TRUE WHERE game = ? AND seq >= ? AND NOT undone",
                (table_id, change.undo_from),
            )
        if change.actions:
            await conn.many(
                "INSERT INTO actions (game, seq, seat, action, time, undone, via, user_id, events) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (table_id, a.seq, a.seat, a.action, a.time, bool(a.undone), a.via, a.user, dumps(a.events))
                    for a in change.actions
                ],
            )
        if change.snapshot is not None:
            await conn.run(
                "INSERT INTO snapshots (game, version, state) VALUES (?, ?, ?) "
                "ON CONFLICT (game) DO UPDATE SET version = excluded.version, state = excluded.state",
                (table_id, version, change.snapshot),
            )
        await self._apply_rows(conn, table_id, change, now)
        return version

    async def _apply_rows(self, conn: Conn, table_id: int, change: Change, now: float) -> None:
        """The rest of a change: its reminders, notices and record."""
        if change.reminders is not None:
            await conn.run("DELETE FROM reminders WHERE game = ?", (table_id,))
            if change.reminders:
                await conn.many(
                    "INSERT INTO reminders (game, user_id, due, count) VALUES (?, ?, ?, ?)",
                    [(table_id, r.user, r.due, r.count) for r in change.reminders],
                )
        if change.notices:
            await conn.many(
                "INSERT INTO outbox (game, channel, payload, created) VALUES (?, ?, ?, ?)",
                [(table_id, channel, dumps(p), now) for channel, p in change.notices],
            )
        if change.record is not None:
            await self._put_record(conn, table_id, change.record)
        await self._put_plans(conn, table_id, change, now)

    @staticmethod
    async def _put_plans(conn: Conn, table_id: int, change: Change, now: float) -> None:
        """A change's planned moves (issue 51): the queues it gives, and none left for a seat
        it makes a bot or resigned, nor at all once the table ends."""
        if change.status in ("finished", "cancelled"):
            await conn.run("DELETE FROM plans WHERE game = ?", (table_id,))
            return
        emptied: dict[int, list[PlanRecord]] = {s.user: [] for s in change.seats or [] if s.bot or s.resigned}
        for user, queue in {**(change.plans or {}), **emptied}.items():
            await conn.run("DELETE FROM plans WHERE game = ? AND user_id = ?", (table_id, user))
            if queue:
                await conn.many(
                    "INSERT INTO plans (game, user_id, pos, action, label, created) VALUES (?, ?, ?, ?, ?, ?)",
                    [(table_id, user, pos, p.action, p.label, p.created or now) for pos, p in enumerate(queue)],
                )

    async def forget(self, table_id: int) -> bool:
        async def work(conn: Conn) -> bool:
            rated = await self._rated_key(conn, table_id)
            if rated is not None:
                await self._lock_ratings(conn, rated[0])
            gone = await conn.rows("DELETE FROM games WHERE id = ? RETURNING id", (table_id,))  # the rest cascades
            if rated is not None:
                await self._refold(conn, *rated)
            return bool(gone)

        return await self._write(work)

    # ----------------------------------------------------------------- records
    async def history(self, guild: int | None, *, game: str | None = None, limit: int = 10) -> list[GameRecord]:
        where, params = same("r.guild", guild)
        if game is not None:
            where, params = where + " AND r.kind = ?", [*params, game]
        rows = await self._fetch(
            "SELECT r.game, r.guild, r.kind, r.reason, r.started, r.ended, r.moves, r.practice FROM records r "
            f"WHERE {where} ORDER BY r.ended DESC, r.game DESC LIMIT ?",
            (*params, int(limit)),
        )
        records = [GameRecord(r[0], r[1], r[2], r[3], r[4], r[5], r[6], bool(r[7])) for r in rows]
        if records:
            by_id = {r.table: r for r in records}
            for row in await self._fetch(
                "SELECT game, seat, user_id, name, bot, score, place, winner, resigned FROM record_seats "
                f"WHERE game IN ({marks(records)}) ORDER BY game, seat",
                list(by_id),
            ):
                by_id[row[0]].seats.append(
                    RecordSeat(row[1], row[2], row[3], row[4], row[5], row[6], bool(row[7]), bool(row[8]))
                )
        return records

    async def standings(self, guild: int | None, *, game: str | None = None, user: int | None = None) -> list[Standing]:
        counted, first = same("r.guild", guild)
        counted += f" AND {COUNTED}"
        where, params = narrowed(counted, first, game, user)
        latest = (
            "SELECT s2.name FROM record_seats s2 JOIN records r2 ON r2.game = s2.game "
            f"WHERE {counted.replace('r.', 'r2.')} AND r2.kind = r.kind AND s2.user_id = s.user_id "
            "AND s2.bot IS NOT DISTINCT FROM s.bot ORDER BY r2.ended DESC, r2.game DESC LIMIT 1"
        )
        rows = await self._fetch(
            f"SELECT r.kind, s.user_id, s.bot, ({latest}), count(*), count(*) FILTER (WHERE s.winner), "
            "COALESCE(sum(s.score), 0), count(s.score), COALESCE(sum(s.place), 0), count(s.place) "
            f"FROM record_seats s JOIN records r ON r.game = s.game WHERE {where} "
            "GROUP BY r.kind, s.user_id, s.bot ORDER BY r.kind, s.user_id, s.bot NULLS FIRST",
            (*first, *params),
        )
        return [Standing(r[0], r[1], r[2], r[3], *(int(v) for v in r[4:])) for r in rows]

    async def ratings(self, guild: int | None, *, game: str | None = None, user: int | None = None) -> list[Rating]:
        where, params = same("r.guild", guild)
        where, params = narrowed(f"{where} AND s.mu IS NOT NULL AND {COUNTED}", params, game, user)
        rows = await self._fetch(
            "SELECT kind, user_id, name, mu, sigma, games FROM ("
            "SELECT r.kind, s.user_id, s.name, s.mu, s.sigma, count(*) OVER (PARTITION BY r.kind, s.user_id) AS games, "
            "row_number() OVER (PARTITION BY r.kind, s.user_id ORDER BY r.ended DESC, r.game DESC) AS latest "
            f"FROM record_seats s JOIN records r ON r.game = s.game WHERE {where}"
            ") AS rated WHERE latest = 1 ORDER BY kind, user_id",
            params,
        )
        return [Rating(kind, u, name, Skill(mu, sigma), int(games)) for kind, u, name, mu, sigma, games in rows]

    async def _put_record(self, conn: Conn, table_id: int, record: GameRecord) -> None:
        """Write the record (replacing any earlier one of the table) and rate its people: the
        ratings are folded again from the earlier of the old and the new record on. The
        scope's lock comes first, before any row of it is touched."""
        await self._lock_ratings(conn, (record.guild, record.game))
        old = await conn.rows(  # its seats go with it
            "DELETE FROM records WHERE game = ? RETURNING ended, reason, practice", (table_id,)
        )
        await conn.run(
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
                bool(record.practice),
            ),
        )
        await conn.many(
            "INSERT INTO record_seats (game, seat, user_id, name, bot, score, place, winner, resigned, ended) "
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
                    bool(s.winner),
                    bool(s.resigned),
                    record.ended,
                )
                for s in record.seats
            ],
        )
        since = ratings.refold_from(table_id, record, old)
        if since is not None:  # a table's server and game never change: one scope
            await self._refold(conn, (record.guild, record.game), since)

    # ----------------------------------------------------------------- ratings
    @staticmethod
    async def _rated_key(conn: Conn, table_id: int) -> tuple[Scope, Key] | None:
        """Where the table's record stands among the ratings, when it counts: its server and
        game, and its place in the order of updates."""
        rows = await conn.rows(f"SELECT guild, kind, ended FROM records r WHERE game = ? AND {COUNTED}", (table_id,))
        return ((rows[0][0], rows[0][1]), (rows[0][2], table_id)) if rows else None

    async def _refold(self, conn: Conn, scope: Scope, since: Key | None, *, write: bool = True) -> list[Recomputed]:
        """Fold the counted records of `scope` from `since` on (None: all of them), starting
        from the ratings stored before it, and store what differs (unless not `write`).
        The conditions are written for the case at hand (not `IS NOT DISTINCT FROM`), so an
        index serves them: every game's end would otherwise read all of its server's records."""
        await self._lock_ratings(conn, scope)
        guild, kind = scope
        where, params = same("r.guild", guild)
        where, params = f"{where} AND r.kind = ? AND {COUNTED}", [*params, kind]
        later, after = ("", []) if since is None else (" AND (r.ended, r.game) >= (?, ?)", list(since))
        games = ratings.games(
            await conn.rows(
                "SELECT r.game, r.ended, s.seat, s.user_id, s.name, s.place, s.resigned, s.mu, s.sigma, s.bot "
                "FROM records r "
                f"JOIN record_seats s ON s.game = r.game WHERE {where}{later} ORDER BY r.ended, r.game, s.seat",
                (*params, *after),
            )
        )
        before = await self._before(conn, where, params, games, since)
        results = ratings.fold(games, before)
        if write:
            await conn.many(
                "UPDATE record_seats SET mu = ?, sigma = ? WHERE game = ? AND seat = ?", ratings.updates(results)
            )
        return results

    @staticmethod
    async def _before(
        conn: Conn, where: str, params: list[Any], games: list[RatedGame], since: Key | None
    ) -> dict[int, Skill]:
        """The ratings of the people in `games` just before `since`: each person's own rated
        seats newest first (index record_seats_rated), the first of this server and game; a
        few rows whatever the number of records."""
        users = sorted({s.user for g in games for s in g.seats})
        if since is None or not users:
            return {}
        latest = (
            "SELECT * FROM (SELECT s.user_id, s.mu, s.sigma FROM record_seats s {ordered_join} records r "
            "ON r.game = s.game WHERE s.user_id = ? AND s.mu IS NOT NULL AND (s.ended, s.game) < (?, ?) "
            f"AND {where} ORDER BY s.ended DESC, s.game DESC LIMIT 1) AS latest"
        )
        rows = await conn.rows(
            " UNION ALL ".join([latest] * len(users)),
            [value for user in users for value in (user, *since, *params)],
        )
        return {user: Skill(mu, sigma) for user, mu, sigma in rows}

    async def _recompute(self, conn: Conn, *, write: bool) -> list[Recomputed]:
        """Every server's and game's ratings folded from their first record."""
        out = []
        for guild, kind in await conn.rows(f"SELECT DISTINCT guild, kind FROM records r WHERE {COUNTED}"):
            out.extend(await self._refold(conn, (guild, kind), None, write=write))
        return out

    async def recompute_ratings(self, *, write: bool) -> list[Recomputed]:
        return await self._write(lambda conn: self._recompute(conn, write=write))

    # --------------------------------------------------- web table, time away, posts
    async def secret(self, name: str, make: Callable[[], str], now: float) -> str:
        rows = await self._fetch("SELECT value FROM secrets WHERE name = ?", (name,))
        if rows:
            return str(rows[0][0])

        async def work(conn: Conn) -> str:
            await conn.run(
                "INSERT INTO secrets (name, value, created) VALUES (?, ?, ?) ON CONFLICT (name) DO NOTHING",
                (name, make(), now),
            )
            return str((await conn.rows("SELECT value FROM secrets WHERE name = ?", (name,)))[0][0])

        return await self._write(work)

    async def link_generation(self, table_id: int, user: int) -> int:
        rows = await self._fetch("SELECT generation FROM links WHERE game = ? AND user_id = ?", (table_id, user))
        return int(rows[0][0]) if rows else 0

    async def reset_link(self, table_id: int, user: int) -> int:
        async def work(conn: Conn) -> int:
            rows = await conn.rows(
                "INSERT INTO links (game, user_id, generation) VALUES (?, ?, 1) "
                "ON CONFLICT (game, user_id) DO UPDATE SET generation = links.generation + 1 RETURNING generation",
                (table_id, user),
            )
            return int(rows[0][0])

        return await self._write(work)

    async def plans(self, table_id: int) -> dict[int, list[PlanRecord]]:
        rows = await self._fetch(
            "SELECT user_id, action, label, created FROM plans WHERE game = ? ORDER BY user_id, pos", (table_id,)
        )
        out: dict[int, list[PlanRecord]] = {}
        for user, action, label, created in rows:
            plan = PlanRecord(str(action), None if label is None else str(label), float(created))
            out.setdefault(int(user), []).append(plan)
        return out

    async def away(self, user: int, since: float) -> list[AwayRecord]:
        rows = await self._fetch(
            "SELECT user_id, begins, ends, note FROM away WHERE user_id = ? AND ends > ? ORDER BY begins", (user, since)
        )
        return [AwayRecord(int(u), float(b), float(e), str(n)) for u, b, e, n in rows]

    async def set_away(self, away: AwayRecord, *, forget_before: float) -> None:
        async def work(conn: Conn) -> None:
            await conn.run("DELETE FROM away WHERE user_id = ? AND ends < ?", (away.user, forget_before))
            await conn.run(
                "INSERT INTO away (user_id, begins, ends, note) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (user_id, begins) DO UPDATE SET ends = excluded.ends, note = excluded.note",
                (away.user, away.begins, away.ends, away.note),
            )

        await self._write(work)

    async def set_post(self, table_id: int, message: int, now: float) -> None:
        await self._write(
            lambda conn: conn.run(
                "INSERT INTO posts (game, message, time) SELECT id, ?, ? FROM games WHERE id = ? "
                "ON CONFLICT (game) DO UPDATE SET message = excluded.message, time = excluded.time",
                (message, now, table_id),
            )
        )

    async def posts(self, table_ids: Sequence[int]) -> dict[int, int]:
        ids = list(dict.fromkeys(int(i) for i in table_ids))
        if not ids:
            return {}
        rows = await self._fetch(f"SELECT game, message FROM posts WHERE game IN ({marks(ids)})", ids)
        return {int(g): int(m) for g, m in rows}

    # ---------------------------------------------------------------- transfer
    async def row_counts(self) -> dict[str, int]:
        return {t.name: int((await self._fetch(f"SELECT count(*) FROM {t.name}"))[0][0]) for t in TABLES}

    @staticmethod
    async def _export(conn: Conn) -> Rows:
        """Every table (transfer.py) read on `conn`, which the backend holds in one snapshot."""
        out: Rows = {}
        for table in TABLES:
            rows = await conn.rows(f"SELECT {', '.join(columns(table.name))} FROM {table.name} ORDER BY {table.order}")
            out[table.name] = [normalise(table.name, r) for r in rows]
        return out


def with_positions(seats: Iterable[Sequence[Any]]) -> list[tuple[Any, ...]]:
    """Seats rows (transfer's columns, in joining order) with each one's `pos` in its table."""
    position: dict[int, int] = {}
    out = []
    for row in seats:
        pos = position.get(row[0], 0)
        position[row[0]] = pos + 1
        out.append((*row, pos))
    return out
