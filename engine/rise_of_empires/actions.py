"""Player decisions: what may be chosen now (legal) and what a choice does (resolve).

Every compound move of the rulebook is a sequence of small decisions on the
state's DecisionStack (law 2): an action turn (6.0) is `action` -> the row's
own steps (`place`, `battle`, `ally`, `pay`, `b-row`) -> `after` (free actions
after the regular action, 6.1). Names come from the rulebook's words:
`take progress navigation`, `place 2 mediterranean`, `battle mediterranean red`,
`pay gold`, `done`.
"""
from __future__ import annotations

from typing import Any

from ..core import Decision
from .board import battle_targets, occupied, place_targets, remove_cubes, start_placement, target_kind
from .data import Components, EmpireSide
from .phases import bank_resources
from .state import EMPTY, ROWS, State
from .words import amount, holding, listing, who

PAYMENTS = ("gold", "cube", "resource", "food", "vp")


def empire_name(side: EmpireSide) -> str:
    """`2 water 1-1`: number, water, then each battle row as attacker-defender (2.5.4)."""
    parts = [str(side.number)] + (["water"] if side.water else []) + [f"{a}-{d}" for a, d in side.battle_rows]
    return " ".join(parts)


def empire_terms(side: EmpireSide, era: int) -> str:
    """What the tile's numbers mean, for event lines: `3 regions, water; battle: attacker loses 1, defender 1`.

    Only the rows usable now are named: a second battle row counts in Era III alone (6.4.5).
    """
    regions = f"{side.number} region{'s' if side.number != 1 else ''}" + (", water" if side.water else "")
    rows = side.battle_rows[: (2 if era == 3 else 1)]
    battles = "; ".join(f"attacker loses {a}, defender {d}" for a, d in rows)
    return f"{regions}; " + ("battles" if len(rows) > 1 else "battle") + f": {battles}"


def has(state: State, seat: int, good: str) -> int:
    p = state.players[seat]
    return {"gold": p.gold, "resources": p.resources, "resource": p.resources, "food": p.food,
            "cubes": p.pool, "cube": p.pool, "vp": p.vp}[good]


def gain(state: State, seat: int, good: str, k: int) -> None:
    p = state.players[seat]
    if good == "gold":
        p.gold += k
    elif good in ("resources", "resource"):
        p.resources += k
    elif good == "food":
        p.food += k
    elif good in ("cubes", "cube"):
        p.pool += k
        p.stock -= k
    elif good == "vp":
        p.vp += k


def surcharge(comp: Components, state: State, tile: str) -> int:
    """6.1: 1 gold for a previous-era progress tile, 2 for an Era I tile in Era III."""
    back = state.era - comp.progress[tile].era
    return comp.rules.progress_surcharge[back] if back > 0 else 0


def bonus_regions(comp: Components, state: State, seat: int) -> int:
    return sum(comp.progress[t].amount for t in state.players[seat].progress
               if comp.progress[t].effect == "empire_tile_bonus_regions")


def holds_effect(comp: Components, state: State, seat: int, effect: str) -> bool:
    return any(comp.progress[t].effect == effect for t in state.players[seat].progress)


# ---- what may be chosen ------------------------------------------------------------------

def row_actions(comp: Components, state: State, seat: int, row: str) -> list[str]:
    """The performable actions of one row (6.0: only an action you can carry out)."""
    p = state.players[seat]
    out: list[str] = []
    if row == "progress":
        for t in sorted(set(state.offer_progress)):
            if t not in p.progress and p.gold >= surcharge(comp, state, t):
                out.append(f"take progress {t}")
    elif row == "territory":
        out = [f"take territory {t}" for t in sorted(set(state.offer_territory))]
    elif row == "city":
        for c in state.offer_city:
            city = comp.cities[c]
            if p.gold >= city.cost_gold and p.resources >= city.cost_resources and p.pool >= city.cost_cubes:
                out.append(f"take city {c}")
    elif row == "empire":
        # Mayfair FAQ: cubes are limited; with none in the pool and none on the map (nothing to
        # place, withdraw or fight with) an empire tile cannot be performed (6.0).
        if p.pool <= 0 and not occupied(state, seat):
            return out
        seen = []
        for t in state.empire_track:
            name = empire_name(comp.empire(t, state.era))
            if name not in seen:
                seen.append(name)
        out = [f"take empire {n}" for n in sorted(seen)]
    elif row == "trade":
        for i, box in enumerate(comp.trade):
            if state.era in box.eras and i not in state.trade_used and p.resources >= box.discs:
                out.append(box.action)
    return out


