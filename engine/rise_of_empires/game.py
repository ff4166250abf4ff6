"""Rise of Empires behind the engine contract (shared/DESIGN.md)."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any

from ..core import BaseGame, Choice, Rng, clockwise
from . import prompts
from .actions import legal, resolve
from .choices import choices
from .data import components, in_play
from .explain import why_not
from .flow import advance, upgrade
from .phases import deal_progress, final_winners, new_tiles
from .points import breakdown
from .state import Player, State
from .view import make_view


class RiseOfEmpires(BaseGame[State]):
    id = "rise-of-empires"
    title = "Rise of Empires"
    min_players = 2
    max_players = 5
    state_type = State
    verbs = (
        "take",
        "trade",
        "remove",
        "use",
        "pass",
        "done",
        "pay",
        "place",
        "withdraw",
        "battle",
        "ally",
        "keep",
        "discard",
        "choose",
    )

    def setup(self, players: Sequence[str], seed: int, options: Mapping[str, Any] | None = None) -> State:
        """3.0: colours (option "colours", else seat order), 0 VP, 16 food, 5 cubes in the pool, 25 in stock,
        5 gold, 2 discs; random start player."""
        if not self.min_players <= len(players) <= self.max_players:
            raise ValueError(f"Rise of Empires is for 2-5 players, not {len(players)}")
        comp = components()
        r = comp.rules
        chosen = (options or {}).get("colours") or r.colours[: len(players)]
        colours = [c.strip().lower() for c in (chosen.split(",") if isinstance(chosen, str) else chosen)]
        if len(colours) != len(players) or len(set(colours)) != len(colours) or not set(colours) <= set(r.colours):
            raise ValueError(f"colours must be {len(players)} different ones of {', '.join(r.colours)}")
        rng = Rng.from_seed(seed, self.id)
        seats = [
            Player(
                name=str(name),
                colour=colours[i],
                vp=r.start_vp,
                food=r.start_food,
                gold=r.start_gold,
                resources=r.start_resources,
                pool=r.start_pool,
                stock=r.start_stock,
            )
            for i, name in enumerate(players)
        ]
        state = State(players=seats, rng=rng)
        state.cubes = {reg: [0] * len(players) for reg in comp.regions}
        start = rng.below(len(players))
        state.order = clockwise(start, len(players))
        state.previous_order = list(state.order)
        deal_progress(comp, state, rng)
        deck = [t.id for t in comp.territories.values() for _ in range(t.copies)]
        rng.shuffle(deck)
        state.territory_deck = deck
        new_tiles(comp, state)
        advance(comp, state)
        return state

    def turn_order(self, state: State) -> list[int]:
        """The turn order track (3.0, 10.0): who plays after whom this game turn."""
        return list(state.order) or super().turn_order(state)

    def to_act(self, state: State) -> list[int]:
        top = state.stack.top
        if state.phase == "over" or top is None:
            return []
        return [top.seat]

    def legal_actions(self, state: State, seat: int) -> list[str]:
        top = state.stack.top
        if state.phase == "over" or top is None or top.seat != seat:
            return []
        return legal(in_play(), state, top)

    def why_not(self, state: State, seat: int, action: str) -> str | None:
        """The rule a refused action breaks, citing its section (explain.py)."""
        return why_not(in_play(), state, seat, action)

    def names(self, state: State) -> Collection[str]:
        """Regions, tiles and cities as players read them: `place 1 SW Europe`, `take city Saint Petersburg`."""
        return in_play().names

    def why_waiting(self, state: State, seat: int) -> str | None:
        """What the player to act is deciding now (all of it public, 6.0)."""
        return prompts.public(in_play(), state) or None

    def choices(self, state: State, seat: int) -> list[Choice]:
        """The seat's legal actions described (choices.py); nothing hidden bears on them (6.0)."""
        return choices(in_play(), state, seat)

    def prompt(self, state: State, seat: int) -> str:
        return prompts.prompt(in_play(), state, seat)

    def rule(self, state: State, seat: int) -> str:
        return prompts.rule(state, seat)

    def needs_private_view(self, state: State, seat: int) -> bool:
        """Never: every tile, good and cube is on the table (6.0: "no player may hide or cover tiles")."""
        return False

    def play(self, state: State, seat: int, action: str) -> list[str]:
        comp = in_play()
        top = state.stack.top
        assert top is not None  # `apply` plays only an action of the seat the top decision names
        events = resolve(comp, state, top, action)
        events += advance(comp, state)
        state.last = events[0] if events else action
        return events

    def clone(self, state: State) -> State:
        return state.clone()

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return make_view(in_play(), state, seat, self)

    def loads(self, text: str) -> State:
        """A stored game plays with the data in force now (an owner may have corrected it since)."""
        components()
        return upgrade(super().loads(text))

    def is_over(self, state: State) -> bool:
        return state.phase == "over"

    def scores(self, state: State) -> list[int]:
        return [p.vp for p in state.players]

    def score_breakdown(self, state: State) -> list[list[tuple[str, int]]]:
        """Where each seat's VP came from, in the rulebook's words (9.0, 6.3, 6.5, 11.0; losses 6.0,
        7.0), adding up to its score (beyond the contract: the final standings show it; points.py
        keeps the record)."""
        return breakdown(state)

    def winners(self, state: State) -> list[int]:
        """11.0: most VP; a tie goes to the most gold."""
        if state.phase != "over":
            return []
        return final_winners(state)
