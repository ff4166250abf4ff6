"""Where each player's VPs came from, in the rulebook's words (issue 26 §2: the final standings).

VPs are scored all game long: Non-Combat Expansion at once (7.1), Area control and Region
status after the player's last Civilization Round of every Epoch (7.2, 7.3), on a map that
changes in between. The final map cannot tell them apart again, so every VP change goes
through `gain`, which adds it to the player's total and to the record of its source
(`State.vp_by`, serialised with the state); `breakdown` reads the record back. The parts
therefore always add up to the score.
"""

from __future__ import annotations

from .board import C
from .scoring import Score
from .state import State

# 7.1 Non-Combat Expansion VPs, scored immediately.
WONDER_BUILT = "Wonders built"
COLONIZATION = "Colonization"
CULTURE = "Cultural Achievement"
# 7.2 VPs for Area Control (and 6.1 Commerce), after the player's last round of an Epoch.
AREAS = "Areas"
CITIES = "Cities"
BONUS_AREAS = "Bonus Areas"
WONDERS_CONTROLLED = "Wonders controlled"
COMMERCE = "Commerce"
# 7.3 End of Round VPs Based on Region Status.
REGIONS = "Regions"

#: Every source, the breakdown's lines: Player Scoring (7.2, 7.3), the bulk of every score, first,
#: then the Non-Combat Expansion VPs (7.1), as Rise of Empires puts its turn scoring first.
SOURCES = (AREAS, CITIES, BONUS_AREAS, WONDERS_CONTROLLED, COMMERCE, REGIONS, WONDER_BUILT, COLONIZATION, CULTURE)

#: VPs the record does not hold: a position set up with VPs already on the track (a test's),
#: or a game stored before the record was kept. Never part of a game played from its setup.
NOT_ITEMISED = "Not itemised"


def gain(state: State, seat: int, source: str, vp: int) -> None:
    """`seat` scores `vp` VPs from `source` (one of SOURCES): the one way VPs change.

    A seat's record is replaced, never changed in place, so `State.copy` copies only the list."""
    if not vp:
        return
    state.vp[seat] += vp
    record = state.vp_by
    if len(record) < state.n:  # a position made by hand, without a record
        record.extend({} for _ in range(state.n - len(record)))
    mine = record[seat]
    record[seat] = {**mine, source: mine.get(source, 0) + vp}


def player_scoring(sc: Score) -> list[tuple[str, int]]:
    """A Player Scoring (7.2, 6.1 Commerce, 7.3) line by line; the lines add up to `sc.total`."""
    return [
        (AREAS, sc.area_vp),
        (CITIES, sc.cities),
        (BONUS_AREAS, sc.bonus_areas),
        (WONDERS_CONTROLLED, C.vp.per_wonder_controlled * sc.wonders),
        (COMMERCE, sc.commerce),
        (REGIONS, sum(vp for _, vp in sc.regions.values())),
    ]


def breakdown(state: State) -> list[list[tuple[str, int]]]:
    """Per seat, its VPs by source (SOURCES), adding up to its VPs."""
    out = []
    for seat in range(state.n):
        mine = state.vp_by[seat] if seat < len(state.vp_by) else {}
        parts = [(source, mine.get(source, 0)) for source in SOURCES]
        rest = state.vp[seat] - sum(vp for _, vp in parts)
        out.append(parts + [(NOT_ITEMISED, rest)] if rest else parts)
    return out