def usable(comp: Components, state: State, seat: int, tile: str) -> bool:
    """6.1: a free-action tile, face up, and every other player has acted since it was taken."""
    p = state.players[seat]
    prog = comp.progress[tile]
    if not prog.free_action or tile in p.used:
        return False
    snap = p.fresh.get(tile)
    if snap and any(state.players[s].actions_total <= snap[s] for s in range(state.n) if s != seat):
        return False
    if prog.effect == "exchange":
        # 2.6: resource discs come from the bank's 40; an empty bank has none to give.
        if prog.gain in ("resources", "resource") and bank_resources(comp, state) < prog.gain_amount:
            return False
        return has(state, seat, prog.pay) >= prog.pay_amount
    if prog.effect == "remove_enemy_cubes":
        return bool(battle_targets(comp, state, seat))
    return False


def free_uses(comp: Components, state: State, seat: int) -> list[str]:
    return [f"use {t}" for t in state.players[seat].progress if usable(comp, state, seat, t)]


def own_discs(state: State, seat: int) -> list[str]:
    return [f"remove {row} {i + 1}" for row in ROWS for i, s in enumerate(state.rows[row]) if s == seat]


def a_turn_actions(comp: Components, state: State, seat: int) -> list[str]:
    out: list[str] = []
    for row in ROWS:
        if EMPTY in state.rows[row]:
            out += row_actions(comp, state, seat, row)
    return out


def place_counts(pool: int) -> list[int]:
    """Cube counts offered per placement step: 1-3 and the whole pool (more can follow in the same region)."""
    counts = [k for k in (1, 2, 3) if k <= pool]
    if pool > 3:
        counts.append(pool)
    return counts


def legal(comp: Components, state: State, d: Decision) -> list[str]:
    seat, kind, data = d.seat, d.kind, d.data
    if kind == "action":
        if state.half == "A":
            # Mayfair FAQ: a player who truly cannot perform any action places the disc without acting.
            acts = (a_turn_actions(comp, state, seat)
                    or [f"pass {row}" for row in ROWS if EMPTY in state.rows[row]] or ["pass"])
        else:
            acts = own_discs(state, seat)
        return acts + free_uses(comp, state, seat)
    if kind == "after":
        return free_uses(comp, state, seat) + ["done"]
    if kind == "pay":
        return [f"pay {g}" for g in PAYMENTS if has(state, seat, g) > 0]
    if kind == "b-row":
        return row_actions(comp, state, seat, data["row"]) + ["done"]
    if kind == "place":
        pool = state.players[seat].pool
        out = []
        if pool > 0:
            counts = place_counts(pool)
            targets = place_targets(comp, state, data)
            if len(targets) * len(counts) > 56 and 3 in counts and pool > 3:
                counts.remove(3)  # law 2: keep the list under 60 (3 = 2 + 1 in the same region)
            for r in targets:
                out += [f"place {k} {r}" for k in counts]
        if data["placed"] == 0 and data["anchors"] and occupied(state, seat):
            out.append("withdraw")
        return out + ["done"]
    if kind == "battle":
        rows = data["rows"]
        suffix = len(rows) > 1 and rows[0] != rows[1]
        out = []
        for r, s in battle_targets(comp, state, seat, data["fought"]):
            colour = state.players[s].colour
            if suffix:
                out += [f"battle {r} {colour} row {i + 1}" for i in range(len(rows))]
            else:
                out.append(f"battle {r} {colour}")
        return out + ["done"] if out else []
    if kind == "weapon":
        return [f"remove {r} {state.players[s].colour}" for r, s in battle_targets(comp, state, seat)]
    if kind == "ally":
        return [f"ally {p.colour}" for i, p in enumerate(state.players) if i != seat]
    if kind == "food-upkeep":
        cities = sorted({c for c in state.players[seat].cities if comp.cities[c].upkeep_food > 0})
        return ["keep cities"] + [f"discard {c}" for c in cities] if cities else []
    if kind == "resource-upkeep":
        p = state.players[seat]
        cities = sorted({c for c in p.cities if comp.cities[c].upkeep_resources > 0})
        if not cities:
            return []
        need = sum(comp.cities[c].upkeep_resources for c in p.cities)
        return (["pay upkeep"] if p.resources >= need else []) + [f"discard {c}" for c in cities]
    if kind == "era-end":
        p = state.players[seat]
        out = []
        if p.gold >= comp.rules.keep_progress_gold:
            out += [f"keep progress {t}" for t in data["progress"]]
        if p.pool >= comp.rules.keep_city_cubes:
            out += [f"keep city {c}" for c in sorted(set(data["cities"]))]
        return out + ["done"] if out else []
    if kind == "order":
        free = [i + 1 for i, s in enumerate(state.new_order) if s < 0]
        return [f"choose position {k}" for k in free] if len(free) > 1 else []
    return []


