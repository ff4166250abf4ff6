"""A stack of pending decisions for compound moves (law 2).

A compound move ("play a card, then choose its use, then maybe move up a
progress level") is split into small choices. Each open choice is a Decision
on the stack: what is being decided, by whom, and any data it needs. The top
decision is the one `legal_actions` answers; resolving it pops it and may push
the next. Because the stack is part of the state, a half-finished move
survives `dumps`/`loads`, a restart and a day's wait between messages.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Decision:
    """One open choice: `kind` names it (e.g. "use-card"), `seat` makes it."""

    kind: str
    seat: int
    data: dict[str, Any] = field(default_factory=dict)


@dataclass
class DecisionStack:
    items: list[Decision] = field(default_factory=list)

    def push(self, kind: str, seat: int, **data: Any) -> Decision:
        decision = Decision(kind, seat, dict(data))
        self.items.append(decision)
        return decision

    def pop(self) -> Decision:
        return self.items.pop()

    @property
    def top(self) -> Decision | None:
        return self.items[-1] if self.items else None

    def __bool__(self) -> bool:
        return bool(self.items)

    def __len__(self) -> int:
        return len(self.items)
