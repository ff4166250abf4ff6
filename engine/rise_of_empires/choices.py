"""Every legal action described for the player choosing it (issue 25, /work/shared/CHOICES.md).

`choices(comp, state, seat)` gives the seat's legal actions in their order, each with
the kind of decision in the rulebook's words (group), the thing chosen by its printed
name (label), what it costs and gives (detail) and the regions it concerns (refers,
region ids as the view gives them; the board draws each region's name). Everything in
Rise of Empires is public (6.0), so nothing here depends on hidden information; the
face-down stacks are never read.
"""

from __future__ import annotations

from collections.abc import Callable

from ..core import DETAIL_MAX, Choice, Decision, details, essential, listing
from .actions import bonus_regions, disc_upkeep, legal, perform, tile_battle_rows
from .board import allied, occupied, standings
from .data import City, Components
from .describe import (
    city_terms,
    empire_terms,
    free_action_terms,
    progress_effect,
    region_symbol,
    row_name,
    territory_terms,
    trade_label,
)
from .display import b_cost, cheapest_disc, row_of, surcharge
from .pay_step import FOOD, GOLD, RESOURCE, pay_picks, payable
from .payment import GOODS, Pick
from .scoring import FoodOutcome, food_outcome, income_of
from .state import State, without
from .words import GOOD_WORDS, amount

#: The groups of the action display's rows (6.1-6.5), in the rulebook's words.
ROW_GROUPS = {
    "progress": "Take a progress tile",
    "territory": "Take a territory tile",
    "city": "Take a city tile",
    "empire": "Take an empire tile",
    "trade": "Trade resource discs",
}
FREE_ACTION = "Free action"
ORDINALS = ("first", "second", "third", "fourth", "fifth")


def choices(comp: Components, state: State, seat: int) -> list[Choice]:
    d = state.stack.top
    if state.phase == "over" or d is None or d.seat != seat:
        return []
    describe = _payment(comp, state, d) if d.kind == "pay" else STEPS.get(d.kind, _row_action)
    return [
        _free_action(comp, action) if action.startswith("use ") else describe(comp, state, d, action)
        for action in legal(comp, state, d)
    ]


# ---- the action display's rows ------------------------------------------------------------------


def _row_action(comp: Components, state: State, d: Decision, action: str) -> Choice:
    """A row action (6.1-6.5) at the action step, the removed disc's row or the empire tile step."""
    words = action.split(" ")
    seat = d.seat
    if words[0] == "pass":
        if len(words) == 1:
            return Choice(action, "No action possible", "Pass", "no free circle and no action you can perform")
        return Choice(
            action,
            "No action possible",
            f"Place a disc in the {row_name(words[1])} row",
            "and do nothing: no action can be performed",
        )
    if words[0] == "remove":
        return _remove(comp, state, seat, words[1], int(words[2]))
    if action == "done":
        return Choice(action, "Do nothing", "Do nothing with the disc")
    row = row_of(action)
    cost = ""
    if d.kind == "action" and state.half == "B":
        disc = cheapest_disc(state, seat, row)
        assert disc is not None  # a B-turn row action is offered with a disc of the player's in the row
        k = b_cost(comp, state, seat, row, disc)
        cost = essential(f"your disc there costs {k}" if k else "your disc there is free")
    label, parts = _row_words(comp, state, seat, action)
    return Choice(action, ROW_GROUPS[row], label, details(cost, *parts))


def _row_words(comp: Components, state: State, seat: int, action: str) -> tuple[str, list[str]]:
    """(label, detail parts) of a row action: the tile by its printed name, what it costs (kept
    whatever else the detail holds, issue 49) and what it gives."""
    words = action.split(" ")
    p = state.players[seat]
    if words[0] == "withdraw":
        back = sum(c[seat] for c in state.cubes.values())
        return "Withdraw all cubes, then take a tile", [
            essential(f"{amount(back, 'cube')} back to your pool"),
            "a new empire",
        ]
    if words[0] == "trade":
        box = comp.trade[comp.trade_by_action[action]]
        return f"Trade {trade_label(box)}", [f"you have {amount(p.resources, 'resource')}"]
    ident = " ".join(words[2:])
    if words[1] == "progress":
        prog = comp.progress[ident]
        extra = surcharge(comp, state, ident)
        return prog.name, [essential(f"{extra} gold (earlier era)") if extra else "", progress_effect(prog)]
    if words[1] == "territory":
        territory = comp.territories[ident]
        return territory.name, [essential(territory_terms(territory))]
    if words[1] == "city":
        city = comp.cities[ident]
        return (f"{city.name} (wonder)" if city.wonder else city.name), city_terms(city)
    side = next(comp.empire(t, state.era) for t in state.empire_track if comp.empire(t, state.era).name == ident)
    bonus = bonus_regions(comp, state, seat)
    new = "" if occupied(state, seat) else "a new empire"
    return f"Empire tile {ident}", [essential(empire_terms(side, state.era, bonus)), new]