# ---- what a choice does ------------------------------------------------------------------

def use_tile(comp: Components, state: State, seat: int, tile: str) -> list[str]:
    """A free action (6.1): flip the tile face down and carry out its effect."""
    p = state.players[seat]
    prog = comp.progress[tile]
    p.used.append(tile)
    p.fresh.pop(tile, None)
    if prog.effect == "exchange":
        gain(state, seat, prog.pay, -prog.pay_amount)
        gain(state, seat, prog.gain, prog.gain_amount)
        return [f"{who(state, seat)} uses {prog.name} (flipped face down): pays {amount(prog.pay_amount, prog.pay)}, "
                f"gains {amount(prog.gain_amount, prog.gain)}."]
    state.stack.push("weapon", seat, tile=tile, count=prog.amount)
    return [f"{who(state, seat)} uses {prog.name} (flipped face down) to remove {amount(prog.amount, 'cube')} "
            f"of another player in a region where both have cubes (6.1)."]


def perform(comp: Components, state: State, seat: int, action: str) -> list[str]:
    """Carry out a row action (6.1-6.5); sub-decisions are pushed onto the stack."""
    p = state.players[seat]
    words = action.split(" ")
    if words[0] == "trade":
        i = comp.trade_by_action[action]
        box = comp.trade[i]
        p.resources -= box.discs
        state.trade_used[i] = seat
        gain(state, seat, box.gain, box.amount)
        return [f"{who(state, seat)} trades {amount(box.discs, 'resource')} for {amount(box.amount, box.gain)}."]
    row, ident = words[1], " ".join(words[2:])
    if row == "progress":
        cost = surcharge(comp, state, ident)
        p.gold -= cost
        state.offer_progress.remove(ident)
        p.progress.append(ident)
        p.fresh[ident] = [q.actions_total for q in state.players]
        prog = comp.progress[ident]
        if prog.effect == "unlock_overseas_in_era2_A":
            state.navigation_taken = True
        if prog.effect == "alliance":
            state.stack.push("ally", seat)
        extra = f" for {cost} gold" if cost else ""
        return [f"{who(state, seat)} takes the progress tile {prog.name}{extra}."]
    if row == "territory":
        state.offer_territory.remove(ident)
        p.territories.append(ident)
        name = comp.territories[ident].name
        return [f"{who(state, seat)} takes {'an' if name[0] in 'AEIOU' else 'a'} {name} territory tile."]
    if row == "city":
        city = comp.cities[ident]
        state.offer_city.remove(ident)
        p.gold -= city.cost_gold
        if city.wonder:
            p.resources -= city.cost_resources
            p.pool -= city.cost_cubes
            p.stock += city.cost_cubes
            p.vp += city.vp
            return [f"{who(state, seat)} builds the wonder {city.name} and scores {city.vp} VP at once."]
        p.cities.append(ident)
        return [f"{who(state, seat)} takes the city {city.name} for {city.cost_gold} gold."]
    if row == "empire":
        tile = next(t for t in state.empire_track if empire_name(comp.empire(t, state.era)) == ident)
        state.empire_track.remove(tile)
        p.empires.append(tile)
        side = comp.empire(tile, state.era)
        merc = holds_effect(comp, state, seat, "placement_ignore_adjacency")
        state.stack.push("place", seat, **start_placement(comp, state, seat, side.id, bonus_regions(comp, state, seat), merc))
        return [f"{who(state, seat)} takes the empire tile {ident} ({empire_terms(side, state.era)})."]
    raise ValueError(action)


