"""The public picture of a game (law 5). Everything in Rise of Empires is open information
(6.0: "keep all of your tiles fully visible"), except the order of the face-down stacks,
which no view shows. A seat's view adds only which seat it is and its legal actions.
"""

from __future__ import annotations

from typing import Any, Protocol

from .actions import legal
from .board import standings
from .data import Components
from .phases import circles
from .prompts import DOING, public
from .scoring import food_change, income_of
from .state import EMPTY, ROWS, State

ERA_NAMES = {1: "I", 2: "II", 3: "III"}


class Results(Protocol):
    """What the view asks of the game object (game.py, which imports this module): the contract's results."""

    def scores(self, state: State) -> list[int]: ...
    def winners(self, state: State) -> list[int]: ...


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
        "prompt": public(comp, state),  # who decides what (the deciding seat's own words: game.prompt)
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
