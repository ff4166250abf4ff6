"""Why an action is refused, in the rulebook's terms (law 1: a clear, specific message).

`why_not` is asked only after the contract has refused an action (it is not legal now); it
names the rule in the way, and the refusal then lists what is legal. It never decides
legality, so a gap here can only make a message less specific, never wrong. Only public
facts are used (the board, the round), never a concealed card.
"""

from __future__ import annotations

from ..core import count
from .allocation import seat_slugs
from .board import C, area_name, areas_of, civ_name, forbidden_for, growth_targets, has_trait, uncounted
from .rounds import can_colonize, displaced_non_player, placeable, wonder_sites, wonders_left
from .state import DUMMY, Allocation, EventStep, Round, State
from .view import EVENT_WORDS

COLONY_SEAS = "the Aegean, Ionian, Egyptian or Phoenician Sea"


def why_not(state: State, seat: int, action: str) -> str | None:
    verb, _, rest = action.partition(" ")
    if state.phase == "allocate" and state.alloc is not None:
        return _allocation(state, state.alloc, verb, rest)
    if state.phase == "events" and state.ev_step is not None:
        return _event(state, state.ev_step, verb, rest)
    if state.phase != "strategy" or state.rnd is None:
        return None
    rnd = state.rnd
    if rnd.step == "combat" and verb != "continue":
        return f"The battle for {area_name(rnd.area)} goes on while the attacking Army stands: `continue` (5.5)."
    if rnd.step == "displace":
        _, area = uncounted(rest)
        if verb == "move" and area not in C.areas:
            return f"There is no Area {area!r} on the map."
        dummy = (
            "; a non-player Army goes to a vacant Area that is not Desert while there is one, one at a time (9.0)"
            if displaced_non_player(state)
            else ""
        )
        return (
            f"{count(rnd.disp_left, 'Army')} of {civ_name(rnd.disp_civ, state)} must first leave "
            f"{area_name(rnd.start)} for adjacent vacant or friendly Areas, within stacking (5.3){dummy}."
        )
    if rnd.step == "start":
        return (
            f"{civ_name(rnd.civ)} enters the map in an Area next to 5-4 Neo Assyria that holds no Epoch V "
            f"Armies of its player (6.3)."
        )
    if rnd.step != "grow":
        return None
    civ = civ_name(rnd.civ, state)
    if verb in ("commit", "withdraw"):
        return (
            "A battle goes on only while its attacking Army stands; after that, `attack` the Area again "
            "to place another Army into it, or grow elsewhere (5.5)."
        )
    if verb == "done":
        return (
            f"Growth continues until the Army Pool is empty (5.4, 5.7): {civ} still has "
            f"{count(rnd.pool, 'Army')} to place or use; `done` is only for Armies that cannot be placed."
        )
    if verb in ("place", "attack"):
        n, area = uncounted(rest)
        if verb == "place" and n > 1 and area in C.areas and area in growth_targets(state, rnd)[0]:
            if rnd.seat == DUMMY:
                return "A non-player civilization never stacks its Armies (9.0)."
            room = placeable(state, rnd, area)
            return (
                f"{count(n, 'Army')} do not fit: {area_name(area)} takes {room} more "
                f"({C.areas[area].terrain.capitalize()} holds {C.stacking[area]}, Terrain Chart; "
                f"{count(rnd.pool, 'Army')} in the pool)."
            )
        return _growth(state, rnd, verb, area, civ)
    if verb in ("colonize", "wonder", "culture"):
        if rnd.seat == DUMMY:
            return "A non-player civilization makes no Non-Combat Expansion (9.0)."
        if not rnd.current:
            return (
                f"Only a Civilization of the current Epoch makes Non-Combat Expansion; {civ} is from an earlier "
                "one (5.6)."
            )
    if verb == "colonize" and not can_colonize(state, rnd):
        if not rnd.seafaring:
            return f"Colonization needs Seafaring, and {civ} does not have it this round (5.6)."
        return f"Colonization needs an Area of {civ} on {COLONY_SEAS} (5.6)."
    if verb == "culture" and rnd.tried_culture:
        return f"{civ} has already tried a Cultural Achievement this Epoch (5.6: once per Epoch)."
    if verb == "wonder" and rest not in wonder_sites(state, rnd):
        if rnd.built_wonder:
            return f"{civ} has already built a Wonder this Epoch (5.6)."
        if rnd.tried_wonder and not has_trait(state, rnd.civ, "wonder"):
            return f"{civ} has already tried for a Wonder this Epoch (5.6: once per Epoch)."
        if not wonders_left(state):
            return "All seven Wonders are built or destroyed (5.6)."
        if rest not in C.areas:
            return f"There is no Area {rest!r} on the map."
        if state.civ_at.get(rest) != rnd.civ:
            return f"A Wonder is built in a friendly Area with a City; {civ} does not hold {area_name(rest)} (5.6)."
        if rest not in state.cities:
            return f"{area_name(rest)} has no City: a Wonder needs a friendly Area with a City (5.6)."
        return f"{area_name(rest)} already has a Wonder."
    return None


