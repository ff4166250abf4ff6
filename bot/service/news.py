"""The story since a seat's last turn, as entries (issue 25 §2; bot/DECISIONS.md, "The turn as data").

The log holds each step's action and its events (prose). What a story tells apart
from the prose — what the step was in words, whether it closed a round, epoch or game
turn, whether it changed the scores — is read from the public views before and after
the step, never parsed from text: a `Mark` per step. The service works a step's mark
out when it commits the step (it has the positions then) and stores it with the
table's bookkeeping for as long as a story may tell the step; a mark it does not have
(a fork's copied lines, bookkeeping rebuilt from the log) comes from replaying the
log, which gives the very same positions.

Pure: no storage, no asyncio.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.core import Game

from ..storage.base import ActionRecord
from .core import shown
from .described import public_label
from .reply import END, MOVE, PERIOD, SCORE, Entry
from .story import PERIODS, public_scores, stage


@dataclass(frozen=True)
class Mark:
    """What one step did, read from the public views before and after it.

    `label`: the step in words, as every seat may read it (`described.public_label`);
    `periods`, `scores`: the period number and the public scores before and after
    (None where the view shows none); `over`: the step ended the game."""

    label: str
    periods: tuple[int | None, int | None]
    scores: tuple[tuple[int, ...] | None, tuple[int, ...] | None]
    over: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"label": self.label, "periods": list(self.periods), "scores": list(self.scores), "over": self.over}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Mark:
        def number(value: Any) -> int | None:
            return None if value is None else int(value)

        def scores(value: Any) -> tuple[int, ...] | None:
            return None if value is None else tuple(int(v) for v in value)

        before, after = data["periods"]
        was, now = data["scores"]
        return cls(str(data["label"]), (number(before), number(after)), (scores(was), scores(now)), bool(data["over"]))


def marks(
    game: Game,
    players: int,
    start: Any,
    rows: Iterable[ActionRecord],
    wanted: Callable[[int], bool] = lambda _: True,
    *,
    public: Callable[[Any], dict[str, Any]] | None = None,
) -> dict[int, Mark]:
    """The marks of the log lines `rows` (live ones, in order) played from `start`, by
    sequence number; only for the lines `wanted(seq)` picks (the others are only played:
    a step costs ~0.05 ms, a public view up to ~0.7 ms). `public(state)`: the public view
    of a position, when the caller keeps some already."""
    _, period = PERIODS.get(game.id, ("", None))

    def read(state: Any) -> tuple[int | None, tuple[int, ...] | None]:
        view = public(state) if public is not None else game.view(state, None)
        scores = public_scores(view, players)
        if scores is None and game.is_over(state):
            scores = [int(v) for v in game.scores(state)]  # nothing is hidden once the game is over
        return (period(view, players) if period else None), (tuple(scores) if scores is not None else None)

    out: dict[int, Mark] = {}
    state, seen = start, None
    for row in rows:
        if row.undone:
            continue
        if not wanted(row.seq):
            state, seen = game.apply(state, row.seat, row.action).state, None
            continue
        before = seen or read(state)
        label = public_label(game, state, row.seat, row.action)
        state = game.apply(state, row.seat, row.action).state
        seen = read(state)
        out[row.seq] = Mark(label, (before[0], seen[0]), (before[1], seen[1]), game.is_over(state))
    return out


def entries(
    game: Game,
    rows: Sequence[ActionRecord],
    known: Mapping[int, Mark],
    name: Callable[[int], str],
    *,
    reader: int | None = None,
) -> list[Entry]:
    """The story of `rows` (live log lines, in order): a move entry for each, then a
    scoring, a period end and the game's end where its mark shows one. `reader`: the
    seat the story is told to — its own moves in its own words (a card it put face
    down by name), everyone else's in public form. A line without a mark is told as
    a move alone."""
    word, _ = PERIODS.get(game.id, ("", None))
    out: list[Entry] = []
    for row in rows:
        if row.undone:
            continue
        mark = known.get(row.seq)
        public = shown(game, row.action)
        action = row.action if row.seat == reader else public
        label = mark.label if mark is not None else public
        if label == public:
            label = action  # no words beyond the action text: the reader's own move as they chose it
        out.append(Entry(MOVE, row.seq, row.seat, name(row.seat), action, label, row.via, list(row.events)))
        if mark is None:
            continue
        before, after = (list(s) if s is not None else None for s in mark.scores)
        if before is not None and after is not None and before != after:
            out.append(Entry(SCORE, row.seq, before=before, after=after))
        ended, started = mark.periods
        if ended is not None and started != ended:
            out.append(Entry(PERIOD, row.seq, stage=stage(game.id, word, ended), before=before, after=after))
        if mark.over:
            out.append(Entry(END, row.seq, before=before, after=after))
    return out
