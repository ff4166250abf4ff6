"""The public picture of a game (law 5). Everything in Rise of Empires is open information
(6.0: "keep all of your tiles fully visible"), except the order of the face-down stacks,
which no view shows. A seat's view adds only which seat it is and its legal actions.
"""

from __future__ import annotations

from typing import Any, Protocol

from .actions import disc_upkeep, legal
from .board import occupied, standings
from .data import Components
from .phases import circles
from .scoring import food_change, income_of
from .state import EMPTY, ROWS, State
from .words import amount, who

ERA_NAMES = {1: "I", 2: "II", 3: "III"}


class Results(Protocol):
    """What the view asks of the game object (game.py, which imports this module): the contract's results."""

    def scores(self, state: State) -> list[int]: ...
    def winners(self, state: State) -> list[int]: ...


#: A few words for the board's status line: what the player to act is doing now.
DOING = {
    "action": "choosing an action",
    "pay": "paying for a disc",
    "b-row": "taking the disc's action",
    "after": "a free action after the action",
    "empire-tile": "choosing an empire tile",
    "place": "placing cubes or a battle",
    "battle": "a second battle or done",
    "weapon": "removing cubes",
    "ally": "choosing an ally",
    "food-upkeep": "city food upkeep",
    "resource-upkeep": "city disc upkeep",
    "era-end": "keeping tiles",
    "order": "choosing a turn position",
}


def _battle_rows(rows: list[list[int]]) -> str:
    return " or ".join(f"the attacker loses {a}, the defender {d}" for a, d in rows)


def prompt(comp: Components, state: State) -> str:
    """What the player to act is deciding now and why, in the rulebook's terms (one sentence)."""
    d = state.stack.top
    if d is None:
        return ""
    name, data = who(state, d.seat), d.data
    p = state.players[d.seat]
    if d.kind == "action":
        if state.half == "A":
            if occupied(state, d.seat):
                return (
                    f"{name} places an action disc in a row and takes that action; `withdraw` takes an "
                    f"empire tile after removing all their cubes from the map (6.0, 6.4)."
                )
            return f"{name} places an action disc in a row and takes that action (6.0)."
        return (
            f"{name} removes one of their action discs and takes that row's action: `take ...` or `trade ...` "
            f"removes their disc that costs least in that row; `remove <row> <circle>` removes that disc "
            f"without acting, or, if another of theirs in the row costs less, lets them act with it next (6.0)."
        )
    if d.kind == "pay":
        then = f", then `{data['then']}`" if data["then"] else ""
        part = " still" if any(data["paid"]) else ""
        return (
            f"{name}{part} pays {data['cost']} for the discs left of the removed one, in any mix of gold, cubes, "
            f"resource discs, food and VP{then} (6.0)."
        )
    if d.kind == "after":
        return f"{name} may use a free-action tile after the action, or `done` to end the turn (6.1)."
    if d.kind == "empire-tile":
        return f"{name} withdrew their cubes from the map: choose the empire tile for the new empire (6.4)."
    if d.kind == "b-row":
        return (
            f"{name} removed a disc from the {data['row']} row: take that row's action, or `done` to do nothing (6.0)."
        )
    if d.kind == "place":
        tile = comp.empire_sides[data["tile"]].name
        used = len(data["used"])
        return (
            f"{name} places cubes from the pool with empire tile {tile}: {used} of {amount(data['limit'], 'region')} "
            f"used, {amount(p.pool, 'cube')} in the pool; a battle ends the placement, `done` the action (6.4, 6.4.5)."
        )
    if d.kind == "battle":
        return (
            f"{name} may fight a second battle ({_battle_rows(data['rows'])}) in another region holding "
            f"their cubes and another player's, or `done` (6.4.5)."
        )
    if d.kind == "weapon":
        tile = comp.progress[data["tile"]].name
        return (
            f"{name} uses {tile}: remove {amount(data['count'], 'cube')} of one other player where {name} "
            f"also has cubes (6.1)."
        )
    if d.kind == "ally":
        return f"{name} took Diplomacy: place the alliance piece with another player (2.9)."
    if d.kind == "food-upkeep":
        factor = comp.rules.food_last_turn_factor if state.turn == 6 else 1
        change = food_change(comp, state, d.seat) * factor
        return (
            f"{name}'s food ({p.food}, change {change:+d}): keep the cities and pay their food upkeep "
            f"(1 VP per food short), or discard a city (6.3, 7.0)."
        )
    if d.kind == "resource-upkeep":
        return (
            f"{name}'s cities cost {amount(disc_upkeep(comp, state, d.seat), 'resource')} of upkeep "
            f"(has {p.resources}): pay it, or discard a city (6.3, 8.0)."
        )
    if d.kind == "era-end":
        return (
            f"End of the era: {name} may keep progress tiles (1 gold each) and cities "
            f"(1 pool cube each); `done` returns the rest (11.0)."
        )
    if d.kind == "order":
        return f"{name} chooses a free position in the next turn order (10.0)."
    return ""


