"""Player decisions: what may be chosen now (legal), what the rules decide alone (automatic),
and what a choice does (resolve).

Every compound move of the rulebook is a sequence of small decisions on the
state's DecisionStack (law 2): an action turn (6.0) is `action` -> the row's
own steps (`pay`, `b-row`, `place`, `battle`, `ally`) -> `after`. Free actions
(6.1, `use <tile>`, "before or after performing your regular action") are
offered alongside each step of the player's turn and, when one is usable once
the action is done, in the `after` step. Names come from the rulebook's words:
`take progress navigation`, `place 2 mediterranean`, `battle mediterranean red`,
`pay 2 gold 1 food`, `done`.

A step plays itself only when its seat has exactly one legal action (law 2):
`automatic` below names the steps the engine plays alone, each of which then
offers nothing but `done`; the service plays any other step with one action.
"""

from __future__ import annotations

from typing import Any

from ..core import Decision, listing
from .board import battle_targets, place_targets, remove_cubes, start_placement, target_kind
from .data import Components
from .describe import empire_terms
from .display import (
    a_turn_actions,
    b_cost,
    b_turn_actions,
    cheapest_disc,
    discs_left,
    holds_effect,
    offered,
    requirement,
    row_actions,
    row_of,
    surcharge,
)
from .pay_step import pay_picks
from .payment import GOODS, read_pay
from .phases import bank_resources
from .points import PAID_FOR_DISCS, PROGRESS, TRADING, WONDERS, gain_vp
from .scoring import itemise
from .state import EMPTY, ROWS, State, without
from .words import amount, holding, who

#: The steps of a player's own action turn, where free actions are offered alongside (6.1, RULES-NOTES).
TURN_STEPS = ("action", "b-row", "empire-tile", "place", "battle", "ally")


def has(state: State, seat: int, good: str) -> int:
    p = state.players[seat]
    return {
        "gold": p.gold,
        "resources": p.resources,
        "resource": p.resources,
        "food": p.food,
        "cubes": p.pool,
        "cube": p.pool,
        "vp": p.vp,
    }[good]


def gain(state: State, seat: int, good: str, k: int, source: str) -> None:
    """`seat` gains `k` of `good` (loses, when negative); VP go to the breakdown's line `source` (points.py)."""
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
        gain_vp(p, source, k)


def bonus_regions(comp: Components, state: State, seat: int) -> int:
    return sum(
        comp.progress[t].amount
        for t in state.players[seat].progress
        if comp.progress[t].effect == "empire_tile_bonus_regions"
    )


# ---- what may be chosen ------------------------------------------------------------------


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
    free = comp.free_action_tiles
    return [f"use {t}" for t in state.players[seat].progress if t in free and usable(comp, state, seat, t)]


def place_counts(pool: int) -> list[int]:
    """Cube counts offered per placement step: 1-3 and the whole pool (more can follow in the same region)."""
    counts = [k for k in (1, 2, 3) if k <= pool]
    if pool > 3:
        counts.append(pool)
    return counts


#: Every list of choices stays shorter than this (law 2: fit for a menu).
LIST_LIMIT = 60


def tile_battle_rows(comp: Components, state: State, side_id: str) -> list[list[int]]:
    """6.4.5: the tile's battle rows usable now; a second row only in Era III."""
    return [list(r) for r in comp.empire_sides[side_id].battle_rows[: (2 if state.era == 3 else 1)]]


def battle_options(comp: Components, state: State, seat: int, rows: list[list[int]], fought: list[str]) -> list[str]:
    """`battle <region> <colour>` for each region holding your cubes and another player's (6.4.5),
    with `row <k>` when the two rows of an Era III tile differ."""
    suffix = len(rows) > 1 and rows[0] != rows[1]
    out = []
    for r, s in battle_targets(comp, state, seat, fought):
        colour = state.players[s].colour
        if suffix:
            out += [f"battle {r} {colour} row {i + 1}" for i in range(len(rows))]
        else:
            out.append(f"battle {r} {colour}")
    return out


