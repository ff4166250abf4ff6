"""Rising Cultures behind the engine contract (shared/DESIGN.md)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.core import BaseGame, Choice, IllegalAction, Rng, Step, canonical, describe_choices, readable

from . import actions, explain, flow, scoring
from . import choices as choices_mod
from . import view as view_mod
from .data import CIVS, DATA
from .state import Player, State

OPTIONS = ("match", "civs")
#: Every name an action may carry (cards of all four decks, Nile cards), so a refusal reads
#: `play julius caesar build` as the card even when it is not in hand.
CARD_NAMES = frozenset(sl for slugs in DATA.by_slug.values() for sl in slugs)
NAMES = CARD_NAMES | frozenset(DATA.nile_by_slug)


class RisingCultures(BaseGame[State]):
    id = "rising-cultures"
    title = "Rising Cultures"
    min_players = 2
    max_players = 2
    state_type = State
    verbs = actions.VERBS

    def setup(self, players: Sequence[str], seed: int, options: Mapping[str, Any] | None = None) -> State:
        """Setup: 7 of 15 provinces in ascending order, progress marker to a random player.

        Options: `match` (bool) plays the optional two-game match; `civs` (a list of
        two civilization ids, one per seat) skips the civilization choice.
        """
        options = dict(options or {})
        unknown = sorted(set(options) - set(OPTIONS))
        if unknown:
            raise ValueError(f"unknown option(s) {', '.join(unknown)}; allowed: {', '.join(OPTIONS)}")
        if len(players) != 2:
            raise ValueError(f"Rising Cultures is for exactly 2 players, got {len(players)}")
        rng = Rng.from_seed(seed, self.id)
        chosen = sorted(rng.sample(range(1, 16), 7))
        s = State(
            players=[Player(name=str(n)) for n in players],
            rng=rng,
            row=chosen[:],
            chosen=chosen,
            marker=rng.below(2),
            match=bool(options.get("match", False)),
        )
        civs = options.get("civs")
        if civs is not None:
            if (
                not isinstance(civs, (list, tuple))
                or len(civs) != 2
                or len(set(civs)) != 2
                or any(c not in CIVS for c in civs)
            ):
                raise ValueError(f"option civs: two different civilizations out of {', '.join(CIVS)}")
            for p, c in zip(s.players, civs, strict=True):
                p.civ = c
            flow.advance(s, [])
        return s

    def to_act(self, state: State) -> list[int]:
        s = state
        if s.phase == "over":
            return []
        if s.pending:
            return [s.pending[-1].seat]
        if s.phase == "civ":
            return [next(i for i, p in enumerate(s.players) if not p.civ)]
        if s.phase in ("opening", "draw"):
            return [i for i, p in enumerate(s.players) if p.step != "ready"]
        if s.phase == "play":
            return [s.turn]
        return []

    def public_action(self, action: str) -> str:
        """`top <card>` and `bottom <card>` put a card face down on the deck: which one is
        the owner's secret (Setup; Phase II swaps), so the public log names no card."""
        verb, _, card = action.partition(" ")
        if verb in ("top", "bottom") and card:
            return f"{verb} (a hidden card)"
        return action

    def apply(self, state: State, seat: int, action: str) -> Step:
        """Phase II actions read `play <card> <use>`; through the bot's `play <action>` a
        player easily sends only `forum build`. That is still refused (only legal strings
        are accepted), but the refusal names the full action instead of "not an action"."""
        try:
            return super().apply(state, seat, action)
        except IllegalAction as err:
            text = readable(canonical(action), NAMES) if isinstance(action, str) else ""
            if err.kind != "unreadable" or text.split(" ", 1)[0] not in CARD_NAMES:
                raise
            full = "play " + text
            reason = self.why_not(state, seat, full) if full not in err.legal else None
            raise IllegalAction(
                f"Cards are played with `play <card> <use>`: did you mean `{full[:60]}`?"
                + (f" {reason}" if reason else "")
                + f" Legal now: {describe_choices(err.legal)}",
                kind="unreadable",
                legal=err.legal,
            ) from None

    def why_not(self, state: State, seat: int, action: str) -> str | None:
        """The rule a refused action breaks, in the player's terms (explain.py)."""
        return explain.why(state, seat, action)

    def why_waiting(self, state: State, seat: int) -> str | None:
        """Why the other player acts now: Phase III's marker holder first, Phase II's alternation..."""
        return explain.waiting(state, seat)

    def names(self, state: State) -> frozenset[str]:
        """Every card and Nile card, so `play marcus aurelius build` reaches `why_not` as the card."""
        return NAMES

    def legal_actions(self, state: State, seat: int) -> list[str]:
        return actions.legal_actions(state, seat)

    def choices(self, state: State, seat: int) -> list[Choice]:
        """The legal actions described for `seat` (choices.py: names, costs, what they give)."""
        return choices_mod.choices(state, seat)

    def prompt(self, state: State, seat: int) -> str:
        return choices_mod.prompt(state, seat)

    def rule(self, state: State, seat: int) -> str:
        """The rulebook section behind the decision: a heading of its table of contents."""
        return choices_mod.rule(state, seat)

    def needs_private_view(self, state: State, seat: int) -> bool:
        return choices_mod.needs_private_view(state, seat)

    def play(self, state: State, seat: int, action: str) -> list[str]:
        return actions.perform(state, seat, action)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return view_mod.view(state, seat, self.to_act(state))

    def is_over(self, state: State) -> bool:
        return state.phase == "over"

    def scores(self, state: State) -> list[int]:
        if not all(p.civ for p in state.players):
            return [0] * len(state.players)
        return scoring.match_totals(state)

    def winners(self, state: State) -> list[int]:
        return scoring.winners(state)

    def score_breakdown(self, state: State) -> list[list[tuple[str, int]]]:
        """How each seat's score was made, line by line of the score pad (beyond the contract:
        the final standings show it)."""
        if not all(p.civ for p in state.players):
            return [[] for _ in state.players]
        return scoring.score_pad(state)

    def clone(self, state: State) -> State:
        """A hand-written copy: several times faster than `copy.deepcopy`."""
        return state.copy()
