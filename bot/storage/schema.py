"""The schema, described once: what both backends create, what `epochs migrate` copies.

Every table, its columns in a handful of portable types, its key and its indexes.
A new database is created from this description directly (`create_statements`) at
the latest version, `LATEST`; a database made by an earlier build climbs the
numbered migrations (migrations.py) to the same place, which the tests check
(test_schema.py: a schema-7 database, upgraded, has exactly these columns and
indexes on both backends). transfer.py reads its tables, columns and flags here.

Column names are the same on both backends: `user_id` (`user` is reserved in
PostgreSQL), and `seats.pos`, a seat's joining position within its table.
The portable types, and what each dialect (sql.py) calls them:

- ROWID: a table's own id (an INTEGER PRIMARY KEY / a BIGINT identity);
- SERIAL: the same, never reused once deleted (SQLite's AUTOINCREMENT);
- KEY: a Discord id or another table's id, 64 bits (INTEGER / BIGINT);
- INT, REAL, TEXT: small numbers, times (seconds since 1970), text and JSON text
  (kept as text on both: a snapshot must come back byte for byte);
- FLAG: yes or no (0/1 / BOOLEAN).
"""

from __future__ import annotations

from dataclasses import dataclass

#: The schema version this build writes (the last migration's number).
LATEST = 9

#: The statuses of an open table (one per channel: the unique index games_open_channel).
OPEN = "('lobby','active','paused')"


@dataclass(frozen=True)
class Column:
    name: str
    type: str
    #: NOT NULL unless this is set (a ROWID or SERIAL column is the key and never NULL).
    null: bool = False
    #: The default, written as SQL (a FLAG's as False/True: each dialect spells it).
    default: str | bool | None = None
    #: The rest of the column's definition, the same on both backends (CHECK, REFERENCES).
    extra: str = ""


@dataclass(frozen=True)
class Index:
    name: str
    columns: str
    unique: bool = False
    where: str = ""


@dataclass(frozen=True)
class Table:
    name: str
    columns: tuple[Column, ...]
    #: The primary key when it is not a ROWID/SERIAL column.
    key: tuple[str, ...] = ()
    #: The order `epochs migrate` exports rows in (seats: their joining order in their table).
    order: str = ""
    indexes: tuple[Index, ...] = ()

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(c.name for c in self.columns)

    @property
    def flags(self) -> frozenset[str]:
        return frozenset(c.name for c in self.columns if c.type == "FLAG")


def _col(name: str, type_: str, default: str | bool | None = None, extra: str = "", *, null: bool = False) -> Column:
    return Column(name, type_, null, default, extra)


_GAME = "REFERENCES games(id) ON DELETE CASCADE"

