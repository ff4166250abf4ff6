"""A tiny game registered only in these tests: a race to empty a pile.

It has what the service must handle in every real game: a turn order, a
hidden hand filled from a shuffled deck (`draw` reveals a card to its drawer),
dice (`roll` uses the state's Rng), scores, an end and winners. Rules:
players in turn `take 1` or `take 2` from the pile (scoring that many), `draw`
a hidden card, or `roll` a die (scoring it); the game ends when the pile is empty.
With the option `bids=true` the game opens with a simultaneous step: every
player must `bid 1` or `bid 2` (any order) before the first turn.

It describes its choices as every game does (issue 25: `choices`, `prompt`, `rule`,
`needs_private_view`), so the service's tests go the real way: the draw's detail names
the cards in the drawer's hand (what only they know), and a seat holding cards
decides with its private view beside it. Its public view counts rounds (one turn
each; `round`), for tests that read period ends.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.core import BaseGame, Choice, Rng, best

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
    #: Turns played (bids not counted): a round is one turn each.
    moves: int = 0


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
        state.moves += 1
        return events

    def choices(self, state: FakeState, seat: int) -> list[Choice]:
        def described(action: str) -> Choice:
            if action.startswith("bid"):
                n = int(action.split()[1])
                return Choice(action, "Bid", f"{n} point{'s' if n > 1 else ''}")
            if action.startswith("take"):
                n = int(action.split()[1])
                return Choice(action, "Take from the pile", f"{n} from the pile", f"+{n} · {state.pile - n} left")
            if action == "draw":
                hand = state.hands[seat]
                return Choice(action, "Draw", "A hidden card", f"your hand: {', '.join(hand)}" if hand else "")
            return Choice(action, "Roll", "The die", "+1 to +6")

        return [described(a) for a in self.legal_actions(state, seat)]

    def prompt(self, state: FakeState, seat: int) -> str:
        if seat not in self.to_act(state):
            return f"Waiting for {' and '.join(state.players[s] for s in self.to_act(state))}."
        if 0 in state.bids:
            return "Bid 1 or 2."
        return "Take from the pile, draw a card or roll the die."

    def rule(self, state: FakeState, seat: int) -> str:
        return "2" if 0 in state.bids else "3"

    def needs_private_view(self, state: FakeState, seat: int) -> bool:
        return seat in self.to_act(state) and bool(state.hands[seat])

    def view(self, state: FakeState, seat: int | None) -> dict:
        out = {
            "pile": state.pile,
            "turn": state.players[state.turn],
            "scores": list(state.scores),
            "deck": len(state.deck),
            "hand sizes": [len(h) for h in state.hands],
            "round": state.moves // len(state.players) + 1,
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
