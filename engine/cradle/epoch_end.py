"""End of Epoch events (rulebook 8.0) and the Bronze Age Collapse.

After Epochs I-V every Civilization on the map rolls a die; on a 6 it rolls on
the End of Epoch Event Chart (data/charts.toml). Barbarian Raids and Civil War
put upside-down Armies of the last-place player in the Civilization's Areas —
that player picks the Areas, one choice at a time (`raid <area>`,
`revolt <area>`); a Disaster's City is picked with `ruin <area>`. After Epoch
III's events the Plague of the Bronze Age Collapse rolls in every Area.
"""

from __future__ import annotations

from ..core import count
from .board import C, add_army, area_name, areas_of, civ_name, destroy_city, remove_armies
from .rounds import roll_off
from .state import EventStep, State, dice, is_raider, raider_id


def begin_events(state: State, events: list[str]) -> None:
    state.phase = "events"
    state.last_place = None
    civs = {c for c in state.civ_at.values() if not is_raider(c)}
    state.ev_queue = sorted(civs, key=lambda c: (C.civs[c].epoch, C.civs[c].order, C.civs[c].part))
    events.append(f"End of Epoch {C.epochs[state.epoch - 1].roman}: each Civilization on the map rolls for events.")


def last_place(state: State, events: list[str]) -> int:
    """The player with fewest VPs; a tie is rolled off (8.0). Fixed once per End of Epoch Phase."""
    if state.last_place is None:
        low = min(state.vp)
        tied = [s for s in range(state.n) if state.vp[s] == low]
        state.last_place = roll_off(state, tied, events, "last place")[-1] if len(tied) > 1 else tied[0]
        events.append(f"{state.players[state.last_place]} is in last place and makes this Epoch's event choices (8.0).")
    return state.last_place


def raid_options(state: State, civ: str) -> list[str]:
    """Areas of `civ` on its border (next to an Area it does not hold); all of them if none is."""
    own = areas_of(state, civ)
    border = [a for a in own if any(state.civ_at.get(b) != civ for b in C.adjacent[a])]
    return sorted(border or own)


def event_options(state: State) -> list[str]:
    ev = state.event_now()
    if ev.kind == "raid":
        return raid_options(state, ev.civ)
    if ev.kind == "revolt":
        return sorted(areas_of(state, ev.civ))
    return [a for a in ev.options if a in state.cities]


def event_actions(state: State) -> list[str]:
    kind = state.event_now().kind
    return [f"{kind} {a}" for a in event_options(state)]


def advance_events(state: State, events: list[str]) -> bool:
    """Roll for Civilizations until a choice is needed (True) or all have rolled (False)."""
    while True:
        if state.ev_step is not None:
            if not settle_step(state, events):
                return True
            continue
        if not state.ev_queue:
            return False
        civ = state.ev_queue.pop(0)
        if civ not in state.civ_at.values():  # no Areas left
            continue
        (r,) = dice(state, 1)
        if r < 6:
            events.append(f"{civ_name(civ)} rolls {r}: no event.")
            continue
        (e,) = dice(state, 1)
        entry = C.events[e]
        events.append(f"{civ_name(civ)} rolls 6, then {e} on the End of Epoch Event Chart: {entry.name}.")
        start_event(state, civ, entry.id, events)


def start_event(state: State, civ: str, kind: str, events: list[str]) -> None:
    own = areas_of(state, civ)
    if kind == "barbarian-raids":
        last_place(state, events)
        state.ev_step = EventStep("raid", civ, 1)
    elif kind == "civil-war":
        last_place(state, events)
        state.ev_step = EventStep("revolt", civ, max(1, len(own) // 3))
    elif kind == "disaster":
        disaster(state, civ, own, events)
    else:
        plague(state, own, events, f"Plague strikes {civ_name(civ)}")


def settle_step(state: State, events: list[str]) -> bool:
    """Resolve forced choices; True when the step is finished, False when a choice is needed."""
    ev = state.event_now()
    while True:
        options = event_options(state)
        if ev.left <= 0 or not options:
            if ev.kind == "raid" and not ev.rolled and ev.civ in state.civ_at.values():
                ev.rolled = True
                (r,) = dice(state, 1)
                if r >= 4:
                    events.append(f"The raids go on (rolls {r}): a second Area is raided.")
                    ev.left = 1
                    continue
                events.append(f"The raids end (rolls {r}).")
            state.ev_step = None
            return True
        if len(options) == 1:
            resolve_pick(state, options[0], events)
            continue
        return False


def resolve_pick(state: State, area: str, events: list[str]) -> None:
    ev = state.event_now()
    ev.left -= 1
    if ev.kind == "ruin":
        city = destroy_city(state, area)
        assert city is not None, "a Disaster strikes only Areas with a City (event_options)"
        events.append(f"Disaster: the city of {C.cities[city].name} in {area_name(area)} is destroyed.")
        return
    seat = state.chooser()
    n = state.count[area]
    remove_armies(state, area, n)
    add_army(state, area, raider_id(seat))
    what = "Barbarians raid" if ev.kind == "raid" else "Civil war breaks out in"
    events.append(
        f"{what} {area_name(area)}: {civ_name(ev.civ)} loses {count(n, 'Army')}; "
        f"{state.players[seat]} (last place) puts one upside-down Army there (8.0)."
    )


def play_event(state: State, action: str, events: list[str]) -> None:
    resolve_pick(state, action.split(" ", 1)[1], events)


def disaster(state: State, civ: str, own: list[str], events: list[str]) -> None:
    """Wonders in the Civilization's Areas are destroyed (rulebook); one Army is lost where a
    City or Wonder stood and one City is destroyed (reconstructed chart)."""
    wonder_areas = {a: w for w, a in state.wonders.items()}
    hit = [a for a in own if a in state.cities or a in wonder_areas]
    for a in own:
        if a in wonder_areas:
            w = wonder_areas[a]
            del state.wonders[w]
            state.lost_wonders.append(w)
            events.append(
                f"Disaster: the {next(x.name for x in C.wonders if x.id == w)} in {area_name(a)} is destroyed."
            )
    for a in hit:
        remove_armies(state, a)
        events.append(f"Disaster: {civ_name(civ)} loses an Army in {area_name(a)}.")
    cities = sorted(a for a in own if a in state.cities)
    if cities:
        last_place(state, events)
        state.ev_step = EventStep("ruin", civ, 1, options=cities)


def plague(state: State, areas: list[str], events: list[str], what: str) -> None:
    """Each Area rolls; on 4-6 one City is destroyed and one Army removed there (8.0)."""
    rolls = dice(state, len(areas))
    shown = ", ".join(f"{area_name(a)} {r}" for a, r in zip(areas, rolls, strict=True))
    events.append(f"{what}: rolls {shown}." if areas else f"{what}: no Areas.")
    for a, r in zip(areas, rolls, strict=True):
        if r < 4:
            continue
        lost = []
        city = destroy_city(state, a)
        if city:
            lost.append(f"the city of {C.cities[city].name}")
        if a in state.civ_at:
            lost.append(f"an Army of {civ_name(state.civ_at[a], state)}")
            remove_armies(state, a)
        if lost:
            events.append(
                f"Plague in {area_name(a)}: " + " and ".join(lost) + (" are" if len(lost) > 1 else " is") + " lost."
            )


def bronze_age_collapse(state: State, events: list[str]) -> None:
    """After Epoch III's events, Plague rolls in every Area of the map (8.0)."""
    plague(state, list(C.areas), events, "Bronze Age Collapse: every Area rolls for Plague")
