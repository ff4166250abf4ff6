"""Questions about the map and the small changes to it (rulebook 5.2-5.4, 6.1-6.3).

Friendly, neutral and hostile (5.2) are always seen from one Civilization: an
Area is friendly when that Civilization occupies it, neutral when empty and
hostile otherwise — even when the same player controls the occupier.
"""

from __future__ import annotations

from ..core import count
from .data import components
from .state import DUMMY, Round, State, dice, is_raider

C = components()

# Per-Civilization facts the rules ask on every step (owner, traits, names), looked up once here:
# a raider (`r<seat>`, 8.0) is in none of them.
CARD = {civ: c.card for civ, c in C.civs.items()}  #: Civilization -> its card
EPOCH = {civ: c.epoch for civ, c in C.civs.items()}  #: Civilization -> its Epoch
PRINTED_TRAITS = {civ: frozenset(c.traits) for civ, c in C.civs.items()}  #: Civilization -> printed traits
#: Traits that stay after the Civilization's own Epoch (6.1: Seafaring stays).
LASTING_TRAITS = ("seafaring", "does-not-expand-in-epoch-vi")
BONUS_AREA = {civ: c.bonus_area for civ, c in C.civs.items()}  #: Civilization -> its Bonus Area (6.2)
REGION = {area: a.region for area, a in C.areas.items()}  #: Area -> its Region
NAMES = {civ: f"{c.card} {c.name}" if c.part == 0 else f"{c.card} {c.name} ({c.marker})" for civ, c in C.civs.items()}

NEO_ASSYRIA = "5-4"  #: rulebook 6.3 / civ-list footnote
SARGONID_ASSYRIA = "6-2"  #: rulebook 6.3
PERSIA = "6-6"  #: rulebook 6.3


def unused(n: int) -> str:
    """`1 Army returns unused`, `3 Armies return unused` (5.4, 6.3)."""
    return f"{count(n, 'Army')} return{'s' if n == 1 else ''} unused"


def area_name(area: str) -> str:
    return C.areas[area].name


def civ_name(civ: str, state: State | None = None) -> str:
    name = NAMES.get(civ)
    if name is not None:
        return name
    who = state.players[int(civ[1:])] if state else civ[1:]
    return f"{who}'s raiders"


def seat_name(state: State, seat: int) -> str:
    return "the non-player civilization" if seat == DUMMY else state.players[seat]


def civ_and_owner(state: State, civ: str) -> str:
    """`1-1 Sumer (bob)`: a Civilization with the player controlling it; raiders name theirs already."""
    if is_raider(civ):
        return civ_name(civ, state)
    seat = owner(state, civ)
    return civ_name(civ) if seat is None else f"{civ_name(civ)} ({seat_name(state, seat)})"


def counted(verb: str, n: int, area: str) -> str:
    """`place uruk`, `place 2 uruk`: an action putting `n` Armies in one Area at once."""
    return f"{verb} {area}" if n == 1 else f"{verb} {n} {area}"


def uncounted(arg: str) -> tuple[int, str]:
    """`"2 uruk"` -> (2, "uruk"), `"uruk"` -> (1, "uruk"): the inverse of `counted`."""
    first, _, rest = arg.partition(" ")
    return (int(first), rest) if first.isdigit() and rest else (1, arg)


def owner(state: State, civ: str) -> int | None:
    """The seat controlling `civ` (DUMMY for the non-player one), None if nobody."""
    card = CARD.get(civ)
    if card is None:  # raiders
        return int(civ[1:])
    return state.cards.get(card)


def area_owners(state: State) -> dict[str, int | None]:
    """Area -> the seat controlling its Armies (None if nobody), asking once per Civilization."""
    seat_of_civ: dict[str, int | None] = {}
    out = {}
    for area, civ in state.civ_at.items():
        if civ not in seat_of_civ:
            seat_of_civ[civ] = owner(state, civ)
        out[area] = seat_of_civ[civ]
    return out


