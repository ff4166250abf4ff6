"""Cradle of Civilization's legal actions in the players' words (issue 25; CHOICES.md).

Every legal action becomes a `Choice`: the kind of decision in the rulebook's words (`group`),
the Area, card or player chosen by its printed name (`label`), and what it costs, gives and may
bring about (`detail`) — an attack's dice odds, a Desert's entry roll, a Non-Combat Expansion's
chance and VPs. Civilizations are named as printed with the card number beside them
("Elam (1-2)"): the number tells the Epoch and the arrival order, which decide who is hostile
to whom and who moves first.

Only what the seat may know is used: the board, the round and the dice's odds (all public), and
the card the seat itself has drawn. A card dealt face down to someone else and every future
roll stay out, so two positions the seat cannot tell apart give it the same choices (RULES-NOTES
"Choices and prompts").
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from fractions import Fraction

from ..core import DETAIL_MAX, Choice, count, details, essential
from .allocation import seat_slugs
from .board import CITY_FALLS_ON, DESERT_LOST_ON, PERSIA, C, area_name, areas_of, has_trait, owner, seat_name, uncounted
from .combat import ends_persia, exchange_odds, take_odds
from .rounds import COLONIZATION_ON, grow_actions, only_attacks_left
from .state import DUMMY, Round, State, is_raider

#: The most choices one group holds before it is split by Region (a menu shows 25).
GROUP_SIZE = 25

#: The kinds of growth (5.4-5.6), as groups.
FRIENDLY, NEUTRAL, HOSTILE, EXPANSION = (
    "Place in a friendly Area",
    "Place in a neutral Area",
    "Attack a hostile Area",
    "Non-Combat Expansion",
)

#: The Terrain Chart: "If desert is unoccupied, the army entering the space is removed on a roll of 1-2"
#: (the number the entry roll itself reads, `board.DESERT_LOST_ON`).
DESERT_ENTRY = f"lost on a roll of 1-{DESERT_LOST_ON} ({round(100 * DESERT_LOST_ON / 6)}%)"

#: The End of Epoch events a player picks Areas for (8.0): group, and what the prompt asks.
EVENT_GROUPS = {
    "raid": ("Barbarian Raids", "choose the border Area of {civ} your upside-down Army raids"),
    "revolt": ("Civil War", "choose an Area of {civ} where your upside-down Army rebels"),
    "ruin": ("Disaster", "choose the Area of {civ} that loses a City"),
}

#: What a player waiting for the last-place player's event choice reads.
EVENT_WAITS = {
    "raid": "choose where Barbarian Raids strike {civ}",
    "revolt": "choose where Civil War strikes {civ}",
    "ruin": "choose which City of {civ} the Disaster destroys",
}


# ---- names ----------------------------------------------------------------------------


def civ_title(state: State, civ: str) -> str:
    """`Elam (1-2)`, `Troy (3-4)`, `bob's raiders`: the printed name with the card number beside it."""
    if is_raider(civ):
        return f"{state.players[int(civ[1:])]}'s raiders"
    c = C.civs[civ]
    return f"{c.name} ({c.card})"


def controller(state: State, civ: str, seat: int) -> str:
    """`you`, `bob`, `non-player`: who controls `civ` (raiders: whose colour they are), seen from `seat`."""
    holder = owner(state, civ)
    if holder == seat:
        return "you"
    if holder == DUMMY:
        return "non-player"
    return "nobody" if holder is None else state.players[holder]


def whose(state: State, civ: str, seat: int) -> str:
    """`your Elam (1-2)`, `bob's Elam (1-2)`, `the non-player Elam (1-2)`: a Civilization and who controls it."""
    if is_raider(civ):
        return "your raiders" if owner(state, civ) == seat else civ_title(state, civ)
    who, title = controller(state, civ, seat), civ_title(state, civ)
    return {"you": f"your {title}", "non-player": f"the non-player {title}"}.get(who, f"{who}'s {title}")


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def chance(at_least: int) -> str:
    """`4-6 (50%)`: a die roll of `at_least` or more, with its odds."""
    return f"{at_least}-6 ({round(100 * (7 - at_least) / 6)}%)"


def terrain(area: str) -> str:
    return C.areas[area].terrain.capitalize()


def area_facts(state: State, area: str, civ: str) -> list[str]:
    """What an Area brings its holder at scoring (7.2): Cities, the Civilization's Bonus Area, a Wonder."""
    facts = []
    cities = state.cities.get(area, [])
    if cities:
        facts.append(("City " if len(cities) == 1 else "Cities ") + ", ".join(C.cities[c].name for c in cities))
    if not is_raider(civ) and C.civs[civ].bonus_area == area:
        facts.append("Bonus Area")
    for wonder, where in state.wonders.items():
        if where == area:
            facts.append(next(w.name for w in C.wonders if w.id == wonder))
    return facts


