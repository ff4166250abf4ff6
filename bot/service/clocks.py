"""Clocks and time away, the arithmetic (issue 27; bot/DECISIONS.md, "Clocks and time away").

A table with a time control gives every person's seat a bank of time (`clock=3d`). The
bank runs down while the seat must act, and its player's times away are taken out; when
the seat's move ends (it chose, and no longer acts) the per-move bonus is added, up to
the cap. Warnings go at 24 h and 2 h left, never in the player's quiet hours; when the
bank is empty a fill-in bot takes the seat. All of it is kept in the table's bookkeeping
(`meta["clock"]`), so it is stored, undone and copied with the game.

Pure: times are Unix seconds, nothing here reads storage or the engine. The service
(timing.py) feeds it the seats to act, the players' times away and their quiet hours.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from ..storage.base import AwayRecord, PlayerPrefs
from .reminders import in_quiet_hours, local_hour, quiet_ends

MINUTE = 60.0
HOUR = 3600.0
DAY = 24 * HOUR
#: Warnings go when this much is left on a running clock (issue 27 §1), largest first.
WARNINGS = (DAY, 2 * HOUR)
#: A warning that would fall in quiet hours goes this long before they start.
BEFORE_QUIET = HOUR
#: The largest bank, bonus or cap a table may set, and the largest wait of a script.
LONGEST = 60 * DAY
#: Undo checkpoints kept at most (one per chosen action; normally about a round of them).
CHECKPOINTS = 200


def short(seconds: float) -> str:
    """ "2d 4h", "5h 30m", "45m", "under a minute": a clock's time, its two largest units."""
    minutes = int(max(0.0, seconds) // MINUTE)
    if minutes <= 0:
        return "under a minute"
    days, rest = divmod(minutes, 24 * 60)
    hours, minutes = divmod(rest, 60)
    parts = [f"{n}{unit}" for n, unit in ((days, "d"), (hours, "h"), (minutes, "m")) if n]
    return " ".join(parts[:2])


def moment(when: float, now: float, offset: int = 0) -> str:
    """ "Friday 18:00 UTC" within six days, else "9 January 18:00 UTC": a moment as a person
    says it (`offset`: minutes east of UTC to say it in, with the zone named)."""
    local = datetime.fromtimestamp(when + offset * 60, UTC)
    zone = (
        "UTC"
        if not offset
        else f"UTC{'+' if offset > 0 else '-'}{abs(offset) // 60}" + (f":{abs(offset) % 60:02d}" if offset % 60 else "")
    )
    day = local.strftime("%A") if 0 <= when - now < 6 * DAY else f"{local.day} {local.strftime('%B')}"
    return f"{day} {local.strftime('%H:%M')} {zone}"


@dataclass(frozen=True)
class TimeControl:
    """A table's clock: a starting `bank`, a `bonus` added after each move, and the `cap`
    no bank grows past (the starting bank unless set)."""

    bank: float
    bonus: float
    cap: float

    @property
    def minimum(self) -> float:
        """What a player who let their bank run out gets back with `game back`: one move's
        bonus (a day unless set; a table without bonus gives a day), never past the cap."""
        return min(self.cap, self.bonus if self.bonus > 0 else DAY)

    def words(self) -> str:
        """ "3d, +1d a move, at most 3d"."""
        bonus = f", +{short(self.bonus)} a move" if self.bonus > 0 else ", no bonus"
        return f"{short(self.bank)}{bonus}, at most {short(self.cap)}"

    def to_json(self) -> dict[str, float]:
        return {"bank": self.bank, "bonus": self.bonus, "cap": self.cap}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TimeControl:
        return cls(float(data["bank"]), float(data["bonus"]), float(data["cap"]))


@dataclass
class SeatClock:
    """One seat's clock.

    - `left`: the bank at the moment `at` (running time still allowed).
    - `running`: the seat must act since `at` (a person, the table active, the bank not out).
    - `warn`: the warnings not yet sent in this spell of acting (seconds left, largest first).
    - `out`: when the bank ran out (a fill-in bot plays the seat until `game back`).
    - `remind`: the next ordinary reminder of the seat's player; the reminder row itself holds
      the earlier of that and the clock's next moment (a warning, running out).
    """

    left: float
    at: float
    running: bool = False
    warn: list[float] = field(default_factory=list)
    out: float | None = None
    remind: float | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "left": self.left,
            "at": self.at,
            "running": self.running,
            "warn": list(self.warn),
            "out": self.out,
            "remind": self.remind,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SeatClock:
        out, remind = data.get("out"), data.get("remind")
        return cls(
            float(data["left"]),
            float(data["at"]),
            bool(data.get("running", False)),
            [float(w) for w in data.get("warn", [])],
            None if out is None else float(out),
            None if remind is None else float(remind),
        )


@dataclass
class Checkpoint:
    """Every seat's bank just before a chosen action (`seat` chose it): an undo of that
    action sets the clocks back to it."""

    seat: int
    banks: dict[int, float]

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "banks": {str(s): left for s, left in self.banks.items()}}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Checkpoint:
        return cls(int(data["seat"]), {int(s): float(left) for s, left in data.get("banks", {}).items()})


