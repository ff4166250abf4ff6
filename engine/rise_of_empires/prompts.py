"""What is decided now, in one plain sentence (issue 25): to the player deciding (`prompt`), to
everyone else (`public`), and the rulebook section behind it (`rule`, for the front ends' Rule button).

No rule numbers, no action codes and no rules prose in the sentences: the choices
(choices.py) say what each option costs and gives, and the rule stays one tap away.
"""

from __future__ import annotations

from .actions import disc_upkeep
from .data import Components
from .describe import row_name
from .state import State
from .words import amount, who

#: The rulebook section behind each decision.
RULES = {
    "action": "6.0",
    "pay": "6.0",
    "b-row": "6.0",
    "after": "6.1",
    "empire-tile": "6.4",
    "place": "6.4",
    "battle": "6.4.5",
    "weapon": "6.1",
    "ally": "2.9",
    "food-upkeep": "7.0",
    "resource-upkeep": "8.0",
    "era-end": "11.0",
    "order": "10.0",
}

#: What the player to act is doing, for "Ann (white) is ..." and the board's status line (kept short:
#: the header has room for about 25 characters after the phase).
DOING = {
    "action": "choosing an action",
    "pay": "paying for a disc",
    "b-row": "taking a disc's action",
    "after": "using free actions",
    "empire-tile": "choosing an empire tile",
    "place": "placing cubes",
    "battle": "choosing a second battle",
    "weapon": "removing cubes",
    "ally": "choosing an ally",
    "food-upkeep": "deciding on city upkeep",
    "resource-upkeep": "deciding on city upkeep",
    "era-end": "keeping tiles",
    "order": "choosing a turn position",
}


def rule(state: State, seat: int) -> str:
    """The section behind the decision `seat` faces now, or "" when it has none."""
    d = state.stack.top
    if state.phase == "over" or d is None or d.seat != seat:
        return ""
    return RULES.get(d.kind, "")


#: What the deciding player reads where the sentence does not depend on the position.
SAY = {
    "after": "Use a free-action tile now, or end your turn.",
    "empire-tile": "Your cubes are back in your pool: choose the empire tile for your new empire.",
    "battle": "Fight a second battle in another region, or stop.",
    "ally": "Choose the player your alliance piece marks.",
    "food-upkeep": "Keep your cities and pay their food upkeep, or discard one first.",
    "era-end": "The era ends: keep progress tiles for 1 gold and cities for 1 cube each; the rest go back.",
}


def prompt(comp: Components, state: State, seat: int) -> str:
    """One sentence to `seat`: what to decide now, or what the game waits for."""
    d = state.stack.top
    if state.phase == "over" or d is None:
        return "The game is over."
    if d.seat != seat:
        return f"Waiting for {who(state, d.seat)}, who is {DOING.get(d.kind, 'deciding')}."
    data, p = d.data, state.players[seat]
    if d.kind in SAY:
        return SAY[d.kind]
    if d.kind == "action":
        if state.half == "A":
            return "Choose an action: place a disc in a row and take that row's action."
        return "Remove one of your discs and take its row's action; each disc to its left costs 1 good."
    if d.kind == "pay":
        if any(data["paid"]):
            return f"Pay the other {data['cost']} for the disc with goods you have not used for it yet."
        return f"Pay {data['cost']} for the discs to the left of the one you removed, in any mix of goods."
    if d.kind == "b-row":
        return f"Take the {row_name(data['row'])} row's action with the removed disc, or do nothing."
    if d.kind == "place":
        left = data["limit"] - len(data["used"])
        more = f"up to {left} more region{'s' if left != 1 else ''}" if left else "the regions you used"
        return f"Place cubes from your pool of {p.pool} in {more}, or fight a battle (it ends placing)."
    if d.kind == "weapon":
        return f"Choose where {comp.progress[data['tile']].name} removes another player's cubes."
    if d.kind == "resource-upkeep":
        need = disc_upkeep(comp, state, seat)
        if p.resources < need:
            return f"Your cities' upkeep is {amount(need, 'resource')} and you have {p.resources}: discard a city."
        return f"Pay your cities' upkeep of {amount(need, 'resource')}, or discard one first."
    if d.kind == "order":
        return f"Choose your position in the turn order of game turn {state.turn + 1}."
    return "Choose one."


def public(comp: Components, state: State) -> str:
    """One sentence for everyone: who decides what now (the board's status, the public post)."""
    d = state.stack.top
    if state.phase == "over" or d is None:
        return ""
    name = who(state, d.seat)
    if d.kind == "place":
        tile = comp.empire_sides[d.data["tile"]].name
        used = f"{len(d.data['used'])} of {amount(d.data['limit'], 'region')} used"
        pool = amount(state.players[d.seat].pool, "cube")
        return f"{name} places cubes with empire tile {tile}: {used}, {pool} in the pool."
    if d.kind == "pay":
        return f"{name} pays {d.data['cost']} for a removed disc."
    return f"{name} is {DOING.get(d.kind, 'deciding')}."
