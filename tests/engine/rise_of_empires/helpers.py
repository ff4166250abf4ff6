"""Building and driving Rise of Empires states for the rule tests."""

from __future__ import annotations

from engine.core import DecisionStack, IllegalAction
from engine.rise_of_empires import GAME
from engine.rise_of_empires.data import components
from engine.rise_of_empires.flow import advance
from engine.rise_of_empires.state import State

COMP = components()


def new(n: int = 4, seed: int = 1, names=None, colours=None) -> State:
    names = names or [f"p{i}" for i in range(n)]
    options = {"colours": colours} if colours else None
    return GAME.setup(names, seed, options)


def restart(state: State, order: list[int] | None = None) -> State:
    """Re-run the flow from the start of the actions phase after a test rearranged the state."""
    if order is not None:
        state.order = list(order)
        state.previous_order = list(order)
    state.cursor = 0
    state.phase = "actions"
    state.stack = DecisionStack()
    advance(components(), state)  # the data in force (an owner's corrected files, if a test sets them)
    return state


def empty_map(state: State) -> None:
    for counts in state.cubes.values():
        for i in range(len(counts)):
            counts[i] = 0


def act(state: State, *actions: str) -> State:
    """Apply actions in sequence, each by whoever is to act."""
    for a in actions:
        seat = GAME.to_act(state)[0]
        state = GAME.apply(state, seat, a).state
    return state


def legal(state: State) -> list[str]:
    seats = GAME.to_act(state)
    return GAME.legal_actions(state, seats[0]) if seats else []


def actor(state: State) -> int:
    return GAME.to_act(state)[0]


def refuses(state: State, action: str) -> str:
    """The IllegalAction message for an action that must be refused (state must stay unchanged)."""
    before = GAME.dumps(state)
    try:
        GAME.apply(state, actor(state), action)
    except IllegalAction as err:
        assert GAME.dumps(state) == before
        return str(err)
    raise AssertionError(f"{action!r} was accepted")


def finish_actions(state: State) -> State:
    """Every remaining action of the turn: the first legal 'pass'/'done'/cheapest choice."""
    while state.phase == "actions":
        options = legal(state)
        pick = next((a for a in options if a == "done" or a.startswith("pass")), None)
        if pick is None:
            pick = next((a for a in options if a.startswith(("remove", "pay"))), options[0])
        state = act(state, pick)
    return state


def era_end(progress=(), cities=(), territories=(), n: int = 4) -> State:
    """The end of Era I (game turn 2, no discs left) with white holding these tiles (11.0)."""
    s = new(n)
    s.turn = 2
    s.rows = {r: [-1] * 8 for r in s.rows}
    p = s.players[0]
    p.progress, p.cities, p.territories = tuple(progress), tuple(cities), tuple(territories)
    return s
