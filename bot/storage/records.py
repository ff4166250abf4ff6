"""Stored rows as the records of base.py, the same from either backend.

A row that does not hold what the schema promises (JSON that does not parse, a seat
with values of the wrong kind: a file damaged by hand or by a disk) is marked, not
raised: one table's unreadable row never hides another table.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from .base import ActionRecord, NoticeRecord, SeatRecord, TableRecord

#: A games row, in the columns `table_record` reads (`g`: the games table's alias).
TABLE_COLUMNS = (
    "g.id, g.guild, g.channel, g.game, g.status, g.creator, g.options, g.seed, g.version, g.created, "
    "g.updated, g.remind_every, g.meta, g.revision"
)
#: An outbox row, in the columns `notice_record` reads.
NOTICE_COLUMNS = "id, game, channel, payload, created"


def dumps(obj: Any) -> str:
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


def _json(text: Any, kind: type) -> tuple[Any, bool]:
    """Stored JSON of `kind` (a dict, or a list of strings), and whether it could not be read."""
    try:
        value = json.loads(text)
    except (TypeError, ValueError):
        return kind(), True
    if not isinstance(value, kind) or (isinstance(value, list) and not all(isinstance(v, str) for v in value)):
        return kind(), True
    return value, False


def json_table(text: Any) -> tuple[dict[str, Any], bool]:
    """A stored JSON object, or ({}, True) when it cannot be read."""
    return _json(text, dict)


def json_list(text: Any) -> tuple[list[Any], bool]:
    """A stored JSON list of strings, or ([], True) when it cannot be read."""
    return _json(text, list)


def table_record(row: Sequence[Any]) -> TableRecord:
    """A games row as a record; an unreadable options or meta column is marked, not raised."""
    options, bad_options = json_table(row[6])
    meta, bad_meta = json_table(row[12])
    damaged = [name for name, bad in (("options", bad_options), ("meta", bad_meta)) if bad]
    return TableRecord(
        id=row[0],
        guild=row[1],
        channel=row[2],
        game=row[3],
        status=row[4],
        creator=row[5],
        options=options,
        seed=row[7],
        version=row[8],
        created=row[9],
        updated=row[10],
        remind_every=row[11],
        meta=meta,
        revision=row[13],
        damaged=damaged,
    )


def seat_record(row: Sequence[Any]) -> SeatRecord | None:
    """A seats row (`user_id, name, seat, resigned, joined, bot`), or None when its values
    are not what the schema promises."""
    user, name, seat, resigned, joined, bot = row
    if not (
        type(user) is int
        and isinstance(name, str)
        and (seat is None or type(seat) is int)
        and type(resigned) in (int, bool)
        and isinstance(joined, (int, float))
        and (bot is None or isinstance(bot, str))
    ):
        return None
    return SeatRecord(user, name, seat, bool(resigned), float(joined), bot)


def action_record(row: Sequence[Any]) -> ActionRecord:
    """An actions row (`seq, seat, action, time, undone, via, user_id, events`)."""
    events, damaged = json_list(row[7])
    return ActionRecord(row[0], row[1], row[2], row[3], bool(row[4]), row[5], row[6], events, damaged)


def notice_record(row: Sequence[Any]) -> NoticeRecord:
    return NoticeRecord(row[0], row[1], row[2], json.loads(row[3]), row[4])