def step_options(comp: Components, state: State, d: Decision) -> list[str]:
    """The choices of one step, free actions aside."""
    seat, kind, data = d.seat, d.kind, d.data
    if kind == "action":
        if state.half == "B":
            return b_turn_actions(comp, state, seat)
        # Mayfair FAQ: a player who truly cannot perform any action places the disc without acting.
        return (
            a_turn_actions(comp, state, seat) or [f"pass {row}" for row in ROWS if EMPTY in state.rows[row]] or ["pass"]
        )
    if kind == "pay":
        return [pick.action for pick in pay_picks(comp, state, d)]
    if kind == "b-row":
        return row_actions(comp, state, seat, data["row"]) + ["done"]
    if kind == "after":
        return ["done"]
    if kind == "empire-tile":
        return [a for a in offered(comp, state, seat, "empire") if a != "withdraw"]
    if kind == "place":
        # 6.4.5: battles come "after ... placing any cubes": a battle ends the placement, `done` the action.
        battles = battle_options(comp, state, seat, tile_battle_rows(comp, state, data["tile"]), [])
        pool = state.players[seat].pool
        out = []
        if pool > 0:
            counts = place_counts(pool)
            targets = place_targets(comp, state, data)
            room = LIST_LIMIT - len(battles) - 1 - len(free_uses(comp, state, seat))
            for k in (3, 2):
                # law 2: keep the list under 60 (a left-out count is reached by placing again in the region)
                if len(targets) * len(counts) < room:
                    break
                if k in counts and pool > k:
                    counts.remove(k)
            for r in targets:
                out += [f"place {k} {r}" for k in counts]
        return out + battles + ["done"]
    if kind == "battle":
        out = battle_options(comp, state, seat, data["rows"], data["fought"])
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
        return (["pay upkeep"] if p.resources >= disc_upkeep(comp, state, seat) else []) + [
            f"discard {c}" for c in cities
        ]
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


def legal(comp: Components, state: State, d: Decision) -> list[str]:
    """A step's choices, with the free actions usable now alongside when it is a step of the player's
    own turn that asks something (6.1: "in addition to your regular action when it is your turn"),
    and in the `after` step once the action is done (6.1: "before or after")."""
    options = step_options(comp, state, d)
    if d.kind == "after" or (d.kind in TURN_STEPS and options and options != ["done"]):
        options += free_uses(comp, state, d.seat)
    return options


def disc_upkeep(comp: Components, state: State, seat: int) -> int:
    """8.0: the resource discs the player's cities cost this turn."""
    return sum(comp.cities[c].upkeep_resources for c in state.players[seat].cities)


def automatic(comp: Components, state: State, d: Decision) -> str | None:
    """`done` for a step whose one legal action it is (law 2: a step plays itself only then):

    - placing with no cube to place and no battle to fight (6.4, 6.4.5);
    - a removed disc's row with nothing performable (6.0: "remove an action disc but then do nothing");
    - the `after` step with no free action usable once the action is done (6.1).
    Every other step is asked, however one-sided it looks (upkeep is paid or a city discarded by
    choice, 6.3); the service plays a step with one legal action at once (bot/DECISIONS.md).
    """
    kind, seat = d.kind, d.seat
    if kind == "place":
        placeable = state.players[seat].pool > 0 and any(target_kind(comp, state, d.data, r) for r in comp.regions)
        return None if placeable or battle_targets(comp, state, seat) else "done"
    if kind == "b-row":
        return None if row_actions(comp, state, seat, d.data["row"]) else "done"
    if kind == "after":
        return None if free_uses(comp, state, seat) else "done"
    return None


# ---- what a choice does ------------------------------------------------------------------


def use_tile(comp: Components, state: State, seat: int, tile: str) -> list[str]:
    """A free action (6.1): flip the tile face down and carry out its effect."""
    p = state.players[seat]
    prog = comp.progress[tile]
    p.used = (*p.used, tile)
    p.fresh = {t: snap for t, snap in p.fresh.items() if t != tile}
    if prog.effect == "exchange":
        gain(state, seat, prog.pay, -prog.pay_amount, PROGRESS)
        gain(state, seat, prog.gain, prog.gain_amount, PROGRESS)
        return [
            f"{who(state, seat)} uses {prog.name} (flipped face down): pays {amount(prog.pay_amount, prog.pay)}, "
            f"gains {amount(prog.gain_amount, prog.gain)}."
        ]
    state.stack.push("weapon", seat, tile=tile, count=prog.amount)
    return [
        f"{who(state, seat)} uses {prog.name} (flipped face down) to remove {amount(prog.amount, 'cube')} "
        f"of another player in a region where both have cubes (6.1)."
    ]