# ---- battle odds (5.5, Terrain Chart) ---------------------------------------------------


@functools.cache
def percent(p: Fraction) -> str:
    return f"{round(100 * p)}%"


def terrain_note(area: str, rnd: Round) -> str:
    """The Terrain Chart's combat modifier in `area` as it applies to this attacker ("" on Plains)."""
    kind = C.areas[area].terrain
    if kind in ("rough", "mountain") and rnd.military:
        return f"{terrain(area)}, no modifier (Military)"
    if kind == "rough":
        return "Rough: defender wins ties"
    if kind == "mountain":
        return "Mountain: defender rolls 2"
    if kind == "desert":
        return "Desert, no penalty (Guides)" if rnd.guides else "Desert: your 1-3 loses the Army"
    return ""


def defenders(state: State, area: str, seat: int) -> str:
    """`3 defending (bob)`, `1 defending (you)`: how many Armies hold `area`, and whose."""
    civ = state.civ_at[area]
    who = controller(state, civ, seat) + (", raiders" if is_raider(civ) else "")
    return f"{state.count[area]} defending ({who})"


def battle_detail(state: State, rnd: Round, area: str, seat: int) -> str:
    """Defenders, one roll's odds (the attacker loses the rest), the chance this one Army takes the
    Area (it must win every roll), the terrain's modifier and the defending Civilization."""
    win, both, _ = exchange_odds(C.areas[area].terrain, not rnd.military, rnd.guides)
    persia = ""
    if rnd.civ == PERSIA and area in rnd.doubles:
        persia = "doubles counted"
    elif ends_persia(rnd, area):
        persia = "doubles stop Persia"
    civ = state.civ_at[area]
    odds = [
        f"a roll: win {percent(win)}" + (f", both lose {percent(both)}" if both else ""),
        f"takes it {percent(take_odds(state, rnd, area))}",
        persia,
    ]
    held = defenders(state, area, seat)
    if len(" · ".join([held, *odds])) > DETAIL_MAX:  # a long name: the count alone
        held = f"{state.count[area]} defending"
    return details(
        *(essential(part) if part else "" for part in [held, *odds]),
        terrain_note(area, rnd),
        "" if is_raider(civ) else civ_title(state, civ),
    )


# ---- growth (5.4-5.6) ----------------------------------------------------------------


def placement_detail(state: State, rnd: Round, area: str, armies: int, own: set[str]) -> str:
    """An Area the round's Civilization holds (reinforced) or an empty one (entered)."""
    if area in own:
        have = state.count[area]
        return details(essential(f"{have} there → {have + armies} of {C.stacking[area]} ({terrain(area)})"))
    reach = "" if any(area in C.adjacent[a] for a in own) else "by sea (Seafaring)"
    risk = ""
    if C.areas[area].terrain == "desert" and not rnd.guides:
        risk = DESERT_ENTRY
    elif state.cities.get(area) and rnd.current and has_trait(state, rnd.civ, "no-city-bonus"):
        risk = f"No City Bonus: each City falls on {CITY_FALLS_ON}-6"
    return details(
        essential(f"empty {terrain(area)}"),
        essential(risk) if risk else "",
        reach,
        *area_facts(state, area, rnd.civ),
        C.regions[C.areas[area].region].name,
    )


