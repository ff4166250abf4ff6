"""The automatic parts of a game turn (4.0): new tiles (5.0, 5.1), food (7.0), income (8.0),
victory points (9.0), the end of an era (11.0) and the end of the game.

Each function changes the state and returns the log lines it produced.
"""
from __future__ import annotations

from .board import controlled, region_income, region_vp
from .data import Components
from .state import EMPTY, ROWS, State


def who(state: State, seat: int) -> str:
    p = state.players[seat]
    return f"{p.name} ({p.colour})"


GOOD_WORDS = {"gold": ("gold", "gold"), "vp": ("VP", "VP"), "food": ("food", "food"),
              "resource": ("resource disc", "resource discs"), "resources": ("resource disc", "resource discs"),
              "cube": ("cube", "cubes"), "cubes": ("cube", "cubes"), "tile": ("tile", "tiles")}


def amount(k: int, good: str) -> str:
    """`1 resource disc`, `3 cubes`, `2 VP`: a count with the rulebook's word for the good."""
    one, many = GOOD_WORDS.get(good, (good, good))
    return f"{k} {one if k == 1 else many}"


def circles(comp: Components, n_players: int, row: str) -> int:
    """Circles in a row of the action display (6.0); the empire row holds at most 8 discs."""
    c = comp.rules.circles_by_players[n_players]
    return min(c, comp.rules.empire_row_max) if row == "empire" else c


def bank_resources(comp: Components, state: State) -> int:
    """Resource discs left in the bank (2.6: 40 in all)."""
    held = sum(p.resources for p in state.players)
    on_track = sum(comp.trade[i].discs for i in state.trade_used)
    return max(0, comp.rules.resource_discs - held - on_track)


def deal_progress(comp: Components, state: State, rng) -> None:
    """3.0: each era's 16 progress tiles are shuffled into the boxes, 8 per turn (5.0)."""
    deck: list[str] = []
    for era in (3, 2, 1):
        tiles = [p.id for p in comp.progress.values() if p.era == era for _ in range(p.copies)]
        rng.shuffle(tiles)
        deck = tiles + deck
    state.progress_deck = deck


def new_tiles(comp: Components, state: State) -> list[str]:
    """5.0 / 5.1 at the start of game turn `state.turn` (for turn 1 nothing is set aside)."""
    rules = comp.rules
    events: list[str] = []
    if state.turn > 1:
        if state.n <= 3:
            # 5.1: unselected tiles leave the game, except those with a red lower part.
            state.offer_progress = [t for t in state.offer_progress if comp.progress[t].red_bottom]
            state.offer_territory = [t for t in state.offer_territory if comp.territories[t].red_bottom]
            state.offer_city = [c for c in state.offer_city if comp.cities[c].red_bottom and not comp.cities[c].wonder]
        else:
            # 5.0: set aside and still available, except wonders, which go back to the box.
            state.offer_city = [c for c in state.offer_city if not comp.cities[c].wonder]
        for p in state.players:
            p.empires = []
            p.used = []
        state.trade_used = {}
    k = rules.progress_per_turn
    state.offer_progress += state.progress_deck[:k]
    del state.progress_deck[:k]
    k = rules.territory_per_turn
    state.offer_territory += state.territory_deck[:k]
    del state.territory_deck[:k]
    era, half = state.era, state.half
    state.offer_city += [c.id for c in comp.cities.values() if c.era == era and c.half == half]
    state.empire_track = list(comp.empire_tiles)
    if half == "A":
        state.rows = {r: [EMPTY] * circles(comp, state.n, r) for r in ROWS}
    events.append(f"Game turn {state.turn} (Era {'I' * era if era < 4 else era} {half}) begins: new tiles are turned face up.")
    return events


def food_change(comp: Components, state: State, seat: int) -> int:
    """White minus red food numbers for one player (7.0), before the last-turn doubling."""
    p = state.players[seat]
    total = 0
    for t in p.territories:
        total += comp.territories[t].food
    for c in p.cities:
        city = comp.cities[c]
        total += city.produces_food - city.upkeep_food
    for r, counts in state.cubes.items():
        total += region_income(comp, r, counts).get(seat, 0) if comp.regions[r].income == "food" else 0
    for t in p.progress:
        tile = comp.progress[t]
        if tile.effect == "food_per_turn":
            total += tile.amount
        elif tile.effect == "food_per_territory":
            total += tile.amount * sum(1 for x in p.territories if comp.territories[x].kind == tile.territory)
    return total


