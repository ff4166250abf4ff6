"""The portable form of a whole database: every stored table, in fixed columns.

`epochs migrate` (bot/migrate.py) reads it from one backend (`export_rows`) and
writes it into an empty other one (`import_rows`); the benchmark uses it to fill
a database fast. Values are plain Python (int, float, str, bool, None); JSON
columns stay the exact text stored, so a snapshot arrives byte for byte. Rows
come ordered by their key; seats in their joining order within a game (the
order players sit down in the lobby), which the importer keeps.

The tables and columns are schema.py's, less what is not copied (`NOT_COPIED`):
outbox claims belong to the processes of the old deployment and mean nothing to
the new one (a copied notice is unclaimed); a seat's `pos` is its place in the
order the rows come in.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from .schema import BY_NAME, NOT_COPIED
from .schema import TABLES as _SCHEMA

Rows = dict[str, list[tuple[Any, ...]]]


@cache
def columns(table: str) -> tuple[str, ...]:
    """The columns of `table` that are copied, in the schema's order."""
    return tuple(c for c in BY_NAME[table].names if (table, c) not in NOT_COPIED)


#: (table, copied columns) in an order that satisfies the foreign keys.
TABLES: tuple[tuple[str, tuple[str, ...]], ...] = tuple((t.name, columns(t.name)) for t in _SCHEMA)


def normalise(table: str, row: tuple[Any, ...]) -> tuple[Any, ...]:
    """A row as both backends export it: flags as bool, numbers as stored."""
    flags = BY_NAME[table].flags
    return tuple(bool(v) if c in flags and v is not None else v for c, v in zip(columns(table), row, strict=True))


def counts(rows: Rows) -> dict[str, int]:
    return {table: len(rows.get(table, [])) for table, _ in TABLES}