def growth_choice(state: State, rnd: Round, action: str, seat: int, own: set[str]) -> Choice:
    verb, _, arg = action.partition(" ")
    if verb == "place":
        armies, area = uncounted(arg)
        label = area_name(area) + (f" ×{armies}" if armies > 1 else "")
        group = FRIENDLY if area in own else NEUTRAL
        return Choice(action, group, label, placement_detail(state, rnd, area, armies, own), (area,))
    if verb == "attack":
        return Choice(action, HOSTILE, area_name(arg), battle_detail(state, rnd, arg, seat), (arg,))
    if verb == "colonize":
        seas = sorted({s for a in own for s in C.seas_of[a] if C.seas[s].colonization})
        detail = details(essential(f"one Army · on {chance(COLONIZATION_ON)}: +{C.vp.colonization} VP"))
        return Choice(action, EXPANSION, "Colonize the Western Mediterranean", detail, tuple(seas))
    if verb == "wonder":
        again = "tries until built (Wonder)" if has_trait(state, rnd.civ, "wonder") else "once this Epoch"
        detail = details(
            essential(f"one Army · on {chance(rnd.wonder_min)}: +{C.vp.wonder_built} VP"),
            f"{C.vp.per_wonder_controlled} VP per scoring held",
            again,
        )
        return Choice(action, EXPANSION, f"Wonder in {area_name(arg)}", detail, (arg,))
    if verb == "culture":
        detail = details(
            essential(f"one Army · on {chance(rnd.culture_min)}: +{C.vp.cultural_achievement} VP"), "once this Epoch"
        )
        return Choice(action, EXPANSION, "Cultural Achievement", detail)
    if verb == "done":
        detail = details(essential(f"{count(rnd.pool, 'Army')} go back unused"), "none can be placed any more")
        return Choice(action, "Stop growing", "Return the rest of the pool", detail)
    raise ValueError(f"not a growth action: {action!r}")  # pragma: no cover - grow_actions lists only these


def split_by_region(choices: list[Choice]) -> list[Choice]:
    """A placement or attack group too long for one menu, split by the Region of its Areas."""
    sizes: dict[str, int] = {}
    for c in choices:
        sizes[c.group] = sizes.get(c.group, 0) + 1
    out = []
    for c in choices:
        if sizes[c.group] > GROUP_SIZE and c.refers and c.refers[0] in C.areas:
            region = C.regions[C.areas[c.refers[0]].region].name
            c = Choice(c.action, f"{c.group}: {region}", c.label, c.detail, c.refers)
        out.append(c)
    return out


# ---- the other decisions ---------------------------------------------------------------


def round_choices(state: State, seat: int, actions: Sequence[str]) -> list[Choice]:
    rnd = state.round_now()
    if rnd.step == "combat":
        detail = battle_detail(state, rnd, rnd.area, seat)
        return [Choice(a, "Battle", f"Roll again for {area_name(rnd.area)}", detail, (rnd.area,)) for a in actions]
    if rnd.step == "start":
        return [start_choice(state, rnd, a.split(" ", 1)[1], seat) for a in actions]
    if rnd.step == "displace":
        return [move_choice(state, rnd, a) for a in actions]
    own = set(areas_of(state, rnd.civ))
    return split_by_region([growth_choice(state, rnd, a, seat, own) for a in actions])


def start_choice(state: State, rnd: Round, area: str, seat: int) -> Choice:
    """6.3: an Area next to 5-4 Neo Assyria where Sargonid Assyria's first Army enters."""
    held = state.civ_at.get(area)
    there = f"{count(state.count[area], 'Army')} of {whose(state, held, seat)} must move out" if held else "empty"
    detail = details(
        essential(there), terrain(area), C.regions[C.areas[area].region].name, *area_facts(state, area, rnd.civ)
    )
    return Choice(f"start {area}", "Start Area", area_name(area), detail, (area,))


def move_choice(state: State, rnd: Round, action: str) -> Choice:
    """5.3: displaced Armies into an adjacent vacant or friendly Area (several at once for a player's)."""
    armies, area = uncounted(action.split(" ", 1)[1])
    label = area_name(area) + (f" ×{armies}" if armies > 1 else "")
    if area in state.civ_at:
        have = state.count[area]
        what = f"friendly: {have} there → {have + armies} of {C.stacking[area]} ({terrain(area)})"
    else:
        what = f"empty {terrain(area)}"
    risk = DESERT_ENTRY if C.areas[area].terrain == "desert" else ""
    detail = details(
        essential(what),
        essential(risk) if risk else "",
        *area_facts(state, area, rnd.disp_civ),
        C.regions[C.areas[area].region].name,
    )
    return Choice(action, "Move displaced Armies", label, detail, (area,))