def b_cost(comp: Components, state: State, seat: int, row: str, index: int) -> int:
    """6.0: one payment per disc to the left of the removed one; Printing waives it."""
    if holds_effect(comp, state, seat, "no_b_turn_position_cost"):
        return 0
    left = sum(1 for s in state.rows[row][index + 1:] if s != EMPTY)
    p = state.players[seat]
    return min(left, p.gold + p.pool + p.resources + p.food + p.vp)


def resolve(comp: Components, state: State, d: Decision, action: str) -> list[str]:
    seat, kind, data = d.seat, d.kind, d.data
    p = state.players[seat]
    words = action.split(" ")
    stack = state.stack
    if words[0] == "use":
        return use_tile(comp, state, seat, words[1])
    if kind == "action":
        stack.pop()
        if words[0] == "pass":
            if len(words) == 1:
                return [f"{who(state, seat)} cannot perform any action and passes."]
            cells = state.rows[words[1]]
            cells[cells.index(EMPTY)] = seat
            return [f"{who(state, seat)} cannot perform any action and places a disc in the {words[1]} row "
                    f"without acting."]
        stack.push("after", seat)
        if words[0] == "remove":
            row, index = words[1], int(words[2]) - 1
            cost = b_cost(comp, state, seat, row, index)
            left = sum(1 for s in state.rows[row][index + 1:] if s != EMPTY)
            state.rows[row][index] = EMPTY
            stack.push("b-row", seat, row=row)
            if cost:
                stack.push("pay", seat, remaining=cost)
            return [f"{who(state, seat)} removes a disc from the {row} row" + (f" and must pay {cost}, one per disc to its left (6.0)" + ("" if cost == left else
                     f"; {left} discs are to its left, but it holds only {cost} to pay with") + "." if cost else ".")]
        row = "trade" if words[0] == "trade" else words[1]
        cells = state.rows[row]
        cells[cells.index(EMPTY)] = seat
        return perform(comp, state, seat, action)
    if kind == "after":
        stack.pop()
        return []
    if kind == "pay":
        good = words[1]
        gain(state, seat, good, -1)
        data["remaining"] -= 1
        if data["remaining"] <= 0:
            stack.pop()
        left = f"; {data['remaining']} still to pay" if data["remaining"] > 0 else ""
        return [f"{who(state, seat)} pays {amount(1, good)}{left}."]
    if kind == "b-row":
        stack.pop()
        if action == "done":
            return [f"{who(state, seat)} does nothing with the disc."]
        return perform(comp, state, seat, action)
    if kind == "place":
        if action == "done":
            stack.pop()
            side = comp.empire_sides[data["tile"]]
            rows = [list(r) for r in side.battle_rows[: (2 if state.era == 3 else 1)]]
            stack.push("battle", seat, rows=rows, fought=[])
            return []
        if action == "withdraw":
            back = 0
            for counts in state.cubes.values():
                back += counts[seat]
                counts[seat] = 0
            p.pool += back
            data["anchors"] = []
            data["reentry"] = False
            return [f"{who(state, seat)} withdraws all {amount(back, 'cube')} from the map to start a new empire."]
        k, region = int(words[1]), words[2]
        why = target_kind(comp, state, data, region)
        reg = comp.regions[region]
        if why == "first":
            data["anchors"] = [region]
            data["founded"] = region  # a new empire grows from this region (explain.py names it)
        elif why == "water":
            data["area"] = reg.area
        elif why == "reentry":
            data["reentry"] = False
        elif why == "merc":
            data["merc"] = False
        if region not in data["used"]:
            data["used"].append(region)
        state.cubes[region][seat] += k
        p.pool -= k
        data["placed"] += k
        return [f"{who(state, seat)} places {amount(k, 'cube')} in {reg.name} (now {holding(state, region)})."]
    if kind == "battle":
        if action == "done":
            stack.pop()
            return []
        region = words[1]
        defender = next(i for i, q in enumerate(state.players) if q.colour == words[2])
        row_i = int(words[4]) - 1 if len(words) > 3 else 0
        att, dfn = data["rows"].pop(row_i)
        lost_d = remove_cubes(state, region, defender, dfn)
        lost_a = remove_cubes(state, region, seat, att)
        data["fought"].append(region)
        if not data["rows"]:
            stack.pop()
        name = comp.regions[region].name
        return [f"{who(state, seat)} attacks {who(state, defender)} in {name}: {state.players[defender].colour} "
                f"loses {amount(lost_d, 'cube')}, {p.colour} loses {amount(lost_a, 'cube')} (now {holding(state, region)})."]
    if kind == "weapon":
        stack.pop()
        region = words[1]
        defender = next(i for i, q in enumerate(state.players) if q.colour == words[2])
        lost = remove_cubes(state, region, defender, data["count"])
        return [f"{who(state, seat)} removes {amount(lost, 'cube')} of {who(state, defender)} in {comp.regions[region].name} "
                f"(now {holding(state, region)})."]
    if kind == "ally":
        stack.pop()
        other = next(i for i, q in enumerate(state.players) if q.colour == words[1])
        p.ally = other
        return [f"{who(state, seat)} places the alliance piece with {who(state, other)}."]
    if kind in ("food-upkeep", "resource-upkeep"):
        if words[0] == "discard":
            p.cities.remove(words[1])
            return [f"{who(state, seat)} discards the city {comp.cities[words[1]].name} rather than pay its upkeep."]
        stack.pop()
        if action == "pay upkeep":
            need = sum(comp.cities[c].upkeep_resources for c in p.cities)
            p.resources -= need
            return [f"{who(state, seat)} pays {amount(need, 'resource')} of city upkeep."]
        return []
    if kind == "era-end":
        if action == "done":
            stack.pop()
            return discard_unkept(comp, state, seat, data)
        if words[1] == "progress":
            p.gold -= comp.rules.keep_progress_gold
            data["progress"].remove(words[2])
            return [f"{who(state, seat)} keeps {comp.progress[words[2]].name} for 1 gold."]
        p.pool -= comp.rules.keep_city_cubes
        p.stock += comp.rules.keep_city_cubes
        data["cities"].remove(words[2])
        return [f"{who(state, seat)} keeps the city {comp.cities[words[2]].name} for 1 cube."]
    if kind == "order":
        position = int(words[2])
        state.new_order[position - 1] = seat
        stack.pop()
        return [f"{who(state, seat)} chooses position {position} of the turn order."]
    raise ValueError(f"{kind}: {action}")


def discard_unkept(comp: Components, state: State, seat: int, data: dict[str, Any]) -> list[str]:
    """11.0: tiles not paid for go back to the box."""
    p = state.players[seat]
    for t in data["progress"]:
        p.progress.remove(t)
        p.fresh.pop(t, None)
        if comp.progress[t].effect == "alliance":
            p.ally = -1
    for c in data["cities"]:
        p.cities.remove(c)
    names = [comp.progress[t].name for t in data["progress"]] + [f"the city {comp.cities[c].name}" for c in data["cities"]]
    data["progress"], data["cities"] = [], []
    return [f"{who(state, seat)} returns {listing(names)} to the box (11.0)."] if names else []