def _growth(state: State, rnd: Round, verb: str, area: str, civ: str) -> str | None:
    if area not in C.areas:
        return f"There is no Area {area!r} on the map."
    name = area_name(area)
    holder = state.civ_at.get(area)
    if verb == "attack" and holder is None:
        return f"{name} is empty: `place {area}` (combat happens only in a hostile Area, 5.5)."
    if verb == "attack" and holder == rnd.civ:
        return f"{name} is already held by {civ}: `place {area}` to add an Army (5.4)."
    if verb == "place" and holder is not None and holder != rnd.civ:
        return f"{name} is held by {civ_name(holder, state)}: entering it is an `attack {area}` (5.4, 5.5)."
    if holder == rnd.civ:
        if rnd.seat == DUMMY:
            return "A non-player civilization never stacks its Armies (9.0)."
        limit = C.stacking[area]
        return (
            f"{name} already holds {limit} Arm{'y' if limit == 1 else 'ies'}, the stacking limit for "
            f"{C.areas[area].terrain.capitalize()} (Terrain Chart)."
        )
    if state.epoch == 6 and has_trait(state, rnd.civ, "does-not-expand-in-epoch-vi"):
        return f"{civ} does not expand in Epoch VI: it only reinforces Areas it holds (6.1)."
    if area in forbidden_for(state, rnd.civ):
        return f"{civ} may not enter Areas held by 5-4 Neo Assyria's player's Epoch V Armies (6.3)."
    if area not in {b for a in areas_of(state, rnd.civ) for b in C.adjacent[a]}:
        sea = ", nor on a sea one of its Areas borders (Seafaring, 6.1)" if rnd.seafaring else ""
        return f"{name} is not next to an Area of {civ} (5.4){sea}."
    return None


def _allocation(state: State, a: Allocation, verb: str, rest: str) -> str | None:
    """3.0: a drawer who already received a card must pass; cards go only to players without one."""
    me = a.order[a.index]
    words = seat_slugs(state)
    if verb == "pass" and rest not in words:
        return f"There is no player `{rest}` at this table."
    to = me if verb == "keep" else words.index(rest) if verb == "pass" else None
    if to == me and me in a.dealt:
        return (
            f"{state.players[me]} already received a passed card this Epoch, and a drawer who already "
            "holds a card must pass the drawn one to a player without one (3.0)."
        )
    if to == me:
        return "To keep the drawn card say `keep`; `pass` hands it to another player (3.0)."
    if to is not None and to in a.dealt:
        return (
            f"{state.players[to]} has already received a card this Epoch; a card is passed only to a "
            "player without one (3.0)."
        )
    return None


def _event(state: State, ev: EventStep, verb: str, area: str) -> str | None:
    """8.0: the last-place player picks the Areas the event strikes, among those it may strike."""
    civ = civ_name(ev.civ)
    if verb != ev.kind:
        return f"Now {EVENT_WORDS[ev.kind][0]} {civ}: `{ev.kind} <area>` (8.0)."
    if area not in C.areas:
        return f"There is no Area {area!r} on the map."
    if ev.kind == "ruin":
        return (
            f"The Disaster destroys a City in an Area of {civ} that had one; "
            f"{area_name(area)} is not one of them (8.0)."
        )
    if state.civ_at.get(area) != ev.civ:
        return f"{EVENT_WORDS[ev.kind][0]} {civ} only; {area_name(area)} is not an Area of it (8.0)."
    return (
        f"Barbarian Raids strike a border Area of {civ} (one next to an Area it does not hold); "
        f"{area_name(area)} lies inside its borders (8.0)."
    )


__all__ = ["why_not"]
