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

from collections.abc import Sequence
from dataclasses import dataclass, field

#: How a log line came to be, as shown beside it.
VIA_MARKS = {
    "forced": "automatic",
    "auto": "resigned",
    "skip": "skipped by vote",
    "bot": "bot",
    "fork": "copied by the fork",
    "planned": "planned",  # issue 51: played for its player from their plan
}


@dataclass
class Turn:
    """The seats to act as the steps of one command go by.

    `passed`: some step brought in a seat that was not acting before it.
    `told`: the seats that were acting just before the latest such step; they
    already know they are acting, so the post does not ping them again.
    `ended`: the seats that stopped acting at some step (their spell of acting ended,
    even if another began later in the command: their clock's move is over, issue 27).
    """

    acting: list[int]
    passed: bool = False
    told: set[int] = field(default_factory=set)
    ended: set[int] = field(default_factory=set)

    def __post_init__(self) -> None:
        self.acting = list(self.acting)
        self.told = set(self.acting)

    def step(self, acting_now: Sequence[int]) -> None:
        if set(acting_now) - set(self.acting):
            self.passed = True
            self.told = set(self.acting)
        self.ended |= set(self.acting) - set(acting_now)
        self.acting = list(acting_now)

    def to_ping(self) -> list[int]:
        """Seats acting now that were not acting before the turn passed to them."""
        return [s for s in self.acting if s not in self.told]
