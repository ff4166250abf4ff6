"""Rise of Empires component data: the map, the tiles, the trade track, the rule constants.

Everything is read from `data/*.toml` (converted from shared/research, every entry
marked rulebook / published / reconstructed) and validated here, so corrected data
from a server owner (config `data_dir`) replaces the reconstruction without any
engine change. `components()` loads once and caches.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ..core import DataError, data_path, load_entries, load_table
from ..core import data as _core_data

GAME_ID = "rise-of-empires"
HERE = Path(__file__).parent

AREAS = ("old_world", "new_world", "far_east")
INCOMES = ("none", "food", "gold", "resources", "cubes")
TERRITORY_KINDS = ("plains", "island", "forest", "mountain", "town")
EFFECTS = (
    "food_per_turn",
    "remove_enemy_cubes",
    "resources_per_territory",
    "exchange",
    "food_per_territory",
    "vp_per_turn",
    "empire_tile_bonus_regions",
    "unlock_overseas_in_era2_A",
    "no_b_turn_position_cost",
    "alliance",
    "vp_per_controlled_region",
    "placement_ignore_adjacency",
    "vp_per_city",
    "cubes_per_turn",
    "gold_per_turn",
)
GOODS = ("gold", "resources", "food", "cubes", "vp")


@dataclass(frozen=True)
class Region:
    """A region of the world map (2.1): era colour, banner (control / second VP), income symbol."""

    id: str
    name: str
    code: str
    era: int
    sea: bool
    area: str
    control_vp: int
    second_vp: int
    income: str
    income_amount: int
    x: int
    y: int
    source: str
    status: str
    cite: str
    note: str = ""


@dataclass(frozen=True)
class Border:
    a: str
    b: str
    source: str
    status: str
    cite: str
    note: str = ""


@dataclass(frozen=True)
class Progress:
    """A progress tile type (6.1, player aid); `copies` of it are in its era's mix."""

    id: str
    name: str
    era: int
    copies: int
    effect: str
    amount: int
    free_action: bool
    red_bottom: bool
    source: str
    status: str
    cite: str
    territory: str = ""
    pay: str = ""
    pay_amount: int = 0
    gain: str = ""
    gain_amount: int = 0
    note: str = ""


@dataclass(frozen=True)
class City:
    """A city tile or wonder (6.3)."""

    id: str
    name: str
    code: str
    era: int
    half: str
    wonder: bool
    cost_gold: int
    vp: int
    source: str
    status: str
    cite: str
    cost_resources: int = 0
    cost_cubes: int = 0
    upkeep_resources: int = 0
    upkeep_food: int = 0
    produces_gold: int = 0
    produces_resources: int = 0
    produces_food: int = 0
    #: 5.1: a tile with a red lower part stays on offer in 2-3 player games
    red_bottom: bool = False
    note: str = ""


@dataclass(frozen=True)
class Territory:
    """A territory tile type (6.2); `food` is negative for red fish numbers."""

    id: str
    name: str
    kind: str
    cubes: int
    food: int
    gold: int
    resources: int
    vp: int
    copies: int
    copies_source: str
    source: str
    status: str
    cite: str
    #: 5.1: a tile with a red lower part stays on offer in 2-3 player games
    red_bottom: bool = False
    note: str = ""


@dataclass(frozen=True)
class EmpireSide:
    """One side of an empire tile (2.5.4): regions number, water, battle rows [attacker, defender]."""

    id: str
    tile: str
    side: int
    number: int
    water: bool
    battle_rows: list[list[int]]
    source: str
    status: str
    cite: str
    note: str = ""

    @functools.cached_property
    def name(self) -> str:
        """`2 water 1-1`: number, water, then each battle row as attacker-defender (2.5.4); actions name tiles so."""
        parts = [str(self.number)] + (["water"] if self.water else []) + [f"{a}-{d}" for a, d in self.battle_rows]
        return " ".join(parts)


@dataclass(frozen=True)
class TradeBox:
    """A trade track box (6.5): `discs` resource discs for `amount` gold or VP, in `eras`."""

    id: str
    discs: int
    gain: str
    amount: int
    eras: list[int]
    source: str
    status: str
    cite: str
    note: str = ""

    @functools.cached_property
    def action(self) -> str:
        return f"trade {self.discs} for {self.amount} {self.gain}"


