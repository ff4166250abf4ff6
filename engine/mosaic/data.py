"""Mosaic component data: TOML under `data/`, read once and validated.

Every table of the rulebook's quick reference (achievements, golden ages,
wonders, governments, leaders), the map, the trade goods and cache tiles, and
the four decks (technology, build, population, tax & tariff) are data, so an
owner of the physical game can replace the reconstructed cards without code
changes (shared/research/README.md, policy 3).
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from engine.core import DataError, data_path, load_entries, load_table

GAME_ID = "mosaic"
PACKAGE = Path(__file__).parent

PILLARS = ("science", "economy", "food", "population", "building", "culture", "government", "military", "urbanization")
CURRENCIES = ("food", "stone", "ideas", "money")
#: A cost in one currency: (currency, amount); money may stand in for the others at 2:1.
Cost = tuple[str, int]
#: What makes two build cards alike to build: their type and their cost, item by item.
KindAndCost = tuple[str, tuple[tuple[str, int], ...]]
#: What a player's pillar symbols depend on: face-up technologies, build cards, the Great Library's pillar.
SymbolsKey = tuple[tuple[str, ...], tuple[str, ...], str]
TRACKS = ("ideas", "food", "stone", "tax", "tariff")
BUILD_TYPES = ("city", "port_city", "farm_town", "manufactory_town", "project")
MAX_PLAYERS = 6
#: What a civilization achievement may measure (achievements.Progress answers each).
MEASURES = (
    "population",
    "projects_and_wonders",
    "port_cities",
    "regions_controlled",
    "cities",
    "military_units",
    "unique_trade_goods",
    "money",
    "pillar_kinds",
    "tech_cards",
    "idea_production",
    "food_production",
    "stone_production",
    "tax_production",
    "tariff_production",
)


@dataclass
class Region:
    id: str
    name: str
    summary_name: str
    in_play_from_players: int
    colour: str
    source: str
    note: str = ""


@dataclass
class Adjacency:
    a: str
    b: str
    source: str
    note: str = ""


@dataclass
class Hex:
    id: str
    col: int
    row: int
    region: str
    kind: str  # land | cache | port
    px: list[int]
    source: str
    note: str = ""


@dataclass
class Rules:
    start_population: int
    population_fallback_food: int
    population_fallback_gain: int
    tax_fallback_per_population: int
    tariff_fallback_per_trade_good: int
    fallback_unrest: int
    city_stone: int
    city_population: int
    city_holding: int
    port_holding: int
    project_stone: int
    project_ideas: int
    wonder_stone: int
    wonder_food: int
    wonder_step_stone: int
    wonder_step_food: int
    technology_ideas: int
    recruit_money: int
    recruit_limit: int
    move_money: int
    money_per_currency: int
    first_place_vp: int
    second_place_vp: int
    city_influence: int
    wonder_influence: int
    town_influence: int
    unit_influence: int
    final_city_vp: int
    final_town_vp: int
    manufactory_set_vp: int
    scribe_end_actions: int
    achievements_in_play: int
    source: str
    note: str = ""


@dataclass
class Pillar:
    id: str
    name: str
    source: str
    note: str = ""


@dataclass
class Achievement:
    id: str
    name: str
    measure: str
    threshold: int
    threshold_2_3_players: int
    vp: int
    source: str
    note: str = ""


@dataclass
class GoldenAge:
    id: str
    name: str
    pillar: str
    symbols: int
    benefit: str  # population | production | any_currency | free_city | military_units
    amount: int
    vp: int
    source: str
    track: str = ""
    note: str = ""


@dataclass
class Wonder:
    id: str
    name: str
    vp_kind: str
    vp: int
    unrest_cancel: int
    placement: str  # any | port | three_cities
    library_symbols: int
    text: str
    source: str
    note: str = ""


@dataclass
class Government:
    id: str
    name: str
    requires: dict[str, int]
    cost_ideas: int
    production: dict[str, int]
    peek: bool
    scoring: str
    vp_2_3_players: int
    vp: int
    text: str
    source: str
    note: str = ""


@dataclass
class Leader:
    id: str
    name: str
    production: dict[str, int]
    start: dict[str, int]
    text: str
    source: str
    choose_production: int = 0
    unrest_cancel: int = 0
    recruit_limit: int = 0
    note: str = ""


@dataclass
class TradeGood:
    id: str
    name: str
    count: int
    blank: bool
    source: str
    track: str = ""
    bonus: int = 0
    on_ports: bool = False
    note: str = ""


@dataclass
class Cache:
    id: str
    benefit: str
    amount: int
    copies: int
    source: str
    note: str = ""


@dataclass
class DeckRules:
    offer: int
    source: str
    cost_ideas: int = 0
    starting_dealt: int = 0
    scoring_third_4_6_players: int = 0
    scoring_third_2_3_players: int = 0
    size_2_3_players: int = 0
    size_4_5_players: int = 0
    size_6_players: int = 0
    note: str = ""


@dataclass
class Technology:
    id: str
    code: str
    name: str
    starting: bool
    tier: int
    requires: dict[str, int]
    provides: list[str]
    vp_kind: str  # none | fixed | per_symbol
    text: str
    source: str
    effect: str = ""  # "" | once | ongoing
    gain: dict[str, int] = field(default_factory=dict)
    production: dict[str, int] = field(default_factory=dict)
    population: int = 0
    military_units: int = 0
    unrest_cancel: int = 0
    influence_piece: str = ""
    influence_value: int = 0
    influence_where: str = ""
    vp: int = 0
    vp_pillar: str = ""
    note: str = ""


@dataclass
class BuildCard:
    id: str
    code: str
    type: str
    name: str
    provides: list[str]
    cost: dict[str, int]
    text: str
    source: str
    gain: dict[str, int] = field(default_factory=dict)
    production: dict[str, int] = field(default_factory=dict)
    vp_pillar: str = ""
    trade_goods: list[str] = field(default_factory=list)
    trade_goods_vp: int = 0
    note: str = ""

    @functools.cached_property
    def currency_cost(self) -> tuple[Cost, ...]:
        """The cost that money may stand in for; population never."""
        return tuple((k, v) for k, v in self.cost.items() if k != "population")

    @property
    def population_cost(self) -> int:
        return self.cost.get("population", 0)

    @functools.cached_property
    def kind_and_cost(self) -> KindAndCost:
        """Cards alike in type and cost are alike to build (options.can_build)."""
        return (self.type, tuple(sorted(self.cost.items())))


@dataclass
class PopulationCard:
    id: str
    population: int
    food_cost: int
    source: str
    note: str = ""


@dataclass
class TaxCard:
    id: str
    kind: str  # tax | tariff
    multiplier: int
    unrest: int
    source: str
    note: str = ""


@dataclass
class Data:
    rules: Rules
    regions: dict[str, Region]
    adjacency: dict[str, list[str]]
    hexes: dict[str, Hex]
    neighbours: dict[str, list[str]]
    pillars: list[str]
    achievements: dict[str, Achievement]
    golden_ages: dict[str, GoldenAge]
    wonders: dict[str, Wonder]
    governments: dict[str, Government]
    leaders: dict[str, Leader]
    trade_goods: dict[str, TradeGood]
    caches: list[Cache]
    tech_deck: DeckRules
    build_deck: DeckRules
    population_deck: DeckRules
    tax_deck: DeckRules
    technologies: dict[str, Technology]
    builds: dict[str, BuildCard]
    population_cards: dict[str, PopulationCard]
    tax_cards: dict[str, TaxCard]
    region_hexes: dict[str, list[str]] = field(default_factory=dict)
    hex_region: dict[str, str] = field(default_factory=dict)  # derived from `hexes`, for the hot paths:
    inland_hexes: dict[str, list[str]] = field(default_factory=dict)  # region -> its non-port hexes
    port_hexes: dict[str, list[str]] = field(default_factory=dict)  # region -> its port hexes
    influence_techs: frozenset[str] = frozenset()  # technologies that change influence
    piece_codes: dict[str, tuple[str, int]] = field(default_factory=dict)  # "c2" -> ("c", 2): State.board codes
    #: board.symbols' cache
    symbols_seen: dict[SymbolsKey, Counter[str]] = field(default_factory=dict, repr=False, compare=False)


def _path(name: str) -> Path:
    return data_path(PACKAGE, GAME_ID, name)


def _check_pillars(names: Iterable[str], where: str) -> str | None:
    bad = [p for p in names if p not in PILLARS]
    return f"{where}: unknown pillar(s) {', '.join(bad)}; known: {', '.join(PILLARS)}" if bad else None


def _check_tracks(tracks: Iterable[str], where: str) -> str | None:
    bad = [t for t in tracks if t not in TRACKS]
    return f"{where}: unknown production track(s) {', '.join(bad)}; known: {', '.join(TRACKS)}" if bad else None


def _check_tech(t: Technology) -> str | None:
    return (
        _check_pillars(t.requires, "requires")
        or _check_pillars(t.provides, "provides")
        or _check_tracks(t.production, "production")
        or (
            None
            if t.vp_kind in ("none", "fixed", "per_symbol")
            else f"vp_kind {t.vp_kind!r} is not none, fixed or per_symbol"
        )
        or (None if t.effect in ("", "once", "ongoing") else f"effect {t.effect!r} is not once or ongoing")
        or (
            None
            if t.influence_piece in ("", "town", "city", "military_unit")
            else f"influence_piece {t.influence_piece!r} unknown"
        )
    )


def _check_build(b: BuildCard) -> str | None:
    if b.type not in BUILD_TYPES:
        return f"type {b.type!r} is not one of {', '.join(BUILD_TYPES)}"
    if b.type == "manufactory_town" and len(b.trade_goods) != 3:
        return "a manufactory town names exactly 3 trade goods"
    return _check_pillars(b.provides, "provides") or _check_tracks(b.production, "production")


@functools.lru_cache(maxsize=1)
def load() -> Data:
    """All Mosaic data, validated; cached for the process (data files do not change while running)."""
    mp, tb = _path("map.toml"), _path("tables.toml")
    regions = {r.id: r for r in load_entries(mp, "region", Region)}
    adjacency: dict[str, list[str]] = {r: [] for r in regions}
    for a in load_entries(mp, "adjacency", Adjacency, key="no-key"):  # rows are pairs, no id
        for x, y in ((a.a, a.b), (a.b, a.a)):
            if x not in regions:
                raise DataError(f"{mp}: adjacency names unknown region {x!r}")
            adjacency[x].append(y)
    hexes = {
        h.id: h
        for h in load_entries(
            mp,
            "hex",
            Hex,
            check=lambda h: (
                None
                if h.region in regions and h.kind in ("land", "cache", "port")
                else f"region {h.region!r} or kind {h.kind!r} unknown"
            ),
        )
    }
    at = {(h.col, h.row): h.id for h in hexes.values()}
    neighbours = {}
    for h in hexes.values():
        offs = (
            ((0, -1), (0, 1), (-1, -1), (-1, 0), (1, -1), (1, 0))
            if h.col % 2
            else ((0, -1), (0, 1), (-1, 0), (-1, 1), (1, 0), (1, 1))
        )
        neighbours[h.id] = [at[(h.col + dc, h.row + dr)] for dc, dr in offs if (h.col + dc, h.row + dr) in at]
    region_hexes: dict[str, list[str]] = {r: [] for r in regions}
    for h in hexes.values():
        region_hexes[h.region].append(h.id)
    achievements = {
        a.id: a
        for a in load_entries(
            tb,
            "achievement",
            Achievement,
            check=lambda a: (
                None if a.measure in MEASURES else f"measure {a.measure!r} is not one of {', '.join(MEASURES)}"
            ),
        )
    }
    golden = {
        g.id: g for g in load_entries(tb, "golden_age", GoldenAge, check=lambda g: _check_pillars([g.pillar], "pillar"))
    }
    wonders = {w.id: w for w in load_entries(tb, "wonder", Wonder)}
    govs = {
        g.id: g
        for g in load_entries(
            tb,
            "government",
            Government,
            check=lambda g: _check_pillars(g.requires, "requires") or _check_tracks(g.production, "production"),
        )
    }
    leaders = {x.id: x for x in load_entries(tb, "leader", Leader)}
    goods = {g.id: g for g in load_entries(tb, "trade_good", TradeGood)}
    caches = load_entries(tb, "cache", Cache)
    cache_tiles, cache_hexes = sum(c.copies for c in caches), sum(1 for h in hexes.values() if h.kind == "cache")
    if cache_tiles != cache_hexes:  # setup lays one tile on each cache hex
        raise DataError(
            f"{tb}: the cache tiles' copies add up to {cache_tiles}, but the map has {cache_hexes} cache hexes "
            "(one tile each)"
        )
    tp, bp, pp, xp = (_path(f) for f in ("technology.toml", "build.toml", "population.toml", "tax_tariff.toml"))
    builds = {b.id: b for b in load_entries(bp, "build", BuildCard, check=_check_build)}
    technologies = {t.id: t for t in load_entries(tp, "technology", Technology, check=_check_tech)}
    for b in builds.values():
        for g in b.trade_goods:
            if g not in goods:
                raise DataError(f"{bp}: build {b.id!r} names unknown trade good {g!r}")
    return Data(
        rules=load_table(tb, "rules", Rules),
        regions=regions,
        adjacency=adjacency,
        hexes=hexes,
        neighbours=neighbours,
        pillars=[p.id for p in load_entries(tb, "pillar", Pillar)],
        achievements=achievements,
        golden_ages=golden,
        wonders=wonders,
        governments=govs,
        leaders=leaders,
        trade_goods=goods,
        caches=caches,
        tech_deck=load_table(tp, "deck", DeckRules),
        build_deck=load_table(bp, "deck", DeckRules),
        population_deck=load_table(pp, "deck", DeckRules),
        tax_deck=load_table(xp, "deck", DeckRules),
        technologies=technologies,
        builds=builds,
        population_cards={p.id: p for p in load_entries(pp, "population", PopulationCard)},
        tax_cards={
            t.id: t
            for t in load_entries(
                xp,
                "tax_tariff",
                TaxCard,
                check=lambda t: None if t.kind in ("tax", "tariff") else f"kind {t.kind!r} is not tax or tariff",
            )
        },
        region_hexes=region_hexes,
        hex_region={h.id: h.region for h in hexes.values()},
        inland_hexes={r: [h for h in hs if hexes[h].kind != "port"] for r, hs in region_hexes.items()},
        port_hexes={r: [h for h in hs if hexes[h].kind == "port"] for r, hs in region_hexes.items()},
        influence_techs=frozenset(t.id for t in technologies.values() if t.influence_piece),
        piece_codes={f"{kind}{seat}": (kind, seat) for kind in "cpfmw" for seat in range(MAX_PLAYERS)},
    )