#: Every table, in an order that satisfies the foreign keys (the order rows are copied in).
TABLES: tuple[Table, ...] = (
    Table(
        "games",
        (
            _col("id", "ROWID"),
            _col("guild", "KEY", null=True),
            _col("channel", "KEY"),
            _col("game", "TEXT"),
            _col("status", "TEXT", extra="CHECK (status IN ('lobby','active','paused','finished','cancelled'))"),
            _col("creator", "KEY"),
            _col("options", "TEXT", "'{}'"),
            _col("seed", "KEY"),
            _col("version", "INT", "0"),  # the game state's version (buttons carry it)
            _col("revision", "INT", "0"),  # every write bumps it: the optimistic check
            _col("created", "REAL"),
            _col("updated", "REAL"),
            _col("remind_every", "REAL"),
            _col("meta", "TEXT", "'{}'"),
        ),
        order="id",
        indexes=(
            Index("games_open_channel", "channel", unique=True, where=f"status IN {OPEN}"),  # one open game a channel
            Index("games_guild", "guild, status"),
        ),
    ),
    Table(
        "seats",
        (
            _col("game", "KEY", extra=_GAME),
            _col("user_id", "KEY"),
            _col("name", "TEXT"),
            _col("seat", "INT", null=True),
            _col("resigned", "FLAG", False),
            _col("joined", "REAL"),
            _col("bot", "TEXT", null=True),  # a fill-in bot's level (issue 17), NULL for a person
            _col("pos", "INT", "0"),  # the joining order among equal `joined` times
        ),
        key=("game", "user_id"),
        order="game, joined, pos",
        indexes=(Index("seats_user", "user_id"),),
    ),
    Table(  # the append-only action log: the source of truth
        "actions",
        (
            _col("game", "KEY", extra=_GAME),
            _col("seq", "INT"),
            _col("seat", "INT"),
            _col("action", "TEXT"),
            _col("time", "REAL"),
            _col("undone", "FLAG", False),
            _col("via", "TEXT", "''"),
            _col("user_id", "KEY", null=True),
            _col("events", "TEXT", "'[]'"),
        ),
        key=("game", "seq"),
        order="game, seq",
    ),
    Table(  # the latest state, so nothing is replayed to answer a command
        "snapshots",
        (_col("game", "KEY", extra=_GAME), _col("version", "INT"), _col("state", "TEXT")),
        key=("game",),
        order="game",
    ),
    Table(
        "reminders",
        (_col("game", "KEY", extra=_GAME), _col("user_id", "KEY"), _col("due", "REAL"), _col("count", "INT", "0")),
        key=("game", "user_id"),
        order="game, user_id",
        indexes=(Index("reminders_due", "due"),),
    ),
    Table(  # claims (issue 16) are never copied by `epochs migrate`: they belong to the old processes
        "outbox",
        (
            _col("id", "SERIAL"),
            _col("game", "KEY", null=True, extra="REFERENCES games(id) ON DELETE SET NULL"),
            _col("channel", "KEY"),
            _col("payload", "TEXT"),
            _col("created", "REAL"),
            _col("sent", "REAL", null=True),
            _col("claimed_by", "TEXT", null=True),
            _col("claimed_until", "REAL", null=True),
        ),
        order="id",
        indexes=(Index("outbox_unsent", "id", where="sent IS NULL"),),
    ),
    Table(
        "players",
        (
            _col("user_id", "KEY"),
            _col("quiet_start", "INT", null=True),
            _col("quiet_end", "INT", null=True),
            _col("utc_offset", "INT", "0"),
            _col("dm", "FLAG", False),
            _col("heads_up", "FLAG", False),  # issue 12 §3: a ping when the player before you starts
        ),
        key=("user_id",),
        order="user_id",
    ),
    Table(  # issue 17: the record of every ended game, for history, statistics and ratings
        "records",
        (
            _col("game", "KEY", extra=_GAME),
            _col("guild", "KEY", null=True),
            _col("kind", "TEXT"),  # the engine's game id
            _col("reason", "TEXT", extra="CHECK (reason IN ('end','resign','cancelled'))"),
            _col("started", "REAL"),
            _col("ended", "REAL"),
            _col("moves", "INT"),
            _col("practice", "FLAG", False),  # a chosen seed or a fork: never in statistics
        ),
        key=("game",),
        order="game",
        indexes=(Index("records_guild", "guild, ended"), Index("records_guild_kind", "guild, kind, ended")),
    ),
    Table(
        "record_seats",
        (
            _col("game", "KEY", extra="REFERENCES records(game) ON DELETE CASCADE"),
            _col("seat", "INT"),
            _col("user_id", "KEY"),
            _col("name", "TEXT"),
            _col("bot", "TEXT", null=True),
            _col("score", "INT", null=True),
            _col("place", "INT", null=True),
            _col("winner", "FLAG", False),
            _col("resigned", "FLAG", False),
            # issue 27 §4: the person's rating after this game (NULL: not rated), and the
            # record's end beside it, so a latest rating is read from one index
            _col("mu", "REAL", null=True),
            _col("sigma", "REAL", null=True),
            _col("ended", "REAL", "0"),
        ),
        key=("game", "seat"),
        order="game, seat",
        indexes=(
            Index("record_seats_user", "user_id"),
            Index("record_seats_rated", "user_id, ended, game", where="mu IS NOT NULL"),
        ),
    ),
    Table(  # issue 28: the web table's signing key, travelling with the games so their links keep working
        "secrets",
        (_col("name", "TEXT"), _col("value", "TEXT"), _col("created", "REAL")),
        key=("name",),
        order="name",
    ),
    Table(  # issue 28: a seat link's generation: `game link reset` raises it
        "links",
        (_col("game", "KEY", extra=_GAME), _col("user_id", "KEY"), _col("generation", "INT", "0")),
        key=("game", "user_id"),
        order="game, user_id",
    ),
    Table(  # issue 27 §2: a player's times away, the same in every server
        "away",
        (_col("user_id", "KEY"), _col("begins", "REAL"), _col("ends", "REAL"), _col("note", "TEXT", "''")),
        key=("user_id", "begins"),
        order="user_id, begins",
    ),
    Table(  # issue 27 §3: the id of a table's latest public post (Discord's message id)
        "posts",
        (_col("game", "KEY", extra=_GAME), _col("message", "KEY"), _col("time", "REAL")),
        key=("game",),
        order="game",
    ),
    Table(  # issue 51: a player's planned moves, in order (`pos`), each with the label it was chosen by
        "plans",
        (
            _col("game", "KEY", extra=_GAME),
            _col("user_id", "KEY"),
            _col("pos", "INT"),
            _col("action", "TEXT"),
            _col("label", "TEXT", null=True),  # NULL: typed, not picked from a described choice
            _col("created", "REAL"),
        ),
        key=("game", "user_id", "pos"),
        order="game, user_id, pos",
    ),
)

BY_NAME = {t.name: t for t in TABLES}

#: Columns left out of `epochs migrate`'s copy (outbox claims: see the outbox table).
NOT_COPIED = {("outbox", "claimed_by"), ("outbox", "claimed_until"), ("seats", "pos")}
