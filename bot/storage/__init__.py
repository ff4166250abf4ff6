"""Where games live: the storage interface (base) and its two implementations.

The service depends only on `Storage` and the records in `base`; `open_storage`
picks the backend from the configured database: a `postgresql://` (or
`postgres://`) URL opens PostgreSQL (postgres.py, asyncpg), anything else is a
SQLite file (sqlite.py, the embedded default; `sqlite:///path` also works).
"""

from __future__ import annotations

from pathlib import Path

from .base import (
    OPEN_STATUSES,
    ActionRecord,
    Backend,
    Change,
    ChannelBusy,
    Claim,
    NoticeRecord,
    PlanRecord,
    PlayerPrefs,
    ReminderRecord,
    SeatRecord,
    Shards,
    StaleWrite,
    Storage,
    StorageError,
    TableRecord,
    shard_of,
)
from .sqlite import SQLiteStorage

POSTGRES_SCHEMES = ("postgres://", "postgresql://")


def is_postgres(database: str | Path) -> bool:
    return str(database).startswith(POSTGRES_SCHEMES)


def open_storage(database: str | Path, *, durable: bool = True) -> Backend:
    """The storage for `database` (not yet opened: `await storage.open()`)."""
    text = str(database)
    if is_postgres(text):
        from .postgres import PostgresStorage  # asyncpg is imported only when PostgreSQL is used

        return PostgresStorage(text, durable=durable)
    if text.startswith("sqlite:///"):
        text = text[len("sqlite:///") :]
    return SQLiteStorage(text, durable=durable)


__all__ = [
    "OPEN_STATUSES",
    "ActionRecord",
    "Backend",
    "Change",
    "ChannelBusy",
    "Claim",
    "NoticeRecord",
    "PlanRecord",
    "PlayerPrefs",
    "ReminderRecord",
    "SQLiteStorage",
    "SeatRecord",
    "Shards",
    "StaleWrite",
    "Storage",
    "StorageError",
    "TableRecord",
    "is_postgres",
    "open_storage",
    "shard_of",
]
