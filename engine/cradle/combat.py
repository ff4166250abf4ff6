"""Combat (rulebook 5.5 and the Terrain Chart), one roll of the dice at a time.

The attacker rolls two dice and keeps the higher, the defender rolls one; the
lower result loses an Army, a tie costs both. Terrain: Rough — the defender wins
ties; Mountain — the defender rolls two dice and keeps the higher; Desert — the
attacking Army is eliminated when its result is 1-3, yet can still win the roll.
Attacking a Civilization with the Military trait (6.1) strips the defender of its
modifiers (Rough and Mountain; the Desert rules burden the attacker and stay —
RULES-NOTES 6.1). Persia counts the Areas where it rolled doubles (6.3).
"""

from __future__ import annotations

import functools
import itertools
from fractions import Fraction

from .board import PERSIA, C, add_army, area_name, civ_name, destroy_cities_on_entry, has_trait, remove_armies, unused
from .state import Round, State, dice, is_raider

#: Persia's expansion ends once it has rolled doubles attacking this many Areas (6.3).
PERSIA_DOUBLES = 4


def exchange(kind: str, modifiers: bool, guides: bool, att: int, dv: int) -> tuple[bool, bool]:
    """(attacker lost, defender lost) for one roll: the attacker's kept die `att` against the
    defender's `dv` on `kind` terrain (5.5, Terrain Chart). The lower loses an Army, a tie costs
    both; Rough gives ties to the defender; in a Desert an attacker's 1-3 loses the attacking
    Army even when it wins. `modifiers`: the defender's terrain modifiers apply (no Military, 6.1);
    `guides`: the Desert Guides bonus lifts the Desert penalty. The battle and the odds its
    choices state both come from here."""
    if att > dv:
        attacker_lost, defender_lost = False, True
    elif att < dv or (kind == "rough" and modifiers):
        attacker_lost, defender_lost = True, False
    else:
        attacker_lost = defender_lost = True
    if kind == "desert" and not guides and att <= 3:
        attacker_lost = True
    return attacker_lost, defender_lost


def defender_dice(kind: str, modifiers: bool) -> int:
    """The Terrain Chart: the defender rolls two dice on a Mountain (unless Military strips it), else one."""
    return 2 if kind == "mountain" and modifiers else 1


@functools.cache
def roll_odds(kind: str, modifiers: bool, guides: bool) -> dict[tuple[bool, bool, bool], Fraction]:
    """The chance of each outcome of one roll, keyed (attacker lost, defender lost, attacker's
    dice doubles), over every face of every die (5.5 through `exchange`)."""
    faces = range(1, 7)
    out: dict[tuple[bool, bool, bool], Fraction] = {}
    rolls = list(itertools.product(faces, repeat=2))
    defends = list(itertools.product(faces, repeat=defender_dice(kind, modifiers)))
    each = Fraction(1, len(rolls) * len(defends))
    for a, b in rolls:
        for d in defends:
            key = (*exchange(kind, modifiers, guides, max(a, b), max(d)), a == b)
            out[key] = out.get(key, Fraction(0)) + each
    return out


@functools.cache
def exchange_odds(kind: str, modifiers: bool, guides: bool) -> tuple[Fraction, Fraction, Fraction]:
    """(attacker wins, both lose, attacker loses) for one roll of the dice on `kind` terrain."""
    odds = roll_odds(kind, modifiers, guides)
    win = sum((p for (al, dl, _), p in odds.items() if dl and not al), Fraction(0))
    both = sum((p for (al, dl, _), p in odds.items() if dl and al), Fraction(0))
    return win, both, 1 - win - both


@functools.cache
def win_without_doubles(kind: str, modifiers: bool, guides: bool) -> Fraction:
    """The chance that one roll wins without the attacker rolling doubles (6.3)."""
    odds = roll_odds(kind, modifiers, guides)
    return sum((p for (al, dl, dbl), p in odds.items() if dl and not al and not dbl), Fraction(0))


@functools.cache
def _take(kind: str, modifiers: bool, guides: bool, defenders: int, persia_ends: bool) -> Fraction:
    win = exchange_odds(kind, modifiers, guides)[0]
    if not persia_ends:
        return win**defenders
    return win_without_doubles(kind, modifiers, guides) ** (defenders - 1) * win


def ends_persia(rnd: Round, area: str) -> bool:
    """Whether doubles rolled attacking `area` would end the round's expansion: Persia with doubles
    already in three other Areas (6.3: "counted once per attacked Area")."""
    return rnd.civ == PERSIA and area not in rnd.doubles and len(rnd.doubles) >= PERSIA_DOUBLES - 1


