"""A turn begins and ends: the actions it has, the end-game rounds, the Scribe's extra actions, game over.

Setup starts the first turn and `flow.settle` ends each one, so these live below both.
"""

from __future__ import annotations

from . import scoring
from .data import Data
from .state import State


def start_turn(d: Data, s: State, seat: int) -> None:
    s.seat = seat
    s.stage = "main"
    s.peeked = ""
    s.pay_by_choice = False
    s.turn_recruits = 0
    s.turn_arrived = {}
    p = s.players[seat]
    s.actions_left = 2 if (p.leader == "scribe" and p.turns == 0) else 1


def end_turn(d: Data, s: State, ev: list[str]) -> None:
    n = len(s.players)
    s.players[s.seat].turns += 1
    s.turn_no += 1
    if s.scribe_turn:
        game_over(d, s, ev)
        return
    if s.end_stage == "rounds" and s.seat == (s.start - 1) % n:
        s.rounds_left -= 1
        if s.rounds_left <= 0:
            scribes = [i for i, q in enumerate(s.players) if q.leader == "scribe"]
            if scribes:
                s.scribe_turn = True
                s.end_stage = "scribe"
                start_turn(d, s, scribes[0])
                s.actions_left = d.rules.scribe_end_actions
                ev.append(f"{s.players[scribes[0]].name} (Scribe) takes {d.rules.scribe_end_actions} extra actions.")
                return
            game_over(d, s, ev)
            return
    start_turn(d, s, (s.seat + 1) % n)


def game_over(d: Data, s: State, ev: list[str]) -> None:
    s.phase = "over"
    s.final = scoring.totals(d, s)
    ranking = ", ".join(f"{p.name} {v}" for p, v in sorted(zip(s.players, s.final, strict=True), key=lambda x: -x[1]))
    ev.append(f"Game over. Final scores: {ranking}. {scoring.result_text(s)}")