def _remove(comp: Components, state: State, seat: int, row: str, circle: int) -> Choice:
    """6.0 B turn: a particular disc, by its circle (the board numbers them from the right)."""
    index = circle - 1
    cost = b_cost(comp, state, seat, row, index)
    then = "then nothing" if index == cheapest_disc(state, seat, row) else "then the row's action or nothing"
    return Choice(
        f"remove {row} {circle}",
        "Remove a particular disc",
        f"{row_name(row)} row, circle {circle}",
        f"costs {cost} · {then}" if cost else f"free · {then}",
    )


def _free_action(comp: Components, action: str) -> Choice:
    tile = action.split(" ")[1]
    return Choice(action, FREE_ACTION, comp.progress[tile].name, free_action_terms(comp, tile))


def _after(comp: Components, state: State, d: Decision, action: str) -> Choice:
    """6.1: the free actions after the action (described apart), or the end of the turn."""
    return Choice(action, "End the turn", "End your turn", "unused free-action tiles stay face up")


# ---- paying for a B-turn disc (6.0) --------------------------------------------------------------


def _payment(comp: Components, state: State, d: Decision) -> Callable[[Components, State, Decision, str], Choice]:
    """The describer of one payment step (the picks, and the board once the chosen action is done,
    are worked out once for all its choices)."""
    picks = {p.action: p for p in pay_picks(comp, state, d)}
    then = _then_done(comp, state, d)

    def describe(comp: Components, state: State, d: Decision, action: str) -> Choice:
        return _pay(comp, state, d, picks[action], then)

    return describe


def _then_done(comp: Components, state: State, d: Decision) -> State:
    """The position once the action chosen with the disc is done (the payment aside): a territory or
    city it takes changes what the Food phase and the upkeep need (issue 49). The rules' own
    `perform`, on a copy."""
    if not d.data["then"]:
        return state
    done = state.clone()
    perform(comp, done, d.seat, d.data["then"])
    return done


def _goods(split: tuple[int, ...] | list[int]) -> str:
    """`2 gold, 2 VP`."""
    return ", ".join(amount(k, good) for good, k in zip(GOODS, split, strict=True) if k)


def _pay(comp: Components, state: State, d: Decision, pick: Pick, then: State) -> Choice:
    p = state.players[d.seat]
    paid = pick.paid
    have = [p.gold, p.pool, p.resources, p.food, p.vp]
    after = [h - k for h, k in zip(have, paid, strict=True)]
    leaves = essential("leaves " + ", ".join(amount(after[g], GOODS[g]) for g in range(len(GOODS)) if paid[g]))
    notes = [leaves, *_thresholds(comp, state, d, paid, after, then)]
    if pick.whole:
        kinds = sum(1 for k in paid if k)
        mixed = "Pay with one good" if kinds == 1 else "Pay with two goods" if kinds == 2 else "Pay with 3+ goods"
        group = {"cheapest": "Cheapest payment", "one good": "Pay with one good"}.get(pick.kind, mixed)
        return Choice(pick.action, group, _goods(paid), details(*notes))
    good = next(g for g, k in enumerate(paid) if k)
    # the goods the next pick can take: held beyond what the chosen action needs, not yet settled
    usable = payable(state, d)
    others = [GOOD_WORDS[GOODS[g]][1] for g in range(len(GOODS)) if g != good and usable[g]]
    rest = d.data["cost"] - paid[good]
    return Choice(
        pick.action,
        f"Pay part in {GOOD_WORDS[GOODS[good]][1]}",
        f"{_goods(paid)} now, the rest next",
        details(*notes, essential(f"{rest} more from {listing(others, 'or')} next")),
    )


