"""The action display (6.0): what each row's action offers a player and needs from them, and the
discs on the rows (whose, and what removing one costs in a B turn).

Row actions are the choices of the action step: `take progress writing`, `take city rome`,
`take empire 2 water 1-1`, `withdraw`, `trade 2 for 4 gold`. 6.0: "You may only select an action
if you can perform it", so each row's list holds only what the player can pay for, after paying
for the disc in a B turn. What an action offers or needs is derived from the component data and
cached (the data never changes during play).
"""

from __future__ import annotations

import functools

from .board import occupied
from .data import Components
from .state import EMPTY, ROWS, State


def holdings(state: State, seat: int) -> list[int]:
    """What a player holds of each good in payment.GOODS: gold, pool cubes, resource discs, food, VP."""
    p = state.players[seat]
    return [p.gold, p.pool, p.resources, p.food, p.vp]


def surcharge(comp: Components, state: State, tile: str) -> int:
    """6.1: 1 gold for a previous-era progress tile, 2 for an Era I tile in Era III."""
    return _needs(comp, state.era)[f"take progress {tile}"][0]


def holds_effect(comp: Components, state: State, seat: int, effect: str) -> bool:
    return any(comp.progress[t].effect == effect for t in state.players[seat].progress)


def row_of(action: str) -> str:
    """The action display row a row action belongs to: `take city rome` -> city, `trade ...`, `withdraw`."""
    words = action.split(" ")
    if words[0] in ("trade", "withdraw"):
        return "trade" if words[0] == "trade" else "empire"
    return words[1] if len(words) > 1 else ""


def offered(comp: Components, state: State, seat: int, row: str, on_map: bool | None = None) -> list[str]:
    """The actions of one row on offer to this player, whether or not they can pay for them
    (`on_map`: whether the player has cubes on the map, if already known)."""
    if row == "progress":
        held = state.players[seat].progress
        return [a for t, a in _tile_actions("progress", tuple(state.offer_progress)) if t not in held]
    if row == "territory":
        return [a for _, a in _tile_actions("territory", tuple(state.offer_territory))]
    if row == "city":
        return [f"take city {c}" for c in state.offer_city]
    if row == "empire":
        takes = _empire_actions(comp, tuple(state.empire_track), state.era)
        # 6.4: "Before placing cubes, you may voluntarily remove all of your cubes from the world map":
        # `withdraw` is that empire action (the tile is chosen next), so placing never waits for it.
        if on_map is None:
            on_map = bool(occupied(state, seat))
        return [*takes, "withdraw"] if takes and on_map else list(takes)
    used = state.trade_used
    return [action for i, action in _open_boxes(comp, state.era) if i not in used]