def seat_of(state: State, civ: str) -> int:
    """The seat controlling `civ`, a Civilization in play (its card dealt) or raiders."""
    seat = owner(state, civ)
    if seat is None:
        raise RuntimeError(f"Nobody controls {civ_name(civ)}: its card is not dealt.")
    return seat


def areas_of(state: State, civ: str) -> list[str]:
    return [a for a, c in state.civ_at.items() if c == civ]


def areas_held(state: State, civ: str) -> int:
    """`len(areas_of(state, civ))`, counted without the list (asked at every round's start and end)."""
    return list(state.civ_at.values()).count(civ)


def armies_of_seat(state: State, seat: int) -> int:
    """All Armies of a player's colour on the map, raiders included (7.0)."""
    armies = state.count
    return sum(armies[a] for a, s in area_owners(state).items() if s == seat)


def armies_of_seats(state: State) -> list[int]:
    """`armies_of_seat` for every seat, in one pass over the map."""
    armies = [0] * state.n
    for area, seat in area_owners(state).items():
        if seat is not None and seat >= 0:
            armies[seat] += state.count[area]
    return armies


def epoch_armies_on_map(state: State, seat: int, epoch: int) -> int:
    """Armies of `seat`'s Epoch `epoch` counters on the map (the counter mix, 5.1)."""
    civs = {civ for card, s in state.cards.items() if s == seat for civ in C.civs_of_card[card] if EPOCH[civ] == epoch}
    return sum(state.count[a] for a, civ in state.civ_at.items() if civ in civs)


def has_trait(state: State, civ: str, trait: str) -> bool:
    """Printed traits apply only while the Civilization is current; Seafaring stays (6.1)."""
    traits = PRINTED_TRAITS.get(civ)  # raiders have none
    if traits is None or trait not in traits:
        return False
    return trait in LASTING_TRAITS or EPOCH[civ] == state.epoch


def remove_armies(state: State, area: str, n: int = 1) -> None:
    left = state.count[area] - n
    if left > 0:
        state.count[area] = left
    else:
        del state.count[area]
        del state.civ_at[area]


def add_army(state: State, area: str, civ: str, n: int = 1) -> None:
    if area in state.civ_at:
        state.count[area] += n
    else:
        state.civ_at[area] = civ
        state.count[area] = n


def forbidden_for(state: State, civ: str) -> set[str]:
    """Areas `civ` may not enter: Sargonid Assyria and the Neo Assyrian player's Epoch V Armies (6.3)."""
    if civ != SARGONID_ASSYRIA:
        return set()
    na_card = C.civs[NEO_ASSYRIA].card
    if na_card not in state.cards:
        return set()
    na_seat = state.cards[na_card]
    return {
        a
        for a, c in state.civ_at.items()
        if not is_raider(c) and C.civs[c].epoch == 5 and state.cards.get(C.civs[c].card) == na_seat
    }


def growth_targets(state: State, rnd: Round, own: list[str] | None = None) -> tuple[list[str], list[str]]:
    """(Areas to `place` in, Areas to `attack`) for one Army of the round's Civilization (5.4).

    Own Areas within stacking, neutral or hostile Areas adjacent to one of its
    Areas, and with Seafaring any land Area on a sea it borders (6.1). A
    non-player Civilization "does not stack, nor enter Desert Areas unless they have
    to" (9.0): a vacant or hostile Area that is not Desert while there is one; when none
    is left it has to do one of the two, and the rules prefer neither, so its placer may
    stack or enter a Desert (RULES-NOTES 9.0). A Civilization with "Does Not Expand in
    Epoch VI" only reinforces in Epoch VI.
    """
    civ = rnd.civ
    if own is None:
        own = areas_of(state, civ)
    dummy = rnd.seat == DUMMY
    stack = C.stacking
    room = [a for a in own if state.count[a] < stack[a]]
    place = [] if dummy else room
    if state.epoch == 6 and has_trait(state, civ, "does-not-expand-in-epoch-vi"):
        return sorted(room), []
    reach: set[str] = set()
    adjacent = C.adjacent
    for a in own:
        reach |= adjacent[a]
    if rnd.seafaring:
        for a in own:
            for sea in C.seas_of[a]:
                reach.update(C.seas[sea].borders)
    reach.difference_update(own)
    reach -= forbidden_for(state, civ)
    neutral = [a for a in reach if a not in state.civ_at]
    hostile = [a for a in reach if a in state.civ_at]
    if dummy:
        desert = C.areas
        nd = [a for a in neutral if desert[a].terrain != "desert"]
        hd = [a for a in hostile if desert[a].terrain != "desert"]
        if nd or hd:
            neutral, hostile = nd, hd
        else:
            place = room  # it has to stack or enter a Desert: either (9.0)
    return sorted(place + neutral), sorted(hostile)


