"""What one seat (or the public) may see: a JSON-safe picture for renderers and the bot.

Hidden information (law 5): hands, deck order and swap draws are private. The
public view (`seat=None`) and the opponent see only counts; a seat sees its own
hand (with what each use of each card would do) and the card it knows lies on top
of its own deck. Discard piles, display, military, resource and progress areas and
provinces are public.

Keys are stable: later versions add keys, never rename them.

Top level:
- `game` "rising-cultures"; `seat` the viewer (int or None); `title`.
- `match` bool (two-game match); `game_no` 1|2; `first_game_scores` [int, int] or None.
- `round` 0..7 (0 = setup); `rounds` 7; `phase`: "civ" | "opening" | "draw" | "play" |
  "province" | "cost" | "marker" | "nile" | "over" (decisions in Phase III show their
  phase as the current `pending.kind`).
- `to_act` [seat...]; `turn` seat playing a card in Phase II (None otherwise);
  `marker` seat holding the progress marker; `supply` coins in the general supply.
- `pending` None or {"kind": compete|maghreb|keep|nile|cover|progress|develop,
  "seat": int, "card": card dict or None, "text": what is being decided, e.g.
  "whether to compete for Gaul"} — the open sub-decision; `text` says "your" only in
  the deciding seat's own view, the decider's name elsewhere ("which of ann's leaders
  Xerxes I covers").
- `province_row` [province dict] leftmost first (the current one is first);
  `current_province` province dict or None; `boxed_provinces` [province dict].
- `nile` [] or [{"id", "slug", "name", "developed": bool, "spaces": int,
  "coins": [seat per coin], "effect": text}] (only when Egypt is in play).
- `scores` [int] running totals (match: both games); `winners` [seat] ([] until over).
- `players` [player dict] by seat.

Player dict:
- `seat`, `name`, `civ` (id or ""), `civ_name`, `coins`, `coin_limit`, `income`,
  `hand_count`, `deck_count`, `step` (own step in simultaneous phases: opening|income|
  bottom|swap|ready|""), `played` (cards played this round), `to_bottom`,
  `swaps`: {"paid": n, "paid_max": 2, "free_used": n, "free": n} (`paid`: cards swapped
  for coins this round; one paid swap a round of 1 or `paid_max` cards).
- `display`: {"buildings": [card dict], "leaders": [card dict + "covered": bool,
  "stack": i, "scores": bool]}.
- `military`: {"bands": [{"band": 1.., "printed": symbol|None, "card": card dict|None,
  "card_symbol": symbol|None, "active": bool}], "area": {sword, horse, shield},
  "strength": {sword, horse, shield} (area + effects)}.
- `resource_area`: [card dict] in play order (last = last-played);
  `resources`: {wood, brick, stone, gold} available in total (cards, board, provinces,
  effects).
- `progress`: {"level": n, "max": 7, "cards": [card dict], "golden_age": bool,
  "unlocks": [{"level": n, "texts": [str], "unlocked": bool}]}; `golden_age`: bool.
- `discard`: [card dict] (public pile).
- `provinces`: [province dict].
- `score`: {"buildings_leaders", "board", "provinces", "marker", "total"} this game.
- `overview`: [str] the civilization overview's own rules (coin limit, leaders, covered
  leaders, discard-pile progress, printed resources, the Nile); [] before the choice.
- Before the player has a civilization (phase "civ"): `civ` "", `coin_limit` None,
  `swaps` None, empty areas and a zero `score`.
- Owner only (`seat` == this player): `hand` [card dict + "uses"], `known_top`
  (card dict or None) and `known_bottom` ([card dict]: the cards the player put at the
  bottom of their deck and has not drawn again, in deck order, the bottom-most last).
  Others get `hand`, `known_top` and `known_bottom` None.

Card dict: {"id", "slug", "name", "kind": building|leader, "vp", "cost": {wood, brick,
stone, gold}, "strip": {wood, brick, stone, gold, coin}, "military": symbol,
"effects": [text]}.
Hand card "uses": {"coins": 2, "military": {"possible": bool, "band": n|None,
"symbol": symbol, "printed": symbol|None}, "resources": {wood.., "coin"},
"build": {"possible": bool, "met": bool, "missing": {wood..}, "shortfall": n,
"coins": n}}.
Province dict: {"id", "slug", "name", "symbols": [symbol], "vp", "icon", "text"}.
"""

from __future__ import annotations

