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

from .board import PERSIA, C, add_army, area_name, civ_name, destroy_cities_on_entry, has_trait, remove_armies, unused
from .state import Round, State, dice, is_raider


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
    def_dice = dice(state, 2 if (terrain == "mountain" and modifiers) else 1)
    dv = max(def_dice)
    attacker_lost = defender_lost = False
    if att > dv:
        defender_lost = True
    elif att < dv:
        attacker_lost = True
    elif terrain == "rough" and modifiers:
        attacker_lost = True
    else:
        attacker_lost = defender_lost = True
    desert = terrain == "desert" and not rnd.guides and att <= 3
    if desert:
        attacker_lost = True

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

    if rnd.civ == PERSIA and len(rnd.doubles) >= 4:
        if rnd.step == "combat":
            events.append(f"The attacking Persian Army in {area_name(area)} is withdrawn.")
        if rnd.pool:
            events.append(f"Persia's expansion ends (rule 6.3): {unused(rnd.pool)}.")
        else:
            events.append("Persia's expansion ends (rule 6.3).")
        rnd.pool = 0
        rnd.step, rnd.area = "grow", ""
