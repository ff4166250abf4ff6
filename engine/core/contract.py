"""The engine contract of shared/DESIGN.md: what every game offers, in one place.

The bot, the renderers, the tests and shared/checks/conformance.py rely on these
exact names, so they live here and nowhere else.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable


class IllegalAction(Exception):
    """An action the engine refuses; the state it was given is untouched.

    `kind` lets the service answer in the player's terms (python-chess splits
    parse failures the same way):

    - ``"not-your-turn"``: the seat is not among those who must act now;
    - ``"unreadable"``:   the text is no action of this game at all;
    - ``"not-legal"``:    a real action, but not allowed now;
    - ``"ambiguous"``:    the text names several legal actions;
    - ``"no-such-seat"``: the game has no such seat (`apply`, `legal_actions`).

    `legal` carries the actions that would have been accepted, so a reply can
    list them.
    """

    def __init__(self, message: str, *, kind: str = "not-legal", legal: Sequence[str] = ()) -> None:
        super().__init__(message)
        self.kind = kind
        self.legal = list(legal)


@dataclass
class Step:
    """What `apply` returns: the new state and what happened, as log lines."""

    state: Any
    events: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Choice:
    """One legal action of one seat, as that seat reads it.

    - `action`: the canonical action text, exactly as in `legal_actions`.
    - `group`: the kind of decision in the rulebook's words ("Take a progress tile", "Pay").
    - `label`: the thing chosen by its printed name ("Irrigation I", "Babylon ×3"), unique
      within the decision.
    - `detail`: what it costs and gives, and what the rules let this seat know about its
      outcome ("4 gold · 2 VP", "you have 3 of 4 coins: not affordable"); "" when nothing.
    - `refers`: names of board places it concerns, as the seat's view names them (for
      highlighting on the board and the web table).
    """

    action: str
    group: str
    label: str
    detail: str = ""
    refers: tuple[str, ...] = field(default_factory=tuple)

    def to_json(self) -> dict[str, Any]:
        return {
            "action": self.action,
            "group": self.group,
            "label": self.label,
            "detail": self.detail,
            "refers": list(self.refers),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Choice:
        return cls(
            str(data["action"]),
            str(data["group"]),
            str(data["label"]),
            str(data.get("detail", "")),
            tuple(str(r) for r in data.get("refers", ())),
        )


@runtime_checkable
class Game(Protocol):
    """The contract every game object in `engine.GAMES` keeps (DESIGN.md)."""

    # Read-only (properties), so a game may declare them as class attributes.
    @property
    def id(self) -> str: ...
    @property
    def title(self) -> str: ...
    @property
    def min_players(self) -> int: ...
    @property
    def max_players(self) -> int: ...

    def setup(self, players: Sequence[str], seed: int, options: Mapping[str, Any] | None = None) -> Any: ...
    def to_act(self, state: Any) -> list[int]: ...
    def legal_actions(self, state: Any, seat: int) -> list[str]: ...
    def apply(self, state: Any, seat: int, action: str) -> Step: ...
    def view(self, state: Any, seat: int | None) -> dict[str, Any]: ...
    def choices(self, state: Any, seat: int) -> list[Choice]: ...
    def prompt(self, state: Any, seat: int) -> str: ...
    def rule(self, state: Any, seat: int) -> str: ...
    def needs_private_view(self, state: Any, seat: int) -> bool: ...
    def is_over(self, state: Any) -> bool: ...
    def scores(self, state: Any) -> list[int]: ...
    def winners(self, state: Any) -> list[int]: ...
    def dumps(self, state: Any) -> str: ...
    def loads(self, text: str) -> Any: ...
