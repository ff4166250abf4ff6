"""The Civilization Round (rulebook 5.0-5.7, 6.1-6.3): pool, bonus, start, growth, expansion.

Growth places Armies one at a time (`place <area>`, or `place 2 <area>` for several
into one Area) or attacks (`attack <area>`); each battle goes one roll at a time
(`continue` while the attacking Army stands; once it is lost, another `attack` of the
Area carries the battle on); Non-Combat Expansion is one attempt at a time
(`colonize`, `wonder <area>`, `culture`). All this until the pool is empty (5.4,
5.7): `done`, which returns the rest unused, is offered only once no Army can be placed.
"""

from __future__ import annotations

from ..core import count
from .board import (
    NEO_ASSYRIA,
    SARGONID_ASSYRIA,
    C,
    add_army,
    area_name,
    areas_held,
    areas_of,
    civ_and_owner,
    civ_name,
    counted,
    displacement_options,
    enter,
    epoch_armies_on_map,
    forbidden_for,
    growth_targets,
    has_trait,
    remove_armies,
    seat_name,
    seat_of,
    survives_desert,
    uncounted,
    unused,
)
from .combat import combat_roll
from .points import COLONIZATION, CULTURE, WONDER_BUILT, gain
from .state import DUMMY, Round, State, dice

#: 5.6: a colonization succeeds on a roll of this or more.
COLONIZATION_ON = 4


def seats_by_vp(state: State, events: list[str], why: str) -> list[int]:
    """Seats from fewest VPs up; ties rolled off, highest roll first (3.0, 9.0)."""
    groups: dict[int, list[int]] = {}
    for s in range(state.n):
        groups.setdefault(state.vp[s], []).append(s)
    out: list[int] = []
    for vp in sorted(groups):
        out += roll_off(state, groups[vp], events, why)
    return out


def fewest_vps(state: State, events: list[str], why: str) -> int:
    """The seat with the fewest VPs; a tie rolled off, the highest roll first (9.0)."""
    low = min(state.vp)
    return roll_off(state, [s for s in range(state.n) if state.vp[s] == low], events, why)[0]


def roll_off(state: State, tied: list[int], events: list[str], why: str) -> list[int]:
    """Order tied seats by a die roll, highest first, re-rolling ties among themselves."""
    if len(tied) == 1:
        return list(tied)
    rolls = dict(zip(tied, dice(state, len(tied)), strict=True))
    events.append(f"Tie for {why}: " + ", ".join(f"{state.players[s]} rolls {r}" for s, r in rolls.items()) + ".")
    out: list[int] = []
    for r in sorted(set(rolls.values()), reverse=True):
        out += roll_off(state, [s for s in tied if rolls[s] == r], events, why)
    return out


# ---- 5.1-5.3: starting a round ---------------------------------------------------