def _thresholds(
    comp: Components, state: State, d: Decision, paid: tuple[int, ...], after: list[int], then: State
) -> list[str]:
    """What a payment keeps or gives up of what is coming, once the action chosen with the disc is
    done (`then`): the gold for the city chosen with the disc (or the dearest one on offer), the food
    this turn's Food phase needs (7.0), the discs the cities' upkeep needs (8.0)."""
    seat, p = d.seat, state.players[d.seat]
    notes = []
    if paid[GOLD]:
        chosen = d.data["then"]
        target = comp.cities[chosen.split(" ")[2]] if chosen.startswith("take city") else None
        # gold the chosen action takes (a surcharge) is not kept for another city
        gold = after[GOLD] if target is not None else after[GOLD] - d.data["reserve"][GOLD]
        if target is None:
            affordable = [comp.cities[c] for c in state.offer_city if 0 < comp.cities[c].cost_gold <= p.gold]
            target = max(affordable, key=lambda c: c.cost_gold, default=None)
        if target is not None:
            if gold >= target.cost_gold:
                notes.append(f"keeps {target.cost_gold} gold for {target.name}")
            else:
                notes.append(f"{target.name} out of reach ({gold} of {target.cost_gold} gold)")
    if paid[FOOD]:
        fed = food_outcome(comp, then, seat, food=after[FOOD])
        if fed.short:
            notes.append(f"Food phase {fed.short} short (1 VP each)")
        elif fed.change < 0:
            notes.append(f"keeps {-fed.change} food for the Food phase")
        else:
            notes.append("food the Food phase can spare")
    if paid[RESOURCE]:
        need = disc_upkeep(comp, then, seat)
        if need:
            # discs the chosen action takes (a wonder, a trade) are not kept for the upkeep
            coming = after[RESOURCE] - d.data["reserve"][RESOURCE] + income_of(comp, then, seat)["resources"]
            notes.append(
                f"keeps {amount(need, 'resource')} for upkeep"
                if coming >= need
                else f"upkeep {amount(need - coming, 'resource')} short"
            )
    return notes


# ---- placing cubes and battles (6.4, 6.4.5) ------------------------------------------------------


def _place(comp: Components, state: State, d: Decision, action: str) -> Choice:
    words = action.split(" ")
    if words[0] == "battle":
        return _battle(comp, state, d, action)
    if action == "done":
        ends = "ends the action" if d.kind == "place" else "ends the action with one battle"
        label = "No more cubes, no battle" if d.kind == "place" else "No second battle"
        return Choice(action, "Done", label, ends)
    k, region = int(words[1]), words[2]
    seat = d.seat
    pool = state.players[seat].pool
    reg = comp.regions[region]
    counts = list(state.cubes[region])
    counts[seat] += k
    group = f"Place all {pool} cubes" if k == pool and k > 3 else f"Place {amount(k, 'cube')}"
    used = d.data["used"]
    region_note = "" if region in used else f"region {len(used) + 1} of {d.data['limit']}"
    return Choice(
        action,
        group,
        f"{reg.name} ×{k}",
        details(essential(_standing(state, seat, counts, state.cubes[region][seat])), region_note, region_symbol(reg)),
        (region,),
    )


def _standing(state: State, seat: int, counts: list[int], before: int) -> str:
    """`you 1 → 3, red 2: you control` after a change of the seat's cubes in a region (6.4.2)."""
    others = ", ".join(f"{state.players[s].colour} {n}" for s, n in enumerate(counts) if n and s != seat)
    line = f"you {before} → {counts[seat]}" + (f", {others}" if others else "")
    controllers, seconds = standings(counts)
    if seat in controllers:
        return line + (": you share control" if len(controllers) > 1 else ": you control")
    if seat in seconds:
        return line + ": you are second"
    return line


def _battle(comp: Components, state: State, d: Decision, action: str) -> Choice:
    """6.4.5: `battle <region> <colour> [row <k>]`: who loses what, and where the region then stands."""
    words = action.split(" ")
    seat, region, colour = d.seat, words[1], words[2]
    defender = next(i for i, q in enumerate(state.players) if q.colour == colour)
    rows = d.data["rows"] if d.kind == "battle" else tile_battle_rows(comp, state, d.data["tile"])
    row = int(words[4]) - 1 if len(words) > 3 else 0
    att, dfn = rows[row]
    counts = list(state.cubes[region])
    counts[defender] = max(0, counts[defender] - dfn)
    counts[seat] = max(0, counts[seat] - att)
    name = comp.regions[region].name
    label = f"Attack {state.players[defender].name} ({colour}) in {name}" + (
        f", row {row + 1}" if len(words) > 3 else ""
    )
    ends = "ends placing · " if d.kind == "place" else ""
    loses = f"{colour} loses {min(dfn, state.cubes[region][defender])}, you {min(att, state.cubes[region][seat])}"
    return Choice(
        action,
        "Battle",
        label,
        details(essential(ends + loses), essential(_standing(state, seat, counts, state.cubes[region][seat]))),
        (region,),
    )


def _weapon(comp: Components, state: State, d: Decision, action: str) -> Choice:
    """6.1 weapons: `remove <region> <colour>`."""
    words = action.split(" ")
    region, colour = words[1], words[2]
    defender = next(i for i, q in enumerate(state.players) if q.colour == colour)
    have = state.cubes[region][defender]
    lost = min(have, d.data["count"])
    tile = comp.progress[d.data["tile"]].name
    return Choice(
        action,
        f"Remove cubes with {tile}",
        f"{state.players[defender].name} ({colour}) in {comp.regions[region].name}",
        f"{colour} {have} → {have - lost}",
        (region,),
    )