def perform(comp: Components, state: State, seat: int, action: str) -> list[str]:
    """Carry out a row action (6.1-6.5); sub-decisions are pushed onto the stack."""
    p = state.players[seat]
    words = action.split(" ")
    if words[0] == "withdraw":
        back = 0
        for counts in state.cubes.values():
            back += counts[seat]
            counts[seat] = 0
        p.pool += back
        state.stack.push("empire-tile", seat)
        return [
            f"{who(state, seat)} withdraws all {amount(back, 'cube')} from the map to start a new empire "
            f"with an empire tile (6.4)."
        ]
    if words[0] == "trade":
        i = comp.trade_by_action[action]
        box = comp.trade[i]
        p.resources -= box.discs
        state.trade_used[i] = seat
        gain(state, seat, box.gain, box.amount, TRADING)
        return [f"{who(state, seat)} trades {amount(box.discs, 'resource')} for {amount(box.amount, box.gain)}."]
    row, ident = words[1], " ".join(words[2:])
    if row == "progress":
        cost = surcharge(comp, state, ident)
        p.gold -= cost
        state.offer_progress.remove(ident)
        p.progress = (*p.progress, ident)
        p.fresh = {**p.fresh, ident: tuple(q.actions_total for q in state.players)}
        prog = comp.progress[ident]
        if prog.effect == "unlock_overseas_in_era2_A":
            state.navigation_taken = True
        if prog.effect == "alliance":
            state.stack.push("ally", seat)
        extra = f" for {cost} gold" if cost else ""
        return [f"{who(state, seat)} takes the progress tile {prog.name}{extra}."]
    if row == "territory":
        state.offer_territory.remove(ident)
        p.territories = (*p.territories, ident)
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
            gain_vp(p, WONDERS, city.vp)
            return [f"{who(state, seat)} builds the wonder {city.name} and scores {city.vp} VP at once."]
        p.cities = (*p.cities, ident)
        return [f"{who(state, seat)} takes the city {city.name} for {city.cost_gold} gold."]
    if row == "empire":
        tile = next(t for t in state.empire_track if comp.empire(t, state.era).name == ident)
        state.empire_track.remove(tile)
        p.empires = (*p.empires, tile)
        side = comp.empire(tile, state.era)
        merc = holds_effect(comp, state, seat, "placement_ignore_adjacency")
        state.stack.push(
            "place", seat, **start_placement(comp, state, seat, side.id, bonus_regions(comp, state, seat), merc)
        )
        return [f"{who(state, seat)} takes the empire tile {ident} ({empire_terms(side, state.era)})."]
    raise ValueError(action)


def remove_disc(
    comp: Components, state: State, seat: int, row: str, index: int, then: str, idle: bool = False
) -> list[str]:
    """6.0 B turn: take the disc off the display; what it costs is paid next (one `pay` choice),
    then `then` (the row action chosen with it) is performed, or the b-row step asks what to do,
    or (`idle`) the disc does nothing: "you may remove an action disc but then do nothing"."""
    cost = b_cost(comp, state, seat, row, index)
    left = discs_left(state, row, index)
    state.rows[row][index] = EMPTY
    line = f"{who(state, seat)} removes a disc from the {row} row" + (" without taking its action" if idle else "")
    if cost:
        reserve = list(requirement(comp, state, seat, then)) if then else [0] * len(GOODS)
        state.stack.push("pay", seat, cost=cost, reserve=reserve, then=then, paid=[0] * len(GOODS))
        line += f" and must pay {cost}, one per disc to its left (6.0)"
        if cost < left:
            line += f"; {amount(left, 'disc')} are to its left, but it holds only {cost} to pay with"
    elif left:
        line += (
            " free of charge (Printing)"
            if holds_effect(comp, state, seat, "no_b_turn_position_cost")
            else f"; {amount(left, 'disc')} to its left, but it holds nothing to pay with"
        )
    return [line + "."] + (perform(comp, state, seat, then) if then and not cost else [])