#: The traits as the rulebook names them (6.1).
TRAIT_NAMES = {
    "no-city-bonus": "No City Bonus",
    "does-not-expand-in-epoch-vi": "Does Not Expand in Epoch VI",
    "wonder": "Wonder",
    "commerce": "Commerce",
    "military": "Military",
    "seafaring": "Seafaring",
}


def card_facts(card: str) -> list[str]:
    """What the Epoch Civilization Summary Card (1.5) tells of a card's Civilization(s), as detail parts."""
    civs = [C.civs[civ] for civ in C.civs_of_card[card]]
    parts = []
    for c in civs:
        parts += [
            (f"{c.name}: " if len(civs) > 1 else "") + f"arrives {ordinal(c.order)}",
            f"{count(c.armies, 'Army')} from {area_name(c.start_area)}",
            f"Bonus Area {area_name(c.bonus_area)}" if c.bonus_area else "",
            ", ".join(TRAIT_NAMES[t] for t in c.traits),
        ]
    return parts


def card_title(card: str) -> str:
    """`Elam (1-2)`, `Troy / Arzawa (3-4)`: a Civilization Card by its printed name and number."""
    return f"{' / '.join(C.civs[c].name for c in C.civs_of_card[card])} ({card})"


def allocation_choices(state: State, seat: int, actions: Sequence[str]) -> list[Choice]:
    """3.0: the drawer keeps the card it looks at or passes it face down; the card is named for it alone."""
    drawn = state.allocation_now().drawn
    title = card_title(drawn)
    words = seat_slugs(state)
    out = []
    for action in actions:
        if action == "keep":
            out.append(Choice(action, "Keep or pass", f"Keep {title}", details(*card_facts(drawn))))
            continue
        to = words.index(action.split(" ", 1)[1])
        name = state.players[to]
        detail = details(essential(f"{name} ({state.vp[to]} VP) must keep it"), *card_facts(drawn))
        out.append(Choice(action, "Keep or pass", f"Pass {title} to {name}", detail))
    return out


def event_choices(state: State, seat: int, actions: Sequence[str]) -> list[Choice]:
    """8.0: the last-place player picks the Areas an event strikes."""
    ev = state.event_now()
    group = EVENT_GROUPS[ev.kind][0]
    out = []
    for action in actions:
        area = action.split(" ", 1)[1]
        if ev.kind == "ruin":
            cities = state.cities[area]
            stays = f"{count(len(cities) - 1, 'City')} stays" if len(cities) > 1 else ""
            detail = details(essential(f"the City of {C.cities[cities[-1]].name} is destroyed"), stays)
        else:
            detail = details(
                essential(f"{whose(state, ev.civ, seat)} loses {count(state.count[area], 'Army')}"),
                essential("your upside-down Army holds it"),
                *area_facts(state, area, ev.civ),
            )
        out.append(Choice(action, group, area_name(area), detail, (area,)))
    return out


def describe(state: State, seat: int, actions: Sequence[str]) -> list[Choice]:
    """The seat's legal `actions`, in order, each as a Choice ([] when it is not to act)."""
    if not actions:
        return []
    if state.phase == "allocate":
        return allocation_choices(state, seat, actions)
    if state.phase == "events":
        return event_choices(state, seat, actions)
    return round_choices(state, seat, actions)


# ---- what is decided now ---------------------------------------------------------------