@dataclass(frozen=True)
class Rules:
    source: str
    cite: str
    colours: list[str]
    start_vp: int
    start_food: int
    start_gold: int
    start_resources: int
    start_pool: int
    start_stock: int
    resource_discs: int
    actions_per_turn: int
    circles_by_players: list[int]
    empire_row_max: int
    progress_per_turn: int
    territory_per_turn: int
    cities_per_turn: list[int]
    progress_surcharge: list[int]
    food_max: int
    food_last_turn_factor: int
    keep_progress_gold: int
    keep_city_cubes: int
    final_gold_per_vp: int
    final_resources_per_vp: int
    note: str = ""


@dataclass(eq=False)
class Components:
    """All component data, indexed the way the rules need it (compared and hashed by identity, so
    rule functions may cache what they derive from it)."""

    rules: Rules
    regions: dict[str, Region]
    adjacent: dict[str, frozenset[str]]
    borders: list[Border]
    progress: dict[str, Progress]
    cities: dict[str, City]
    territories: dict[str, Territory]
    empire_sides: dict[str, EmpireSide]
    empire_tiles: list[str]
    trade: list[TradeBox]
    trade_by_action: dict[str, int] = field(default_factory=dict)

    def empire(self, tile: str, era: int) -> EmpireSide:
        """The side of `tile` in play in `era` (5.0: Era II/III side from game turn 3)."""
        return self.empire_sides[f"{tile}-{'i' if era == 1 else 'ii'}"]

    @functools.cached_property
    def names(self) -> frozenset[str]:
        """Every region, tile and city slug an action may name (so `place 1 SW Europe` reads as `sw-europe`)."""
        return frozenset([*self.regions, *self.progress, *self.cities, *self.territories])

    @functools.cached_property
    def free_action_tiles(self) -> frozenset[str]:
        """The progress tiles used as free actions (6.1, player aid)."""
        return frozenset(t for t, p in self.progress.items() if p.free_action)

    def empire_names(self, tiles: Sequence[str], era: int) -> list[str]:
        """The names of the empire tiles `tiles` as played in `era`, in that order."""
        suffix = "-i" if era == 1 else "-ii"
        return [self.empire_sides[t + suffix].name for t in tiles]


def _check_choice(value: str, allowed: tuple[str, ...], what: str) -> str | None:
    return None if value in allowed else f"{what} must be one of {', '.join(allowed)}, got {value!r}"


