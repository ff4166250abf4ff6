"""Why an action is refused, in the rulebook's terms (law 1: a clear, specific message).

`why_not` is only asked after the contract has already refused an action (it is
not among the legal ones); it names the rule that stands in the way, and the
refusal then adds the list of what is legal now. It never decides legality
itself, so a gap here can only make a message less specific, never wrong.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..core import Decision, listing
from .actions import TURN_STEPS, disc_upkeep, has, usable
from .board import allied, occupied, target_kind
from .data import Components, TradeBox
from .display import b_cost, cheapest_disc, holdings, offered, row_actions, row_of, surcharge
from .pay_step import payable, spending_order
from .payment import GOODS, PART, READ, count_splits, read_pay, route
from .state import EMPTY, ROWS, State
from .words import GOOD_WORDS, amount

ERAS = {1: "I", 2: "II", 3: "III"}
#: What a player holds of each good of payment.GOODS, for refusals.
GOODS_HELD = {
    "gold": "gold",
    "cube": "cubes in your pool",
    "resource": "resource discs",
    "food": "food",
    "vp": "victory points",
}


def why_not(comp: Components, state: State, seat: int, action: str) -> str | None:
    d = state.stack.top
    if d is None or d.seat != seat:
        return None
    words = action.split(" ")
    verb = words[0]
    p = state.players[seat]
    if verb == "use" and len(words) == 2:
        if d.kind not in (*TURN_STEPS, "after"):
            return "Free-action tiles are used at the steps of your own action turn; finish this one first (6.1)."
        return _use(comp, state, seat, words[1])
    if d.kind == "action":
        if state.half == "B" and verb in ("take", "trade"):
            return _b_turn(comp, state, seat, action)
        if state.half == "A" and verb == "remove":
            return "In an A turn you place a disc; discs are removed in the B turn (6.0)."
        if verb == "remove" and len(words) == 3 and words[1] in ROWS and words[2].isdigit():
            return (
                f"Circle {words[2]} of the {words[1]} row holds no disc of yours "
                f"(circles are counted from the right, 1 = the first disc placed)."
            )
        if verb == "pass":
            return "You can still perform an action; a disc is placed without acting only when none is possible (6.0)."
    if d.kind in ("action", "b-row") and verb in ("take", "trade"):
        row = row_of(action)
        if d.kind == "action" and row in ROWS and EMPTY not in state.rows[row]:
            return f"Every circle of the {row} row is taken this turn (6.0)."
        if d.kind == "b-row" and row != d.data.get("row"):
            return f"Your removed disc was in the {d.data.get('row')} row: take that row's action or `done` (6.0)."
        if verb == "trade":
            return _trade(comp, state, seat, action)
        return _take(comp, state, seat, row, " ".join(words[2:]))
    if d.kind == "pay" and verb == "pay":
        return _pay(comp, state, d, words[1:])
    if d.kind == "place" and verb == "place" and len(words) == 3:
        return _place(comp, state, seat, d.data, words[1], words[2])
    if verb == "withdraw":
        if not occupied(state, seat):
            return "You have no cubes on the map to withdraw (6.4)."
        return (
            "Withdrawing all your cubes from the map is an empire action, chosen instead of "
            "`take empire <tile>` when you choose an action; the tile follows (6.4)."
        )
    if d.kind == "battle" and verb == "place":
        return "Placing for this empire tile is over; now `battle <region> <colour>` or `done` (6.4.5)."
    if d.kind in ("place", "battle") and verb == "battle" and len(words) >= 3:
        return _battle(comp, state, seat, d.data, words[1], words[2])
    if d.kind == "era-end" and verb == "keep":
        if len(words) == 3 and words[1] == "progress" and p.gold < comp.rules.keep_progress_gold:
            return "Keeping a progress tile costs 1 gold and you have none (11.0)."
        if len(words) == 3 and words[1] == "city" and p.pool < comp.rules.keep_city_cubes:
            return "Keeping a city costs 1 cube from your pool and your pool is empty (11.0)."
        return "You can only keep tiles you hold and have not kept yet (11.0)."
    if d.kind == "resource-upkeep" and action == "pay upkeep":
        need = disc_upkeep(comp, state, seat)
        return f"Your cities' upkeep is {amount(need, 'resource')} and you have {p.resources}: discard a city (8.0)."
    if d.kind == "order" and verb == "choose":
        return "That position of the turn order is already taken (10.0)."
    return None


def _b_turn(comp: Components, state: State, seat: int, action: str) -> str | None:
    """A row action named in a B turn: it needs a disc of yours in that row, paid for, and then performable."""
    words = action.split(" ")
    row = row_of(action)
    if row not in ROWS:
        return None
    index = cheapest_disc(state, seat, row)
    if index is None:
        return f"You have no disc in the {row} row: in a B turn you take the action of a disc you remove (6.0)."
    if action in offered(comp, state, seat, row) and action in row_actions(comp, state, seat, row):
        cost = b_cost(comp, state, seat, row, index)
        return (
            f"Your disc there costs {cost} to remove (one per disc to its left), and paying it would leave "
            f"too little for `{action}` (6.0)."
        )
    if row == "trade":
        return _trade(comp, state, seat, action)
    return _take(comp, state, seat, row, " ".join(words[2:]))


def _pay(comp: Components, state: State, d: Decision, words: Sequence[str]) -> str:
    """Why a payment is not among the picks: badly named, not the amount owed, more than is held,
    spending what the chosen action needs, a good already settled, or a valid split reached in
    steps (it names them)."""
    cost, then, before = d.data["cost"], d.data["then"], d.data["paid"]
    part = bool(words) and words[-1] == PART
    named = words[:-1] if part else words
    if (
        len(named) % 2
        or not named
        or any(not k.isdigit() for k in named[::2])
        or any(w not in READ for w in named[1::2])
    ):
        return (
            "Name how many of each good you pay, e.g. `pay 2 gold 1 food`, or a part of one good with "
            "`first`, e.g. `pay 2 gold first`: gold, cubes, resources, food or vp (6.0)."
        )
    split, whole = read_pay("pay " + " ".join(words))
    settled = [GOOD_WORDS[g][1] for g, k, b in zip(GOODS, split, before, strict=True) if k and b]
    if settled:
        return f"You paid your part in {listing(settled)} already; pay the {cost} left with the other goods (6.0)."
    if whole and sum(split) != cost:
        return (
            f"The disc costs {cost} (still) to pay; a payment adds up to exactly that (6.0). "
            "To pay part of it with one good first, say so: `pay 2 gold first`."
        )
    if not whole and (sum(1 for k in split if k) != 1 or sum(split) >= cost):
        return f"A part payment names one good and less than the {cost} to pay, e.g. `pay 2 gold first` (6.0)."
    have = holdings(state, d.seat)
    short = [GOODS_HELD[g] for g, k, h in zip(GOODS, split, have, strict=True) if k > h]
    if short:
        return f"You do not hold that many {listing(short)} (6.0)."
    left = [h - k for h, k in zip(have, split, strict=True)]
    if then and any(x < n for x, n in zip(left, d.data["reserve"], strict=True)):
        return f"That payment would leave too little for `{then}`, which you chose with the disc (6.0)."
    free = payable(state, d)
    if not whole:
        if sum(free) - sum(free[g] for g, k in enumerate(split) if k) < cost - sum(split):
            return f"The other goods cannot pay the {cost - sum(split)} left after that part (6.0)."
        return "Every way to pay is listed whole here: name the whole payment, e.g. `pay 2 gold 1 food` (6.0)."
    steps = route(free, cost, split, spending_order(comp, state, d.seat))
    return (
        f"There are {count_splits(free, cost)} ways to pay {cost}, too many for one list: pay it in steps, "
        + ", then ".join(f"`{p.action}`" for p in steps)
        + "."
    )


def _use(comp: Components, state: State, seat: int, tile: str) -> str | None:
    p = state.players[seat]
    prog = comp.progress.get(tile)
    if prog is None or tile not in p.progress:
        return "You can only use a progress tile you hold (6.1)."
    if not prog.free_action:
        return f"{prog.name} is not a free-action tile; it works by itself (player aid)."
    if tile in p.used:
        return f"{prog.name} is face down: each tile is used once per game turn (6.1)."
    snap = p.fresh.get(tile)
    if snap and any(state.players[s].actions_total <= snap[s] for s in range(state.n) if s != seat):
        return f"You took {prog.name} only now: every other player must take an action first (6.1)."
    if not usable(comp, state, seat, tile):
        if prog.effect == "exchange":
            have = has(state, seat, prog.pay)
            if have < prog.pay_amount:
                return f"{prog.name} needs {amount(prog.pay_amount, prog.pay)} to pay and you have {have} (6.1)."
            return f"{prog.name} gives resource discs and the bank has none left (2.6: 40 discs)."
        return f"{prog.name} needs a region holding your cubes and another (non-allied) player's (6.1)."
    return "Free actions are used on your own turn, before or after your action (6.1)."


def _take(comp: Components, state: State, seat: int, row: str, ident: str) -> str | None:
    p = state.players[seat]
    if row == "progress":
        prog = comp.progress.get(ident)
        if prog is None or ident not in state.offer_progress:
            return f"{prog.name if prog else ident} is not among the face-up progress tiles."
        if ident in p.progress:
            return f"You already hold {prog.name}: no duplicate progress tiles (6.1)."
        cost = surcharge(comp, state, ident)
        return f"{prog.name} is an Era {ERAS[prog.era]} tile: it costs {cost} gold now and you have {p.gold} (6.1)."
    if row == "territory":
        return f"{ident} is not among the face-up territory tiles."
    if row == "city":
        city = comp.cities.get(ident)
        if city is None or ident not in state.offer_city:
            return f"{city.name if city else ident} is not among the face-up city tiles."
        need = [f"{city.cost_gold} gold (you have {p.gold})"]
        if city.wonder:
            need += [
                f"{amount(city.cost_resources, 'resource')} (you have {p.resources})",
                f"{amount(city.cost_cubes, 'cube')} from your pool (you have {p.pool})",
            ]
        return f"{city.name} costs " + ", ".join(need) + " (6.3)."
    if row == "empire":
        if p.pool <= 0 and not occupied(state, seat):
            return "You have no cube in your pool or on the map: an empire tile needs cubes (Mayfair FAQ)."
        shown = sorted(set(comp.empire_names(state.empire_track, state.era)))
        return f"No such empire tile is on the track; on offer: {', '.join(shown) or 'none'}."
    return None


def _trade(comp: Components, state: State, seat: int, action: str) -> str | None:
    i = comp.trade_by_action.get(action)
    if i is None:
        return "There is no such box on the trade track."
    box = comp.trade[i]
    if state.era not in box.eras:
        return f"The {_box(box)} box is not open in Era {ERAS[state.era]} (6.5)."
    if i in state.trade_used:
        return f"The {_box(box)} box was already used this game turn (6.5)."
    return f"The {_box(box)} box needs {amount(box.discs, 'resource')}; you have {state.players[seat].resources} (6.5)."


def _box(box: TradeBox) -> str:
    """A trade box as the action names it: `3 for 2 VP`."""
    return f"{box.discs} for {amount(box.amount, box.gain)}"


def _place(comp: Components, state: State, seat: int, data: Mapping[str, Any], count: str, region: str) -> str | None:
    reg = comp.regions.get(region)
    if reg is None:
        return f"There is no region {region!r} on the map."
    pool = state.players[seat].pool
    if count.isdigit() and int(count) > pool:
        return f"You have {amount(pool, 'cube')} in your pool (6.4: cubes come from the pool only)."
    if target_kind(comp, state, data, region):
        return "Place 1, 2, 3 or all your pool's cubes per step; you may place in the same region again."
    if reg.era > state.era:
        return f"{reg.name} is an Era {ERAS[reg.era]} region (6.4.1)."
    used = data["used"]
    if len(used) >= data["limit"]:
        return f"This empire tile places in {amount(data['limit'], 'region')} and you have used them all (6.4)."
    if reg.sea and not data["water"]:
        return "Only an empire tile with water may place in the Mediterranean (6.4.3)."
    overseas = reg.area != "old_world"
    if overseas and state.era == 2 and state.half == "A" and not state.navigation_taken:
        return "In Era II A the New World and the Far East open only once a player has taken Navigation (6.4.4)."
    if overseas and not data["water"]:
        return "Only an empire tile with water reaches the New World and the Far East (6.4.4)."
    if overseas:
        return "A water tile reaches one overseas area per play (6.4.4)."
    if not data["anchors"]:
        return None
    founded = data.get("founded")
    if founded and data["anchors"] == [founded]:
        return (
            f"A new empire spreads only next to its first region in the Old World: {reg.name} does not border "
            f"{comp.regions[founded].name} (6.4, Mayfair FAQ; a water tile's overseas area comes in addition, 6.4.4)."
        )
    return f"{reg.name} is not in or next to a region that held your cubes before this placement (6.4)."


def _battle(comp: Components, state: State, seat: int, data: Mapping[str, Any], region: str, colour: str) -> str | None:
    reg = comp.regions.get(region)
    other = next((i for i, q in enumerate(state.players) if q.colour == colour), None)
    if reg is None or other is None:
        return "Name a region and the colour of the player you attack: `battle <region> <colour>`."
    if region in data.get("fought", []):
        return "The second battle must be in a different region (6.4.5)."
    if state.cubes[region][seat] <= 0:
        return f"You have no cubes in {reg.name} (6.4.5)."
    if other == seat or state.cubes[region][other] <= 0:
        return f"{colour.capitalize()} has no cubes in {reg.name} to attack (6.4.5)."
    if allied(state, seat, other):
        return f"You and {colour} are allied (Diplomacy): allies do not fight each other."
    return None


__all__ = ["why_not"]
