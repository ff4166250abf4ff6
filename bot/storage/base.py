"""The storage interface the service relies on, and the records it passes.

Small on purpose and free of SQL: the service only ever calls these methods, so
the SQLite (`sqlite.py`) and PostgreSQL (`postgres.py`) backends are
interchangeable under it. Every write goes through `commit`, one transaction that checks the
table's version first (optimistic concurrency, as boardgame.io's master refuses
actions made against an old state id) and either applies the whole `Change` or
raises `StaleWrite` and applies nothing. A database that cannot be used at the moment
raises `StorageUnavailable`, saying whether anything was stored (issue 23).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, Protocol

from .transfer import Rows

log = logging.getLogger(__name__)

#: Table statuses. "lobby" -> "active" <-> "paused" -> "finished"; any -> "cancelled".
OPEN_STATUSES = ("lobby", "active", "paused")
#: Seconds between the looks a backend takes, after the connection broke during a COMMIT,
#: at whether that commit landed (the database may need a moment to come back).
RECHECK_DELAYS = (0.25, 0.5, 1.0, 2.0, 4.0)


class StorageError(Exception):
    """Base of the storage errors the service handles."""


class StaleWrite(StorageError):
    """The table changed underneath this write (its revision moved); nothing was written."""

    def __init__(self, table_id: int, expected: int, actual: int | None) -> None:
        super().__init__(f"table {table_id}: expected version {expected}, found {actual}")
        self.table_id = table_id
        self.expected = expected
        self.actual = actual


class StorageUnavailable(StorageError):
    """The database could not be used for this call: unreachable, stopped, read-only, full,
    locked by another process. `stored` says what became of the call's writes: False,
    nothing was stored (the failure came before any COMMIT, or the backend looked and
    found it had not landed); None, a COMMIT was sent and whether it landed cannot be
    told yet (the database did not come back while the backend kept looking)."""

    def __init__(self, reason: str, *, stored: bool | None = False) -> None:
        super().__init__(reason)
        self.reason = reason
        self.stored = stored


class ChannelBusy(StorageError):
    """The channel already has an open (lobby, active or paused) table."""


class DamagedDatabase(StorageError):
    """The database as a whole cannot be used (not a database, truncated, garbage inside).

    Raised by `open` before anything is written, so the file stays as it was for
    whoever restores it; the message names the file and what is wrong with it."""

    def __init__(self, where: str, reason: str) -> None:
        super().__init__(
            f"the database {where} is damaged: {reason}. It was left untouched; "
            "restore it from a backup, or point --db (or [storage] database) at another file."
        )
        self.where = where
        self.reason = reason


@dataclass
class SeatRecord:
    """One player at a table. `seat` is None in the lobby, the engine seat after start.

    `bot`: None for a person; for a seat played by a fill-in bot, its level (e.g.
    "normal"). Statistics list bots apart from people and never rank them."""

    user: int
    name: str
    seat: int | None = None
    resigned: bool = False
    joined: float = 0.0
    bot: str | None = None


@dataclass
class TableRecord:
    """One game in one channel: what it is, who plays, and its service-side state.

    `meta` holds the service's own bookkeeping as JSON (a pending undo request,
    votes, the result of a finished game); the storage never looks inside it.
    `version` counts changes to the game (its state, players, status): buttons
    carry it. `revision` counts every write, including ones that leave the game
    as it was (a vote, a sent reminder): the optimistic check compares it, so no
    write is ever lost to another.
    """

    id: int
    guild: int | None
    channel: int
    game: str
    status: str
    creator: int
    options: dict[str, Any]
    seed: int
    version: int
    created: float
    updated: float
    remind_every: float
    meta: dict[str, Any] = field(default_factory=dict)
    seats: list[SeatRecord] = field(default_factory=list)
    revision: int = 0
    #: What of this table's stored row could not be read ("meta", "seats", "options"),
    #: [] when all is well. A damaged part reads as empty; the service refuses to play
    #: on a table whose seats are damaged and rebuilds what the log can give.
    damaged: list[str] = field(default_factory=list)

    def seat_of(self, user: int) -> SeatRecord | None:
        return next((s for s in self.seats if s.user == user), None)

    def user_at(self, seat: int) -> SeatRecord | None:
        return next((s for s in self.seats if s.seat == seat), None)

    @property
    def players(self) -> list[SeatRecord]:
        """Seated players in seat order (lobby: in joining order)."""
        numbered = [(s.seat, s) for s in self.seats if s.seat is not None]
        if len(numbered) == len(self.seats):
            return [s for _, s in sorted(numbered, key=lambda pair: pair[0])]
        return list(self.seats)


@dataclass
class ActionRecord:
    """One line of the append-only action log.

    `via` says how it came to be: "" (the player), "skip" (voted skip of an
    absent player), "auto" (a resigned seat's turn). `undone` lines stay in the
    log; replay skips them. `events` are the engine's public log lines.
    """

    seq: int
    seat: int
    action: str
    time: float
    undone: bool = False
    via: str = ""
    user: int | None = None
    events: list[str] = field(default_factory=list)
    #: The stored events could not be read (the action itself, which replays, is intact).
    damaged: bool = False


@dataclass
class ReminderRecord:
    """When to remind `user` at `table` next, and how many reminders went unanswered."""

    table: int
    user: int
    due: float
    count: int = 0


@dataclass
class PlayerPrefs:
    """A player's own settings, the same in every game.

    Quiet hours are local hours [quiet_start, quiet_end) with the player's UTC
    offset in minutes; None means no quiet hours. `dm`: private parts and
    reminders by direct message. `heads_up`: a ping when the player before them
    starts a turn (issue 12 §3).
    """

    user: int
    quiet_start: int | None = None
    quiet_end: int | None = None
    utc_offset: int = 0
    dm: bool = False
    heads_up: bool = False


@dataclass
class PlanRecord:
    """One planned move of a player's queue at a table (issue 51), played for them when
    their decision comes. `label`: the described choice it was picked from (the panel, the
    web page), kept so it is played only if the same move still reads the same; None for a
    typed move."""

    action: str
    label: str | None = None
    created: float = 0.0


@dataclass
class AwayRecord:
    """A time away of one player (issue 27 §2), the same in every server: from `begins` to
    `ends` every clock of theirs stops and their reminders wait. `away off` moves `ends`
    to that moment. `note` is their own words ("holiday"), shown to the other players."""

    user: int
    begins: float
    ends: float
    note: str = ""


@dataclass
class NoticeRecord:
    """An undelivered outbox row: a JSON payload (a Reply) for a channel."""

    id: int
    table: int | None
    channel: int
    payload: dict[str, Any]
    created: float


@dataclass(frozen=True)
class Shards:
    """The Discord shards one bot process runs: it serves only their guilds.

    Discord puts a guild on shard `(guild_id >> 22) % count`; direct messages (no
    guild) belong to shard 0, as Discord sends them there.
    """

    count: int
    ids: frozenset[int]

    def __post_init__(self) -> None:
        if self.count < 1 or not self.ids or not all(0 <= i < self.count for i in self.ids):
            raise ValueError(f"shard ids {sorted(self.ids)} must lie in 0..{self.count - 1}")

    def owns(self, guild: int | None) -> bool:
        return shard_of(guild, self.count) in self.ids


def shard_of(guild: int | None, count: int) -> int:
    """Discord's shard of a guild (0 for no guild: direct messages)."""
    return ((guild or 0) >> 22) % count


@dataclass(frozen=True)
class Claim:
    """Who takes outbox notices for delivery, for how long, and of which guilds.

    A claimed notice is offered to no other owner until `lease` seconds after its
    last claim; the owner renews its claims every dispatcher round, so only a
    process that stopped (crashed, killed) lets them expire. `shards` None: every
    guild. A notice of no table (no guild known) may be claimed by any owner.
    """

    owner: str
    lease: float = 120.0
    shards: Shards | None = None


@dataclass
class RecordSeat:
    """One seat of a game's record: who sat there and how they finished.

    `place` is the finishing place (1 = a winner; equal scores share a place) and
    `score` the final score; both None when the game was cancelled before its end."""

    seat: int
    user: int
    name: str
    bot: str | None = None
    score: int | None = None
    place: int | None = None
    winner: bool = False
    resigned: bool = False


@dataclass
class GameRecord:
    """The record of a game once it ended, kept for history and statistics (issue 17).

    `table` is the table's id (the game's number in `games history`); `game` the
    engine's game id. `reason`: "end" (played to its end), "resign" (one player
    was left), "cancelled". `practice`: opened with a chosen seed, or forked from
    an export, so anyone could replay its shuffles: shown in history, never counted
    in statistics. `moves` counts the actions players chose (automatic steps and
    lines copied into a fork are not counted). Times are Unix seconds."""

    table: int
    guild: int | None
    game: str
    reason: str
    started: float
    ended: float
    moves: int
    practice: bool = False
    seats: list[RecordSeat] = field(default_factory=list)


@dataclass
class Standing:
    """One participant's totals in one game over a server's counted records
    (`Storage.standings`): what statistics and leaderboards are computed from."""

    game: str
    user: int
    bot: str | None
    #: The name on the participant's most recent counted record.
    name: str
    games: int
    wins: int
    score_total: int
    #: Records of these games that have a score (the average score divides by it).
    scored: int
    place_total: int
    #: Records of these games that have a place.
    placed: int


@dataclass(frozen=True)
class Skill:
    """A person's rating in one game on one server (issue 27 §4): OpenSkill's estimate of
    their skill (`mu`) and its uncertainty (`sigma`, one standard deviation)."""

    mu: float
    sigma: float

    @property
    def conservative(self) -> float:
        """The skill they have at least, almost surely (mu less three sigma): what ranks them.
        0 before a first game, rising as the games make the estimate surer."""
        return self.mu - 3 * self.sigma


@dataclass(frozen=True)
class Recomputed:
    """One seat of a refolded record: what was stored and what the fold gives."""

    table: int
    seat: int
    user: int
    name: str
    stored: Skill | None
    computed: Skill | None

    @property
    def changed(self) -> bool:
        """Compared exactly: the fold repeats the same float operations on the same stored
        doubles, so any difference at all means the stored numbers are not the fold's."""
        return self.stored != self.computed


@dataclass
class Rating:
    """A person's current rating in one game on one server (`Storage.ratings`)."""

    game: str
    user: int
    #: The name on their latest rated record.
    name: str
    skill: Skill
    #: How many of their records rated them (games with at least one other person).
    games: int


@dataclass
class Change:
    """Everything one command writes, applied atomically by `Storage.commit`.

    None means "leave as is"; lists of actions/notices are appended. `bump`
    raises the version (every change to the game or its players does; a sent
    reminder does not, so buttons on the board stay valid). Every commit raises
    the revision.
    """

    status: str | None = None
    options: dict[str, Any] | None = None
    remind_every: float | None = None
    meta: dict[str, Any] | None = None
    seats: list[SeatRecord] | None = None
    actions: list[ActionRecord] = field(default_factory=list)
    undo_from: int | None = None
    snapshot: str | None = None
    reminders: list[ReminderRecord] | None = None
    notices: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    bump: bool = True
    #: The game's record, written when it ends (replacing any earlier record of the table).
    record: GameRecord | None = None
    #: Planned moves (issue 51): each user's queue at this table replaced by the one given
    #: ([]: emptied). Written in the version-checked transaction, so a plan played by one
    #: process's commit is never played again by another's. The queues of every seat a
    #: change makes a bot or resigned, and all of them when the table ends, are emptied too.
    plans: dict[int, list[PlanRecord]] | None = None


# ---- when the database goes away (issue 23) ---------------------------------------------
@dataclass
class Writes:
    """How many writes committed since `counting_writes()` began (one command's), so that a
    failure after some of them is never told as "nothing was changed". Only the counting
    task's own writes count: a task it starts (a bot that plays next) inherits the
    context, not the count."""

    task: asyncio.Task[Any] | None
    count: int = 0


_WRITES: ContextVar[Writes | None] = ContextVar("epochs_writes", default=None)


@contextmanager
def counting_writes() -> Iterator[Writes]:
    """Count the writes this task commits from here on."""
    writes = Writes(asyncio.current_task())
    token = _WRITES.set(writes)
    try:
        yield writes
    finally:
        _WRITES.reset(token)


def note_write() -> None:
    """A backend's write committed (called in its caller's task, so the count is theirs)."""
    writes = _WRITES.get()
    if writes is not None and writes.task is asyncio.current_task():
        writes.count += 1


async def find_out(
    landed: Callable[[], Awaitable[bool | None]], delays: Sequence[float] = RECHECK_DELAYS
) -> bool | None:
    """Whether a commit whose answer was lost landed, as the database tells it once it can
    be read again: `landed()` looks (True, False, or None when the rows cannot tell), and
    is tried at once and again after each of `delays` while the database cannot be
    reached. None: it could not be told in that time."""
    for delay in (0.0, *delays):
        if delay:
            await asyncio.sleep(delay)
        try:
            return await landed()
        except StorageUnavailable as err:
            log.info("the outcome of a commit cannot be read yet: %s", err.reason)
    return None


def landed_change(
    row: tuple[int, int, float] | None,
    table: TableRecord,
    change: Change,
    now: float,
    version: int,
    first_action: tuple[int, str, float] | None,
) -> bool | None:
    """Did `commit(table, change, now)` (which would have made `version`) land? From the
    table's row as it reads now (`revision, version, updated`; None: no such table) and,
    when the change wrote log lines, the stored line at the first one's number
    (`seat, action, time`; None: no such line). A change that wrote lines landed exactly
    when its first line is there as written (only the commit could put it there); one
    without lines landed when the table is exactly one write further, with this version
    and this time; the table still at its revision means it did not; anything else (more
    writes since, the table forgotten) cannot tell."""
    if row is None:
        return None
    revision, stored_version, updated = row
    if revision == table.revision:
        return False
    if change.actions:
        first = change.actions[0]
        return first_action == (first.seat, first.action, first.time)
    if revision == table.revision + 1:
        return stored_version == version and updated == now
    return None


class Storage(Protocol):
    """What the service needs from a database. All methods are coroutines."""

    async def open(self) -> None:
        """Connect and apply pending numbered migrations."""

    async def close(self) -> None: ...

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
        """A new lobby; ChannelBusy when the channel has an open table. `meta` (default
        {}) is stored as the table's first bookkeeping, in the same transaction (a
        practice mark, the actions a fork copies)."""

    async def open_table(self, channel: int) -> TableRecord | None:
        """The channel's open table (lobby, active or paused), if any."""

    async def latest_table(self, channel: int) -> TableRecord | None:
        """The channel's most recent table, whatever its status (a finished game's board)."""

    async def table(self, table_id: int) -> TableRecord | None: ...

    async def tables(self, guild: int | None, *, include_closed: bool = False) -> list[TableRecord]:
        """A server's tables, newest first."""

    async def snapshot(self, table_id: int) -> tuple[int, str] | None:
        """(version, state text) of the latest stored state."""

    async def actions(self, table_id: int, after: int = 0) -> list[ActionRecord]:
        """The log in order from sequence number `after + 1`, undone lines included."""

    async def commit(self, table: TableRecord, change: Change, now: float) -> int:
        """Apply `change` in one transaction if the table is still at `table.revision`;
        return the new version (and update `table.version`/`table.revision`).
        StaleWrite otherwise (nothing written). StorageUnavailable when the database
        cannot be used; its `stored` tells whether anything was written (a COMMIT whose
        answer was lost is looked up first, and returns normally when it landed).
        A counted `change.record` rates its people in the same transaction, and folds
        again any later record of its game on its server (bot/storage/ratings.py)."""

    async def due_reminders(self, now: float, shards: Shards | None = None) -> list[ReminderRecord]:
        """Reminders due at `now`, soonest first; only of `shards`' guilds when given."""

    async def reminders(self, table_id: int) -> list[ReminderRecord]: ...

    async def notices(self) -> list[NoticeRecord]:
        """Undelivered outbox rows, oldest first."""

    async def claim_notices(self, claim: Claim, now: float) -> list[NoticeRecord]:
        """Claim for `claim.owner` the undelivered notices of its shards that nobody else
        holds (never claimed, or their lease ran out), renew the owner's own claims, and
        return every notice the owner now holds, oldest first. Two owners never hold
        the same notice at once."""

    async def release_notices(self, owner: str) -> None:
        """Let go of every claim of `owner` (a clean stop): others may take them at once."""

    async def add_notice(self, table_id: int | None, channel: int, payload: dict[str, Any], now: float) -> int:
        """Put one notice into the outbox in its own transaction (no version check, the
        table is untouched); return its id. For messages that could not be delivered
        at once (a failed public post): the dispatcher delivers them, after a restart too."""

    async def mark_sent(self, notice_id: int, now: float) -> None: ...

    async def history(self, guild: int | None, *, game: str | None = None, limit: int = 10) -> list[GameRecord]:
        """The records of a server's ended games (`guild` None: the games of no server,
        matched with IS NULL), newest first: by `ended` descending, then by `table`
        descending; only of engine game `game` when given; at most `limit`. Practice
        and cancelled games are included. Each record carries its seats in seat order."""

    async def standings(self, guild: int | None, *, game: str | None = None, user: int | None = None) -> list[Standing]:
        """Totals per (game, user, bot) over the server's counted records: reason "end"
        or "resign" and not practice (cancelled and practice games never count). Only
        game `game` / participant `user` when given. Per group: the number of records
        (`games`), how many have `winner` (`wins`), the sum and count of non-null
        scores and places, and the name of the group's record with the latest `ended`
        (then the highest `table`). Order: game id, then user, then bot (None first)."""

    async def ratings(self, guild: int | None, *, game: str | None = None, user: int | None = None) -> list[Rating]:
        """Every person's current rating on a server (the one stored on their latest rated
        record seat, by `ended` then `table`) with the number of their rated records; only of
        game `game` / person `user` when given. Order: game id, then user."""

    async def forget(self, table_id: int) -> bool:
        """Delete a table with everything of it in one transaction: its row, seats,
        log, snapshot, reminders and record (its outbox rows keep their text but lose
        their table), and the ratings of the later records of its game on its server
        folded again without it (bot/storage/ratings.py). False when there was no such table."""

    async def prefs(self, user: int) -> PlayerPrefs: ...

    async def set_prefs(self, prefs: PlayerPrefs) -> None: ...

    async def secret(self, name: str, make: Callable[[], str], now: float) -> str:
        """The secret stored under `name`; the first caller stores `make()` (issue 28: the web
        table's signing key). Processes asking at once all get the one value stored."""

    async def link_generation(self, table_id: int, user: int) -> int:
        """How often `user`'s seat links at the table were reset (0: never)."""

    async def reset_link(self, table_id: int, user: int) -> int:
        """Raise `user`'s seat link generation at the table by one (`game link reset`: every
        older link stops working) and return it."""

    async def versions(self, table_ids: Sequence[int]) -> dict[int, int]:
        """The game version of each of `table_ids` that exists (one cheap read: the web table
        asks it a few times a second for the tables whose pages are open)."""

    async def plans(self, table_id: int) -> dict[int, list[PlanRecord]]:
        """Every player's planned moves at the table (issue 51), by user, each queue in order
        (users without one are left out)."""

    async def away(self, user: int, since: float) -> list[AwayRecord]:
        """`user`'s times away that end after `since`, oldest first (issue 27 §2)."""

    async def set_away(self, away: AwayRecord, *, forget_before: float) -> None:
        """Store a time away (one of the same user and `begins` is replaced), and forget the
        user's times away that ended before `forget_before` (no clock reaches back so far)."""

    async def seated_tables(self, user: int) -> list[TableRecord]:
        """The running (active or paused) tables where `user` has a seat, in every server,
        oldest first (`games mine`, `away`)."""

    async def set_post(self, table_id: int, message: int, now: float) -> None:
        """Remember the id of a table's latest public post (a transport's own message id, e.g.
        Discord's), so `games mine` can link to it. Outside the table's commit: a post is no
        change to the game."""

    async def posts(self, table_ids: Sequence[int]) -> dict[int, int]:
        """The latest public post's message id of each of `table_ids` that has one."""


class Backend(Storage, Protocol):
    """A database the bot runs on (what `open_storage` returns): the service's `Storage`,
    and what moving a whole database to another needs (`epochs migrate`, transfer.py)."""

    async def schema_version(self) -> int:
        """The number of the last migration applied."""

    async def row_counts(self) -> dict[str, int]:
        """Rows per stored table (transfer.TABLES)."""

    async def export_rows(self) -> Rows:
        """Every stored table's rows, from one consistent snapshot."""

    async def import_rows(self, rows: Rows) -> None:
        """Write a whole database's rows (ids kept) into this empty one, in one transaction."""

    async def recompute_ratings(self, *, write: bool) -> list[Recomputed]:
        """Fold every counted record into ratings from scratch (bot/storage/ratings.py), in one
        transaction, and say for every seat what was stored and what the fold gives; `write`
        stores the fold's numbers (`epochs ratings --rebuild`), else nothing changes."""
