"""Player Scoring (rulebook 7.0-7.3), made after a player's last Civilization Round.

Every Army of the player's colour counts, whatever its Epoch, raiders included
(7.0). Area control: 1 VP per 2 Areas, 1 per City (not where a current No City
Bonus Civilization stands, 6.1), 1 per Bonus Area held by its own Civilization
(6.2), 2 per Wonder; Commerce adds 1 per 2 Cities of that Civilization (6.1).
Region status (7.3): only the highest of Presence, Control, Domination scores
(RULES-NOTES 7.3); Control needs 2+ Areas and strictly more than anyone else.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..core import count, winners_by
from .board import BONUS_AREA, REGION, C, area_owners, armies_of_seat, armies_of_seats, has_trait
from .state import State


@dataclass
class Score:
    areas: int = 0
    area_vp: int = 0
    cities: int = 0
    bonus_areas: int = 0
    wonders: int = 0
    commerce: int = 0
    regions: dict[str, tuple[str, int]] = field(default_factory=dict)  #: region -> (status, VP)

    @property
    def total(self) -> int:
        return (
            self.area_vp
            + self.cities
            + self.bonus_areas
            + C.vp.per_wonder_controlled * self.wonders
            + self.commerce
            + sum(v for _, v in self.regions.values())
        )

    def describe(self) -> str:
        """`3 Areas 1 VP (1 per 2 Areas); Cities 3 VP; Regions: Iran presence 1 VP` (7.2, 7.3).

        Each part says what scored and how many VP; parts worth nothing are left out, except the Areas.
        """
        parts = [f"{count(self.areas, 'Area')} {self.area_vp} VP (1 per 2 Areas)"]
        wonders = C.vp.per_wonder_controlled * self.wonders
        for label, vp in (
            ("Cities", self.cities),
            ("Bonus Areas", self.bonus_areas),
            (count(self.wonders, "Wonder"), wonders),
            ("Commerce", self.commerce),
        ):
            if vp:
                parts.append(f"{label} {vp} VP")
        regions = ", ".join(f"{C.regions[r].name} {status} {vp} VP" for r, (status, vp) in self.regions.items())
        return "; ".join(parts) + (f"; Regions: {regions}" if regions else "; Regions: none")


def region_holders(owners: dict[str, int | None]) -> dict[str, dict[int | None, int]]:
    """Region -> holder -> how many of its Areas that holder's Armies occupy (anyone's: 7.3)."""
    held: dict[str, dict[int | None, int]] = {}
    for area, seat in owners.items():
        in_region = held.setdefault(REGION[area], {})
        in_region[seat] = in_region.get(seat, 0) + 1
    return held


def status(rid: str, seat: int, holders: dict[int | None, int]) -> tuple[str, int]:
    """(presence|control|domination, VP) of `seat`, holding Areas of Region `rid` (7.3): Control
    needs 2+ Areas and strictly more than anyone else there."""
    mine = holders[seat]
    region = C.regions[rid]
    if mine == len(C.region_areas[rid]):
        return "domination", region.domination
    if mine >= 2 and all(mine > k for other, k in holders.items() if other != seat):
        return "control", region.control
    return "presence", region.presence


def region_status(state: State, seat: int, owners: dict[str, int | None] | None = None) -> dict[str, tuple[str, int]]:
    """Region -> (presence|control|domination, VP) for `seat` (7.3); regions with nothing omitted."""
    held = region_holders(area_owners(state) if owners is None else owners)
    return {rid: status(rid, seat, held[rid]) for rid in C.region_areas if held.get(rid, {}).get(seat)}


def score_seat(state: State, seat: int, owners: dict[str, int | None] | None = None) -> Score:
    """What `seat` scores now for Areas and Regions (7.2 and 7.3); `owners`: `area_owners`
    of `state`, when the caller scores every seat of one position."""
    owners = area_owners(state) if owners is None else owners
    vp = C.vp
    sc = Score()
    mine = [a for a, s in owners.items() if s == seat]
    sc.areas = len(mine)
    sc.area_vp = vp.per_two_areas * (len(mine) // 2)
    commerce_cities: dict[str, int] = {}
    for a in mine:
        civ = state.civ_at[a]
        n_cities = len(state.cities.get(a, ()))
        if n_cities and not (has_trait(state, civ, "no-city-bonus")):
            sc.cities += vp.per_city * n_cities
            if has_trait(state, civ, "commerce"):
                commerce_cities[civ] = commerce_cities.get(civ, 0) + n_cities
        if BONUS_AREA.get(civ) == a:
            sc.bonus_areas += vp.per_bonus_area
    sc.commerce = sum(vp.commerce_per_two_cities * (n // 2) for n in commerce_cities.values())
    mine_set = set(mine)
    sc.wonders = sum(1 for a in state.wonders.values() if a in mine_set)
    sc.regions = region_status(state, seat, owners)
    return sc


def winning_seats(state: State) -> list[int]:
    """Most VPs; ties go to fewest Armies on the map, else shared (RULES-NOTES 7.0)."""
    fewest = [-armies for armies in armies_of_seats(state)]
    return winners_by(state.vp, fewest)


def _names(state: State, seats: list[int]) -> str:
    names = [state.players[s] for s in seats]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def result_line(state: State) -> str:
    """The game's last line: who won, and the tie-break when one decided (1.0, RULES-NOTES 7.0)."""
    won = winning_seats(state)
    top = state.vp[won[0]]
    tied = [s for s in range(state.n) if state.vp[s] == top]
    if len(tied) == 1:
        return f"{_names(state, won)} wins with {top} VP."
    armies = {s: armies_of_seat(state, s) for s in tied}
    if len(won) == len(tied):
        return (
            f"{_names(state, won)} tie on {top} VP with {count(armies[won[0]], 'Army')} on the map each: "
            "they share the win."
        )
    others = [s for s in tied if s not in won]
    beaten = ", ".join(f"{state.players[s]} {armies[s]}" for s in others)
    return (
        f"{_names(state, tied)} tie on {top} VP; the tie-break, fewest Armies on the map, goes to "
        f"{_names(state, won)} ({armies[won[0]]} against {beaten}): "
        f"{_names(state, won)} {'wins' if len(won) == 1 else 'share the win'}."
    )
