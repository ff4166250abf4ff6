"""The portable form of a whole database: every stored table, in fixed columns.

`epochs migrate` (bot/migrate.py) reads it from one backend (`export_rows`) and
writes it into an empty other one (`import_rows`); the benchmark uses it to fill
a database fast. Values are plain Python (int, float, str, bool, None); JSON
columns stay the exact text stored, so a snapshot arrives byte for byte. Rows
come ordered by their key; seats in their joining order within a game (the
order players sit down in the lobby), which the importer keeps.

Outbox claims are not part of it: they belong to the processes of the old
deployment and mean nothing to the new one (a copied notice is unclaimed).
"""

from __future__ import annotations

from typing import Any

#: (table, columns) in an order that satisfies the foreign keys. Column names are
#: SQLite's; PostgreSQL spells `user` as `user_id` (see postgres_migrations.py).
TABLES: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "games",
        (
            "id",
            "guild",
            "channel",
            "game",
            "status",
            "creator",
            "options",
            "seed",
            "version",
            "revision",
            "created",
            "updated",
            "remind_every",
            "meta",
        ),
    ),
    ("seats", ("game", "user", "name", "seat", "resigned", "joined", "bot")),
    ("actions", ("game", "seq", "seat", "action", "time", "undone", "via", "user", "events")),
    ("snapshots", ("game", "version", "state")),
    ("reminders", ("game", "user", "due", "count")),
    ("outbox", ("id", "game", "channel", "payload", "created", "sent")),
    ("players", ("user", "quiet_start", "quiet_end", "utc_offset", "dm", "heads_up")),
    ("records", ("game", "guild", "kind", "reason", "started", "ended", "moves", "practice")),
    (
        "record_seats",
        ("game", "seat", "user", "name", "bot", "score", "place", "winner", "resigned", "mu", "sigma", "ended"),
    ),
    # the web table's signing key travels with the games, so their links keep working (issue 28)
    ("secrets", ("name", "value", "created")),
    ("links", ("game", "user", "generation")),
    # a player's times away and each table's latest post (issue 27)
    ("away", ("user", "begins", "ends", "note")),
    ("posts", ("game", "message", "time")),
)

#: Columns kept as 0/1 by SQLite and as BOOLEAN by PostgreSQL: exported as bool.
FLAGS = {
    ("seats", "resigned"),
    ("actions", "undone"),
    ("players", "dm"),
    ("players", "heads_up"),
    ("records", "practice"),
    ("record_seats", "winner"),
    ("record_seats", "resigned"),
}

#: The order rows are exported in (seats: joining order within their game).
ORDER = {
    "games": "id",
    "seats": "game, joined, {pos}",
    "actions": "game, seq",
    "snapshots": "game",
    "reminders": "game, {user}",
    "outbox": "id",
    "players": "{user}",
    "records": "game",
    "record_seats": "game, seat",
    "secrets": "name",
    "links": "game, {user}",
    "away": "{user}, begins",
    "posts": "game",
}

Rows = dict[str, list[tuple[Any, ...]]]


def normalise(table: str, row: tuple[Any, ...]) -> tuple[Any, ...]:
    """A row as both backends export it: flags as bool, numbers as stored."""
    columns = dict(TABLES)[table]
    return tuple(bool(v) if (table, c) in FLAGS and v is not None else v for c, v in zip(columns, row, strict=True))


def counts(rows: Rows) -> dict[str, int]:
    return {table: len(rows.get(table, [])) for table, _ in TABLES}
