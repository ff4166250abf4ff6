"""What each seat may see (law 5).

Public: the map, trade goods, offers, tiles, every player's board, how many
face-down technologies and draft cards each player holds, and which face-down
technologies were taken from the face-up offer (N51). Private to the owner: the
draft hand and picks, the other face-down technologies (drafted, drawn from a
cache, the Philosopher's), and a Republic's look at the top of one deck. Cache
tiles lie face down for everyone.

Keys (renderers/mosaic.py and the bot read them):
- game, phase (leaders | draft | setup | play | over), stage (main | post), turn
  (turns taken by all seats), start_player, to_act, pending {kind, seat, hexes?} or None
  (hexes: the hex ids a `hex <id>` answer may name, when the decision asks for one);
- regions [{id, name, in_play, influence: [per seat]}], pieces [{hex, kind, seat,
  region, wonder?}], trade_goods {hex: good}, caches [hex], fish [hex];
- offers {technology, build, population, tax: [card id or ""]}, decks {name: cards
  left}, holding, scorings_revealed, tiles {wonders, golden_ages, achievements,
  achievements_in_play, achievement_needs {id: what it asks, in words: "15 technologies
  played face up (…)"}, governments, governments_flipped}, leaders_left, end
  {stage, rounds_left};
- players [{seat, name, leader, population, food, stone, ideas, money, production,
  unrest, net_unrest, pillars, technologies (face up), face_down (a count), face_down_seen
  (those of them taken from the offer), builds,
  trade_goods, wonders, golden_ages, achievements, government, units, vp, score,
  score_lines (each line of the final tally as it stands),
  hand and drafted (counts), cities, towns}], scores, last_move, winners;
- private (only with a seat): {seat, face_down, hand, drafted, peek?}.
"""

from __future__ import annotations

from typing import Any

from ..core import Decision
from . import board, economy, scoring
from .data import PILLARS, TRACKS, Data
from .state import State
from .words import achievement_need

KIND = {"c": "city", "p": "port city", "f": "farm town", "m": "manufactory town", "w": "wonder"}


def _pending(d: Data, s: State, top: Decision | None) -> dict[str, Any] | None:
    """The open sub-decision; when it asks for a hex, the hexes it allows (the map is
    public, so every player may see where a city, town or wonder can go)."""
    if top is None:
        return None
    from .rules import decision_legal  # rules imports much of the package; only needed here

    hexes = [a[4:] for a in decision_legal(d, s, top) if a.startswith("hex ")]
    return {"kind": top.kind, "seat": top.seat, **({"hexes": hexes} if hexes else {})}


def view(d: Data, s: State, seat: int | None) -> dict[str, Any]:
    inf = board.influence(d, s)
    needs = {a: achievement_need(d.achievements[a], len(s.players)) for a in s.achievements_in_play}
    lines = [scoring.breakdown(d, s, i, inf) for i in range(len(s.players))]
    totals = s.final or [sum(b.values()) for b in lines]
    wonder_at = {h: w for w, h in s.wonder_hex.items()}
    pieces = []
    for h, code in s.board.items():
        item = {"hex": h, "kind": KIND[code[0]], "seat": board.owner(code), "region": d.hexes[h].region}
        if code[0] == "w":
            item["wonder"] = wonder_at.get(h, "")
        pieces.append(item)
    players = []
    for i, p in enumerate(s.players):
        sym = board.symbols(d, p)
        players.append(
            {
                "seat": i,
                "name": p.name,
                "leader": p.leader,
                "population": p.population,
                "food": p.food,
                "stone": p.stone,
                "ideas": p.ideas,
                "money": p.money,
                "production": {t: economy.production(d, p, t) for t in TRACKS},
                "unrest": p.unrest,
                "net_unrest": scoring.net_unrest(d, p),
                "pillars": {x: sym[x] for x in PILLARS if sym[x]},
                "technologies": list(p.techs),
                "face_down": len(p.hidden),
                "face_down_seen": list(p.seen),
                "builds": list(p.builds),
                "trade_goods": dict(p.goods),
                "wonders": list(p.wonders),
                "golden_ages": list(p.golden_ages),
                "achievements": list(p.achievements),
                "government": p.government,
                "units": {r: k for r, k in p.units.items() if k},
                "vp": p.vp,
                "score": totals[i],
                "score_lines": lines[i],
                "hand": len(p.hand),
                "drafted": len(p.picks),
                "cities": len(board.cities_of(s, i)),
                "towns": len(board.towns_of(s, i)),
            }
        )
    top = s.pending.top
    out = {
        "game": "mosaic",
        "phase": s.phase,
        "stage": s.stage,
        "turn": s.turn_no,
        "start_player": s.start,
        "to_act": _to_act(s),
        "pending": _pending(d, s, top),
        "regions": [
            {
                "id": r,
                "name": d.regions[r].name,
                "in_play": r in s.regions,
                "influence": inf.get(r, [0] * len(s.players)),
            }
            for r in d.regions
        ],
        "pieces": pieces,
        "trade_goods": dict(s.goods_on),
        "caches": sorted(s.cache_on),
        "fish": list(s.fish_on),
        "offers": {
            "technology": list(s.tech_offer),
            "build": list(s.build_offer),
            "population": list(s.pop_offer),
            "tax": list(s.tax_offer),
        },
        "decks": {
            "technology": len(s.tech_deck),
            "build": len(s.build_deck),
            "population": len(s.pop_deck),
            "tax": len(s.tax_deck),
        },
        "holding": s.holding,
        "scorings_revealed": s.scorings,
        "tiles": {
            "wonders": list(s.wonders),
            "golden_ages": list(s.golden_ages),
            "achievements": list(s.achievements),
            "achievements_in_play": list(s.achievements_in_play),
            "achievement_needs": needs,
            "governments": list(s.governments),
            "governments_flipped": list(s.gov_flipped),
        },
        "leaders_left": list(s.leader_pool) if s.phase == "leaders" else [],
        "end": {"stage": s.end_stage, "rounds_left": s.rounds_left},
        "players": players,
        "scores": totals,
        "last_move": list(s.last),
        "winners": scoring.winners(s) if s.phase == "over" else [],
    }
    if seat is not None and 0 <= seat < len(s.players):
        p = s.players[seat]
        private = {"seat": seat, "face_down": list(p.hidden), "hand": list(p.hand), "drafted": list(p.picks)}
        if s.peeked and s.phase == "play" and s.seat == seat:
            deck, card = s.peeked.split(" ")
            private["peek"] = {deck: [card]}
        out["private"] = private
    return out


def _to_act(s: State) -> list[int]:
    if s.phase == "over":
        return []
    if s.phase == "leaders":
        return s.leader_order[:1]
    if s.phase == "draft":
        return list(s.draft_waiting)
    top = s.pending.top
    return [top.seat] if top is not None else [s.seat]
