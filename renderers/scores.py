"""The numbers of a score chart, as plain data (issue 17 §3).

Apart from the drawing (renderers/common/chart.py) so that the bot can build them
without loading Pillow, and send them to a drawing worker process.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["ChartLine", "ScoreChart"]


@dataclass(frozen=True)
class ChartLine:
    """One player's line: a score per label (None where none is known)."""

    seat: int
    name: str
    values: Sequence[float | None]
    winner: bool = False


@dataclass(frozen=True)
class ScoreChart:
    title: str  # the game's title
    word: str  # what a point closes: "round", "epoch", "game turn", "move"
    labels: Sequence[str]  # "start", "1", "2", ..., "5 so far"
    lines: Sequence[ChartLine]
    finished: bool = True
    note: str = ""  # e.g. "Open practice game"