def _load(paths: tuple[Path, ...]) -> Components:
    rules_p, map_p, prog_p, city_p, terr_p, emp_p, trade_p = paths
    rules = load_table(rules_p, "rules", Rules)
    if len(rules.circles_by_players) != 6 or len(rules.cities_per_turn) != 6:
        raise DataError(f"{rules_p}: circles_by_players and cities_per_turn need 6 entries")
    regions = load_entries(
        map_p,
        "region",
        Region,
        check=lambda r: (
            _check_choice(r.area, AREAS, "area")
            or _check_choice(r.income, INCOMES, "income")
            or (None if r.era in (1, 2, 3) else "era must be 1, 2 or 3")
        ),
    )
    by_id = {r.id: r for r in regions}
    borders = load_entries(
        map_p,
        "border",
        Border,
        key="",
        check=lambda b: (
            None if b.a in by_id and b.b in by_id and b.a != b.b else f"border {b.a}-{b.b} names an unknown region"
        ),
    )
    adjacent: dict[str, set[str]] = {r: set() for r in by_id}
    for b in borders:
        adjacent[b.a].add(b.b)
        adjacent[b.b].add(b.a)
    progress = load_entries(
        prog_p,
        "progress",
        Progress,
        check=lambda p: (
            _check_choice(p.effect, EFFECTS, "effect")
            or (None if p.era in (1, 2, 3) and p.copies > 0 else "era must be 1-3 and copies positive")
            or (
                _check_choice(p.territory, TERRITORY_KINDS, "territory") if p.effect.endswith("per_territory") else None
            )
            or (
                _check_choice(p.pay, GOODS, "pay") or _check_choice(p.gain, GOODS, "gain")
                if p.effect == "exchange"
                else None
            )
        ),
    )
    for era in (1, 2, 3):
        n = sum(p.copies for p in progress if p.era == era)
        if n != 2 * rules.progress_per_turn:
            raise DataError(f"{prog_p}: Era {era} has {n} progress tiles; 3.0 needs {2 * rules.progress_per_turn}")
    cities = load_entries(
        city_p,
        "city",
        City,
        check=lambda c: (
            _check_choice(c.half, ("A", "B"), "half")
            or (None if not c.wonder or c.half == "B" else "wonders appear only in B turns (6.3)")
        ),
    )
    for turn in range(1, 7):
        era, half = (turn + 1) // 2, "AB"[(turn + 1) % 2]
        n = sum(1 for c in cities if c.era == era and c.half == half)
        if n != rules.cities_per_turn[turn - 1]:
            raise DataError(
                f"{city_p}: Era {era} {half} has {n} city tiles; 5.0 needs {rules.cities_per_turn[turn - 1]}"
            )
    territories = load_entries(
        terr_p, "territory", Territory, check=lambda t: _check_choice(t.kind, TERRITORY_KINDS, "kind")
    )
    total = sum(t.copies for t in territories)
    if total != 4 * rules.territory_per_turn:
        raise DataError(f"{terr_p}: {total} territory tiles; 3.0 needs {4 * rules.territory_per_turn} (10 boxes of 4)")
    sides = load_entries(
        emp_p,
        "empire",
        EmpireSide,
        check=lambda e: (
            None
            if e.side in (1, 2)
            and 1 <= e.number <= 4
            and 1 <= len(e.battle_rows) <= 2
            and all(len(r) == 2 and min(r) >= 0 for r in e.battle_rows)
            else "needs side 1 or 2, number 1-4 and one or two battle rows [attacker, defender]"
        ),
    )
    tiles = sorted({e.tile for e in sides})
    for t in tiles:
        if {e.side for e in sides if e.tile == t} != {1, 2}:
            raise DataError(f"{emp_p}: empire tile {t} needs an Era I side and an Era II/III side")
    trade = load_entries(
        trade_p,
        "trade",
        TradeBox,
        check=lambda t: (
            None
            if t.gain in ("gold", "vp") and t.discs > 0 and set(t.eras) <= {1, 2, 3}
            else "gain gold or vp, discs > 0"
        ),
    )
    comp = Components(
        rules=rules,
        regions=by_id,
        adjacent={k: frozenset(v) for k, v in adjacent.items()},
        borders=borders,
        progress={p.id: p for p in progress},
        cities={c.id: c for c in cities},
        territories={t.id: t for t in territories},
        empire_sides={e.id: e for e in sides},
        empire_tiles=tiles,
        trade=trade,
    )
    comp.trade_by_action = {t.action: i for i, t in enumerate(trade)}
    return comp


FILES = ("rules.toml", "map.toml", "progress.toml", "cities.toml", "territories.toml", "empires.toml", "trade.toml")


@functools.lru_cache(maxsize=4)
def _cached(paths: tuple[Path, ...]) -> Components:
    return _load(paths)


_current: tuple[object, Components] | None = None


def components() -> Components:
    """The component data in force (an owner's corrected files first, else the shipped ones).

    The file lookup is redone only when the data directory setting (config
    `data_dir` or EPOCHS_DATA_DIR) changes.
    """
    global _current
    key = (_core_data._override_dir, os.environ.get("EPOCHS_DATA_DIR"))
    if _current is None or _current[0] != key:
        _current = (key, _cached(tuple(data_path(HERE, GAME_ID, f) for f in FILES)))
    return _current[1]


def in_play() -> Components:
    """The data the games in play use: what `components()` resolved last.

    A game is set up or loaded with the data in force (setup and loads ask
    `components()`) and keeps it; the steps of play, which run all the time,
    do not look at the data directory settings again.
    """
    return _current[1] if _current is not None else components()