def _ally(comp: Components, state: State, d: Decision, action: str) -> Choice:
    """2.9 Diplomacy: the alliance piece with another player."""
    colour = action.split(" ")[1]
    other = next(i for i, q in enumerate(state.players) if q.colour == colour)
    p = state.players[other]
    already = " · already allied" if allied(state, d.seat, other) else ""
    return Choice(action, "Place the alliance piece", f"{p.name} ({colour})", f"neither may attack the other{already}")


# ---- the phases after the actions ----------------------------------------------------------------


def _food_upkeep(comp: Components, state: State, d: Decision, action: str) -> Choice:
    """6.3, 7.0: keep the cities (their food upkeep is paid) or discard one. The totals are the
    Food phase's own (scoring.food_outcome): below 0 costs VP, beyond the top of the track gives
    gold; a discard's are those of keeping the rest (the question comes again while one is left)."""
    seat, p = d.seat, state.players[d.seat]
    factor = comp.rules.food_last_turn_factor if state.turn == 6 else 1
    doubled = "doubled in the last turn" if factor != 1 else ""
    if action == "keep cities":
        outcome = _food_words(p.food, food_outcome(comp, state, seat))
        return Choice(action, "Keep and pay", "Keep your cities, pay their food", details(essential(outcome), doubled))
    ident = action.split(" ")[1]
    city = comp.cities[ident]
    without_it = state.clone()
    without_it.players[seat].cities = without(p.cities, ident)
    outcome = _food_words(p.food, food_outcome(comp, without_it, seat))
    return _discard(action, city, f"{city.upkeep_food * factor} food", essential(outcome))


def _food_words(food: int, fed: FoodOutcome) -> str:
    """`food 20 → 20, 3 beyond the top: +1 gold`, `food 1 → 0, 1 short: -1 VP` (7.0)."""
    outcome = f"food {food} → {fed.food}"
    if fed.short:
        never = " (never below 0 VP)" if fed.vp_lost < fed.short else ""
        return outcome + f", {fed.short} short: -{amount(fed.vp_lost, 'vp')}{never}"
    if fed.beyond:
        return outcome + f", {fed.beyond} beyond the top: +{fed.gold} gold"
    return outcome


def _resource_upkeep(comp: Components, state: State, d: Decision, action: str) -> Choice:
    """6.3, 8.0: pay the cities' disc upkeep or discard one."""
    p = state.players[d.seat]
    if action == "pay upkeep":
        need = disc_upkeep(comp, state, d.seat)
        return Choice(
            action,
            "Keep and pay",
            f"Pay {amount(need, 'resource')}",
            f"resource discs {p.resources} → {p.resources - need}",
        )
    city = comp.cities[action.split(" ")[1]]
    return _discard(action, city, amount(city.upkeep_resources, "resource"))


def _discard(action: str, city: City, upkeep: str, outcome: str = "") -> Choice:
    """6.3: "If you cannot or do not want to pay the cost, you must discard the city tile"; with
    the food upkeep, the Food phase's totals then (`outcome`)."""
    return Choice(
        action,
        "Discard a city",
        city.name,
        details(f"saves {upkeep}", essential(f"gives up {city.vp} VP a turn"), outcome),
    )


def _era_end(comp: Components, state: State, d: Decision, action: str) -> Choice:
    """11.0: keep progress tiles for 1 gold, cities for 1 pool cube; `done` returns the rest."""
    p = state.players[d.seat]
    words = action.split(" ")
    if action == "done":
        back = [comp.progress[t].name for t in d.data["progress"]] + [comp.cities[c].name for c in d.data["cities"]]
        returns = f"returns {listing(back)}" if back else ""
        if len(returns) > DETAIL_MAX:  # every name or none: a cut list would hide what is lost
            returns = f"returns all {len(back)} tiles not kept"
        return Choice(action, "Done", "Return the rest to the box", returns)
    if words[1] == "progress":
        prog = comp.progress[words[2]]
        return Choice(
            action,
            "Keep a progress tile",
            prog.name,
            details(essential(f"1 gold of your {p.gold}"), progress_effect(prog)),
        )
    city = comp.cities[words[2]]
    return Choice(
        action,
        "Keep a city",
        city.name,
        details(essential(f"1 pool cube of your {p.pool}"), essential(f"{city.vp} VP a turn")),
    )


def _order(comp: Components, state: State, d: Decision, action: str) -> Choice:
    """10.0: a free position of the next turn order."""
    k = int(action.split(" ")[2])
    return Choice(action, "Turn order", f"Position {k}", f"you act {ORDINALS[k - 1]} in game turn {state.turn + 1}")


STEPS: dict[str, Callable[[Components, State, Decision, str], Choice]] = {
    "after": _after,
    "place": _place,
    "battle": _place,
    "weapon": _weapon,
    "ally": _ally,
    "food-upkeep": _food_upkeep,
    "resource-upkeep": _resource_upkeep,
    "era-end": _era_end,
    "order": _order,
}