@functools.lru_cache(maxsize=256)
def _tile_actions(row: str, offer: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    """(tile, `take <row> <tile>`) for each kind of tile on offer, once per kind, sorted."""
    return tuple((t, f"take {row} {t}") for t in sorted(set(offer)))


@functools.lru_cache(maxsize=256)
def _empire_actions(comp: Components, track: tuple[str, ...], era: int) -> tuple[str, ...]:
    """`take empire <name>` for each empire tile on the track, as played in `era`, once per name."""
    return tuple(f"take empire {n}" for n in sorted(set(comp.empire_names(list(track), era))))


@functools.lru_cache(maxsize=16)
def _open_boxes(comp: Components, era: int) -> tuple[tuple[int, str], ...]:
    """(box, action) for the trade boxes open in `era` (6.5: the era colours at a box's bottom)."""
    return tuple((i, box.action) for i, box in enumerate(comp.trade) if era in box.eras)


#: What a row action needs to be held (6.0: only an action you can carry out): gold, pool cubes and
#: resource discs (the goods of payment.GOODS an action can need; food and VP never are).
Need = tuple[int, int, int]
NOTHING: Need = (0, 0, 0)
#: Mayfair FAQ: cubes are limited; with none in the pool and none on the map (nothing to place,
#: withdraw or fight with) an empire tile cannot be performed.
A_CUBE: Need = (0, 1, 0)


def requirement(comp: Components, state: State, seat: int, action: str) -> list[int]:
    """What the player must keep to perform a row action, per good of payment.GOODS."""
    if action.startswith("take empire") and not occupied(state, seat):
        need = A_CUBE
    else:
        need = _needs(comp, state.era).get(action, NOTHING)
    return [*need, 0, 0]


@functools.lru_cache(maxsize=16)
def _needs(comp: Components, era: int) -> dict[str, Need]:
    """Gold for a progress tile's surcharge (6.1) or a city (6.3), discs and cubes for a wonder,
    discs for a trade box (6.5), by action; every other row action needs nothing. It depends only
    on the data and the era, so it is worked out once per era."""
    needs: dict[str, Need] = {}
    for t, prog in comp.progress.items():
        back = era - prog.era
        needs[f"take progress {t}"] = (comp.rules.progress_surcharge[back] if back > 0 else 0, 0, 0)
    for c, city in comp.cities.items():
        needs[f"take city {c}"] = (city.cost_gold, city.cost_cubes, city.cost_resources)
    for box in comp.trade:
        needs[box.action] = (0, 0, box.discs)
    return needs


def row_actions(
    comp: Components, state: State, seat: int, row: str, cost: int = 0, have: list[int] | None = None
) -> list[str]:
    """The performable actions of one row, after paying `cost` for the disc removed for it (6.0):
    what the action needs must be held, and the cost paid from the rest (`have`: the player's
    holdings, when already known)."""
    gold, cubes, discs, food, vp = have or holdings(state, seat)
    spare = gold + cubes + discs + food + vp - cost
    if spare < 0:
        return []
    if row == "territory":
        return offered(comp, state, seat, row)
    if row == "empire":
        on_map = bool(occupied(state, seat))
        if not on_map and (cubes < 1 or spare < 1):
            return []
        return offered(comp, state, seat, row, on_map)
    needs = _needs(comp, state.era)
    out = []
    for action in offered(comp, state, seat, row):
        g, c, d = needs[action]
        if gold >= g and cubes >= c and discs >= d and spare >= g + c + d:
            out.append(action)
    return out


def own_discs(state: State, seat: int) -> list[str]:
    return [f"remove {row} {i + 1}" for row in ROWS for i, s in enumerate(state.rows[row]) if s == seat]


def discs_left(state: State, row: str, index: int) -> int:
    """6.0: the discs to the left of circle `index` (empty circles are free)."""
    left = state.rows[row][index + 1 :]
    return len(left) - left.count(EMPTY)


def cheapest_disc(state: State, seat: int, row: str) -> int | None:
    """The player's disc in `row` with the fewest discs to its left: their leftmost one (discs fill from the right)."""
    cells = state.rows[row]
    for i in range(len(cells) - 1, -1, -1):
        if cells[i] == seat:
            return i
    return None


def b_cost(comp: Components, state: State, seat: int, row: str, index: int) -> int:
    """6.0: one payment per disc to the left of the removed one, capped at what the player holds
    (RULES-NOTES); Printing waives it."""
    if holds_effect(comp, state, seat, "no_b_turn_position_cost"):
        return 0
    return min(discs_left(state, row, index), sum(holdings(state, seat)))


def b_turn_actions(comp: Components, state: State, seat: int) -> list[str]:
    """6.0 B turn: each row's actions with the player's cheapest disc there (it is removed, paid for,
    and its action taken in one choice), then `remove <row> <circle>` for any particular disc."""
    out: list[str] = []
    removes: list[str] = []
    free = holds_effect(comp, state, seat, "no_b_turn_position_cost")
    have = holdings(state, seat)
    assets = sum(have)
    for row in ROWS:
        mine = [i for i, s in enumerate(state.rows[row]) if s == seat]
        if mine:
            cost = 0 if free else min(discs_left(state, row, mine[-1]), assets)  # the leftmost costs least
            out += row_actions(comp, state, seat, row, cost, have)
            removes += [f"remove {row} {i + 1}" for i in mine]
    return out + removes


def a_turn_actions(comp: Components, state: State, seat: int) -> list[str]:
    """6.0 A turn: the actions of every row with a free circle."""
    out: list[str] = []
    have = holdings(state, seat)
    for row in ROWS:
        if EMPTY in state.rows[row]:
            out += row_actions(comp, state, seat, row, 0, have)
    return out
