"""What each player earns in the Food (7.0), Income (8.0) and Victory Points (9.0) phases, item by item.

Every total is the sum of its parts, and the parts are what the log shows
("Mountain -3, Rome -3, Mediterranean +2"), so a player can check each line
against the tiles and the map. The phases themselves (phases.py) apply the
totals; the view forecasts them.
"""

from __future__ import annotations

from dataclasses import dataclass

from .board import controlled, region_income, region_vp, standings
from .data import Components
from .points import CITIES, PROGRESS, REGIONS, TERRITORIES
from .state import Player, State

#: (what earned it, how much): "Mountain", -3
Part = tuple[str, int]

INCOME_GOODS = ("gold", "resources", "cubes")


def _standing(counts: list[int], seat: int, vp: bool) -> str:
    """How `seat` stands in a region, for the label of its share (6.4.2)."""
    controllers, seconds = standings(counts)
    if seat in controllers:
        shared = len(controllers) > 1
        if vp:
            return "shared control" if shared else "control"
        return "shared" if shared else ""
    return "shared second" if len(seconds) > 1 else "second"


def _region_label(comp: Components, region: str, how: str) -> str:
    """`Anatolia control`, `NE Africa shared`: the region and how its share was earned."""
    name = comp.regions[region].name
    return f"{name} {how}" if how else name


def _per_territory(p: Player, comp: Components, kind: str) -> int:
    return sum(1 for x in p.territories if comp.territories[x].kind == kind)


def food_parts(comp: Components, state: State, seat: int) -> list[Part]:
    """7.0: white and red food numbers of tiles, controlled regions and progress tiles (before any doubling)."""
    p = state.players[seat]
    parts: list[Part] = []
    for t in p.territories:
        territory = comp.territories[t]
        if territory.food:
            parts.append((territory.name, territory.food))
    for c in p.cities:
        city = comp.cities[c]
        if city.produces_food or city.upkeep_food:
            parts.append((city.name, city.produces_food - city.upkeep_food))
    for r, counts in state.cubes.items():
        if counts[seat] and comp.regions[r].income == "food":
            share = region_income(comp, r, counts).get(seat, 0)
            if share:
                parts.append((_region_label(comp, r, _standing(counts, seat, vp=False)), share))
    for t in p.progress:
        tile = comp.progress[t]
        if tile.effect == "food_per_turn":
            parts.append((tile.name, tile.amount))
        elif tile.effect == "food_per_territory":
            k = tile.amount * _per_territory(p, comp, tile.territory)
            if k:
                parts.append((tile.name, k))
    return parts


def food_change(comp: Components, state: State, seat: int) -> int:
    """White minus red food numbers for one player (7.0), before the last-turn doubling."""
    return sum(k for _, k in food_parts(comp, state, seat))


@dataclass(frozen=True)
class FoodOutcome:
    """What the Food phase (7.0) does to one player: the food marker's new place, the VP lost for
    food short of 0 (never below 0 VP), the gold taken for food beyond the top of the track."""

    change: int  # the food numbers' total, doubled in the last game turn
    food: int
    short: int
    vp_lost: int
    beyond: int
    gold: int


def food_outcome(comp: Components, state: State, seat: int, food: int | None = None) -> FoodOutcome:
    """7.0 for one player with `food` on the track (their food now when None): "If your food marker
    drops below 0, you lose 1 VP per point"; above the top (20) "you receive 1 gold per 2 food".
    The Food phase applies it; a choice's words quote it (issue 49), so the two cannot differ."""
    p = state.players[seat]
    factor = comp.rules.food_last_turn_factor if state.turn == 6 else 1
    change = food_change(comp, state, seat) * factor
    new = (p.food if food is None else food) + change
    short = max(0, -new)
    beyond = max(0, new - comp.rules.food_max)
    return FoodOutcome(
        change=change,
        food=min(max(new, 0), comp.rules.food_max),
        short=short,
        vp_lost=min(p.vp, short),
        beyond=beyond,
        gold=beyond // 2,
    )