def previous_pool(areas: int, room: int) -> int:
    """5.1: a Previous Epoch Civilization in `areas` Areas adds 1 Army per 3 of them, none at 1-2,
    within the `room` its Epoch's counter mix has left off the map (a current pool may have left
    more than the mix on the map). The fill-in bot's evaluation counts the Armies to come with it."""
    return 0 if areas <= 2 else max(0, min(areas // 3, room))


def start_round(state: State, civ: str, events: list[str]) -> None:
    """Form the Army Pool (5.1), roll the bonus (5.2) and enter the Start Area (5.3).

    Leaves `state.rnd` set when the round has Armies to place, else None.
    """
    c = C.civs[civ]
    seat = seat_of(state, civ)
    name = civ_name(civ)
    current = c.epoch == state.epoch
    rnd = Round(civ=civ, seat=seat, current=current, seafaring=has_trait(state, civ, "seafaring"))
    if not current:
        n = areas_held(state, civ)
        whose = civ_and_owner(state, civ)
        if n == 0:
            state.gone.append(civ)
            events.append(f"{whose} has no Armies on the map: it has vanished into the mists of time (5.1).")
            return
        if n <= 2:
            events.append(f"{whose} occupies {count(n, 'Area')}: no growth this round (5.1).")
            return
        pool = previous_pool(n, C.counter_mix - epoch_armies_on_map(state, seat, c.epoch))
        capped = " (limited by the counter mix)" if pool < n // 3 else ""
        events.append(f"{whose} occupies {n} Areas: {count(pool, 'Army')} in its Army Pool{capped}.")
        if pool <= 0:
            return
        rnd.pool = pool
        state.rnd = rnd
        return
    rnd.military = has_trait(state, civ, "military")
    extra = 0
    if seat != DUMMY:
        roll = dice(state, 2)
        rnd.bonus = sum(roll)
        entry = C.bonus[rnd.bonus]
        events.append(
            f"{name} rolls {roll[0]} and {roll[1]} = {rnd.bonus} on the Civilization Bonus Chart: {entry.result}."
        )
        extra = entry.armies
        if entry.effect in ("military", "armies-military"):
            rnd.military = True
        elif entry.effect == "seafaring":
            rnd.seafaring = True
        elif entry.effect == "desert-guides":
            rnd.guides = True
        elif entry.effect == "wonder-3":
            rnd.wonder_min = 3
        elif entry.effect == "culture-4":
            rnd.culture_min = 4
    rnd.pool = c.armies + extra  # 5.1: the card's Armies; the counter mix limits Previous Epoch pools only
    events.append(
        f"{name} ({seat_name(state, seat)}) forms an Army Pool of {rnd.pool}"
        + (f" ({c.armies} + {extra} bonus)" if extra else "")
        + "."
    )
    if seat == DUMMY:
        rnd.placers = seats_by_vp(state, events, f"placing the Armies of {name}")
    state.rnd = rnd
    if civ == SARGONID_ASSYRIA:
        options = start_options(state)
        if len(options) > 1:  # the player, or the non-player's first placer (9.0), chooses
            rnd.step = "start"
            return
        if not options:
            events.append(
                f"{name} finds no Area to enter next to Neo Assyria or at {area_name(c.start_area)}; "
                "its Armies stay off the map."
            )
            rnd.pool = 0
            return
        begin_start(state, options[0], events)
        return
    begin_start(state, c.start_area, events)


def sargonid_starts(state: State) -> list[str]:
    """6-2 Sargonid Assyria enters next to 5-4 Neo Assyria, never into its player's Epoch V Areas (6.3)."""
    forbidden = forbidden_for(state, SARGONID_ASSYRIA)
    na = areas_of(state, NEO_ASSYRIA)
    if na:
        options = sorted({b for a in na for b in C.adjacent[a]} - set(na) - forbidden)
        if options:
            return options
    fallback = C.civs[SARGONID_ASSYRIA].start_area
    return [] if fallback in forbidden else [fallback]


def start_options(state: State) -> list[str]:
    """Where the round's Sargonid Assyria may enter: `sargonid_starts`, and as a non-player
    civilization not into a Desert while another Area is left (9.0)."""
    options = sargonid_starts(state)
    if state.round_now().seat != DUMMY:
        return options
    return [a for a in options if C.areas[a].terrain != "desert"] or options


def begin_start(state: State, area: str, events: list[str]) -> None:
    """Enter the Start Area, first moving any other Armies out of it (5.3)."""
    rnd = state.round_now()
    rnd.start = area
    occ = state.civ_at.get(area)
    if occ is None:
        place_start(state, events)
        return
    rnd.step = "displace"
    rnd.disp_civ = occ
    rnd.disp_left = state.count[area]
    events.append(
        f"{civ_name(rnd.civ)} arrives in {area_name(area)}: {count(rnd.disp_left, 'Army')} of "
        f"{civ_and_owner(state, occ)} must move to an adjacent vacant or friendly Area (5.3)."
    )
    settle_displacement(state, events)


def displaced_non_player(state: State) -> bool:
    """Whether the Armies leaving the Start Area are a non-player civilization's (9.0)."""
    return seat_of(state, state.round_now().disp_civ) == DUMMY


def displacer(state: State) -> int:
    """Who moves the displaced Armies: their owner (raiders: the player whose colour they are);
    a non-player civilization's, the player with the fewest VPs (RULES-NOTES 9.0)."""
    rnd = state.round_now()
    return rnd.disp_seat if displaced_non_player(state) else seat_of(state, rnd.disp_civ)


def retreats(state: State) -> list[str]:
    """Where the next displaced Army may go (5.3): an adjacent vacant or friendly Area within
    stacking; a non-player Army to a vacant Area that is not Desert while there is one, since
    it neither stacks nor enters a Desert "unless they have to" (9.0)."""
    rnd = state.round_now()
    options = displacement_options(state, rnd.disp_civ, rnd.start)
    if not displaced_non_player(state):
        return options
    return [a for a in options if a not in state.civ_at and C.areas[a].terrain != "desert"] or options


def settle_displacement(state: State, events: list[str]) -> None:
    """Move or remove displaced Armies until a real choice is left (5.3)."""
    rnd = state.round_now()
    area = rnd.start
    while rnd.disp_left > 0:
        options = retreats(state)
        if not options:
            remove_armies(state, area)
            rnd.disp_left -= 1
            events.append(
                f"An Army of {civ_name(rnd.disp_civ, state)} has nowhere to go from {area_name(area)} "
                "and is removed (5.3)."
            )
            continue
        if len(options) == 1:
            move_displaced(state, options[0], 1, events)
            continue
        if displaced_non_player(state) and rnd.disp_seat == DUMMY:
            rnd.disp_seat = fewest_vps(state, events, f"moving the Armies of {civ_name(rnd.disp_civ)}")
            who = state.players[rnd.disp_seat]
            events.append(f"{who} (fewest VPs) moves the non-player Armies out of {area_name(area)} (9.0).")
        return
    place_start(state, events)


def displacement_moves(state: State) -> list[str]:
    """`move <area>` / `move 2 <area>`: where the displaced Armies may go, several at once (5.3);
    a non-player civilization's one at a time, since it does not stack while it need not (9.0)."""
    rnd = state.round_now()
    if displaced_non_player(state):
        return [f"move {a}" for a in retreats(state)]
    out = []
    for a in retreats(state):
        room = C.stacking[a] - state.count.get(a, 0)
        out += [counted("move", n, a) for n in range(1, min(room, rnd.disp_left) + 1)]
    return out


def move_displaced(state: State, target: str, n: int, events: list[str]) -> None:
    """Move `n` displaced Armies to `target`; one entering an empty Desert rolls (Terrain Chart)."""
    rnd = state.round_now()
    who = civ_name(rnd.disp_civ, state)
    for _ in range(n):
        remove_armies(state, rnd.start)
        rnd.disp_left -= 1
        if target in state.civ_at or survives_desert(
            state, f"An Army of {who} moving out of {area_name(rnd.start)}", target, events
        ):
            add_army(state, target, rnd.disp_civ)
    if target in state.civ_at:
        events.append(
            f"{count(n, 'Army')} of {who} move{'s' if n == 1 else ''} from {area_name(rnd.start)} "
            f"to {area_name(target)}."
        )


def place_start(state: State, events: list[str]) -> None:
    rnd = state.round_now()
    rnd.step, rnd.disp_civ, rnd.disp_left, rnd.disp_seat = "grow", "", 0, DUMMY
    if rnd.pool <= 0:
        return
    rnd.pool -= 1
    rnd.placed += 1
    enter(state, rnd, rnd.start, events, start=True)
    events.append(f"{civ_name(rnd.civ)} enters the map at {area_name(rnd.start)}.")


# ---- 5.4-5.6: growth, combat, Non-Combat Expansion ------------------------------


def acting_seat(state: State) -> int:
    """Who decides now in the round: the displaced Armies' owner, the dummy's placer, or the player."""
    rnd = state.round_now()
    if rnd.step == "displace":
        return displacer(state)
    if rnd.seat == DUMMY:
        k = max(0, rnd.placed - 1)
        return rnd.placers[k % len(rnd.placers)]
    return rnd.seat


def can_colonize(state: State, rnd: Round, own: list[str] | None = None) -> bool:
    if not rnd.current or rnd.seat == DUMMY or not rnd.seafaring:
        return False
    for a in areas_of(state, rnd.civ) if own is None else own:
        for sea in C.seas_of[a]:
            if C.seas[sea].colonization:
                return True
    return False


def wonders_left(state: State) -> list[str]:
    return [w.id for w in C.wonders if w.id not in state.wonders and w.id not in state.lost_wonders]


def wonder_sites(state: State, rnd: Round, own: list[str] | None = None) -> list[str]:
    """Friendly Areas with a City and no Wonder yet, if an attempt is allowed (5.6, 6.1 Wonder)."""
    if not rnd.current or rnd.seat == DUMMY or rnd.built_wonder:
        return []
    if rnd.tried_wonder and not has_trait(state, rnd.civ, "wonder"):
        return []
    if not any(w.id not in state.wonders and w.id not in state.lost_wonders for w in C.wonders):
        return []  # no Wonder left (wonders_left)
    taken = set(state.wonders.values())
    return sorted(a for a in (areas_of(state, rnd.civ) if own is None else own) if a in state.cities and a not in taken)


def placeable(state: State, rnd: Round, area: str) -> int:
    """How many Armies one `place` may put into `area` at once: up to its stacking limit and the pool.

    Placing them one by one decides nothing more: no die is rolled for an Army that joins its own
    Civilization's Area, and a Desert, whose entry roll could matter, holds one (RULES-NOTES 5.4).
    """
    return min(rnd.pool, C.stacking[area] - state.count.get(area, 0))


#: area -> ["place uruk", "place 2 uruk", "place 3 uruk"], up to its stacking limit (built once: speed)
PLACE_ACTIONS = {a: [counted("place", n, a) for n in range(1, C.stacking[a] + 1)] for a in C.areas}


def grow_actions(state: State) -> list[str]:
    rnd = state.round_now()
    step = rnd.step
    if step == "combat":
        return ["continue"]
    if step == "start":
        return [f"start {a}" for a in start_options(state)]
    if step == "displace":
        return displacement_moves(state)
    own = areas_of(state, rnd.civ)
    place, attack = growth_targets(state, rnd, own)
    if rnd.seat == DUMMY:
        return [f"place {a}" for a in place] + [f"attack {a}" for a in attack]
    out = []
    pool, armies, stacking = rnd.pool, state.count, C.stacking
    for a in place:
        out += PLACE_ACTIONS[a][: min(pool, stacking[a] - armies.get(a, 0))]  # placeable(state, rnd, a)
    out += [f"attack {a}" for a in attack]
    expansion = ["colonize"] if can_colonize(state, rnd, own) else []
    expansion += [f"wonder {a}" for a in wonder_sites(state, rnd, own)]
    if rnd.current and not rnd.tried_culture:
        expansion.append("culture")
    if not out and expansion:
        expansion.append("done")  # no Army can be placed: the rest may go back unused (RULES-NOTES 5.4)
    return out + expansion


def only_attacks_left(state: State) -> bool:
    """Growth can only attack: no friendly Area has room and no neutral Area is in reach, but a
    hostile one is (5.4: an Army goes "in an Area adjacent to one occupied by the Civilization
    (including a hostile Area)"; 5.5: placed there, it fights)."""
    rnd = state.round_now()
    if rnd.step != "grow":
        return False
    place, attack = growth_targets(state, rnd)
    return not place and bool(attack)


def can_grow(state: State) -> bool:
    """Whether the round's Civilization can still use an Army: `grow_actions` is not empty.

    Asked after every growth step (5.7), so the common case, room in an Area it holds, is answered first.
    """
    rnd = state.round_now()
    if rnd.seat != DUMMY:
        stacking, civ, armies = C.stacking, rnd.civ, state.count
        for a, c in state.civ_at.items():
            if c == civ and armies[a] < stacking[a]:
                return True
    return bool(grow_actions(state))


def play_round_action(state: State, action: str, events: list[str]) -> None:
    rnd = state.round_now()
    verb, _, arg = action.partition(" ")
    name = civ_name(rnd.civ)
    if verb == "place":
        n, area = uncounted(arg)
        neutral = area not in state.civ_at
        entered = True
        for _ in range(n):
            rnd.pool -= 1
            rnd.placed += 1
            entered = enter(state, rnd, area, events)  # False only for an Army lost entering a Desert (n == 1)
        if entered and not (neutral and C.areas[area].terrain == "desert" and not rnd.guides):
            armies = "an Army" if n == 1 else count(n, "Army")
            events.append(f"{name} places {armies} in {area_name(area)} ({state.count[area]} there).")
    elif verb == "attack":
        rnd.pool -= 1
        rnd.placed += 1
        rnd.area = arg
        events.append(
            f"{name} attacks {civ_name(state.civ_at[arg], state)} in {area_name(arg)} "
            f"({C.areas[arg].terrain.capitalize()}, {state.count[arg]} defending)."
        )
        combat_roll(state, rnd, events)
    elif verb == "continue":
        combat_roll(state, rnd, events)
    elif verb == "start":
        events.append(f"{name} chooses to enter the map at {area_name(arg)}.")
        begin_start(state, arg, events)
    elif verb == "move":
        n, area = uncounted(arg)
        move_displaced(state, area, n, events)
        settle_displacement(state, events)
    elif verb == "colonize":
        rnd.pool -= 1
        (r,) = dice(state, 1)
        if r >= COLONIZATION_ON:
            gain(state, rnd.seat, COLONIZATION, C.vp.colonization)
            events.append(
                f"{name} sends an Army to colonize the Western Mediterranean: rolls {r}, success "
                f"(+{C.vp.colonization} VP)."
            )
        else:
            events.append(f"{name} sends an Army to colonize the Western Mediterranean: rolls {r}, it fails.")
    elif verb == "wonder":
        rnd.pool -= 1
        rnd.tried_wonder = True
        (r,) = dice(state, 1)
        if r >= rnd.wonder_min:
            wonder = wonders_left(state)[0]
            state.wonders[wonder] = arg
            rnd.built_wonder = True
            gain(state, rnd.seat, WONDER_BUILT, C.vp.wonder_built)
            wname = next(w.name for w in C.wonders if w.id == wonder)
            events.append(
                f"{name} attempts a Wonder in {area_name(arg)}: rolls {r}, builds the {wname} "
                f"(+{C.vp.wonder_built} VP)."
            )
        else:
            events.append(
                f"{name} attempts a Wonder in {area_name(arg)}: rolls {r}, it fails (needs {rnd.wonder_min}-6)."
            )
    elif verb == "culture":
        rnd.pool -= 1
        rnd.tried_culture = True
        (r,) = dice(state, 1)
        if r >= rnd.culture_min:
            gain(state, rnd.seat, CULTURE, C.vp.cultural_achievement)
            events.append(
                f"{name} strives for a Cultural Achievement: rolls {r}, success (+{C.vp.cultural_achievement} VP)."
            )
        else:
            events.append(
                f"{name} strives for a Cultural Achievement: rolls {r}, it fails (needs {rnd.culture_min}-6)."
            )
    elif verb == "done":
        if rnd.pool:
            events.append(f"{name} cannot place another Army and stops; {unused(rnd.pool)} (5.4).")
        rnd.pool = 0
    else:  # pragma: no cover - legal_actions lists only the verbs above
        raise ValueError(action)


def end_round(state: State, events: list[str]) -> None:
    """5.7: the round ends when the pool is empty; the Armies flip to Inactive."""
    rnd = state.round_now()
    state.rnd = None
    name = civ_name(rnd.civ)
    whose = f"{name}'" if name.endswith("s") else f"{name}'s"  # "4-4 Dorians' round", "6-6 Persia's round"
    events.append(f"{whose} round ends ({count(areas_held(state, rnd.civ), 'Area')}).")
