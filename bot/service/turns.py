"""What a turn is, for the channel (issue 12; bot/DECISIONS.md, "Turns").

The engines split a turn into small steps so every choice fits a menu; a channel
must not hear of every step. A turn is the run of steps during which the seats to
act only shrink: it passes when a step brings in a seat that was not acting (the
next player, a defender, the next round of simultaneous choices) or the game ends.
While a turn lasts, the acting player alone is answered (their panel); when it
passes, the channel gets one post with the whole turn and the board, mentioning
exactly the players who must act now and were not acting already.

Pure: no storage, no engine calls beyond what the caller hands in.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

#: How a log line came to be, as shown beside it.
VIA_MARKS = {
    "forced": "automatic",
    "auto": "resigned",
    "skip": "skipped by vote",
    "bot": "bot",
    "fork": "copied by the fork",
}

#: Lines of a turn summary kept from its start and its end when it is too long.
HEAD_LINES, TAIL_LINES = 3, 8


@dataclass
class Turn:
    """The seats to act as the steps of one command go by.

    `passed`: some step brought in a seat that was not acting before it.
    `told`: the seats that were acting just before the latest such step; they
    already know they are acting, so the post does not ping them again.
    """

    acting: list[int]
    passed: bool = False
    told: set[int] = field(default_factory=set)

    def __post_init__(self) -> None:
        self.acting = list(self.acting)
        self.told = set(self.acting)

    def step(self, acting_now: Sequence[int]) -> None:
        if set(acting_now) - set(self.acting):
            self.passed = True
            self.told = set(self.acting)
        self.acting = list(acting_now)

    def to_ping(self) -> list[int]:
        """Seats acting now that were not acting before the turn passed to them."""
        return [s for s in self.acting if s not in self.told]


def action_line(who: str, action: str, via: str, events: Sequence[str], joined: Callable[[Sequence[str]], str]) -> str:
    """One step of a summary: `• ann: `take 1` — ann takes 1.`, marked when not chosen by the player."""
    mark = f" [{VIA_MARKS[via]}]" if via in VIA_MARKS else ""
    text = f"• {who}: `{action}`{mark}"
    return text + (f" — {joined(events)}" if events else "")


def fit(lines: list[str], budget: int) -> list[str]:
    """`lines` within `budget` characters: the start and the end of a long turn are
    kept, the middle is summarised with a pointer to `log` (Discord's 2,000)."""
    if sum(len(line) + 1 for line in lines) <= budget or len(lines) <= HEAD_LINES + 1:
        return [line if len(line) <= budget else line[: budget - 1] + "…" for line in lines]
    head, tail = lines[:HEAD_LINES], lines[HEAD_LINES:]
    while tail and sum(len(line) + 1 for line in head + tail) + 60 > budget:
        tail = tail[1:]
    tail = tail[-TAIL_LINES:] if len(tail) > TAIL_LINES else tail
    skipped = len(lines) - len(head) - len(tail)
    middle = [f"• … {skipped} more step{'s' if skipped != 1 else ''} (`log` shows every step)"]
    out = head + middle + tail
    return [line if len(line) <= budget // 3 else line[: budget // 3 - 1] + "…" for line in out]
