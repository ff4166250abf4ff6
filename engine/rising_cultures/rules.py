"""What a player's table adds up to: resources, military strength, income, costs.

Nothing here changes the state. Effects come from four places (rulebook "Unlocked
Abilities"): buildings and uncovered leaders in the display, progress levels
reached on the civilization board, won provinces, and (Egypt's overview) Nile
cards the player has a coin on. They count from the moment they are in play.
"""

from __future__ import annotations

from .data import DATA, RESOURCES, SYMBOLS, Card, Effect
from .state import COINS_PER_MISSING, Player, State

CARDS = DATA.cards
BOARDS = DATA.boards
PROVINCES = DATA.provinces


def level(p: Player) -> int:
    """Progress level = cards in the progress area (one per green band)."""
    return len(p.progress)


def max_level(p: Player) -> int:
    return len(BOARDS[p.civ].levels)


def golden_age(p: Player) -> bool:
    """The board is on its Golden Age side once a level with a `golden_age` unlock is reached."""
    return any(e.type == "golden_age" for lv in BOARDS[p.civ].levels[: len(p.progress)] for e in lv)


def active_cards(p: Player) -> list[str]:
    """Buildings and uncovered leaders: the cards whose effects are in use (4) Construct...)."""
    return p.buildings + [stack[-1] for stack in p.leaders if stack]


def covered_leaders(p: Player) -> list[str]:
    return [c for stack in p.leaders for c in stack[:-1]]


def effects(s: State, seat: int) -> list[Effect]:
    """Every effect in use by `seat`: display cards, reached progress levels, owned Nile cards."""
    p = s.players[seat]
    out: list[Effect] = []
    for cid in p.buildings:
        out.extend(CARDS[cid].effects)
    for stack in p.leaders:
        out.extend(CARDS[stack[-1]].effects)
    for lv in BOARDS[p.civ].levels[: len(p.progress)]:
        out.extend(lv)
    if s.nile_coins:
        for i, owners in enumerate(s.nile_coins):
            if seat in owners:
                out.extend(DATA.nile[i].effects)
    return out


def resources(s: State, seat: int, effs: list[Effect] | None = None) -> dict[str, int]:
    """Available resources per stream: resource area + board + provinces + effects."""
    p = s.players[seat]
    board = BOARDS[p.civ].printed
    total = {r: getattr(board, r) for r in RESOURCES}
    for cid in p.resources:
        strip = CARDS[cid].strip
        total["wood"] += strip.wood
        total["brick"] += strip.brick
        total["stone"] += strip.stone
        total["gold"] += strip.gold
    for pid in p.provinces:
        prov = PROVINCES[pid]
        if prov.effect == "resource":
            total[prov.resource] += prov.amount
    for e in effects(s, seat) if effs is None else effs:
        if e.type == "resource":
            total[e.resource] += e.amount
    return total


def military_area(p: Player) -> dict[str, int]:
    """Symbols in the military area: each card's symbol plus the printed symbol of its band.

    A printed band symbol counts only while a card lies on that band (2) Increase Your
    Military Strength).
    """
    total = dict.fromkeys(SYMBOLS, 0)
    bands = BOARDS[p.civ].military_bands
    for i, cid in enumerate(p.military):
        total[CARDS[cid].military] += 1
        if bands[i]:
            total[bands[i]] += 1
    return total


def military(s: State, seat: int, effs: list[Effect] | None = None) -> dict[str, int]:
    """Military strength: the military area plus military symbols from effects."""
    total = military_area(s.players[seat])
    for e in effects(s, seat) if effs is None else effs:
        if e.type == "military":
            total[e.symbol] += e.amount
    return total


def province_strength(s: State, seat: int, pid: int) -> int:
    """Symbols among the types shown on province `pid` (Phase III, 1) Province Card)."""
    mil = military(s, seat)
    return sum(mil[sym] for sym in PROVINCES[pid].symbols)


