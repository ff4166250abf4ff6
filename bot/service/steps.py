"""What a command did to a game (`Steps`), handed to `Moves.commit_moves` and to the parts that
add to it before it is stored (plans.py plays a planned move into it): a module of its own, so
those parts need not import the moves part that commits them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..storage.base import ActionRecord, PlanRecord
from .turns import Turn


@dataclass
class Steps:
    """What a command did to a game, for `Moves.commit_moves`: the position it started from
    (`before`) and the one it leads to (`after`), the new log lines, the turn they were made
    in (None: an announcement such as a resignation, told at once) and the board places of
    the new actions by sequence number (kept until the post that tells them, whose map
    frames them all: issue 26)."""

    before: Any
    after: Any
    records: list[ActionRecord]
    turn: Turn | None = None
    places: dict[int, tuple[str, ...]] | None = None
    #: The planned moves' queues the steps change, by user (plans.py, issue 51), stored with them.
    plans: dict[int, list[PlanRecord]] | None = None