def resolve(comp: Components, state: State, d: Decision, action: str) -> list[str]:
    seat, kind, data = d.seat, d.kind, d.data
    p = state.players[seat]
    words = action.split(" ")
    stack = state.stack
    if words[0] == "use":
        return use_tile(comp, state, seat, words[1])
    if kind == "action":
        stack.pop()
        stack.push("after", seat)  # 6.1: free actions "before or after" the regular action
        if words[0] == "pass":
            if len(words) == 1:
                return [f"{who(state, seat)} cannot perform any action and passes."]
            cells = state.rows[words[1]]
            cells[cells.index(EMPTY)] = seat
            return [
                f"{who(state, seat)} cannot perform any action and places a disc in the {words[1]} row without acting."
            ]
        if state.half == "B":
            if words[0] == "remove":
                row, index = words[1], int(words[2]) - 1
                cheapest = index == cheapest_disc(state, seat, row)
                if not cheapest:
                    stack.push("b-row", seat, row=row)
                return remove_disc(comp, state, seat, row, index, then="", idle=cheapest)
            row = row_of(action)
            disc = cheapest_disc(state, seat, row)
            assert disc is not None, action  # a B-turn row action is offered only with a disc of theirs there
            return remove_disc(comp, state, seat, row, disc, then=action)
        row = row_of(action)
        cells = state.rows[row]
        cells[cells.index(EMPTY)] = seat
        return perform(comp, state, seat, action)
    if kind == "pay":
        split, whole = read_pay(action)
        for good, k in zip(GOODS, split, strict=True):
            gain(state, seat, good, -k, PAID_FOR_DISCS)
        data["paid"] = [a + k for a, k in zip(data["paid"], split, strict=True)]
        if not whole:
            data["cost"] -= sum(split)
            part = listing([amount(k, good) for good, k in zip(GOODS, split, strict=True) if k])
            return [f"{who(state, seat)} pays {part} for the disc, {data['cost']} still to pay (6.0)."]
        stack.pop()
        paid = listing([amount(k, good) for good, k in zip(GOODS, data["paid"], strict=True) if k])
        events = [f"{who(state, seat)} pays {paid} for the disc (6.0)."]
        return events + (perform(comp, state, seat, data["then"]) if data["then"] else [])
    if kind == "empire-tile":
        stack.pop()
        return perform(comp, state, seat, action)
    if kind == "b-row":
        stack.pop()
        if action == "done":
            return [f"{who(state, seat)} does nothing with the disc."]
        return perform(comp, state, seat, action)
    if kind == "after":
        stack.pop()
        return []
    if kind == "place":
        if action == "done":
            stack.pop()
            return []
        if words[0] == "battle":
            stack.pop()
            battle = stack.push("battle", seat, rows=tile_battle_rows(comp, state, data["tile"]), fought=[])
            return resolve(comp, state, battle, action)
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
        return [
            f"{who(state, seat)} attacks {who(state, defender)} in {name}: {state.players[defender].colour} "
            f"loses {amount(lost_d, 'cube')}, {p.colour} loses {amount(lost_a, 'cube')} (now {holding(state, region)})."
        ]
    if kind == "weapon":
        stack.pop()
        region = words[1]
        defender = next(i for i, q in enumerate(state.players) if q.colour == words[2])
        lost = remove_cubes(state, region, defender, data["count"])
        return [
            f"{who(state, seat)} removes {amount(lost, 'cube')} of {who(state, defender)} in "
            f"{comp.regions[region].name} (now {holding(state, region)})."
        ]
    if kind == "ally":
        stack.pop()
        other = next(i for i, q in enumerate(state.players) if q.colour == words[1])
        p.ally = other
        return [f"{who(state, seat)} places the alliance piece with {who(state, other)}."]
    if kind in ("food-upkeep", "resource-upkeep"):
        if words[0] == "discard":
            p.cities = without(p.cities, words[1])
            return [f"{who(state, seat)} discards the city {comp.cities[words[1]].name} rather than pay its upkeep."]
        stack.pop()
        if action == "pay upkeep":
            need = disc_upkeep(comp, state, seat)
            p.resources -= need
            parts = itemise(
                [
                    (comp.cities[c].name, comp.cities[c].upkeep_resources)
                    for c in p.cities
                    if comp.cities[c].upkeep_resources
                ]
            )
            return [f"{who(state, seat)} pays {amount(need, 'resource')} of city upkeep ({parts}, 8.0)."]
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
        p.progress = without(p.progress, t)
        p.fresh = {k: snap for k, snap in p.fresh.items() if k != t}
        if comp.progress[t].effect == "alliance":
            p.ally = -1
    for c in data["cities"]:
        p.cities = without(p.cities, c)
    names = [comp.progress[t].name for t in data["progress"]] + [
        f"the city {comp.cities[c].name}" for c in data["cities"]
    ]
    data["progress"], data["cities"] = [], []
    return [f"{who(state, seat)} returns {listing(names)} to the box (11.0)."] if names else []
