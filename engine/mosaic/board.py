"""Questions about the map and a player's civilization that every rule asks.

Influence (Empire Scoring), pillar symbols (technologies, build cards, the
Great Library), region control (Imperial, Tyranny, Colosseum) and where a
piece may be placed (Build, Wonder, golden ages) are computed from the state,
never stored twice.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping
from itertools import chain

from .data import PILLARS, Data
from .state import Player, State

CITY_KINDS = ("c", "p")
TOWN_KINDS = ("f", "m")


def owner(code: str) -> int:
    return int(code[1:])


def symbols(d: Data, p: Player) -> Counter[str]:
    """Pillar symbols a player can use: face-up technologies, build cards, Great Library.

    Asked several times for every legal-action list, so the answer is kept per (cards,
    library) in a small bounded cache: it depends on nothing else. Read it, never change it.
    """
    key = (tuple(p.techs), tuple(p.builds), p.library)
    cache = d.symbols_seen
    found = cache.get(key)
    if found is None:
        if len(cache) >= 4096:
            cache.clear()
        techs, builds = d.technologies, d.builds
        found = Counter(
            chain([x for t in p.techs for x in techs[t].provides], [x for b in p.builds for x in builds[b].provides])
        )
        if p.library:
            found[p.library] += 2
        cache[key] = found
    return found


def meets(need: Mapping[str, int], have: Counter[str]) -> bool:
    for k, v in need.items():
        if have.get(k, 0) < v:
            return False
    return True


def unique_goods(p: Player) -> int:
    return sum(1 for v in p.goods.values() if v > 0)


def pieces(s: State, seat: int, kinds: str) -> list[str]:
    tags = {k + str(seat) for k in kinds}
    return [h for h, code in s.board.items() if code in tags]


def cities_of(s: State, seat: int) -> list[str]:
    """Hexes of the seat's cities and port cities."""
    city, port = f"c{seat}", f"p{seat}"
    return [h for h, code in s.board.items() if code == city or code == port]


def towns_of(s: State, seat: int) -> list[str]:
    return pieces(s, seat, "fm")


def city_regions(d: Data, s: State, seat: int) -> list[str]:
    """In-play regions holding at least one of this seat's cities (ports included), map order."""
    have = {d.hexes[h].region for h in cities_of(s, seat)}
    return [r for r in s.regions if r in have]


def cities_per_region(d: Data, s: State, seat: int) -> dict[str, int]:
    """How many of this seat's cities (ports included) each in-play region holds, map order."""
    counts = Counter(d.hexes[h].region for h in cities_of(s, seat))
    return {r: counts[r] for r in s.regions if counts[r]}


def unit_total(p: Player) -> int:
    return sum(p.units.values())


def influence_rules(d: Data, p: Player) -> dict[str, tuple[int, str]]:
    """Technology influence modifiers: piece -> (value, where); the highest value wins."""
    out: dict[str, tuple[int, str]] = {}
    for t in p.techs:
        if t not in d.influence_techs:
            continue
        card = d.technologies[t]
        if card.influence_piece and card.influence_value > out.get(card.influence_piece, (0, ""))[0]:
            out[card.influence_piece] = (card.influence_value, card.influence_where)
    return out


#: Which technology influence modifier applies to a piece code ("u": a military unit).
MODIFIED = {"c": "city", "p": "city", "f": "town", "m": "town", "u": "military_unit"}


def influence(d: Data, s: State) -> dict[str, list[int]]:
    """Influence per in-play region per seat (Empire Scoring): city/wonder 2, town/unit 1, plus technologies."""
    r = d.rules
    n = len(s.players)
    inf = {reg: [0] * n for reg in s.regions}
    region_of = d.hex_region
    base = {
        "c": r.city_influence,
        "p": r.city_influence,
        "w": r.wonder_influence,
        "f": r.town_influence,
        "m": r.town_influence,
        "u": r.unit_influence,
    }
    mods = [influence_rules(d, p) for p in s.players]
    pieces = d.piece_codes
    if not any(mods):  # the printed values only: the common case, kept quick
        for h, code in s.board.items():
            vals = inf.get(region_of[h])
            if vals is not None:
                kind, seat = pieces[code]
                vals[seat] += base[kind]
        for seat, p in enumerate(s.players):
            for reg, k in p.units.items():
                if k and reg in inf:
                    inf[reg][seat] += r.unit_influence * k
        return inf
    city_regions: list[set[str]] = [set() for _ in range(n)]  # for "in regions with one of your cities"
    for h, code in s.board.items():
        if code[0] in CITY_KINDS:
            city_regions[int(code[1:])].add(region_of[h])

    def value(seat: int, kind: str, reg: str) -> int:
        mod = mods[seat].get(MODIFIED.get(kind, ""))
        if mod and (mod[1] != "regions_with_your_city" or reg in city_regions[seat]):
            return mod[0]
        return base[kind]

    for h, code in s.board.items():
        reg = region_of[h]
        vals = inf.get(reg)
        if vals is not None:
            kind, seat = pieces[code]
            vals[seat] += value(seat, kind, reg)
    for seat, p in enumerate(s.players):
        for reg, k in p.units.items():
            vals = inf.get(reg)
            if vals is not None and k:
                vals[seat] += value(seat, "u", reg) * k
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
        top = max(vals)
        if top > 0 and vals[seat] == top and vals.count(top) == 1:
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
    """Hexes where a piece may go now (Build, Wonder, start city, golden age city), in map order
    (towns: by column, then row)."""
    found = list(_candidates(d, s, seat, purpose, wonder))
    if purpose in ("farm", "manufactory", "start-town"):
        found.sort(key=lambda h: (d.hexes[h].col, d.hexes[h].row))
    return found


def any_candidate(d: Data, s: State, seat: int, purpose: str, wonder: str = "") -> bool:
    """`place_candidates(...)` is not empty, found without listing every hex."""
    if purpose in ("city", "start-city", "free-city", "port"):  # asked for every list: the quick way
        sites = d.port_hexes if purpose == "port" else d.inland_hexes
        taken = s.board
        return any(h not in taken for reg in s.regions for h in sites[reg])
    return next(_candidates(d, s, seat, purpose, wonder), None) is not None


def _candidates(d: Data, s: State, seat: int, purpose: str, wonder: str) -> Iterator[str]:
    hexes, taken = d.hexes, s.board
    if purpose in ("city", "start-city", "free-city", "port"):
        sites = d.port_hexes if purpose == "port" else d.inland_hexes
        for reg in s.regions:
            for h in sites[reg]:
                if h not in taken:
                    yield h
    elif purpose in ("farm", "manufactory", "start-town"):
        seen: set[str] = set()
        for c in cities_of(s, seat):
            for nb in d.neighbours[c]:
                if nb not in seen and hexes[nb].kind != "port" and open_hex(d, s, nb):
                    seen.add(nb)
                    yield nb
    elif purpose == "wonder":
        rule = d.wonders[wonder].placement
        for reg in city_regions(d, s, seat):
            if rule == "three_cities" and cities_in(d, s, reg) < 3:
                continue
            for h in d.region_hexes[reg]:
                if h not in taken and (hexes[h].kind == "port") == (rule == "port"):
                    yield h
    else:
        raise ValueError(purpose)


def symbol_kinds(c: Counter[str]) -> int:
    return sum(1 for p in PILLARS if c[p] > 0)