def income_parts(comp: Components, state: State, seat: int) -> dict[str, list[Part]]:
    """8.0: gold, resource discs and cubes by source (tiles, controlled regions, progress tiles)."""
    p = state.players[seat]
    parts: dict[str, list[Part]] = {g: [] for g in INCOME_GOODS}

    def add(good: str, what: str, k: int) -> None:
        if k:
            parts[good].append((what, k))

    for t in p.territories:
        territory = comp.territories[t]
        add("cubes", territory.name, territory.cubes)
        add("gold", territory.name, territory.gold)
        add("resources", territory.name, territory.resources)
    for c in p.cities:
        city = comp.cities[c]
        add("gold", city.name, city.produces_gold)
        add("resources", city.name, city.produces_resources)
    for r, counts in state.cubes.items():
        kind = comp.regions[r].income
        if counts[seat] and kind in parts:
            add(
                kind,
                _region_label(comp, r, _standing(counts, seat, vp=False)),
                region_income(comp, r, counts).get(seat, 0),
            )
    for t in p.progress:
        tile = comp.progress[t]
        if tile.effect == "resources_per_territory":
            add("resources", tile.name, tile.amount * _per_territory(p, comp, tile.territory))
        elif tile.effect == "cubes_per_turn":
            add("cubes", tile.name, tile.amount)
        elif tile.effect == "gold_per_turn":
            add("gold", tile.name, tile.amount)
    return parts


def income_of(comp: Components, state: State, seat: int) -> dict[str, int]:
    """8.0: the gold, resource discs and cubes one player earns this turn."""
    return {g: sum(k for _, k in parts) for g, parts in income_parts(comp, state, seat).items()}


def vp_items(comp: Components, state: State, seat: int) -> list[tuple[str, str, int]]:
    """9.0: VP this turn for cities, towns, progress tiles and regions (control and second place,
    6.4.2), each as (its line in the score breakdown, points.py; what earned it; VP)."""
    p = state.players[seat]
    items: list[tuple[str, str, int]] = []
    for c in p.cities:
        if comp.cities[c].vp:
            items.append((CITIES, comp.cities[c].name, comp.cities[c].vp))
    for t in p.territories:
        if comp.territories[t].vp:
            items.append((TERRITORIES, comp.territories[t].name, comp.territories[t].vp))
    for t in p.progress:
        tile = comp.progress[t]
        if tile.effect == "vp_per_turn":
            k = tile.amount
        elif tile.effect == "vp_per_city":
            k = tile.amount * len(p.cities)
        elif tile.effect == "vp_per_controlled_region":
            k = tile.amount * len(controlled(state, seat))
        else:
            continue
        if k:
            items.append((PROGRESS, tile.name, k))
    for r, counts in state.cubes.items():
        if counts[seat]:
            k = region_vp(comp, r, counts).get(seat, 0)
            if k:
                items.append((REGIONS, _region_label(comp, r, _standing(counts, seat, vp=True)), k))
    return items


def vp_parts(comp: Components, state: State, seat: int) -> list[Part]:
    """9.0: VP this turn for cities, towns, progress tiles and regions, by what earned them."""
    return [(what, k) for _, what, k in vp_items(comp, state, seat)]


def vp_of(comp: Components, state: State, seat: int) -> int:
    """9.0: VP this turn for cities, towns, progress tiles and regions."""
    return sum(k for _, k in vp_parts(comp, state, seat))


def itemise(parts: list[Part], signed: bool = False) -> str:
    """`Mountain -3, 2× Forest -4, Rome -3`: the parts of a total, repeated tiles counted once."""
    grouped: dict[str, list[int]] = {}
    for what, k in parts:
        grouped.setdefault(what, []).append(k)
    items = []
    for what, ks in grouped.items():
        label = what if len(ks) == 1 else f"{len(ks)}× {what}"
        total = sum(ks)
        items.append(f"{label} {total:+d}" if signed else f"{label} {total}")
    return ", ".join(items)
