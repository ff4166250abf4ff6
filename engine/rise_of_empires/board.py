"""The world map: control of regions (6.4.2), where cubes may go (6.4, 6.4.1, 6.4.3, 6.4.4), battles (6.4.5)."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from .data import Components
from .state import State


def standings(counts: list[int]) -> tuple[list[int], list[int]]:
    """(seats controlling, seats second) for one region's cube counts (6.4.2).

    Control is strictly more cubes than any other single player; several seats
    tied for most share control and then nobody is second.
    """
    top = max(counts) if counts else 0
    if top <= 0:
        return [], []
    controllers = [s for s, c in enumerate(counts) if c == top]
    if len(controllers) > 1:
        return controllers, []
    rest = [c for c in counts if 0 < c < top]
    if not rest:
        return controllers, []
    second = max(rest)
    return controllers, [s for s, c in enumerate(counts) if c == second]


def region_vp(comp: Components, region: str, counts: list[int]) -> dict[int, int]:
    """Banner VP per seat for one region (6.4.2, 9.0), fractions dropped."""
    reg = comp.regions[region]
    controllers, seconds = standings(counts)
    out: dict[int, int] = {}
    if len(controllers) > 1:
        share = (reg.control_vp + reg.second_vp) // len(controllers)
        for s in controllers:
            out[s] = share
    elif controllers:
        out[controllers[0]] = reg.control_vp
        if seconds:
            share = reg.second_vp // len(seconds)
            for s in seconds:
                out[s] = share
    return out


def region_income(comp: Components, region: str, counts: list[int]) -> dict[int, int]:
    """The region symbol's benefit per controlling seat, shared on a tie, rounded down (6.4.2)."""
    reg = comp.regions[region]
    if reg.income == "none" or reg.income_amount <= 0:
        return {}
    controllers, _ = standings(counts)
    if not controllers:
        return {}
    share = reg.income_amount // len(controllers)
    return {s: share for s in controllers}


def controlled(state: State, seat: int) -> list[str]:
    """Regions `seat` controls alone or jointly."""
    out = []
    for r, counts in state.cubes.items():
        c = counts[seat]
        if c > 0 and c == max(counts):
            out.append(r)
    return out


def occupied(state: State, seat: int) -> list[str]:
    return [r for r, counts in state.cubes.items() if counts[seat] > 0]


def allied(state: State, a: int, b: int) -> bool:
    """Diplomacy (2.9, RULES-NOTES): an alliance piece binds its owner and the marked player both ways."""
    return state.players[a].ally == b or state.players[b].ally == a


def start_placement(comp: Components, state: State, seat: int, side_id: str, bonus: int, merc: bool) -> dict[str, Any]:
    """The data of a fresh 'place' decision for an empire tile (6.4)."""
    side = comp.empire_sides[side_id]
    anchors = occupied(state, seat)
    old = any(comp.regions[r].area == "old_world" for r in anchors)
    overseas = any(comp.regions[r].area != "old_world" for r in anchors)
    return {
        "tile": side_id,
        "limit": side.number + bonus,
        "water": side.water,
        "used": [],
        "anchors": anchors,
        "area": "",
        "reentry": bool(side.water and overseas and not old),
        "merc": merc,
    }


def target_kind(comp: Components, state: State, d: Mapping[str, Any], region: str) -> str | None:
    """Why `region` may take cubes in this placement, or None (6.4, 6.4.1, 6.4.3, 6.4.4).

    "used": already placed in this play; "adjacent": in or next to a region held
    before the play (for a new empire: next to its first Old World region);
    "first": the first Old World region of a new empire; "water": the one
    overseas area a water tile opens; "reentry": the Old World region a player
    with only overseas cubes may enter (6.4.4); "merc": Mercenaries.

    The overseas area a water tile opens comes "in addition to" the Old World
    regions (6.4.4) and never anchors them, so a new empire's regions are legal
    in any order: North America then SW Europe as well as SW Europe then North
    America.
    """
    reg = comp.regions[region]
    if reg.era > state.era:
        return None
    used = d["used"]
    if region in used:
        return "used"
    if len(used) >= d["limit"]:
        return None
    if reg.sea and not d["water"]:
        return None
    overseas = reg.area != "old_world"
    if overseas and state.era == 2 and state.half == "A" and not state.navigation_taken:
        return None
    anchors = d["anchors"]
    if anchors and (region in anchors or not comp.adjacent[region].isdisjoint(anchors)):
        return "adjacent"
    if overseas:
        if d["water"] and d["area"] in ("", reg.area):
            return "water"
        return None
    if not anchors:
        return "first"
    if d["reentry"]:
        return "reentry"
    if d["merc"]:
        return "merc"
    return None


def place_targets(comp: Components, state: State, d: Mapping[str, Any]) -> list[str]:
    return [r for r in comp.regions if target_kind(comp, state, d, r)]


def battle_targets(comp: Components, state: State, seat: int, exclude: Collection[str] = ()) -> list[tuple[str, int]]:
    """(region, defender) pairs: a region holding your cubes and another (non-allied) player's (6.4.5)."""
    out = []
    for r in comp.regions:
        if r in exclude:
            continue
        counts = state.cubes[r]
        if counts[seat] <= 0:
            continue
        for s, c in enumerate(counts):
            if s != seat and c > 0 and not allied(state, seat, s):
                out.append((r, s))
    return out


def remove_cubes(state: State, region: str, seat: int, count: int) -> int:
    """Take up to `count` of `seat`'s cubes from `region` to its general stock; surplus ignored (6.4.5)."""
    have = state.cubes[region][seat]
    k = min(have, count)
    state.cubes[region][seat] = have - k
    state.players[seat].stock += k
    return k
