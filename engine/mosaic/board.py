"""Questions about the map and a player's civilization that every rule asks.

Influence (Empire Scoring), pillar symbols (technologies, build cards, the
Great Library), region control (Imperial, Tyranny, Colosseum) and where a
piece may be placed (Build, Wonder, golden ages) are computed from the state,
never stored twice.
"""
from __future__ import annotations

from collections import Counter

from .data import PILLARS, Data
from .state import Player, State

CITY_KINDS = ("c", "p")
TOWN_KINDS = ("f", "m")


def owner(code: str) -> int:
    return int(code[1:])


def symbols(d: Data, p: Player) -> Counter:
    """Pillar symbols a player can use: face-up technologies, build cards, Great Library."""
    c: Counter = Counter()
    techs, builds = d.technologies, d.builds
    for t in p.techs:
        for x in techs[t].provides:
            c[x] += 1
    for b in p.builds:
        for x in builds[b].provides:
            c[x] += 1
    if p.library:
        c[p.library] += 2
    return c


def meets(need: dict[str, int], have: Counter) -> bool:
    return all(have[k] >= v for k, v in need.items())


def unique_goods(p: Player) -> int:
    return sum(1 for v in p.goods.values() if v > 0)


def pieces(s: State, seat: int, kinds: str) -> list[str]:
    tags = {k + str(seat) for k in kinds}
    return [h for h, code in s.board.items() if code in tags]


def cities_of(s: State, seat: int) -> list[str]:
    return pieces(s, seat, "cp")


def towns_of(s: State, seat: int) -> list[str]:
    return pieces(s, seat, "fm")


def city_regions(d: Data, s: State, seat: int) -> list[str]:
    """In-play regions holding at least one of this seat's cities (ports included), map order."""
    have = {d.hexes[h].region for h in cities_of(s, seat)}
    return [r for r in s.regions if r in have]


def unit_total(p: Player) -> int:
    return sum(p.units.values())


def influence_rules(d: Data, p: Player) -> dict[str, tuple[int, str]]:
    """Technology influence modifiers: piece -> (value, where); the highest value wins."""
    out: dict[str, tuple[int, str]] = {}
    for t in p.techs:
        card = d.technologies[t]
        if card.influence_piece and card.influence_value > out.get(card.influence_piece, (0, ""))[0]:
            out[card.influence_piece] = (card.influence_value, card.influence_where)
    return out


def influence(d: Data, s: State) -> dict[str, list[int]]:
    """Influence per in-play region per seat (Empire Scoring): city/wonder 2, town/unit 1, plus technologies."""
    r = d.rules
    n = len(s.players)
    inf = {reg: [0] * n for reg in s.regions}
    mods = [influence_rules(d, p) for p in s.players]
    own_city_regions = [set() for _ in range(n)]
    for h, code in s.board.items():
        if code[0] in CITY_KINDS:
            own_city_regions[owner(code)].add(d.hexes[h].region)
    for h, code in s.board.items():
        reg = d.hexes[h].region
        if reg not in inf:
            continue
        seat = owner(code)
        kind = code[0]
        if kind in CITY_KINDS:
            val, where = mods[seat].get("city", (r.city_influence, "any"))
        elif kind == "w":
            val, where = r.wonder_influence, "any"
        else:
            val, where = mods[seat].get("town", (r.town_influence, "any"))
        if where == "regions_with_your_city" and reg not in own_city_regions[seat]:
            val = r.city_influence if kind in CITY_KINDS else r.town_influence
        inf[reg][seat] += val
    for seat, p in enumerate(s.players):
        uval, where = mods[seat].get("military_unit", (r.unit_influence, "any"))
        for reg, k in p.units.items():
            if reg in inf and k:
                v = uval if where != "regions_with_your_city" or reg in own_city_regions[seat] else r.unit_influence
                inf[reg][seat] += v * k
    return inf


def first_places(values: list[int]) -> list[int]:
    top = max(values) if values else 0
    return [i for i, v in enumerate(values) if v == top and v > 0]


def controlled(d: Data, s: State, seat: int, inf: dict[str, list[int]] | None = None) -> list[str]:
    """Regions where the seat has more influence than every other player (N22: a tie for first
    is no majority; Imperial, Tyranny and the Colosseum count these)."""
    inf = inf if inf is not None else influence(d, s)
    out = []
    for reg, vals in inf.items():
        mine = vals[seat]
        if mine > 0 and all(v < mine for i, v in enumerate(vals) if i != seat):
            out.append(reg)
    return out


def cities_in(d: Data, s: State, region: str) -> int:
    return sum(1 for h, c in s.board.items() if c[0] in CITY_KINDS and d.hexes[h].region == region)


def wonders_in(d: Data, s: State, region: str) -> int:
    return sum(1 for h, c in s.board.items() if c[0] == "w" and d.hexes[h].region == region)


def open_hex(d: Data, s: State, h: str) -> bool:
    """Available: in play and nothing built on it."""
    return h not in s.board and d.hexes[h].region in s.regions


def place_candidates(d: Data, s: State, seat: int, purpose: str, wonder: str = "") -> list[str]:
    """Hexes where a piece may go now (Build, Wonder, start city, golden age city)."""
    if purpose in ("city", "start-city", "free-city"):
        return [h for reg in s.regions for h in d.region_hexes[reg]
                if d.hexes[h].kind != "port" and h not in s.board]
    if purpose == "port":
        return [h for reg in s.regions for h in d.region_hexes[reg]
                if d.hexes[h].kind == "port" and h not in s.board]
    if purpose in ("farm", "manufactory", "start-town"):
        out: set[str] = set()
        for c in cities_of(s, seat):
            for nb in d.neighbours[c]:
                if d.hexes[nb].kind != "port" and open_hex(d, s, nb):
                    out.add(nb)
        return sorted(out, key=lambda h: (d.hexes[h].col, d.hexes[h].row))
    if purpose == "wonder":
        rule = d.wonders[wonder].placement
        out2 = []
        for reg in city_regions(d, s, seat):
            if rule == "three_cities" and cities_in(d, s, reg) < 3:
                continue
            for h in d.region_hexes[reg]:
                if h in s.board:
                    continue
                if (d.hexes[h].kind == "port") == (rule == "port"):
                    out2.append(h)
        return out2
    raise ValueError(purpose)


def any_candidate(d: Data, s: State, seat: int, purpose: str) -> bool:
    """`place_candidates(...)` is not empty, found without listing every hex."""
    if purpose in ("city", "start-city", "free-city"):
        return any(d.hexes[h].kind != "port" and h not in s.board for reg in s.regions for h in d.region_hexes[reg])
    if purpose == "port":
        return any(d.hexes[h].kind == "port" and h not in s.board for reg in s.regions for h in d.region_hexes[reg])
    return bool(place_candidates(d, s, seat, purpose))


def symbol_kinds(c: Counter) -> int:
    return sum(1 for p in PILLARS if c[p] > 0)
