"""What each tile, trade box and region gives, in a few words a player reads (choices.py, prompts.py).

The words follow the rulebook and the player aid as far as they are known (the
progress tiles' effects are the data's, see RULES-NOTES "Component data"):
"+2 food a turn", "4 gold · 2 VP a turn · upkeep 3 food", "2 regions, water ·
attacker loses 1, defender 1".
"""

from __future__ import annotations

from ..core import essential
from .data import City, Components, EmpireSide, Progress, Region, Territory, TradeBox
from .words import amount

#: How the effects of progress tiles read (player aid): `{n}` the amount, `{kind}` the territory.
EFFECTS = {
    "food_per_turn": "+{n} food a turn",
    "remove_enemy_cubes": "free action: remove {cubes} of another player where you have cubes",
    "resources_per_territory": "+{discs} per {kind} at Income",
    "food_per_territory": "+{n} food per {kind} a turn",
    "vp_per_turn": "+{n} VP a turn",
    "empire_tile_bonus_regions": "+{regions} with every empire tile",
    "unlock_overseas_in_era2_A": "opens the New World and the Far East in Era II A",
    "no_b_turn_position_cost": "B turns: removing a disc never costs anything",
    "alliance": "ally with another player: you may not attack each other",
    "vp_per_controlled_region": "+{n} VP per region you control, a turn",
    "placement_ignore_adjacency": "one region per empire tile may ignore adjacency",
    "vp_per_city": "+{n} VP per city, a turn",
    "cubes_per_turn": "+{cubes} a turn",
    "gold_per_turn": "+{n} gold a turn",
}
ROW_NAMES = {"progress": "Progress", "territory": "Territory", "city": "City", "empire": "Empire", "trade": "Trade"}


def progress_effect(prog: Progress) -> str:
    """`+2 food a turn`, `free action: 1 gold → 1 resource disc, once a turn`."""
    if prog.effect == "exchange":
        return f"free action: {amount(prog.pay_amount, prog.pay)} → {amount(prog.gain_amount, prog.gain)}"
    return EFFECTS[prog.effect].format(
        n=prog.amount,
        kind=prog.territory.capitalize(),
        cubes=amount(prog.amount, "cube"),
        discs=amount(prog.amount, "resource"),
        regions=amount(prog.amount, "region"),
    )


def territory_terms(t: Territory) -> str:
    """6.2: `+3 cubes, -3 food a turn`; a Town `+1 VP, +1 gold a turn`."""
    parts = [f"+{t.vp} VP"] if t.vp else []
    if t.cubes:
        parts.append(f"+{amount(t.cubes, 'cube')}")
    if t.food:
        parts.append(f"{t.food:+d} food")
    if t.gold:
        parts.append(f"+{t.gold} gold")
    if t.resources:
        parts.append(f"+{amount(t.resources, 'resource')}")
    return ", ".join(parts) + " a turn"


def city_terms(city: City) -> list[str]:
    """6.3, as a choice's detail parts: `4 gold`, `2 VP a turn`, `+3 food`, `upkeep 3 food`; a wonder
    `3 gold, 3 discs, 2 cubes`, `8 VP at once`. What it costs, scores and costs each turn decides the
    choice (`essential`, issue 49); what it produces is merely nice when the detail is full."""
    if city.wonder:
        cost = [f"{city.cost_gold} gold"]
        if city.cost_resources:
            cost.append(amount(city.cost_resources, "resource"))
        if city.cost_cubes:
            cost.append(amount(city.cost_cubes, "cube"))
        return [essential(", ".join(cost)), essential(f"{city.vp} VP at once")]
    gives = [
        f"+{city.produces_gold} gold" if city.produces_gold else "",
        f"+{amount(city.produces_resources, 'resource')}" if city.produces_resources else "",
        f"+{city.produces_food} food" if city.produces_food else "",
    ]
    upkeep = [
        f"{city.upkeep_food} food" if city.upkeep_food else "",
        amount(city.upkeep_resources, "resource") if city.upkeep_resources else "",
    ]
    return [
        essential(f"{city.cost_gold} gold" if city.cost_gold else "no gold"),
        essential(f"{city.vp} VP a turn"),
        ", ".join(g for g in gives if g),
        essential("upkeep " + " and ".join(u for u in upkeep if u)) if any(upkeep) else "",
    ]


def battle_terms(rows: list[list[int]]) -> str:
    """6.4.5: `attacker loses 1, defender 1`; two rows: `2 battles: attacker loses 1, defender 2 each`."""
    if len(rows) == 1:
        return f"attacker loses {rows[0][0]}, defender {rows[0][1]}"
    if rows[0] == rows[1]:
        return f"2 battles: attacker loses {rows[0][0]}, defender {rows[0][1]} each"
    return "2 battles: " + "; ".join(f"attacker loses {a}, defender {d}" for a, d in rows)


def empire_terms(side: EmpireSide, era: int, bonus: int = 0) -> str:
    """2.5.4: `2 regions, water · attacker loses 1, defender 1` (the rows usable now: 6.4.5)."""
    regions = amount(side.number + bonus, "region") + (", water" if side.water else "")
    return f"{regions} · {battle_terms([list(r) for r in side.battle_rows[: (2 if era == 3 else 1)]])}"


def trade_label(box: TradeBox) -> str:
    """6.5: `2 discs → 4 gold`."""
    return f"{amount(box.discs, 'disc')} → {amount(box.amount, box.gain)}"


def region_symbol(region: Region) -> str:
    """2.1: the region's banner and symbol: `VP 2/1, +2 cubes`."""
    symbol = {
        "cubes": amount(region.income_amount, "cube"),
        "gold": f"{region.income_amount} gold",
        "resources": amount(region.income_amount, "resource"),
        "food": f"{region.income_amount} food",
    }.get(region.income)
    return f"VP {region.control_vp}/{region.second_vp}" + (f", +{symbol}" if symbol and region.income_amount else "")


def row_name(row: str) -> str:
    return ROW_NAMES[row]


def free_action_terms(comp: Components, tile: str) -> str:
    """What using a free-action tile does (6.1)."""
    return progress_effect(comp.progress[tile]).removeprefix("free action: ")