def food_phase(comp: Components, state: State) -> list[str]:
    """7.0: move every food marker; below 0 costs VP, above the top pays 1 gold per 2 food."""
    events = []
    factor = comp.rules.food_last_turn_factor if state.turn == 6 else 1
    for seat in state.order:
        p = state.players[seat]
        delta = food_change(comp, state, seat) * factor
        new = p.food + delta
        note = ""
        if new < 0:
            lost = min(p.vp, -new)
            p.vp -= lost
            note = f", losing {lost} VP for the food it cannot pay"
            new = 0
        elif new > comp.rules.food_max:
            gold = (new - comp.rules.food_max) // 2
            p.gold += gold
            note = f", taking {gold} gold for food beyond the top of the track"
            new = comp.rules.food_max
        p.food = new
        events.append(f"Food: {who(state, seat)} {delta:+d} -> {p.food}{note}.")
    return events


def income_of(comp: Components, state: State, seat: int) -> dict[str, int]:
    """8.0: the gold, resource discs and cubes one player earns this turn."""
    p = state.players[seat]
    inc = {"gold": 0, "resources": 0, "cubes": 0}
    for t in p.territories:
        tile = comp.territories[t]
        inc["cubes"] += tile.cubes
        inc["gold"] += tile.gold
        inc["resources"] += tile.resources
    for c in p.cities:
        city = comp.cities[c]
        inc["gold"] += city.produces_gold
        inc["resources"] += city.produces_resources
    for r, counts in state.cubes.items():
        kind = comp.regions[r].income
        if kind in inc:
            inc[kind] += region_income(comp, r, counts).get(seat, 0)
    for t in p.progress:
        tile = comp.progress[t]
        if tile.effect == "resources_per_territory":
            inc["resources"] += tile.amount * sum(1 for x in p.territories if comp.territories[x].kind == tile.territory)
        elif tile.effect == "cubes_per_turn":
            inc["cubes"] += tile.amount
        elif tile.effect == "gold_per_turn":
            inc["gold"] += tile.amount
    return inc


def collect_income(comp: Components, state: State, seat: int) -> list[str]:
    """8.0 for one player: cubes from the general stock into the pool, discs from the bank, gold."""
    p = state.players[seat]
    inc = income_of(comp, state, seat)
    cubes = min(inc["cubes"], p.stock)
    res = min(inc["resources"], bank_resources(comp, state))
    p.stock -= cubes
    p.pool += cubes
    p.resources += res
    p.gold += inc["gold"]
    return [f"Income: {who(state, seat)} takes {inc['gold']} gold, {amount(res, 'resource')} and {amount(cubes, 'cube')}."]


def vp_of(comp: Components, state: State, seat: int) -> int:
    """9.0: VP this turn for cities, towns, progress tiles and regions."""
    p = state.players[seat]
    vp = sum(comp.cities[c].vp for c in p.cities)
    vp += sum(comp.territories[t].vp for t in p.territories)
    ruled = None
    for t in p.progress:
        tile = comp.progress[t]
        if tile.effect == "vp_per_turn":
            vp += tile.amount
        elif tile.effect == "vp_per_city":
            vp += tile.amount * len(p.cities)
        elif tile.effect == "vp_per_controlled_region":
            ruled = controlled(state, seat) if ruled is None else ruled
            vp += tile.amount * len(ruled)
    for r, counts in state.cubes.items():
        vp += region_vp(comp, r, counts).get(seat, 0)
    return vp


def vp_phase(comp: Components, state: State) -> list[str]:
    events = []
    for seat in state.order:
        gained = vp_of(comp, state, seat)
        state.players[seat].vp += gained
        events.append(f"Victory points: {who(state, seat)} scores {gained} -> {state.players[seat].vp}.")
    return events


def halve_cubes(state: State) -> list[str]:
    """11.0: remove half, rounded up, of every player's cubes from each region (to the general stock)."""
    for counts in state.cubes.values():
        for s, c in enumerate(counts):
            if c:
                k = (c + 1) // 2
                counts[s] = c - k
                state.players[s].stock += k
    return ["End of the era: every player removes half (rounded up) of their cubes from each region."]


def final_scoring(comp: Components, state: State) -> list[str]:
    """11.0 End of the Game: 1 VP per 3 gold and per 3 resource discs."""
    events = []
    for seat in state.order:
        p = state.players[seat]
        bonus = p.gold // comp.rules.final_gold_per_vp + p.resources // comp.rules.final_resources_per_vp
        p.vp += bonus
        events.append(f"Final scoring: {who(state, seat)} gains {bonus} VP for gold and resource discs -> {p.vp}.")
    return events


def turn_order_choosers(state: State) -> list[int]:
    """10.0: fewest VP chooses first; ties: fewest game tokens, then furthest back in the last order."""
    prev = state.order
    return sorted(range(state.n), key=lambda s: (state.players[s].vp, state.players[s].tokens, -prev.index(s)))