@dataclass
class TableClock:
    """A table's time control and its seats' clocks, as kept in `meta["clock"]`."""

    control: TimeControl
    seats: dict[int, SeatClock]
    checkpoints: dict[int, Checkpoint] = field(default_factory=dict)

    @classmethod
    def start(cls, control: TimeControl, seats: Iterable[int], now: float) -> TableClock:
        return cls(control, {s: SeatClock(control.bank, now) for s in seats})

    @classmethod
    def of(cls, data: dict[str, Any] | None) -> TableClock | None:
        """The clock kept as `data` (`TableMeta.clock`); None when the table keeps no time."""
        if not isinstance(data, dict) or "control" not in data:
            return None
        return cls(
            TimeControl.from_json(data["control"]),
            {int(s): SeatClock.from_json(c) for s, c in data.get("seats", {}).items()},
            {int(q): Checkpoint.from_json(c) for q, c in data.get("checkpoints", {}).items()},
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "control": self.control.to_json(),
            "seats": {str(s): c.to_json() for s, c in sorted(self.seats.items())},
            "checkpoints": {str(q): c.to_json() for q, c in sorted(self.checkpoints.items())},
        }

    def keep_checkpoints(self, people: Iterable[int]) -> None:
        """Drop the checkpoints no undo can reach: an undo takes back a person's own last
        chosen action (and everything after it), so the oldest that matters is the earliest
        of the people's latest checkpoints; never more than CHECKPOINTS."""
        latest = {c.seat: q for q, c in sorted(self.checkpoints.items())}
        reach = [latest[s] for s in people if s in latest]
        oldest = min(reach, default=max(self.checkpoints, default=0))
        kept = sorted(q for q in self.checkpoints if q >= oldest)[-CHECKPOINTS:]
        self.checkpoints = {q: self.checkpoints[q] for q in kept}


# ---- time away ------------------------------------------------------------------------------
def away_now(away: Sequence[AwayRecord], now: float) -> AwayRecord | None:
    """The time away that holds `now`, if any."""
    return next((a for a in away if a.begins <= now < a.ends), None)


def used(since: float, now: float, away: Sequence[AwayRecord]) -> float:
    """The running time from `since` to `now`: the times away taken out."""
    total = max(0.0, now - since)
    for a in away:
        total -= max(0.0, min(now, a.ends) - max(since, a.begins))
    return max(0.0, total)


def resumes(now: float, away: Sequence[AwayRecord]) -> float:
    """When a clock stopped by time away runs again (`now` when its player is here)."""
    current = away_now(away, now)
    return current.ends if current is not None else now


def left_now(clock: SeatClock, now: float, away: Sequence[AwayRecord]) -> float:
    """The bank at `now` (it may be below zero once run out and not yet handed over)."""
    return clock.left - used(clock.at, now, away) if clock.running else clock.left


def runs_out(clock: SeatClock, now: float, away: Sequence[AwayRecord]) -> float | None:
    """When a running bank reaches zero, as things stand (times away known now)."""
    if not clock.running:
        return None
    return resumes(now, away) + max(0.0, left_now(clock, now, away))


# ---- warnings and quiet hours ---------------------------------------------------------------
def quiet_starts(prefs: PlayerPrefs, when: float) -> float:
    """The start of the player's quiet hours that hold `when`."""
    assert prefs.quiet_start is not None
    return when - ((local_hour(prefs, when) - prefs.quiet_start) % 24) * HOUR


def warning_due(
    clock: SeatClock, threshold: float, now: float, away: Sequence[AwayRecord], prefs: PlayerPrefs
) -> float | None:
    """When the warning at `threshold` left goes: as the bank passes it, or, when that falls
    in the player's quiet hours, an hour before they start (issue 27 §1). One that can find
    no moment outside quiet hours before the bank runs out is not sent (None)."""
    end = runs_out(clock, now, away)
    if end is None:
        return None
    when = max(now, end - threshold)
    if in_quiet_hours(prefs, when):
        earlier = quiet_starts(prefs, when) - BEFORE_QUIET
        if in_quiet_hours(prefs, earlier):  # quiet hours of a whole day but one hour
            earlier = quiet_starts(prefs, when) - MINUTE
        when = earlier
    if when <= now:
        when = now if not in_quiet_hours(prefs, now) else quiet_ends(prefs, now)
    return when if when < end else None


def next_moment(clock: SeatClock, now: float, away: Sequence[AwayRecord], prefs: PlayerPrefs) -> float | None:
    """The clock's next moment: a warning still to send, or running out (None: not running)."""
    end = runs_out(clock, now, away)
    if end is None:
        return None
    warnings = [warning_due(clock, threshold, now, away, prefs) for threshold in clock.warn]
    return min([end, *(w for w in warnings if w is not None)])


def warnings_for(left: float) -> list[float]:
    """The warnings a spell of acting that starts with `left` in the bank will send."""
    return [threshold for threshold in WARNINGS if left > threshold]


# ---- the year's time away -------------------------------------------------------------------
def away_used(away: Sequence[AwayRecord], now: float, window: float = 365 * DAY) -> float:
    """Time away taken in the `window` up to `now` (a time away still running counts to now)."""
    start = now - window
    return sum(max(0.0, min(now, a.ends) - max(start, a.begins)) for a in away)