from dataclasses import asdict
from functools import cache
from typing import Any

from . import explain, rules, scoring
from .data import DATA, RESOURCES, Card, Effect
from .rules import BOARDS, CARDS, PROVINCES
from .state import COINS_USE, PAID_SWAPS, ROUNDS, State


def card_dict(cid: str) -> dict[str, Any]:
    """A card as views show it: a fresh dict each time (a view is the caller's to keep), made
    from the card's printed facts worked out once (a view names ~20 cards: building them
    anew with `asdict` was most of a view's time, which a page's replay of a log pays a step)."""
    printed = _printed(cid)
    fresh = {"cost": dict(printed["cost"]), "strip": dict(printed["strip"]), "effects": list(printed["effects"])}
    return printed | fresh


@cache
def _printed(cid: str) -> dict[str, Any]:
    """The card's printed facts (the data never changes once loaded); never handed out itself."""
    c: Card = CARDS[cid]
    return {
        "id": c.id,
        "slug": c.slug,
        "name": c.name,
        "kind": c.kind,
        "vp": c.vp,
        "cost": asdict(c.cost),
        "strip": asdict(c.strip),
        "military": c.military,
        "effects": [e.describe() for e in c.effects],
    }


def province_dict(pid: int) -> dict[str, Any]:
    p = PROVINCES[pid]
    return {
        "id": p.id,
        "slug": p.slug,
        "name": p.name,
        "symbols": list(p.symbols),
        "vp": p.vp,
        "icon": p.icon,
        "text": p.text,
    }


def hand_card(s: State, seat: int, cid: str, effs: list[Effect], have: dict[str, int]) -> dict[str, Any]:
    p = s.players[seat]
    card = CARDS[cid]
    bands = BOARDS[p.civ].military_bands
    band = len(p.military)
    short = rules.missing(card, have)
    n, price = rules.build_price(s, seat, card, effs, have)
    out = card_dict(cid)
    out["uses"] = {
        "coins": COINS_USE,
        "military": {
            "possible": band < len(bands),
            "band": band + 1 if band < len(bands) else None,
            "symbol": card.military,
            "printed": (bands[band] or None) if band < len(bands) else None,
        },
        "resources": asdict(card.strip),
        "build": {"possible": price <= p.coins, "met": n == 0, "missing": short, "shortfall": n, "coins": price},
    }
    return out


def overview(civ: str) -> list[str]:
    """The civilization overview's own rules, as short texts (read from the board data)."""
    board = BOARDS[civ]
    out = [f"Coin limit {board.coin_limit} at the end of each round."]
    if board.leader_slots > 1:
        out.append(
            f"Up to {board.leader_slots} leaders at a time (one per leader stack); "
            "a new leader goes on a free stack or on top of a leader, your choice."
        )
    else:
        out.append("One leader at a time: a new leader covers the previous one.")
    covered = rules.covered_score_level(civ)
    if covered:
        out.append(f"From progress level {covered}, covered leaders score too.")
    if board.progress_from_discard:
        out.append("A progress move may use any card from your discard pile instead of your last-played resource card.")
    printed = [f"{getattr(board.printed, r)} {r}" for r in (*RESOURCES, "coin") if getattr(board.printed, r)]
    if printed:
        out.append(f"The board's resource area prints {', '.join(printed)} (a coin is taken at setup).")
    if board.nile:
        spaces = sorted({n.spaces for n in DATA.nile})
        out.append(
            f"The Nile: you develop Nile cards; in Phase III, before the coin limit, each player "
            f"may put own coins on developed ones ({'/'.join(map(str, spaces))} per card). "
            "A coin there stays its owner's, is not spent, does not count toward the coin "
            "limit and gives its owner the card's effect; you score 1 VP per opponent coin "
            "on the Nile."
        )
    return out