def prompt(state: State, seat: int, acting: Sequence[int]) -> str:
    """One sentence to the seat: what it decides now, or whom it waits for."""
    if state.phase == "over":
        return "The game is over."
    if not acting:
        return ""
    if seat not in acting:
        return f"Waiting for {seat_name(state, acting[0])} to {what_is_decided(state, acting[0])}."
    if state.phase == "allocate":
        era = C.epochs[state.epoch - 1].roman
        if seat in state.allocation_now().dealt:
            return f"You already hold a card this Epoch: pass the Epoch {era} card you drew face down to a player."
        return f"Keep the Epoch {era} card you drew, or pass it face down to a player without one."
    if state.phase == "events":
        ev = state.event_now()
        title, ask = EVENT_GROUPS[ev.kind]
        more = f" ({ev.left} to pick)" if ev.left > 1 else ""
        return f"{title}: {ask.format(civ=civ_title(state, ev.civ))}{more}."
    return round_prompt(state, state.round_now())


def round_prompt(state: State, rnd: Round) -> str:
    civ = civ_title(state, rnd.civ)
    if rnd.civ == PERSIA:  # 6.3: doubles in four Areas end its expansion
        civ += f", doubles in {len(rnd.doubles)} of 4 Areas"
    if rnd.step == "combat":
        return f"Battle for {area_name(rnd.area)}: the attacking Army still stands, so roll again."
    if rnd.step == "start":
        return f"Choose where {civ} enters the map, next to Neo Assyria (5-4)."
    if rnd.step == "displace":
        return (
            f"Move {count(rnd.disp_left, 'Army')} of {civ_title(state, rnd.disp_civ)} out of "
            f"{area_name(rnd.start)}, where {civ} arrives."
        )
    pool = count(rnd.pool, "Army")
    if rnd.seat == DUMMY:
        army = f"the {ordinal(rnd.placed + 1)} Army of {civ}, the non-player civilization"
        if only_attacks_left(state):
            return f"Attack with {army}: no other Area is left."
        return f"Place {army} ({pool} left)."
    legal = grow_actions(state)
    expansion = any(a.split()[0] in ("colonize", "wonder", "culture") for a in legal)
    if only_attacks_left(state):
        if expansion:
            return f"Grow {civ}: only hostile Areas are left, so attack or try Non-Combat Expansion."
        return f"Grow {civ}: only hostile Areas are left, so each Army must attack ({pool} left)."
    if not any(a.startswith(("place", "attack")) for a in legal):
        return f"{civ} cannot place another Army: use the {pool} left for Non-Combat Expansion or return them."
    if not rnd.current:
        return f"Grow {civ}, a previous-Epoch Civilization: place or attack with the {pool} in its Army Pool."
    if expansion:
        return f"Grow {civ}: place or attack with the {pool} left, or try Non-Combat Expansion."
    return f"Grow {civ}: place or attack with the {pool} left, until the pool is empty."


def what_is_decided(state: State, seat: int) -> str:
    """`keep or pass the card they drew`, `grow Elam (1-2)`: what the acting `seat` decides, said to another."""
    if state.phase == "allocate":
        return "pass the card they drew" if seat in state.allocation_now().dealt else "keep or pass the card they drew"
    if state.phase == "events":
        ev = state.event_now()
        return EVENT_WAITS[ev.kind].format(civ=civ_title(state, ev.civ))
    rnd = state.round_now()
    civ = civ_title(state, rnd.civ)
    if rnd.step == "combat":
        return f"fight on for {area_name(rnd.area)}"
    if rnd.step == "start":
        return f"choose where {civ} enters the map"
    if rnd.step == "displace":
        return f"move the Armies leaving {area_name(rnd.start)}"
    if rnd.seat == DUMMY:
        return f"place an Army of the non-player {civ}"
    return f"grow {civ}"


def rule(state: State) -> str:
    """The rulebook section behind the decision in progress ("" when none)."""
    if state.phase == "allocate":
        return "3.0"
    if state.phase == "events":
        return "8.0"
    rnd = state.rnd
    if state.phase != "strategy" or rnd is None:
        return ""
    return {"combat": "5.5", "start": "6.3", "displace": "5.3"}.get(rnd.step, "9.0" if rnd.seat == DUMMY else "5.4")


def needs_private_view(state: State, seat: int) -> bool:
    """True while `seat` holds a drawn card it must keep or pass (3.0): its private view shows it."""
    a = state.alloc
    return state.phase == "allocate" and a is not None and bool(a.drawn) and a.order[a.index] == seat


__all__ = ["describe", "needs_private_view", "prompt", "rule"]
