"""A tiny game registered only in these tests: a race to empty a pile.

It has what the service must handle in every real game: a turn order, a
hidden hand filled from a shuffled deck (`draw` reveals a card to its drawer),
dice (`roll` uses the state's Rng), scores, an end and winners. Rules:
players in turn `take 1` or `take 2` from the pile (scoring that many), `draw`
a hidden card, or `roll` a die (scoring it); the game ends when the pile is empty.
With the option `bids=true` the game opens with a simultaneous step: every
player must `bid 1` or `bid 2` (any order) before the first turn.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.core import BaseGame, Rng, best

CARDS = ["apple", "banana", "cherry", "damson", "elder", "fig", "grape", "hazel"]


@dataclass
class FakeState:
    players: list[str]
    pile: int
    turn: int = 0
    scores: list[int] = field(default_factory=list)
    deck: list[str] = field(default_factory=list)
    hands: list[list[str]] = field(default_factory=list)
    rng: Rng = field(default_factory=Rng)
    bids: list[int] = field(default_factory=list)


class FakeRace(BaseGame[FakeState]):
    id = "fake-race"
    title = "Fake Race"
    min_players = 2
    max_players = 3
    state_type = FakeState
    verbs = ("take", "draw", "roll", "bid")

    def setup(self, players: Sequence[str], seed: int, options: Mapping[str, Any] | None = None) -> FakeState:
        options = dict(options or {})
        pile = options.pop("pile", 10)
        bids = options.pop("bids", False)
        if options:
            raise ValueError(f"unknown option(s) {', '.join(options)}; Fake Race knows `pile`")
        if not isinstance(pile, int) or pile < 1:
            raise ValueError("pile must be a positive whole number")
        rng = Rng.from_seed(seed)
        return FakeState(
            list(players),
            pile,
            0,
            [0] * len(players),
            rng.shuffled(CARDS),
            [[] for _ in players],
            rng,
            [0] * len(players) if bids is True else [],
        )

    def to_act(self, state: FakeState) -> list[int]:
        if 0 in state.bids:
            return [s for s, bid in enumerate(state.bids) if bid == 0]
        return [] if state.pile <= 0 else [state.turn]

    def legal_actions(self, state: FakeState, seat: int) -> list[str]:
        if seat not in self.to_act(state):
            return []
        if 0 in state.bids:
            return ["bid 1", "bid 2"]
        out = ["take 1"] + (["take 2"] if state.pile >= 2 else [])
        return out + (["draw"] if state.deck else []) + ["roll"]

    def play(self, state: FakeState, seat: int, action: str) -> list[str]:
        name = state.players[seat]
        if action.startswith("bid"):
            state.bids[seat] = int(action.split()[1])
            return [f"{name} placed a bid."]
        if action.startswith("take"):
            n = int(action.split()[1])
            state.pile -= n
            state.scores[seat] += n
            events = [f"{name} took {n}; {state.pile} left."]
        elif action == "draw":
            state.hands[seat].append(state.deck.pop())
            events = [f"{name} drew a card."]
        else:
            die = state.rng.die()
            state.scores[seat] += die
            events = [f"{name} rolled {die}."]
        state.turn = (state.turn + 1) % len(state.players)
        return events

    def view(self, state: FakeState, seat: int | None) -> dict:
        out = {
            "pile": state.pile,
            "turn": state.players[state.turn],
            "scores": list(state.scores),
            "deck": len(state.deck),
            "hand sizes": [len(h) for h in state.hands],
        }
        if seat is not None:
            out["hand"] = list(state.hands[seat])
        return out

    def is_over(self, state: FakeState) -> bool:
        return state.pile <= 0

    def scores(self, state: FakeState) -> list[int]:
        return list(state.scores)

    def winners(self, state: FakeState) -> list[int]:
        return best(range(len(state.scores)), key=lambda s: state.scores[s]) if self.is_over(state) else []


GAME = FakeRace()
