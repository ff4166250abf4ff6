"""Turn flow: Empire Scorings after the revealer's action, the end of a turn, the end rounds, the Scribe.

`settle` runs after every step: nothing happens while a decision is pending. A turn ends
with its last action's last step, unless a tile can be claimed then (N44); face-down
technologies whose pillars arrived flip at once (N49).
"""
from __future__ import annotations

from . import scoring
from .data import Data
from .gains import flip_ready
from .options import claims, eliminate_options
from .decks import check_tiles_end
from .state import State


def settle(d: Data, s: State, ev: list[str]) -> None:
    """Move on once nothing is pending: scorings, end of the action, end of the turn."""
    from .setup import setup_flow  # setup phases share the pending machinery
    while True:
        if s.pending:
            return
        if s.phase == "setup":
            if setup_flow(d, s, ev):
                continue
            return
        if s.phase != "play":
            return
        if flip_ready(d, s, s.seat, ev):
            continue
        if s.scoring_due > 0:
            if not s.general_done:
                s.general_done = True
                for g, q in enumerate(s.players):
                    if q.leader == "general" and eliminate_options(d, s, g):
                        s.pending.push("eliminate", g)
                if s.pending:
                    return
            ev += scoring.empire_scoring(d, s)
            s.scoring_due -= 1
            s.general_done = False
            continue
        if s.action_open:
            s.action_open = False
            s.actions_left -= 1
            check_tiles_end(s, ev)
            if s.scoring_due:
                continue
            if s.actions_left > 0:
                s.stage = "main"
                return
            s.stage = "post"
        if s.stage == "post" and not claims(d, s, s.seat):  # N44: the turn waits only for a claim
            end_turn(d, s, ev)
            if s.phase != "play":
                return
            continue
        return


def start_turn(d: Data, s: State, seat: int) -> None:
    s.seat = seat
    s.stage = "main"
    s.peeked = ""
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
    ranking = ", ".join(f"{p.name} {v}" for p, v in sorted(zip(s.players, s.final), key=lambda x: -x[1]))
    ev.append(f"Game over. Final scores: {ranking}. {scoring.result_text(s)}")
