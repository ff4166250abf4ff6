"""Component data of Rising Cultures, read from `data/*.toml` and checked at load.

Provinces are the rulebook's ("Province Cards", source = "rulebook"); the four decks,
boards, overviews and Egypt's Nile cards are reconstructions (shared/research,
source = "reconstructed"). Everything here is replaceable by editing the files
(or pointing `data_dir` at corrected ones): the rules read only these tables.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from engine.core import DataError, data_path, load_entries, slug

GAME_ID = "rising-cultures"
RESOURCES = ("wood", "brick", "stone", "gold")
SYMBOLS = ("sword", "horse", "shield")
CIVS = ("rome", "persia", "egypt", "abbasid")
KINDS = ("building", "leader")
ICONS = ("A", "B", "C")

#: Effect types a card's bottom half, a progress level or a Nile card may carry.
EFFECT_TYPES = {
    "income": "Income +{amount} coin(s) in Phase I.",
    "resource": "+{amount} {resource} available.",
    "military": "+{amount} {symbol} in your military strength.",
    "shortfall_discount": "Once per construction, pay 1 coin (instead of 2) for one missing resource.",
    "free_swap": "Once per round, swap 1 card in Phase II for free.",
    "coin_limit": "Your coin limit is raised by {amount}.",
    "extra_draw": (
        "Phase II: draw {amount} extra card(s), then place as many cards from your hand at the bottom of your deck."
    ),
    "province_tie_win": "You win Province ties even without the progress marker.",
    "province_keep_military": "Once per game, when you win a Province, you may keep your last military card.",
    "on_build_coins": "When constructed: take {amount} coin(s).",
    "on_province_coins": "Take {amount} coin(s) whenever you win a Province.",
    "develop_nile": "Develop {amount} Nile card(s).",
    "on_build_progress_from_discard": (
        "When constructed: you may move up 1 progress level with a card from your discard pile."
    ),
    "vp_per": "Game end: {vp} VP per {per} {counter}.",
    "golden_age": "Flip your board to its Golden Age side (+1 income, 3 VP).",
    "covered_leaders_score": "Your covered leaders score their victory points.",
    "vp": "Game end: {amount} VP.",
}
VP_COUNTERS = (
    "province",
    "province_icon:A",
    "province_icon:B",
    "province_icon:C",
    "progress_card",
    "horse_symbol",
    "leader_in_display",
    "building_cost_stone",
    "coin",
)


@dataclass(frozen=True)
class Cost:
    wood: int = 0
    brick: int = 0
    stone: int = 0
    gold: int = 0


@dataclass(frozen=True)
class Strip:
    """A card's resource part (or a board's printed resources); `coin` is paid once."""

    wood: int = 0
    brick: int = 0
    stone: int = 0
    gold: int = 0
    coin: int = 0


@dataclass(frozen=True)
class Effect:
    type: str
    amount: int = 0
    symbol: str = ""
    resource: str = ""
    counter: str = ""
    vp: int = 0
    per: int = 1
    max: int = 0
    per_round: int = 0
    per_game: int = 0
    coins_per_missing: int = 0
    max_per_build: int = 0
    text: str = ""

    def describe(self) -> str:
        if self.text:
            return self.text
        text = EFFECT_TYPES[self.type].format(
            **{k: getattr(self, k) for k in ("amount", "resource", "symbol", "vp", "per", "counter")}
        )
        # "1 coin(s)" -> "1 coin", "2 coin(s)" -> "2 coins": read as a player says it.
        return re.sub(r"\(s\)", "s", re.sub(r"\b1 ([A-Za-z ]+?)\(s\)", r"1 \1", text))


@dataclass(frozen=True)
class Card:
    id: str
    civ: str
    name: str
    kind: str
    vp: int
    military: str
    cost: Cost
    strip: Strip
    source: str
    effects: list[Effect] = field(default_factory=list)
    rulebook_fields: list[str] = field(default_factory=list)

    @property
    def slug(self) -> str:
        return slug(self.name)


@dataclass(frozen=True)
class Board:
    civ: str
    name: str
    coin_limit: int
    military_bands: list[str]
    printed: Strip
    base_income: int
    golden_age_income: int
    golden_age_vp: int
    leader_slots: int
    progress_from_discard: bool
    nile: bool
    levels: list[list[Effect]]
    source: str
    rulebook_fields: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class NileCard:
    id: str
    name: str
    spaces: int
    effects: list[Effect]
    source: str

    @property
    def slug(self) -> str:
        return slug(self.name)


@dataclass(frozen=True)
class Province:
    id: int
    name: str
    symbols: list[str]
    vp: int
    effect: str
    resource: str
    amount: int
    end_rule: str
    end_amount: int
    icon: str
    text: str
    source: str

    @property
    def slug(self) -> str:
        return slug(self.name)


def _check_effects(effects: list[Effect]) -> str | None:
    for e in effects:
        if e.type not in EFFECT_TYPES:
            return f"effect type {e.type!r} unknown; allowed: {', '.join(EFFECT_TYPES)}"
        if e.type == "resource" and e.resource not in RESOURCES:
            return f"effect resource {e.resource!r} must be one of {', '.join(RESOURCES)}"
        if e.type == "military" and e.symbol not in SYMBOLS:
            return f"effect symbol {e.symbol!r} must be one of {', '.join(SYMBOLS)}"
        if e.type == "vp_per" and (e.counter not in VP_COUNTERS or e.per < 1):
            return f"vp_per counter {e.counter!r} must be one of {', '.join(VP_COUNTERS)} with per >= 1"
    return None


def _negative(what: str, obj: object, names: Iterable[str]) -> str | None:
    bad = [n for n in names if getattr(obj, n) < 0]
    return f"field {what}: {', '.join(bad)} must not be negative" if bad else None


def _check_card(c: Card) -> str | None:
    problem = (
        _negative("vp", c, ("vp",))
        or _negative("cost", c.cost, RESOURCES)
        or _negative("strip", c.strip, (*RESOURCES, "coin"))
    )
    if problem:
        return problem
    if c.civ not in CIVS:
        return f"field civ: {c.civ!r} is not one of {', '.join(CIVS)}"
    if c.kind not in KINDS:
        return f"field kind: {c.kind!r} is not one of {', '.join(KINDS)}"
    if c.military not in SYMBOLS:
        return f"field military: {c.military!r} is not one of {', '.join(SYMBOLS)}"
    return _check_effects(c.effects)


def _check_board(b: Board) -> str | None:
    problem = _negative(
        "coin_limit/base_income/golden_age", b, ("coin_limit", "base_income", "golden_age_income", "golden_age_vp")
    ) or _negative("printed", b.printed, (*RESOURCES, "coin"))
    if problem:
        return problem
    if b.civ not in CIVS:
        return f"field civ: {b.civ!r} is not one of {', '.join(CIVS)}"
    if any(s and s not in SYMBOLS for s in b.military_bands) or not b.military_bands:
        return f'field military_bands: each band is "" or one of {", ".join(SYMBOLS)}'
    if len(b.levels) < 1 or b.leader_slots < 1:
        return "fields levels and leader_slots need at least 1 entry"
    for lv in b.levels:
        problem = _check_effects(lv)
        if problem:
            return f"field levels: {problem}"
    return None


def _check_province(p: Province) -> str | None:
    problem = _negative("vp/amount/end_amount", p, ("vp", "amount", "end_amount"))
    if problem:
        return problem
    if not p.symbols or any(s not in SYMBOLS for s in p.symbols):
        return f"field symbols: each must be one of {', '.join(SYMBOLS)}"
    if p.effect not in ("", "resource", "coins", "maghreb", "free_swap", "keep_military"):
        return f"field effect: {p.effect!r} unknown"
    if p.effect == "resource" and p.resource not in RESOURCES:
        return f"field resource: {p.resource!r} must be one of {', '.join(RESOURCES)}"
    if p.end_rule not in ("", "pairs", "golden_age", "coins", "marker"):
        return f"field end_rule: {p.end_rule!r} unknown"
    if p.icon not in ICONS:
        return f"field icon: {p.icon!r} must be one of {', '.join(ICONS)}"
    return None


class Components:
    """Everything printed on the game's components, indexed for the rules."""

    def __init__(self, package_dir: Path) -> None:
        def path(name: str) -> Path:
            return data_path(package_dir, GAME_ID, name)

        self.provinces: dict[int, Province] = {
            p.id: p for p in load_entries(path("provinces.toml"), "province", Province, check=_check_province)
        }
        if sorted(self.provinces) != list(range(1, 16)):
            raise DataError(f"{path('provinces.toml')}: expected provinces 1-15, got {sorted(self.provinces)}")
        self.boards: dict[str, Board] = {
            b.civ: b for b in load_entries(path("boards.toml"), "board", Board, key="civ", check=_check_board)
        }
        missing = [c for c in CIVS if c not in self.boards]
        if missing:
            raise DataError(f"{path('boards.toml')}: no board for {', '.join(missing)}")
        self.nile: list[NileCard] = load_entries(
            path("nile.toml"),
            "nile",
            NileCard,
            check=lambda n: "field spaces: at least 1" if n.spaces < 1 else _check_effects(n.effects),
        )
        self.cards: dict[str, Card] = {}
        self.decks: dict[str, list[str]] = {}
        self.by_slug: dict[str, dict[str, str]] = {}
        for civ in CIVS:
            file = path(f"{civ}.toml")
            cards = load_entries(file, "card", Card, check=_check_card)
            slugs: dict[str, str] = {}
            for c in cards:
                if c.civ != civ:
                    raise DataError(f"{file}: card {c.id!r} belongs to {c.civ!r}, not {civ!r}")
                if c.id in self.cards:
                    raise DataError(f"{file}: card id {c.id!r} is used twice")
                if c.slug in slugs:
                    raise DataError(f"{file}: cards {slugs[c.slug]!r} and {c.id!r} share the name slug {c.slug!r}")
                slugs[c.slug] = c.id
                self.cards[c.id] = c
            self.decks[civ] = [c.id for c in cards]
            self.by_slug[civ] = slugs
        self.slug: dict[str, str] = {cid: c.slug for cid, c in self.cards.items()}
        self.nile_by_slug = {n.slug: i for i, n in enumerate(self.nile)}


DATA = Components(Path(__file__).parent)