def tie_winner(s: State, tied: list[int]) -> int:
    """Who wins a Province tie: the progress marker holder, unless exactly one tied player
    has a `province_tie_win` card (Curia, Behistun Inscription)."""
    cards = [seat for seat in tied if has(effects(s, seat), "province_tie_win")]
    return cards[0] if len(cards) == 1 else s.marker


def income(s: State, seat: int, effs: list[Effect] | None = None) -> int:
    """Phase I income: the board (silver or Golden Age side) plus income effects."""
    p = s.players[seat]
    board = BOARDS[p.civ]
    total = board.base_income + (board.golden_age_income if golden_age(p) else 0)
    for e in effects(s, seat) if effs is None else effs:
        if e.type == "income":
            total += e.amount
    return total


def count(effs: list[Effect], kind: str, attr: str = "amount") -> int:
    return sum(getattr(e, attr) for e in effs if e.type == kind)


def has(effs: list[Effect], kind: str) -> bool:
    return any(e.type == kind for e in effs)


def missing(card: Card, available: dict[str, int]) -> dict[str, int]:
    """Resources short of the card's requirement, per stream (nothing is spent)."""
    cost = card.cost
    return {r: max(0, getattr(cost, r) - available[r]) for r in RESOURCES}


def build_price(
    s: State, seat: int, card: Card, effs: list[Effect] | None = None, available: dict[str, int] | None = None
) -> tuple[int, int]:
    """(missing resources, coins to pay): 2 coins per missing resource, less discounts.

    Each `shortfall_discount` source lets one missing resource cost 1 coin instead of 2
    (RULES-NOTES: discounts from different sources apply to different resources).
    """
    effs = effects(s, seat) if effs is None else effs
    have = resources(s, seat, effs) if available is None else available
    short = sum(missing(card, have).values())
    if not short:
        return 0, 0
    coins = COINS_PER_MISSING * short
    discounted = 0
    for e in effs:
        if e.type == "shortfall_discount":
            n = min(e.max_per_build or short, short - discounted)
            discounted += n
            coins -= n * (COINS_PER_MISSING - e.coins_per_missing)
    return short, coins


def free_swaps(s: State, seat: int, effs: list[Effect] | None = None) -> int:
    """Free swaps each round: card and level effects plus Mauretania (once per round)."""
    p = s.players[seat]
    effs = effects(s, seat) if effs is None else effs
    n = count(effs, "free_swap", "per_round")
    n += sum(1 for pid in p.provinces if PROVINCES[pid].effect == "free_swap")
    return n


def coin_limit(s: State, seat: int, effs: list[Effect] | None = None) -> int:
    """Phase III, 3) Coin Limit: 7 (Egypt 5) plus coin-limit effects."""
    p = s.players[seat]
    return BOARDS[p.civ].coin_limit + count(effects(s, seat) if effs is None else effs, "coin_limit")


def covered_score_level(civ: str) -> int:
    """The progress level from which `civ`'s covered leaders score (0: never)."""
    levels = BOARDS[civ].levels
    return next((i + 1 for i, lv in enumerate(levels) if has(lv, "covered_leaders_score")), 0)


def covered_leaders_score(p: Player) -> bool:
    """Persia and Rome score covered leaders from "the relevant progress level" (End of the Game)."""
    return any(e.type == "covered_leaders_score" for lv in BOARDS[p.civ].levels[: len(p.progress)] for e in lv)


def nile_coins_of(s: State, seat: int) -> int:
    return sum(owners.count(seat) for owners in s.nile_coins)


def leader_slots(p: Player) -> int:
    return BOARDS[p.civ].leader_slots


def leader_places(p: Player) -> list[str]:
    """Where a new leader may go (4) "place it on top of (cover) the previous one"): on top of
    each uncovered leader, and on a free leader stack ("" first: the usual choice) while the
    board has one (Persia's 2 stacks). One place is no choice and is played at once."""
    tops = [stack[-1] for stack in p.leaders]
    return ([""] if len(p.leaders) < leader_slots(p) else []) + tops