def make_view(comp: Components, state: State, seat: int | None, game: Results) -> dict[str, Any]:
    top = state.stack.top if state.phase != "over" else None
    regions = []
    for rid, reg in comp.regions.items():
        counts = state.cubes[rid]
        controllers, seconds = standings(counts)
        regions.append(
            {
                "id": rid,
                "name": reg.name,
                "era": reg.era,
                "sea": reg.sea,
                "area": reg.area,
                "control_vp": reg.control_vp,
                "second_vp": reg.second_vp,
                "income": reg.income,
                "income_amount": reg.income_amount,
                "x": reg.x,
                "y": reg.y,
                "cubes": list(counts),
                "control": controllers,
                "second": seconds,
                "open": reg.era <= state.era,
                "source": reg.source,
            }
        )
    players = []
    factor = comp.rules.food_last_turn_factor if state.turn == 6 else 1
    for i, p in enumerate(state.players):
        players.append(
            {
                "seat": i,
                "name": p.name,
                "colour": p.colour,
                "vp": p.vp,
                "food": p.food,
                "gold": p.gold,
                "resources": p.resources,
                "pool": p.pool,
                "stock": p.stock,
                "on_map": sum(c[i] for c in state.cubes.values()),
                "progress": [
                    {
                        "id": t,
                        "name": comp.progress[t].name,
                        "era": comp.progress[t].era,
                        "free_action": comp.progress[t].free_action,
                        "used": t in p.used,
                    }
                    for t in p.progress
                ],
                "territories": [{"id": t, "name": comp.territories[t].name} for t in p.territories],
                "cities": [{"id": c, "name": comp.cities[c].name, "vp": comp.cities[c].vp} for c in p.cities],
                "empires": comp.empire_names(p.empires, state.era),
                "ally": state.players[p.ally].colour if p.ally >= 0 else None,
                "actions": p.actions,
                # 7.0: the food change is doubled in the last game turn; the forecast shows what will happen.
                "forecast": {"food": food_change(comp, state, i) * factor, **income_of(comp, state, i)},
            }
        )
    rows = {r: [state.players[s].colour if s != EMPTY else None for s in state.rows[r]] for r in ROWS}
    view = {
        "game": "rise-of-empires",
        "turn": state.turn,
        "era": state.era,
        "era_name": ERA_NAMES[state.era],
        "half": state.half,
        "phase": state.phase,
        "order": [state.players[s].colour for s in state.order],
        "to_act": [top.seat] if top is not None else [],
        "decision": top.kind if top is not None else None,
        "prompt": prompt(comp, state) if top is not None else "",
        "doing": DOING.get(top.kind, "") if top is not None else "",
        "last": state.last,
        "regions": regions,
        "borders": [[b.a, b.b] for b in comp.borders],
        "players": players,
        "rows": rows,
        "circles": {r: circles(comp, state.n, r) for r in ROWS},
        "offer": {
            "progress": [
                {"id": t, "name": comp.progress[t].name, "era": comp.progress[t].era} for t in state.offer_progress
            ],
            "territory": [{"id": t, "name": comp.territories[t].name} for t in state.offer_territory],
            "city": [
                {
                    "id": c,
                    "name": comp.cities[c].name,
                    "wonder": comp.cities[c].wonder,
                    "cost": comp.cities[c].cost_gold,
                    "vp": comp.cities[c].vp,
                }
                for c in state.offer_city
            ],
            "empire": comp.empire_names(state.empire_track, state.era),
            "trade": [
                {
                    "action": b.action,
                    "discs": b.discs,
                    "gain": b.gain,
                    "amount": b.amount,
                    "open": state.era in b.eras,
                    "taken_by": state.players[state.trade_used[i]].colour if i in state.trade_used else None,
                }
                for i, b in enumerate(comp.trade)
            ],
        },
        "navigation_taken": state.navigation_taken,
        "tiles_left": {"progress": len(state.progress_deck), "territory": len(state.territory_deck)},
        "scores": game.scores(state),
        "winners": game.winners(state),
    }
    if seat is not None:
        view["seat"] = seat
        view["legal"] = legal(comp, state, top) if top is not None and top.seat == seat else []
    return view
