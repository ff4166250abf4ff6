"""The course of a game turn (4.0): whose action comes next, and the phases that run by themselves.

`advance` runs after setup and after every accepted action. While the top of
the decision stack is a step nobody has to choose (a phase marker, a choice
with nothing to choose from, or one the rules make for the player: actions.
automatic), it carries it out; it stops at the first real choice, whose seat
is then the one to act.
"""

from __future__ import annotations

from ..core import Decision
from .actions import automatic, discard_unkept, resolve, step_options
from .data import Components
from .payment import GOODS
from .phases import (
    collect_income,
    final_scoring,
    food_phase,
    game_result,
    halve_cubes,
    new_tiles,
    turn_order_choosers,
    vp_phase,
)
from .state import ROWS, State
from .words import who

MARKERS = ("end-action", "food", "income", "vp", "era-cubes", "turn-order", "new-turn")
#: Steps that may offer nothing at all (every other step always offers something: an action has
#: `pass`, a payment is asked only when the disc can be paid, placing and a removed disc's row
#: have `done`, a weapon is usable only with a target, an ally always exists).
MAY_BE_EMPTY = ("battle", "food-upkeep", "resource-upkeep", "era-end", "order")
MARKER_SEAT = -1


def has_action(comp: Components, state: State, seat: int) -> bool:
    """6.0: six actions in an A turn; in a B turn one per disc still on the display."""
    if state.half == "A":
        return state.players[seat].actions < comp.rules.actions_per_turn
    return any(seat in state.rows[r] for r in ROWS)


def advance(comp: Components, state: State) -> list[str]:
    events: list[str] = []
    stack = state.stack
    while state.phase != "over":
        top = stack.top
        if top is None:
            events += _next(comp, state)
            continue
        if top.kind in MARKERS:
            stack.pop()
            events += _marker(comp, state, top)
            continue
        chosen = automatic(comp, state, top)
        if chosen:
            events += resolve(comp, state, top, chosen)
            continue
        if top.kind in MAY_BE_EMPTY and not step_options(comp, state, top):
            stack.pop()
            if top.kind == "era-end":
                events += discard_unkept(comp, state, top.seat, top.data)
            elif top.kind == "order":
                free = state.new_order.index(-1)
                state.new_order[free] = top.seat
                events.append(f"{who(state, top.seat)} takes the last position, {free + 1}, of the turn order.")
            continue
        break
    return events


def upgrade(state: State) -> State:
    """A game stored while a step of an earlier flow was open goes on in today's.

    - A payment asked one good at a time (before issue 12) becomes the payment of what is still owed;
      a payment stored before payments came in parts (issue 22) has paid nothing in part yet.
    - The `after` step (6.1: free actions after the action) of the flow before issue 12 is today's;
      a game stored in the middle of an action by the flow that had none (issue 12) gets one, so
      the free actions stay usable once that action is done.
    """
    items = state.stack.items
    for d in items:
        if d.kind == "pay":
            if "remaining" in d.data:
                d.data = {"cost": d.data["remaining"], "reserve": [0] * len(GOODS), "then": ""}
            d.data.setdefault("paid", [0] * len(GOODS))
    for i in range(len(items) - 1, -1, -1):
        d = items[i]
        above = items[i + 1] if i + 1 < len(items) else None
        if d.kind == "end-action" and above is not None and above.kind not in ("action", "after"):
            items.insert(i + 1, Decision("after", d.data["who"], {}))
    return state


def _next(comp: Components, state: State) -> list[str]:
    """Nothing pending: the next player's action, or the phases after the actions (7.0-10.0)."""
    n = state.n
    if state.phase == "actions":
        for k in range(n):
            pos = (state.cursor + k) % n
            seat = state.order[pos]
            if has_action(comp, state, seat):
                state.cursor = pos
                state.stack.push("end-action", MARKER_SEAT, who=seat)
                state.stack.push("action", seat)
                return []
        state.phase = "food"
        state.stack.push("food", MARKER_SEAT)
        for seat in reversed(state.order):
            state.stack.push("food-upkeep", seat)
        return ["All actions are taken: the Food phase begins."]
    raise AssertionError(f"nothing pending in phase {state.phase}")


def _marker(comp: Components, state: State, d: Decision) -> list[str]:
    stack = state.stack
    kind = d.kind
    if kind == "end-action":
        seat = d.data["who"]
        p = state.players[seat]
        p.actions += 1
        p.actions_total += 1
        state.cursor = (state.order.index(seat) + 1) % state.n
        return []
    if kind == "food":
        events = food_phase(comp, state)
        state.phase = "income"
        stack.push("vp", MARKER_SEAT)
        for seat in reversed(state.order):
            stack.push("resource-upkeep", seat)
            stack.push("income", MARKER_SEAT, who=seat)
        return events
    if kind == "income":
        return collect_income(comp, state, d.data["who"])
    if kind == "vp":
        state.phase = "victory points"
        events = vp_phase(comp, state)
        if state.turn == 6:
            events += final_scoring(comp, state)
            state.phase = "over"
            events += game_result(state)
            return events
        stack.push("turn-order", MARKER_SEAT)
        if state.turn in (2, 4):
            state.phase = "era end"
            stack.push("era-cubes", MARKER_SEAT)
            for seat in reversed(state.order):
                p = state.players[seat]
                stack.push("era-end", seat, progress=list(p.progress), cities=list(p.cities))
            events.append("The era ends: keep progress tiles for 1 gold each and cities for 1 cube each.")
        return events
    if kind == "era-cubes":
        return halve_cubes(state)
    if kind == "turn-order":
        state.phase = "turn order"
        state.choosers = turn_order_choosers(state)
        state.new_order = [-1] * state.n
        stack.push("new-turn", MARKER_SEAT)
        for seat in reversed(state.choosers):
            stack.push("order", seat)
        return []
    if kind == "new-turn":
        state.previous_order = state.order
        state.order = state.new_order
        state.new_order = []
        state.choosers = []
        state.turn += 1
        state.cursor = 0
        state.phase = "actions"
        for p in state.players:
            p.actions = 0
        return new_tiles(comp, state)
    raise AssertionError(kind)
