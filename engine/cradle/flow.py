"""The order of play (rulebook 2.1, 4.0, 5.7, 7.0, 8.0): who acts next, and when phases end.

`advance` runs everything that needs no decision — forming pools, rolling
bonuses, scoring, event rolls, the next Epoch — until some seat must choose.
A step plays itself only when its seat has exactly one legal action (issue 22);
a choice that merges several rulebook steps (`place 3 uruk`, `move 2 babylon`)
reaches exactly the positions those steps reach (tests/engine/cradle/test_merged_steps.py).
"""

from __future__ import annotations

from .allocation import begin_allocation
from .board import C, armies_of_seats, civ_name, unused
from .epoch_end import advance_events, begin_events, bronze_age_collapse
from .points import gain, player_scoring
from .rounds import can_grow, end_round, start_round
from .scoring import result_line, score_seat
from .state import DUMMY, State


def strategy_order(state: State) -> list[int]:
    """4.0: by the arrival order of the current Epoch's Civilizations."""
    holders = [
        (C.civs[C.civs_of_card[card][0]].order, seat)
        for card, seat in state.cards.items()
        if C.civs[C.civs_of_card[card][0]].epoch == state.epoch
    ]
    return [seat for _, seat in sorted(holders)]


def queue_for(state: State, seat: int) -> list[str]:
    """4.0: previous-Epoch Civilizations oldest first, then the current one(s).

    A non-player civilization never grows after its Epoch (9.0).
    """
    civs = []
    for card, holder in state.cards.items():
        if holder != seat:
            continue
        for civ in C.civs_of_card[card]:
            c = C.civs[civ]
            if civ in state.gone or (seat == DUMMY and c.epoch != state.epoch):
                continue
            civs.append((c.epoch, c.order, c.part, civ))
    return [civ for *_, civ in sorted(civs)]


def begin_strategy(state: State, events: list[str]) -> None:
    state.phase = "strategy"
    state.order = strategy_order(state)
    state.turn = 0
    state.queue = queue_for(state, state.order[0])
    state.scored.append([0] * state.n)
    names = ", ".join("non-player" if s == DUMMY else state.players[s] for s in state.order)
    events.append(
        f"Epoch {C.epochs[state.epoch - 1].roman} ({C.epochs[state.epoch - 1].name}): Strategy Phase order {names}."
    )


def score_participant(state: State, seat: int, events: list[str]) -> None:
    """7.2-7.3, after the player's last Civilization Round."""
    if seat == DUMMY:
        events.append("The non-player civilization scores no VPs.")
        return
    sc = score_seat(state, seat)
    for source, vp in player_scoring(sc):
        gain(state, seat, source, vp)
    state.scored[-1][seat] += sc.total
    events.append(f"{state.players[seat]} scores {sc.total} VP: {sc.describe()}. Total {state.vp[seat]} VP.")


def next_epoch(state: State, events: list[str]) -> None:
    state.last_armies = armies_of_seats(state)
    state.epoch += 1
    ep = C.epochs[state.epoch - 1]
    new = [c for c in C.cities.values() if c.epoch == state.epoch]
    for c in new:
        state.cities.setdefault(c.area, []).append(c.id)
    events.append(
        f"Epoch {ep.roman}, the {ep.name}, begins. New cities: "
        + ", ".join(f"{c.name} ({C.areas[c.area].name})" for c in new)
        + "."
    )
    begin_allocation(state, events)


def advance(state: State, events: list[str]) -> None:
    while True:
        phase = state.phase
        if phase == "allocate":
            if state.alloc is not None:
                return
            begin_strategy(state, events)
            continue
        if phase == "strategy":
            rnd = state.rnd
            if rnd is not None:
                if rnd.step != "grow":
                    return
                if rnd.pool > 0:
                    if can_grow(state):
                        return
                    events.append(f"{civ_name(rnd.civ)} has nowhere to grow; {unused(rnd.pool)} (5.4).")
                    rnd.pool = 0
                end_round(state, events)
                continue
            if state.queue:
                start_round(state, state.queue.pop(0), events)
                continue
            score_participant(state, state.order[state.turn], events)
            state.turn += 1
            if state.turn < len(state.order):
                state.queue = queue_for(state, state.order[state.turn])
                continue
            if state.epoch == 6:
                state.phase = "over"
                events.append(
                    "The game is over after Epoch VI. Final scores: "
                    + ", ".join(f"{p} {v}" for p, v in zip(state.players, state.vp, strict=True))
                    + "."
                )
                events.append(result_line(state))
                return
            begin_events(state, events)
            continue
        if phase == "events":
            if advance_events(state, events):
                return
            if state.epoch == 3:
                bronze_age_collapse(state, events)
            next_epoch(state, events)
            continue
        return
