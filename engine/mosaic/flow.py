"""Turn flow: Empire Scorings after the revealer's action, the end of an action and of a turn.

`settle` runs after every step: nothing happens while a decision is pending. Before each
Empire Scoring the General may remove a unit and a City State chooses the region it scores
(N13, N37). A turn ends with its last action's last step unless a free action can still be
taken then (a claim, a flip, the arrow side, a leader's power): the turn then waits for those
or `end` (N44). What a turn's start and end do (the end rounds, the Scribe) is in `turns`.
"""

from __future__ import annotations

from . import scoring
from .data import Data
from .decks import check_tiles_end
from .options import city_state_options, eliminate_options, has_free_action
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
        if s.scoring_due > 0:
            if not s.general_done:
                s.general_done = True
                before_scoring(d, s)
                if s.pending:
                    return
            ev += scoring.empire_scoring(d, s)
            s.scoring_due -= 1
            s.general_done = False
            s.city_state_region = ""
            continue
        if s.action_open:
            s.action_open = False
            s.scoring_due += s.scoring_after_action  # revealed before the action, scored now (N53)
            s.scoring_after_action = 0
            s.pay_by_choice = False
            s.actions_left -= 1
            check_tiles_end(s, ev)
            if s.scoring_due:
                continue
            if s.actions_left > 0:
                s.stage = "main"
                return
            s.stage = "post"
        if s.stage == "post" and not has_free_action(d, s, s.seat):  # N44: no empty confirmation
            end_turn(d, s, ev)
            if s.phase != "play":
                return
            continue
        return


def before_scoring(d: Data, s: State) -> None:
    """The choices an Empire Scoring asks first: the General's removal (N13), then which region a
    City State scores (N37: only when its regions hold different numbers of its cities). The
    stack is last in, first out, so the City State's question goes in first."""
    for seat in range(len(s.players)):
        if len(city_state_options(d, s, seat)) > 1:
            s.pending.push("city-state", seat)
    for g, q in enumerate(s.players):
        if q.leader == "general" and eliminate_options(d, s, g):
            s.pending.push("eliminate", g)
