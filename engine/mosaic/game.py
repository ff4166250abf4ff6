"""The Mosaic Game object: the engine contract (DESIGN.md) over the rules modules."""
from __future__ import annotations

import dataclasses
import typing
from typing import Any, Mapping, Sequence

from engine.core import BaseGame, Decision, DecisionStack, IllegalAction

from . import rules, scoring, setup
from .data import load
from .explain import why_not
from .state import Player, State
from .view import view


class MosaicGame(BaseGame[State]):
    id = "mosaic"
    title = "Mosaic: A Story of Civilization"
    min_players = 2
    max_players = 6
    state_type = State
    verbs = ("leader", "draft", "region", "hex", "pay", "work", "population", "build", "wonder", "technology",
             "tax", "tariff", "military", "government", "recruit", "move", "done", "unit", "eliminate",
             "library", "art", "production", "claim", "flip", "refresh", "convert", "seize", "end", "skip", "peek")

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
        return fast_clone(state)

    def view(self, state: State, seat: int | None) -> dict:
        return view(load(), state, seat)

    def is_over(self, state: State) -> bool:
        return state.phase == "over"

    def scores(self, state: State) -> list[int]:
        return list(state.final) if state.final else scoring.totals(load(), state)

    def winners(self, state: State) -> list[int]:
        """Most points; ties to most wonders, then most money (rulebook, Scoring)."""
        return scoring.winners(state) if state.phase == "over" else []


def _container_fields(cls: type, skip: tuple[str, ...] = ()) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Names of a state dataclass's list and dict fields (their items are str/int, so one level of copy is enough)."""
    hints = typing.get_type_hints(cls)
    lists = tuple(f.name for f in dataclasses.fields(cls)
                  if f.name not in skip and typing.get_origin(hints[f.name]) is list)
    dicts = tuple(f.name for f in dataclasses.fields(cls)
                  if f.name not in skip and typing.get_origin(hints[f.name]) is dict)
    return lists, dicts


_STATE_LISTS, _STATE_DICTS = _container_fields(State, skip=("players",))
_PLAYER_LISTS, _PLAYER_DICTS = _container_fields(Player)


def _copy(obj, lists: tuple[str, ...], dicts: tuple[str, ...]):
    new = object.__new__(type(obj))
    d = new.__dict__ = obj.__dict__.copy()
    for k in lists:
        d[k] = d[k][:]
    for k in dicts:
        d[k] = d[k].copy()
    return new


def _plain_copy(x):
    """Copy of JSON-like data (dicts, lists, scalars): what pending decisions hold."""
    t = type(x)
    if t is dict:
        return {k: _plain_copy(v) for k, v in x.items()}
    if t is list:
        return [_plain_copy(v) for v in x]
    return x


def fast_clone(state: State) -> State:
    """A full copy for `apply`, about 10x faster than deepcopy: the state is flat except players and pending."""
    new = _copy(state, _STATE_LISTS, _STATE_DICTS)
    new.players = [_copy(p, _PLAYER_LISTS, _PLAYER_DICTS) for p in state.players]
    new.rng = type(state.rng)(state.rng.state)
    new.pending = DecisionStack([Decision(x.kind, x.seat, _plain_copy(x.data)) for x in state.pending.items])
    return new


GAME = MosaicGame()
