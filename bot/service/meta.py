"""The service's bookkeeping of a table (`TableRecord.meta`), as a typed record (issue 47).

The storage keeps it as JSON (bot/storage knows nothing of its keys); the service reads it
with `TableMeta.of(rec)` and writes `Change(meta=meta.to_json())`. A key missing from the
stored JSON (a table from before the key existed, a lobby) reads as None and is left out
again when written, so old stored meta reads as it always did; keys this version does not
know are kept as they are (`other`).
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any

from .clocks import TableClock

if TYPE_CHECKING:
    from ..storage.base import TableRecord


@dataclass
class TableMeta:
    """Every field None when the table has none (then it is not stored)."""

    #: Who starts and cancels the table when it is not its opener (the opener left the lobby).
    creator: int | None = None
    #: The last sequence number used in the log (never reused: undone lines keep theirs).
    seq: int | None = None
    #: Each seat's last live action's sequence number, by seat ("0": ...): a panel's key.
    last_seq: dict[str, int] | None = None
    #: When the game started.
    started: float | None = None
    #: The last step told by a public post.
    posted: int | None = None
    #: The board places of steps not posted yet, by sequence number (the next post frames them).
    places: dict[str, list[str]] | None = None
    #: The places the last post's map framed, and which post that was.
    highlight: dict[str, Any] | None = None
    #: The step marks the stories read (news.Mark's JSON), by sequence number.
    marks: dict[str, Any] | None = None
    #: Since when each seat to act has been acting, by seat.
    acting: dict[str, float] | None = None
    #: The version at which each seat to act was called to act, by seat: the key of the one
    #: notification of its turn (issue 50: a post that goes late pings only those still called).
    called: dict[str, int] | None = None
    #: False once a handover found no planned move at the table (plans.py, issue 51): the
    #: plans are not read again until someone plans. None (a table from before): read them.
    planned: bool | None = None
    #: The table's clock (clocks.TableClock's JSON).
    clock: dict[str, Any] | None = None
    #: The level of the bot that takes a seat whose clock ran out (or who resigned, was voted out).
    stand_in: str | None = None
    #: Why the game is an open practice game: a chosen seed, a fork.
    practice: dict[str, Any] | None = None
    #: A fork's origin: the exported game, the step, its names and lines (then how many were copied).
    fork: dict[str, Any] | None = None
    #: A pending undo request: who asked, from which step, who approved.
    undo: dict[str, Any] | None = None
    #: The votes on an absent player: whom, and who voted for what.
    votes: dict[str, Any] | None = None
    #: How the game ended: scores, winners, reason.
    result: dict[str, Any] | None = None
    #: Keys this version does not know, kept as stored.
    other: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TableMeta:
        if data.keys() <= KNOWN:  # (read a few times a command: the common case kept cheap)
            return cls(**data)
        meta = cls(**{k: v for k, v in data.items() if k in KNOWN})
        meta.other = {k: v for k, v in data.items() if k not in KNOWN}
        return meta

    @classmethod
    def of(cls, rec: TableRecord) -> TableMeta:
        """The meta of a table as it was read."""
        return cls.from_json(rec.meta)

    def to_json(self) -> dict[str, Any]:
        out = {name: value for name, value in vars(self).items() if value is not None and name != "other"}
        out.update(self.other)
        return out

    def table_clock(self) -> TableClock | None:
        """The table's clock (None: the table keeps no time)."""
        return TableClock.of(self.clock)


#: The stored keys.
KNOWN = frozenset(f.name for f in fields(TableMeta) if f.name != "other")
