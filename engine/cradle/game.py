"""Cradle of Civilization (Sumeria to Persia) behind the engine contract (shared/DESIGN.md).

Setup option: `{"non_player": True}` adds a non-player civilization for 4-5
players (rulebook 9.0).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..core import BaseGame, Choice, IllegalAction, Rng
from . import choices as words
from .allocation import allocation_actions, deal_first_epoch, drawer, play_allocation
from .board import C
from .epoch_end import event_actions, play_event
from .explain import why_not
from .flow import advance
from .points import breakdown
from .rounds import acting_seat, grow_actions, play_round_action
from .scoring import winning_seats
from .state import State
from .view import make_view

#: How many of a move's log lines the view keeps for the image header.
LAST_LINES = 4


def last_lines(events: list[str]) -> list[str]:
    """The move's lines for the view's `last_move`: its first lines (what the move did) and,
    when a move runs on into the next round or Epoch, its last ones (what is happening now)."""
    if len(events) <= LAST_LINES:
        return list(events)
    head = LAST_LINES // 2
    return events[:head] + [f"… {len(events) - LAST_LINES} more in the log …"] + events[-(LAST_LINES - head) :]


class CradleGame(BaseGame[State]):
    id = "cradle"
    title = "Cradle of Civilization: Sumeria to Persia"
    min_players = 4
    max_players = 6
    state_type = State
    verbs = (
        "keep",
        "pass",
        "place",
        "attack",
        "continue",
        "commit",
        "withdraw",
        "start",
        "move",
        "colonize",
        "wonder",
        "culture",
        "done",
        "raid",
        "revolt",
        "ruin",
    )

    def setup(self, players: Sequence[str], seed: int, options: Mapping[str, Any] | None = None) -> State:
        players = [str(p) for p in players]
        if not self.min_players <= len(players) <= self.max_players:
            raise IllegalAction(
                f"Cradle of Civilization is for {self.min_players}-{self.max_players} players, not {len(players)}."
            )
        options = dict(options or {})
        unknown = set(options) - {"non_player"}
        if unknown:
            raise IllegalAction(f"Unknown option(s) {', '.join(sorted(unknown))}; the only option is non_player.")
        non_player = options.get("non_player", False)
        if not isinstance(non_player, bool):
            raise IllegalAction(f"The option non_player is true or false, not {non_player!r}.")
        if non_player and len(players) > 5:
            raise IllegalAction("A non-player civilization is only for 4-5 players (rule 9.0).")
        state = State(
            players=players,
            rng=Rng.from_seed(seed, "cradle"),
            non_player=non_player,
            epoch=1,
            phase="allocate",
            vp=[0] * len(players),
            vp_by=[{} for _ in players],
            last_armies=[0] * len(players),
        )
        events: list[str] = []
        for city in C.cities.values():
            if city.epoch == 1:
                state.cities.setdefault(city.area, []).append(city.id)
        deal_first_epoch(state, events)
        advance(state, events)
        state.last = events  # setup has no Step: its log (deal, first bonus roll) is kept for the view
        return state

    def clone(self, state: State) -> State:
        return state.copy()

    def turn_order(self, state: State) -> list[int]:
        """The Strategy Phase order (4.0) once it is set, seat order before."""
        return list(state.order) or super().turn_order(state)

    def to_act(self, state: State) -> list[int]:
        phase = state.phase
        if phase == "strategy":
            return [acting_seat(state)]
        if phase == "allocate":
            return [drawer(state)]
        if phase == "events":
            return [state.chooser()]
        return []

    def legal_actions(self, state: State, seat: int) -> list[str]:
        if seat not in self.to_act(state):
            return []
        phase = state.phase
        if phase == "strategy":
            return grow_actions(state)
        if phase == "allocate":
            return allocation_actions(state)
        return event_actions(state)

    def choices(self, state: State, seat: int) -> list[Choice]:
        """The legal actions in the players' words (choices.py)."""
        return words.describe(state, seat, self.legal_actions(state, seat))

    def prompt(self, state: State, seat: int) -> str:
        """What `seat` decides now, or whom it waits for, in one sentence (choices.py)."""
        return words.prompt(state, seat, self.to_act(state))

    def rule(self, state: State, seat: int) -> str:
        """The rulebook section behind the decision in progress."""
        return words.rule(state)

    def needs_private_view(self, state: State, seat: int) -> bool:
        """While `seat` looks at the card it drew (3.0)."""
        return words.needs_private_view(state, seat)

    def why_not(self, state: State, seat: int, action: str) -> str | None:
        """The rule a refused action breaks, citing its section (explain.py)."""
        return why_not(state, seat, action)

    def play(self, state: State, seat: int, action: str) -> list[str]:
        events: list[str] = []
        phase = state.phase
        if phase == "strategy":
            play_round_action(state, action, events)
        elif phase == "allocate":
            play_allocation(state, action, events)
        else:
            play_event(state, action, events)
        advance(state, events)
        state.last = [f"{state.players[seat]}: {action}"] + last_lines(events)
        return events

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return make_view(self, state, seat)

    def is_over(self, state: State) -> bool:
        return state.phase == "over"

    def scores(self, state: State) -> list[int]:
        return list(state.vp)

    def winners(self, state: State) -> list[int]:
        """Most VPs; ties go to fewest Armies on the map, else shared (RULES-NOTES 7.0)."""
        return winning_seats(state) if state.phase == "over" else []

    def score_breakdown(self, state: State) -> list[list[tuple[str, int]]]:
        """Where each seat's VPs came from, in the rulebook's words (7.1-7.3), adding up to its
        score (beyond the contract: the final standings show it; points.py keeps the record)."""
        return breakdown(state)
