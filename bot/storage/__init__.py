"""Where games live: the storage interface (base) and its SQLite implementation.

The service depends only on `Storage` and the records in `base`; `open_storage`
picks the backend from a URL-ish path (SQLite file today; a PostgreSQL backend
would be one more module implementing the same Protocol).
"""
from __future__ import annotations

from pathlib import Path

from .base import (OPEN_STATUSES, ActionRecord, Change, ChannelBusy, NoticeRecord, PlayerPrefs, ReminderRecord,
                   SeatRecord, StaleWrite, Storage, StorageError, TableRecord)
from .sqlite import SQLiteStorage


def open_storage(path: str | Path, *, durable: bool = True) -> Storage:
    """The storage for `path` (not yet opened: `await storage.open()`)."""
    text = str(path)
    if text.startswith(("postgres://", "postgresql://")):
        raise StorageError("PostgreSQL storage is not part of this build; use a SQLite file path.")
    if text.startswith("sqlite:///"):
        text = text[len("sqlite:///"):]
    return SQLiteStorage(text, durable=durable)


__all__ = [
    "OPEN_STATUSES", "ActionRecord", "Change", "ChannelBusy", "NoticeRecord", "PlayerPrefs", "ReminderRecord",
    "SQLiteStorage", "SeatRecord", "StaleWrite", "Storage", "StorageError", "TableRecord", "open_storage",
]
