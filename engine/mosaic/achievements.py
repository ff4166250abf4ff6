"""Civilization achievements (quick reference): what each one measures, and whether a seat has it.

Every legal-action list asks this for every achievement still on the table, so one
`Progress` answers all of them for one seat at one moment: the player-board measures are
read once, the map is counted at most once, and influence is worked out only when
Imperial could be within reach.
"""

from __future__ import annotations

from collections import Counter

from . import board
from .data import Data
from .state import State


class Progress:
    """One seat's standing on the achievement measures of data/tables.toml."""

    def __init__(self, d: Data, s: State, seat: int, sym: Counter[str]) -> None:
        self.d, self.s, self.seat, self.sym = d, s, seat, sym
        p = self.p = s.players[seat]
        self.small = len(s.players) <= 3
        gov = d.governments[p.government].production if p.government else {}
        self.values = {  # what the player board says at a glance
            "population": p.population,
            "money": p.money,
            "tech_cards": len(p.techs),  # face up only (N29)
            "military_units": board.unit_total(p),
            "unique_trade_goods": board.unique_goods(p),
            "idea_production": p.production["ideas"] + gov.get("ideas", 0),
            "food_production": p.production["food"] + gov.get("food", 0),
            "stone_production": p.production["stone"] + gov.get("stone", 0),
            "tax_production": p.production["tax"] + gov.get("tax", 0),
            "tariff_production": p.production["tariff"] + gov.get("tariff", 0),
        }
        self._codes: Counter[str] | None = None

    def met(self, aid: str) -> bool:
        a = self.d.achievements[aid]
        need = a.threshold_2_3_players if self.small else a.threshold
        v = self.values.get(a.measure)
        if v is None:
            v = self.regions_controlled(need) if a.measure == "regions_controlled" else getattr(self, a.measure)()
        return v >= need

    def codes(self) -> Counter[str]:
        """Pieces per kind and owner on the map ("c2" -> 3), counted once."""
        if self._codes is None:
            self._codes = Counter(self.s.board.values())
        return self._codes

    def projects_and_wonders(self) -> int:
        return len(self.p.wonders) + sum(1 for b in self.p.builds if self.d.builds[b].type == "project")

    def port_cities(self) -> int:
        return self.codes()[f"p{self.seat}"]

    def cities(self) -> int:
        return self.codes()[f"c{self.seat}"] + self.codes()[f"p{self.seat}"]

    def pillar_kinds(self) -> int:
        return board.symbol_kinds(self.sym)

    def regions_controlled(self, need: int) -> int:
        """Regions controlled (N22); 0 when fewer than `need` regions hold the seat's pieces or units,
        since it cannot control more than that (influence is then not worked out)."""
        mine = str(self.seat)
        region_of = self.d.hex_region
        present = {r for r, k in self.p.units.items() if k}
        present.update(region_of[h] for h, code in self.s.board.items() if code[1:] == mine)
        if len(present) < need:
            return 0
        return len(board.controlled(self.d, self.s, self.seat))


def achievement_met(d: Data, s: State, seat: int, aid: str, sym: Counter[str] | None = None) -> bool:
    """Whether the seat reaches achievement `aid`'s threshold now."""
    return Progress(d, s, seat, sym if sym is not None else board.symbols(d, s.players[seat])).met(aid)
