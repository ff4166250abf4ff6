"""Component data for Cradle of Civilization, read from data/*.toml and checked.

The map, the 36 Civilization Cards, the Epoch City Cards and the charts are data,
never code, so a server owner with the physical game can replace the
reconstructed stand-ins (shared/research/cradle.md) without touching the rules.
`components()` loads everything once and builds the indexes the rules use
(adjacency sets, sea borders, Civilizations by Epoch).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from pathlib import Path

from ..core import DataError, data_path, load_entries, load_table

GAME_ID = "cradle"
HERE = Path(__file__).parent

TERRAINS = ("plains", "rough", "mountain", "desert")
TRAITS = ("no-city-bonus", "does-not-expand-in-epoch-vi", "wonder", "commerce", "military", "seafaring")
BONUS_EFFECTS = ("armies", "military", "seafaring", "desert-guides", "none", "wonder-3", "culture-4", "armies-military")
EVENT_IDS = ("barbarian-raids", "civil-war", "disaster", "plague")


@dataclass
class Region:
    id: str
    name: str
    presence: int
    control: int
    domination: int
    source: str
    source_detail: str = ""


@dataclass
class Area:
    id: str
    name: str
    region: str
    terrain: str
    x: int
    y: int
    source: str
    source_detail: str = ""


@dataclass
class Sea:
    id: str
    name: str
    colonization: bool
    borders: list[str]
    x: int
    y: int
    source: str
    source_detail: str = ""


@dataclass
class Border:
    a: str
    b: str
    kind: str
    source: str
    source_detail: str = ""


@dataclass
class Civilization:
    """One Civilization; card 3-4 carries two (Troy `3-4t`, Arzawa `3-4a`, rulebook 6.3)."""

    id: str
    card: str
    epoch: int
    order: int
    part: int
    name: str
    card_name: str
    start_area: str
    armies: int
    traits: list[str]
    source: str
    bonus_area: str | None = None
    marker: str | None = None
    special: str | None = None
    source_detail: str = ""


@dataclass
class City:
    id: str
    name: str
    area: str
    epoch: int
    source: str
    source_detail: str = ""


@dataclass
class Epoch:
    number: int
    roman: str
    name: str
    source: str


@dataclass
class Terrain:
    id: str
    name: str
    stacking: int
    combat: str
    source: str


@dataclass
class Wonder:
    id: str
    name: str
    source: str


@dataclass
class BonusEntry:
    roll: int
    result: str
    effect: str
    armies: int
    source: str


@dataclass
class EventEntry:
    id: str
    name: str
    rolls: list[int]
    effect: str
    source: str
    source_detail: str = ""


@dataclass
class CounterMix:
    armies_per_player_per_epoch: int
    source: str
    note: str = ""


@dataclass
class VictoryPoints:
    wonder_built: int
    colonization: int
    cultural_achievement: int
    per_two_areas: int
    per_city: int
    per_bonus_area: int
    per_wonder_controlled: int
    commerce_per_two_cities: int
    source: str


@dataclass
class Components:
    regions: dict[str, Region]
    areas: dict[str, Area]
    seas: dict[str, Sea]
    civs: dict[str, Civilization]
    cities: dict[str, City]
    epochs: list[Epoch]
    terrain: dict[str, Terrain]
    wonders: list[Wonder]
    bonus: dict[int, BonusEntry]
    events: dict[int, EventEntry]
    counter_mix: int
    vp: VictoryPoints
    #: derived indexes
    adjacent: dict[str, frozenset[str]] = field(default_factory=dict)
    seas_of: dict[str, tuple[str, ...]] = field(default_factory=dict)
    region_areas: dict[str, tuple[str, ...]] = field(default_factory=dict)
    civs_of_epoch: dict[int, list[Civilization]] = field(default_factory=dict)
    cards_of_epoch: dict[int, list[str]] = field(default_factory=dict)
    civs_of_card: dict[str, list[str]] = field(default_factory=dict)
    stacking: dict[str, int] = field(default_factory=dict)
    straits: frozenset[frozenset[str]] = frozenset()  #: borders across water (for the map image)

    def card_name(self, card: str) -> str:
        first = self.civs[self.civs_of_card[card][0]]
        return f"{card} {first.card_name}"


def _file(name: str) -> Path:
    return data_path(HERE, GAME_ID, name)


def _need(cond: bool, message: str) -> None:
    if not cond:
        raise DataError(message)


@functools.lru_cache(maxsize=1)
def components() -> Components:
    """Everything, loaded and cross-checked once (DataError names what is wrong)."""
    mp = _file("map.toml")
    regions = {r.id: r for r in load_entries(mp, "region", Region)}
    areas = {
        a.id: a
        for a in load_entries(
            mp,
            "area",
            Area,
            check=lambda a: None if a.terrain in TERRAINS else f"terrain {a.terrain!r} is not one of {TERRAINS}",
        )
    }
    seas = {s.id: s for s in load_entries(mp, "sea", Sea)}
    borders = load_entries(mp, "border", Border, key="")
    civ_file = _file("civilizations.toml")
    civs = {c.id: c for c in load_entries(civ_file, "civilization", Civilization)}
    city_file = _file("cities.toml")
    cities = {c.id: c for c in load_entries(city_file, "city", City)}
    ch = _file("charts.toml")
    epochs = load_entries(ch, "epoch", Epoch, key="number")
    terrain = {t.id: t for t in load_entries(ch, "terrain", Terrain)}
    wonders = load_entries(ch, "wonder", Wonder)
    bonus = {
        b.roll: b
        for b in load_entries(
            ch,
            "bonus",
            BonusEntry,
            key="roll",
            check=lambda b: None if b.effect in BONUS_EFFECTS else f"effect {b.effect!r} is not one of {BONUS_EFFECTS}",
        )
    }
    events = load_entries(
        ch, "event", EventEntry, check=lambda e: None if e.id in EVENT_IDS else f"id {e.id!r} is not one of {EVENT_IDS}"
    )
    mix = load_table(ch, "counter_mix", CounterMix)
    vp = load_table(ch, "victory_points", VictoryPoints)

    for a in areas.values():
        _need(a.region in regions, f"{mp}: area {a.id}: unknown region {a.region!r}")
    _need(set(terrain) == set(TERRAINS), f"{ch}: terrain must list exactly {TERRAINS}")
    _need(sorted(bonus) == list(range(2, 13)), f"{ch}: the bonus chart needs one entry for each 2d6 total 2-12")
    by_roll: dict[int, EventEntry] = {}
    for e in events:
        for r in e.rolls:
            _need(r not in by_roll, f"{ch}: event roll {r} listed twice")
            by_roll[r] = e
    _need(sorted(by_roll) == list(range(1, 7)), f"{ch}: the event chart needs each die face 1-6 once")
    _need(len(epochs) == 6, f"{ch}: six epochs expected")

    adjacent: dict[str, set[str]] = {a: set() for a in areas}
    for b in borders:
        for end in (b.a, b.b):
            _need(end in areas, f"{mp}: border {b.a}-{b.b}: unknown area {end!r}")
        _need(b.b not in adjacent[b.a], f"{mp}: border {b.a}-{b.b} listed twice")
        adjacent[b.a].add(b.b)
        adjacent[b.b].add(b.a)
    seas_of: dict[str, list[str]] = {a: [] for a in areas}
    for s in seas.values():
        for area in s.borders:
            _need(area in areas, f"{mp}: sea {s.id}: unknown area {area!r}")
            seas_of[area].append(s.id)
    for c in civs.values():
        _need(c.start_area in areas, f"{civ_file}: {c.id}: unknown start area {c.start_area!r}")
        _need(c.bonus_area is None or c.bonus_area in areas, f"{civ_file}: {c.id}: unknown bonus area {c.bonus_area!r}")
        _need(1 <= c.epoch <= 6 and c.armies > 0, f"{civ_file}: {c.id}: epoch 1-6 and armies > 0 expected")
        for t in c.traits:
            _need(t in TRAITS, f"{civ_file}: {c.id}: unknown trait {t!r}; allowed: {TRAITS}")
    for city in cities.values():
        _need(city.area in areas, f"{city_file}: {city.id}: unknown area {city.area!r}")

    civs_of_epoch: dict[int, list[Civilization]] = {e: [] for e in range(1, 7)}
    civs_of_card: dict[str, list[str]] = {}
    for c in sorted(civs.values(), key=lambda c: (c.epoch, c.order, c.part)):
        civs_of_epoch[c.epoch].append(c)
        civs_of_card.setdefault(c.card, []).append(c.id)
    cards_of_epoch = {
        e: sorted({c.card for c in cs}, key=lambda k: civs[civs_of_card[k][0]].order) for e, cs in civs_of_epoch.items()
    }
    for number, cards in cards_of_epoch.items():
        _need(len(cards) == 6, f"{civ_file}: epoch {number} needs six Civilization Cards, found {len(cards)}")
    region_areas = {r: tuple(a.id for a in areas.values() if a.region == r) for r in regions}

    return Components(
        regions=regions,
        areas=areas,
        seas=seas,
        civs=civs,
        cities=cities,
        epochs=epochs,
        terrain=terrain,
        wonders=wonders,
        bonus=bonus,
        events=by_roll,
        counter_mix=mix.armies_per_player_per_epoch,
        vp=vp,
        adjacent={a: frozenset(v) for a, v in adjacent.items()},
        seas_of={a: tuple(v) for a, v in seas_of.items()},
        region_areas=region_areas,
        civs_of_epoch=civs_of_epoch,
        cards_of_epoch=cards_of_epoch,
        civs_of_card=civs_of_card,
        stacking={a.id: terrain[a.terrain].stacking for a in areas.values()},
        straits=frozenset(frozenset((b.a, b.b)) for b in borders if b.kind == "strait"),
    )