def player_view(s: State, seat: int, viewer: int | None) -> dict[str, Any]:
    p = s.players[seat]
    out: dict[str, Any] = {
        "seat": seat,
        "name": p.name,
        "civ": p.civ,
        "civ_name": BOARDS[p.civ].name if p.civ else "",
        "coins": p.coins,
        "hand_count": len(p.hand),
        "deck_count": len(p.deck),
        "step": p.step,
        "played": p.played,
        "to_bottom": p.to_bottom,
        "discard": [card_dict(c) for c in p.discard],
        "provinces": [province_dict(pid) for pid in p.provinces],
        "hand": None,
        "known_top": None,
        "known_bottom": None,
        "overview": overview(p.civ) if p.civ else [],
    }
    if not p.civ:
        out.update(
            coin_limit=None,
            income=0,
            swaps=None,
            display={"buildings": [], "leaders": []},
            military={"bands": [], "area": {}, "strength": {}},
            resource_area=[],
            resources=dict.fromkeys(RESOURCES, 0),
            golden_age=False,
            progress={"level": 0, "max": 0, "cards": [], "golden_age": False, "unlocks": []},
            score={"buildings_leaders": 0, "board": 0, "provinces": 0, "marker": 0, "total": 0},
        )
        return out
    board = BOARDS[p.civ]
    effs = rules.effects(s, seat)
    have = rules.resources(s, seat, effs)
    covered_ok = rules.covered_leaders_score(p)
    leaders = []
    for i, stack in enumerate(p.leaders):
        for j, cid in enumerate(stack):
            top = j == len(stack) - 1
            leaders.append(card_dict(cid) | {"covered": not top, "stack": i, "scores": top or covered_ok})
    bands = []
    for i, printed in enumerate(board.military_bands):
        placed = p.military[i] if i < len(p.military) else None
        bands.append(
            {
                "band": i + 1,
                "printed": printed or None,
                "card": card_dict(placed) if placed else None,
                "card_symbol": CARDS[placed].military if placed else None,
                "active": bool(placed and printed),
            }
        )
    level = len(p.progress)
    out.update(
        coin_limit=rules.coin_limit(s, seat, effs),
        income=rules.income(s, seat, effs),
        swaps={
            "paid": p.paid_swaps,
            "paid_max": PAID_SWAPS,
            "free_used": p.free_swaps,
            "free": rules.free_swaps(s, seat, effs),
        },
        display={"buildings": [card_dict(c) for c in p.buildings], "leaders": leaders},
        military={"bands": bands, "area": rules.military_area(p), "strength": rules.military(s, seat, effs)},
        resource_area=[card_dict(c) for c in p.resources],
        resources=have,
        golden_age=rules.golden_age(p),
        progress={
            "level": level,
            "max": len(board.levels),
            "cards": [card_dict(c) for c in p.progress],
            "golden_age": rules.golden_age(p),
            "unlocks": [
                {"level": i + 1, "texts": [e.describe() for e in lv], "unlocked": i < level}
                for i, lv in enumerate(board.levels)
            ],
        },
        score=scoring.breakdown(s, seat),
    )
    if viewer == seat:
        out["hand"] = [hand_card(s, seat, c, effs, have) for c in p.hand]
        out["known_top"] = card_dict(p.known_top) if p.known_top and p.deck and p.deck[0] == p.known_top else None
        out["known_bottom"] = [card_dict(c) for c in p.known_bottom]
    return out


def view(s: State, seat: int | None, to_act: list[int]) -> dict[str, Any]:
    d = s.pending[-1] if s.pending else None
    pend = None
    if d is not None:
        pend = {
            "kind": d.kind,
            "seat": d.seat,
            "card": card_dict(d.card) if d.card in CARDS else None,
            "text": explain.decision(s, seat),
        }
    nile = []
    if s.nile_developed:
        nile = [
            {
                "id": n.id,
                "slug": n.slug,
                "name": n.name,
                "developed": s.nile_developed[i],
                "spaces": n.spaces,
                "coins": list(s.nile_coins[i]),
                "effect": "; ".join(e.describe() for e in n.effects),
            }
            for i, n in enumerate(DATA.nile)
        ]
    return {
        "game": "rising-cultures",
        "title": "Rising Cultures",
        "seat": seat,
        "match": s.match,
        "game_no": s.game_no,
        "first_game_scores": list(s.first_scores) or None,
        "round": s.round,
        "rounds": ROUNDS,
        "phase": s.phase,
        "to_act": list(to_act),
        "turn": s.turn if s.phase == "play" and not s.pending else None,
        "marker": s.marker,
        "supply": s.supply,
        "pending": pend,
        "province_row": [province_dict(pid) for pid in s.row],
        "current_province": province_dict(s.row[0]) if s.row else None,
        "boxed_provinces": [province_dict(pid) for pid in s.boxed],
        "nile": nile,
        "scores": scoring.match_totals(s) if all(p.civ for p in s.players) else [0] * len(s.players),
        "winners": scoring.winners(s),
        "players": [player_view(s, i, seat) for i in range(len(s.players))],
    }
