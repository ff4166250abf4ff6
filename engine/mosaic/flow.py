"""Turn flow: Empire Scorings after the revealer's action, the end of an action and of a turn.

`settle` runs after every step: nothing happens while a decision is pending. A turn ends
with its last action's last step, unless a tile can be claimed then (N44); face-down
technologies whose pillars arrived flip at once (N49). What a turn's start and end do (the
end rounds, the Scribe) is in `turns`.
"""

from __future__ import annotations

from . import scoring
from .data import Data
from .decks import check_tiles_end
from .gains import flip_ready
from .options import claims, eliminate_options
from .setup import setup_flow  # setup phases share the pending machinery
from .state import State
from .turns import end_turn


def settle(d: Data, s: State, ev: list[str]) -> None:
    """Move on once nothing is pending: scorings, end of the action, end of the turn."""
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
