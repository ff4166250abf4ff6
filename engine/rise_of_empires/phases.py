"""The automatic parts of a game turn (4.0): new tiles (5.0, 5.1), food (7.0), income (8.0),
victory points (9.0), the end of an era (11.0) and the end of the game.

Each function changes the state and returns the log lines it produced.
"""

from __future__ import annotations

from ..core import Rng, best, listing, winners_by
from .data import Components
from .points import FINAL_DISCS, FINAL_GOLD, FOOD_SHORTAGE, gain_vp
from .scoring import food_outcome, food_parts, income_parts, itemise, vp_items
from .state import EMPTY, ROWS, State
from .words import amount, who


def circles(comp: Components, n_players: int, row: str) -> int:
    """Circles in a row of the action display (6.0); the empire row holds at most 8 discs."""
    c = comp.rules.circles_by_players[n_players]
    return min(c, comp.rules.empire_row_max) if row == "empire" else c


def bank_resources(comp: Components, state: State) -> int:
    """Resource discs left in the bank (2.6: 40 in all)."""
    held = sum(p.resources for p in state.players)
    on_track = sum(comp.trade[i].discs for i in state.trade_used)
    return max(0, comp.rules.resource_discs - held - on_track)


def deal_progress(comp: Components, state: State, rng: Rng) -> None:
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
            p.empires = ()
            p.used = ()
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
    events.append(
        f"Game turn {state.turn} (Era {'I' * era if era < 4 else era} {half}) begins: new tiles are turned face up."
    )
    return events


def food_phase(comp: Components, state: State) -> list[str]:
    """7.0: move every food marker; below 0 costs VP, above the top pays 1 gold per 2 food
    (scoring.food_outcome, which the choices' words quote)."""
    events = []
    doubled = state.turn == 6 and comp.rules.food_last_turn_factor != 1
    for seat in state.order:
        p = state.players[seat]
        parts = food_parts(comp, state, seat)
        out = food_outcome(comp, state, seat)
        note = ""
        if out.short:
            gain_vp(p, FOOD_SHORTAGE, -out.vp_lost)
            note = f", {amount(out.short, 'food')} short: loses {amount(out.vp_lost, 'vp')}"
            if out.vp_lost < out.short:
                note += " (never below 0 VP)"
        elif out.beyond:
            p.gold += out.gold
            note = (
                f", {amount(out.beyond, 'food')} beyond the top of the track: takes {amount(out.gold, 'gold')}"
                " (1 per 2 food)"
            )
        p.food = out.food
        why = itemise(parts, signed=True) or "nothing earns or costs food"
        if doubled and parts:
            why += ", doubled in the last game turn"
        events.append(f"Food: {who(state, seat)} {out.change:+d} ({why}) -> {p.food}{note}.")
    return events


def collect_income(comp: Components, state: State, seat: int) -> list[str]:
    """8.0 for one player: cubes from the general stock into the pool, discs from the bank, gold."""
    p = state.players[seat]
    parts = income_parts(comp, state, seat)
    earned = {g: sum(k for _, k in parts[g]) for g in parts}
    got = {
        "gold": earned["gold"],
        "resources": min(earned["resources"], bank_resources(comp, state)),
        "cubes": min(earned["cubes"], p.stock),
    }
    p.stock -= got["cubes"]
    p.pool += got["cubes"]
    p.resources += got["resources"]
    p.gold += got["gold"]
    short = {"resources": "the bank had only {} left (2.6)", "cubes": "the general stock held only {}"}
    items = []
    for good in ("gold", "resources", "cubes"):
        if earned[good]:
            why = itemise(parts[good])
            if got[good] < earned[good]:
                why += f"; {earned[good]} earned, but " + short[good].format(got[good])
            items.append(f"{amount(got[good], good)} ({why})")
    if not items:
        return [f"Income: {who(state, seat)} earns nothing."]
    return [f"Income: {who(state, seat)} takes {listing(items)}."]


def vp_phase(comp: Components, state: State) -> list[str]:
    events = []
    for seat in state.order:
        items = vp_items(comp, state, seat)
        for source, _, k in items:
            gain_vp(state.players[seat], source, k)
        parts = [(what, k) for _, what, k in items]
        gained = sum(k for _, k in parts)
        why = f" ({itemise(parts)})" if parts else ""
        events.append(
            f"Victory points: {who(state, seat)} scores {amount(gained, 'vp')}{why} -> {state.players[seat].vp}."
        )
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
        for_gold = p.gold // comp.rules.final_gold_per_vp
        for_discs = p.resources // comp.rules.final_resources_per_vp
        gain_vp(p, FINAL_GOLD, for_gold)
        gain_vp(p, FINAL_DISCS, for_discs)
        events.append(
            f"Final scoring: {who(state, seat)} gains {amount(for_gold + for_discs, 'vp')} "
            f"({for_gold} for {amount(p.gold, 'gold')}, {for_discs} for {amount(p.resources, 'resource')}) -> {p.vp}."
        )
    return events


def final_winners(state: State) -> list[int]:
    """11.0: "The player with the most victory points wins the game. In case of a tie, the player with
    the most gold wins." """
    return winners_by([p.vp for p in state.players], [p.gold for p in state.players])


def game_result(state: State) -> list[str]:
    """11.0: the final standings, then who won and, when it decided, the tie-break (most gold)."""
    vp = [p.vp for p in state.players]
    gold = [p.gold for p in state.players]
    ranked = sorted(range(state.n), key=lambda s: (-vp[s], -gold[s]))
    standings = ", ".join(f"{state.players[s].colour} {vp[s]}" for s in ranked)
    leaders = best(range(state.n), key=lambda s: vp[s])
    winners = final_winners(state)
    names = listing([who(state, s) for s in winners])
    top = amount(vp[winners[0]], "vp")
    if len(leaders) == 1:
        result = f"{names} wins with {top}."
    elif len(winners) == 1:
        others = listing([who(state, s) for s in leaders if s not in winners])
        result = (
            f"{names} wins: tied with {others} on {top}, ahead on the tie-break, most gold "
            f"({gold[winners[0]]} against {listing([str(gold[s]) for s in leaders if s not in winners])}) (11.0)."
        )
    else:
        result = (
            f"{names} share the win: tied on {top} and on the tie-break, most gold "
            f"({amount(gold[winners[0]], 'gold')} each) (11.0)."
        )
    return [f"Final standings (VP): {standings}.", f"The game ends: {result}"]


def turn_order_choosers(state: State) -> list[int]:
    """10.0: fewest VP chooses first; ties: fewest game tokens, then furthest back in the last order."""
    prev = state.order
    return sorted(range(state.n), key=lambda s: (state.players[s].vp, state.players[s].tokens, -prev.index(s)))