def enter(state: State, rnd: Round, area: str, events: list[str], *, start: bool = False) -> bool:
    """Put one Army of the round's Civilization into a neutral Area; False if the Desert took it.

    Entering an empty Desert costs the Army on a roll of 1-2 (Terrain Chart), but
    not for the Start Area (RULES-NOTES 5.3) nor with the Desert Guides bonus.
    A current No City Bonus Civilization entering an Area destroys each City there
    on a 4-6 (6.1); reinforcing an Area it already holds rolls again for nothing
    (RULES-NOTES 6.1).
    """
    entering = area not in state.civ_at  # a reinforcement of its own Area enters nothing new
    if not start and entering and not rnd.guides and not survives_desert(state, civ_name(rnd.civ), area, events):
        return False
    add_army(state, area, rnd.civ)
    if entering and area in state.cities and rnd.current and has_trait(state, rnd.civ, "no-city-bonus"):
        destroy_cities_on_entry(state, rnd.civ, area, events)
    return True


#: The Terrain Chart: an Army entering an unoccupied Desert is removed on a roll of 1 to this.
DESERT_LOST_ON = 2
#: 6.1 No City Bonus: each City in an Area entered falls on a roll of this or more.
CITY_FALLS_ON = 4


def survives_desert(state: State, who: str, area: str, events: list[str]) -> bool:
    """The Terrain Chart's entry roll: an Army entering an unoccupied Desert is removed on 1-2.

    `area` is unoccupied when this is asked; any other terrain needs no roll.
    """
    if C.areas[area].terrain != "desert":
        return True
    (r,) = dice(state, 1)
    if r <= DESERT_LOST_ON:
        events.append(f"{who} enters the empty Desert of {area_name(area)}: rolls {r}, the Army is lost.")
        return False
    events.append(f"{who} enters the empty Desert of {area_name(area)}: rolls {r}, the Army survives.")
    return True


def destroy_cities_on_entry(state: State, civ: str, area: str, events: list[str]) -> None:
    """No City Bonus (6.1): on a roll of 4-6 each City it occupies is destroyed."""
    for city in list(state.cities.get(area, ())):
        (r,) = dice(state, 1)
        if r >= CITY_FALLS_ON:
            destroy_city(state, area, city)
            events.append(
                f"{civ_name(civ)} (No City Bonus) rolls {r} in {area_name(area)}: "
                f"the city of {C.cities[city].name} is destroyed."
            )
        else:
            events.append(
                f"{civ_name(civ)} (No City Bonus) rolls {r} in {area_name(area)}: "
                f"the city of {C.cities[city].name} stands."
            )


def destroy_city(state: State, area: str, city: str | None = None) -> str | None:
    """Remove one City from `area` (the newest if none is named); its id, or None."""
    here = state.cities.get(area)
    if not here:
        return None
    city = city or here[-1]
    here.remove(city)
    if not here:
        del state.cities[area]
    return city


def displacement_options(state: State, civ: str, area: str) -> list[str]:
    """Where a displaced Army may go: adjacent vacant or friendly Areas within stacking (5.3)."""
    out = []
    for b in C.adjacent[area]:
        occ = state.civ_at.get(b)
        if occ is None or (occ == civ and state.count[b] < C.stacking[b]):
            out.append(b)
    return sorted(out)