def take_odds(state: State, rnd: Round, area: str) -> Fraction:
    """The chance that the one attacking Army takes `area` from its defenders: it must win every
    roll (a tie or a loss ends its part, 5.5). For Persia one roll short of its fourth doubles,
    doubles on a roll that leaves a defender end the expansion and withdraw the Army (6.3); doubles
    on the roll that takes the Area still take it (the roll in progress is finished)."""
    return _take(C.areas[area].terrain, not rnd.military, rnd.guides, state.count[area], ends_persia(rnd, area))


def combat_roll(state: State, rnd: Round, events: list[str]) -> None:
    """One exchange in `rnd.area`; sets `rnd.step` to what comes next (grow, or combat while the attacker stands).

    Once the attacking Army is lost the round is back to growth: 5.5's "another Army must be
    placed into the Area" to go on is simply the next `attack` of the same Area (RULES-NOTES 5.5).
    """
    area = rnd.area
    defender = state.civ_at[area]
    terrain = C.areas[area].terrain
    modifiers = not rnd.military
    att_dice = dice(state, 2)
    att = max(att_dice)
    def_dice = dice(state, defender_dice(terrain, modifiers))
    dv = max(def_dice)
    attacker_lost, defender_lost = exchange(terrain, modifiers, rnd.guides, att, dv)
    desert = terrain == "desert" and not rnd.guides and att <= 3

    att_txt = f"{att_dice[0]} and {att_dice[1]} (keeps {att})"
    def_txt = f"{def_dice[0]}" if len(def_dice) == 1 else f"{def_dice[0]} and {def_dice[1]} (Mountain, keeps {dv})"
    notes = []
    if terrain == "rough" and att == dv:
        notes.append("Rough: the defender wins ties" if modifiers else "Military: no Rough tie rule")
    if terrain == "mountain" and not modifiers:
        notes.append("Military: the defender rolls one die")
    if desert:
        notes.append("Desert: a 1-3 eliminates the attacker")
    outcome = []
    if defender_lost:
        outcome.append(f"{civ_name(defender, state)} {'lose' if is_raider(defender) else 'loses'} an Army")
    if attacker_lost:
        outcome.append(f"{civ_name(rnd.civ, state)} loses the attacking Army")
    line = (
        f"Battle for {area_name(area)}: {civ_name(rnd.civ, state)} rolls {att_txt}, "
        f"{civ_name(defender, state)} {'roll' if is_raider(defender) else 'rolls'} {def_txt}"
    )
    if notes:
        line += f" [{'; '.join(notes)}]"
    held = not defender_lost or state.count[area] > 1
    again = "; another Army may attack it again (5.5)" if attacker_lost and held and rnd.pool else ""
    events.append(line + ": " + " and ".join(outcome) + again + ".")

    if rnd.civ == PERSIA and att_dice[0] == att_dice[1] and area not in rnd.doubles:
        rnd.doubles.append(area)
        events.append(f"Persia rolled doubles attacking {area_name(area)} ({len(rnd.doubles)} of 4 Areas).")

    if defender_lost:
        remove_armies(state, area)
    cleared = area not in state.civ_at
    if cleared:
        if attacker_lost:
            events.append(f"{area_name(area)} is left empty.")
        else:
            add_army(state, area, rnd.civ)
            events.append(f"{civ_name(rnd.civ, state)} takes {area_name(area)}.")
            if area in state.cities and rnd.current and has_trait(state, rnd.civ, "no-city-bonus"):
                destroy_cities_on_entry(state, rnd.civ, area, events)
        rnd.step, rnd.area = "grow", ""
    elif attacker_lost:
        rnd.step, rnd.area = "grow", ""
        if not rnd.pool:
            events.append(f"{civ_name(rnd.civ, state)} has no Armies left to continue the battle.")
    else:
        rnd.step = "combat"

    if rnd.civ == PERSIA and len(rnd.doubles) >= PERSIA_DOUBLES:
        if rnd.step == "combat":
            events.append(f"The attacking Persian Army in {area_name(area)} is withdrawn.")
        if rnd.pool:
            events.append(f"Persia's expansion ends (rule 6.3): {unused(rnd.pool)}.")
        else:
            events.append("Persia's expansion ends (rule 6.3).")
        rnd.pool = 0
        rnd.step, rnd.area = "grow", ""
