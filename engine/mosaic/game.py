"""The Mosaic Game object: the engine contract (DESIGN.md) over the rules modules."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.core import BaseGame, Choice, IllegalAction, Step, canonical

from . import choices, rules, scoring, setup
from .data import MAX_PLAYERS, load
from .explain import why_not
from .state import State
from .view import view


class MosaicGame(BaseGame[State]):
    id = "mosaic"
    title = "Mosaic: A Story of Civilization"
    min_players = 2
    max_players = MAX_PLAYERS
    state_type = State
    verbs = (
        "leader",
        "draft",
        "region",
        "hex",
        "work",
        "population",
        "build",
        "wonder",
        "technology",
        "tax",
        "tariff",
        "military",
        "government",
        "recruit",
        "move",
        "done",
        "unit",
        "eliminate",
        "library",
        "art",
        "production",
        "claim",
        "flip",
        "refresh",
        "convert",
        "seize",
        "end",
        "skip",
        "peek",
        "pay",
        "spend",
    )

    def setup(self, players: Sequence[str], seed: int, options: Mapping[str, Any] | None = None) -> State:
        if not self.min_players <= len(players) <= self.max_players:
            raise IllegalAction(f"Mosaic is for 2-6 players, not {len(players)}.")
        return setup.new_game(load(), list(players), seed)

    def to_act(self, state: State) -> list[int]:
        if state.phase == "over":
            return []
        if state.phase == "leaders":
            return [state.leader_order[0]]
        if state.phase == "draft":
            return list(state.draft_waiting)
        top = state.pending.top
        if top is not None:
            return [top.seat]
        return [state.seat]

    def legal_actions(self, state: State, seat: int) -> list[str]:
        if state.phase in ("leaders", "draft"):
            return setup.legal(load(), state, seat)
        if state.phase == "over":
            return []
        return rules.legal(load(), state, seat)

    def apply(self, state: State, seat: int, action: str) -> Step:
        """The contract's `apply`. A legal action is checked against only the legal actions that
        share its first word (`rules.legal` with a verb: the same strings, without working out
        the others); anything else goes the shared way, with the shared refusals."""
        if isinstance(action, str) and state.phase in ("setup", "play"):
            wanted = canonical(action)
            if seat in self.to_act(state) and wanted in rules.legal(load(), state, seat, wanted.split(" ", 1)[0]):
                new = self.clone(state)
                return Step(state=new, events=self.play(new, seat, wanted))
        return super().apply(state, seat, action)

    def choices(self, state: State, seat: int) -> list[Choice]:
        """The seat's legal actions in the players' words (choices.py)."""
        return choices.describe(load(), state, seat, self.legal_actions(state, seat))

    def prompt(self, state: State, seat: int) -> str:
        """What `seat` decides now, or whom it waits for, in one sentence (choices.py)."""
        return choices.prompt(load(), state, seat, self.to_act(state))

    def rule(self, state: State, seat: int) -> str:
        """The rulebook topic behind the decision (the summary has no section numbers)."""
        return choices.rule(state)

    def needs_private_view(self, state: State, seat: int) -> bool:
        """The leader choice and the draft (the dealt hand), a Republic's turn after its look."""
        return choices.needs_private_view(state, seat)

    def why_not(self, state: State, seat: int, action: str) -> str | None:
        """Which rule stands in the way of a refused action (explain.py); only what `seat` may know."""
        return why_not(load(), state, seat, action)

    def play(self, state: State, seat: int, action: str) -> list[str]:
        d = load()
        if state.phase in ("leaders", "draft"):
            events = setup.play(d, state, seat, action.split(" "))
        else:
            events = rules.play(d, state, seat, action)
        if events:  # a bare sub-choice (a region, a payment) keeps the last move on show
            state.last = list(events)
        return events

    def clone(self, state: State) -> State:
        return state.copy()

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return view(load(), state, seat)

    def is_over(self, state: State) -> bool:
        return state.phase == "over"

    def scores(self, state: State) -> list[int]:
        return list(state.final) if state.final else scoring.totals(load(), state)

    def winners(self, state: State) -> list[int]:
        """Most points; ties to most wonders, then most money (rulebook, Scoring)."""
        return scoring.winners(state) if state.phase == "over" else []

    def score_breakdown(self, state: State) -> list[list[tuple[str, int]]]:
        """How each seat's score was made, in the final tally's categories (beyond the
        contract: the final standings show it)."""
        d = load()
        return [
            [(label[:1].upper() + label[1:], points) for label, points in scoring.breakdown(d, state, seat).items()]
            for seat in range(len(state.players))
        ]


GAME = MosaicGame()
