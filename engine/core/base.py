"""What every game's contract methods share, written once.

A game subclasses `BaseGame`, names its state dataclass, and writes the rules:
`setup`, `to_act`, `legal_actions`, `play` (apply one already-checked action to
a private copy of the state, returning log lines), `view`, `is_over`, `scores`,
`winners`. `apply` here does the checking every game needs in the same way —
that the seat exists, whose turn it is, canonical spelling and names, legality —
so law 1 ("accepted exactly when legal; otherwise IllegalAction and nothing
changes") holds for all games by construction. A game's own `legal_actions` is
wrapped once, when the class is made, so that it too refuses a seat that does
not exist instead of failing inside the rules.
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any, ClassVar, Generic, TypeVar

from .actions import canonical, describe_choices, match
from .contract import Choice, IllegalAction, Step
from .serial import from_json, to_json
from .text import listing

S = TypeVar("S")


class BaseGame(Generic[S]):
    id: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    state_type: ClassVar[type]
    #: First words of this game's actions: text starting otherwise is "unreadable".
    verbs: ClassVar[tuple[str, ...]] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Wrap the game's `legal_actions` in the seat check (`check_seat`), once per class."""
        super().__init_subclass__(**kwargs)
        own: Callable[[BaseGame[Any], Any, int], list[str]] | None = cls.__dict__.get("legal_actions")
        if own is not None and not getattr(own, "checks_seat", False):

            @functools.wraps(own)
            def legal_actions(self: BaseGame[Any], state: Any, seat: int) -> list[str]:
                # the common case answered in place (it runs on every step); the rest asks check_seat
                players = getattr(state, "players", None)
                if not (
                    type(seat) is int
                    and type(players) is list
                    and 0 <= seat < len(players)
                    and type(self).seat_count is BaseGame.seat_count
                ):
                    self.check_seat(state, seat)
                return own(self, state, seat)

            legal_actions.checks_seat = True  # type: ignore[attr-defined]
            cls.legal_actions = legal_actions  # type: ignore[method-assign]

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

    def view(self, state: S, seat: int | None) -> dict[str, Any]:
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
        self.check_seat(state, seat)
        seats = self.to_act(state)
        if seat not in seats:
            if not seats:
                raise IllegalAction("The game is over; no more actions are taken.", kind="not-your-turn")
            reason = self.why_waiting(state, seat)
            raise IllegalAction(
                f"It is not {self.seat_name(state, seat)}'s turn; waiting for "
                f"{listing([self.seat_name(state, s) for s in seats])}." + (f" {reason}" if reason else ""),
                kind="not-your-turn",
            )
        legal = self.legal_actions(state, seat)
        chosen = match(
            action,
            legal,
            known_verbs=self.verbs,
            names=self.names(state),
            why_not=lambda text: self.why_not(state, seat, text),
        )
        new_state = self.clone(state)
        events = self.play(new_state, seat, chosen)
        return Step(state=new_state, events=events)

    def seat_name(self, state: S, seat: int) -> str:
        """How a refusal names the player in `seat`.

        Every game keeps `state.players` in seat order, as names or as records
        with a `name`; a game that keeps them otherwise says so here.
        """
        players: Any = getattr(state, "players", None)
        try:
            player = players[seat]
        except (TypeError, IndexError, KeyError):
            return f"seat {seat}"
        name = player if isinstance(player, str) else getattr(player, "name", None)
        return str(name) if name else f"seat {seat}"

    def seat_count(self, state: S) -> int | None:
        """How many seats the game has: `len(state.players)`; None where a state has no players list."""
        players = getattr(state, "players", None)
        return len(players) if isinstance(players, list) else None

    def check_seat(self, state: S, seat: int) -> None:
        """Refuse a seat that does not exist, naming those that do (`apply`, `legal_actions`)."""
        count = self.seat_count(state)
        if count is None or (type(seat) is int and 0 <= seat < count):
            return
        seats = ", ".join(f"{i} ({self.seat_name(state, i)})" for i in range(count))
        raise IllegalAction(f"There is no seat {seat!r} in this game; the seats are {seats}.", kind="no-such-seat")

    def names(self, state: S) -> Collection[str]:
        """Slugs this game's actions may name besides those in the legal actions now.

        A refused action can then be read with a name typed as printed (`play julius
        caesar build` for a card not in hand), so `why_not` gets the card, not `julius`.
        Names in the legal actions are always read; the default adds nothing.
        """
        return ()

    def why_not(self, state: S, seat: int, action: str) -> str | None:
        """The rule that makes `action` (canonical, not legal now) illegal, if the game can say.

        Only what `seat` may know goes here: the text reaches the player.
        """
        return None

    def turn_order(self, state: S) -> list[int]:
        """The seats in the order they take their turns now: seat order unless the game
        keeps another (a turn order track, a strategy order). Who plays after whom, for
        the service's heads-up ping."""
        players = getattr(state, "players", None)
        return list(range(len(players))) if isinstance(players, list) else []

    def why_waiting(self, state: S, seat: int) -> str | None:
        """Why `seat`, not among those to act, waits now, in the rulebook's terms, if the game can say
        ("ann holds the progress marker and decides first whether to compete for Gaul.").

        Added to the not-your-turn refusal; only what `seat` may know goes here.
        """
        return None

    def choices(self, state: S, seat: int) -> list[Choice]:
        """The seat's legal actions, in the same order, each described for a person (issue 25)."""
        raise NotImplementedError

    def prompt(self, state: S, seat: int) -> str:
        """One plain sentence: what this seat decides now (no rule numbers, no codes)."""
        raise NotImplementedError

    def rule(self, state: S, seat: int) -> str:
        """The rulebook section(s) behind what this seat decides now ("6.0", "5.4"), or ""."""
        return ""

    def needs_private_view(self, state: S, seat: int) -> bool:
        """Whether what `seat` decides now depends on what only it sees (a hand, a drawn card,
        a draft): the front ends then show the seat's private view beside its choices. The
        default: it does not."""
        return False

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
