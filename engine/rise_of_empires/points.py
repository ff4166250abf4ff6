"""Where each player's victory points came from, in the rulebook's words (issue 26 §2: the final
standings).

VP are earned every game turn (9.0) from holdings that change in between, at once for wonders
(6.3) and trading (6.5), and lost to a food shortage (7.0) or paid for action discs (6.0); the
final state cannot tell them apart again. So every VP change goes through `gain_vp`, which adds
it to the player's total and to the record of its source (`Player.vp_by`, serialised with the
state); `breakdown` reads the record back. The parts therefore always add up to the score.
"""

from __future__ import annotations

from .state import Player, State

# 9.0 Victory Points: "city tiles, some territory tiles, some progress tiles, and for controlling
# a region" (6.4.2: control and second place).
CITIES = "Cities"
TERRITORIES = "Territories"
PROGRESS = "Progress tiles"  #: also a progress tile's exchange (6.1) that pays or gives VP
REGIONS = "Regions"
# Scored as soon as the action is chosen (6.0, 6.3, 6.5).
WONDERS = "Wonders"
TRADING = "Trading"
# 11.0: 1 VP per 3 gold and per 3 resource discs at the end of the game.
FINAL_GOLD = "Final gold"
FINAL_DISCS = "Final resource discs"
# Lost: 6.0 a B-turn disc paid for with VP; 7.0 a food point the marker cannot go down.
PAID_FOR_DISCS = "Paid for action discs"
FOOD_SHORTAGE = "Food shortage"

#: Every source, gains first (9.0, then in the order of the rules), losses last: the breakdown's lines.
SOURCES = (
    CITIES,
    TERRITORIES,
    PROGRESS,
    REGIONS,
    WONDERS,
    TRADING,
    FINAL_GOLD,
    FINAL_DISCS,
    PAID_FOR_DISCS,
    FOOD_SHORTAGE,
)

#: VP the record does not hold: a position set up with VP already on the track (a test's), or a
#: game stored before the record was kept. Never part of a game played from its setup.
NOT_ITEMISED = "Not itemised"


def gain_vp(p: Player, source: str, vp: int) -> None:
    """`p` gains `vp` (or loses, when negative) from `source`, one of SOURCES: the one way VP change.

    The record is replaced, never changed in place, so `Player.copy` may share it."""
    if not vp:
        return
    p.vp += vp
    p.vp_by = {**p.vp_by, source: p.vp_by.get(source, 0) + vp}


def breakdown(state: State) -> list[list[tuple[str, int]]]:
    """Per seat, its VP by source, adding up to its VP."""
    out = []
    for p in state.players:
        parts = [(source, p.vp_by.get(source, 0)) for source in SOURCES]
        rest = p.vp - sum(vp for _, vp in parts)
        out.append(parts + [(NOT_ITEMISED, rest)] if rest else parts)
    return out
