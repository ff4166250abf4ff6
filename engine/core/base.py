"""What every game's contract methods share, written once.

A game subclasses `BaseGame`, names its state dataclass, and writes the rules:
`setup`, `to_act`, `legal_actions`, `play` (apply one already-checked action to
a private copy of the state, returning log lines), `view`, `is_over`, `scores`,
`winners`. `apply` here does the checking every game needs in the same way —
whose turn it is, canonical spelling, legality — so law 1 ("accepted exactly
when legal; otherwise IllegalAction and nothing changes") holds for all games
by construction.
"""
from __future__ import annotations

import copy
from typing import Any, ClassVar, Generic, Mapping, Sequence, TypeVar

from .actions import canonical, describe_choices, match
from .contract import IllegalAction, Step
from .serial import from_json, to_json

S = TypeVar("S")


class BaseGame(Generic[S]):
    id: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    state_type: ClassVar[type]
    #: First words of this game's actions: text starting otherwise is "unreadable".
    verbs: ClassVar[tuple[str, ...]] = ()

    # ---- to be written by each game -------------------------------------
    def setup(self, players: Sequence[str], seed: int, options: Mapping[str, Any] | None = None) -> S:
        raise NotImplementedError

    def to_act(self, state: S) -> list[int]:
        raise NotImplementedError

    def legal_actions(self, state: S, seat: int) -> list[str]:
        raise NotImplementedError

    def play(self, state: S, seat: int, action: str) -> list[str]:
        """Carry out a legal `action` on `state` (a private copy) and return the events."""
        raise NotImplementedError

    def view(self, state: S, seat: int | None) -> dict:
        raise NotImplementedError

    def is_over(self, state: S) -> bool:
        raise NotImplementedError

    def scores(self, state: S) -> list[int]:
        raise NotImplementedError

    def winners(self, state: S) -> list[int]:
        raise NotImplementedError

    # ---- shared ----------------------------------------------------------
    def apply(self, state: S, seat: int, action: str) -> Step:
        if not isinstance(action, str):
            raise IllegalAction("An action is a line of text.", kind="unreadable")
        seats = self.to_act(state)
        if seat not in seats:
            if not seats:
                raise IllegalAction("The game is over; no more actions are taken.", kind="not-your-turn")
            raise IllegalAction(
                f"It is not seat {seat}'s turn; waiting for seat(s) {', '.join(map(str, seats))}.",
                kind="not-your-turn")
        legal = self.legal_actions(state, seat)
        chosen = match(action, legal, known_verbs=self.verbs,
                       why_not=lambda text: self.why_not(state, seat, text))
        new_state = self.clone(state)
        events = self.play(new_state, seat, chosen)
        return Step(state=new_state, events=events)

    def why_not(self, state: S, seat: int, action: str) -> str | None:
        """The rule that makes `action` (canonical, not legal now) illegal, if the game can say.

        Only what `seat` may know goes here: the text reaches the player.
        """
        return None

    def public_action(self, action: str) -> str:
        """How `action` may be shown to everyone (log, move announcements).

        The action log must keep the exact string for replay, but some actions
        name a hidden card (Rising Cultures' `bottom <card>`); a game hides that
        part here. The default shows the action as it is.
        """
        return action

    def clone(self, state: S) -> S:
        """A deep copy for `apply` to change; override with something faster if needed."""
        return copy.deepcopy(state)

    def dumps(self, state: S) -> str:
        return to_json(state)

    def loads(self, text: str) -> S:
        return from_json(self.state_type, text)

    # Helpers a game's `legal_actions` and `play` often want.
    @staticmethod
    def refuse(message: str, legal: Sequence[str] = ()) -> IllegalAction:
        """An IllegalAction listing what would be legal (raise it)."""
        if legal:
            message = f"{message} Legal now: {describe_choices(legal)}"
        return IllegalAction(message, kind="not-legal", legal=legal)

    canonical = staticmethod(canonical)
