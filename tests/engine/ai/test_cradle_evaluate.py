"""Cradle's evaluation counts the Armies each seat will still place this Epoch (engine/cradle/resample.py).

The expected pools are worked out here from the rulebook (5.1 growth, the card's Armies, the
2d6 Civilization Bonus Chart), not with the helpers the evaluation uses.
"""

from __future__ import annotations

import pytest

from engine.cradle.board import C
from engine.cradle.resample import armies_to_come, evaluate, evaluate_board
from engine.cradle.state import Allocation
from tests.engine.ai.positions import positions
from tests.engine.cradle.helpers import in_round, position

#: 5.2: the chart's extra Armies, each 2d6 total weighted by its chance (6 - |7 - total|) / 36.
BONUS = sum(C.bonus[total].armies * (6 - abs(7 - total)) for total in range(2, 13)) / 36

#: Epoch II: seat 0 holds 1-1 Sumer in 7 Areas (5.1: 2 Armies), seat 2 holds 1-2 Elam in 2 Areas
#: (no growth), seat 3 holds 1-4 Akkad in 6 Areas with all 16 of its Epoch's counters on the map
#: (no room in the counter mix).
PREVIOUS = {"1-1": 0, "1-2": 2, "1-4": 3}
SUMER = {a: ("1-1", 1) for a in ("sumer", "ur", "uruk", "babylon", "mari", "assur", "nineveh")}
ELAM = {a: ("1-2", 1) for a in ("elam", "anshan")}
AKKAD = {"malgium": ("1-4", 3), "eshnunna": ("1-4", 3), "media": ("1-4", 3), "kavir": ("1-4", 3)}
AKKAD |= {"hyrcania": ("1-4", 2), "hanigalbat": ("1-4", 2)}  # 16 Armies in 6 Areas
CURRENT = {"2-1": 0, "2-3": 1, "2-5": 2, "2-6": 3}  # Crete 4, Babylon 8, Hatti 8, North Zagros 7 Armies


def epoch_two(cards: dict[str, int]):
    board = SUMER | ELAM | AKKAD
    assert all(area in C.areas for area in board), "the test's map names an unknown Area"
    return position(PREVIOUS | cards, board, epoch=2)


def test_the_round_in_progress_and_the_seats_still_to_play_count_their_pools() -> None:
    state = in_round(epoch_two(CURRENT), "2-3", seat=1, pool=5)
    state.order = [1, 0, 2, 3]
    assert armies_to_come(state) == pytest.approx([2 + 4 + BONUS, 5, 0 + 8 + BONUS, 0 + 7 + BONUS])


def test_seats_that_have_played_their_turn_and_the_end_of_epoch_count_none() -> None:
    state = in_round(epoch_two(CURRENT), "2-5", seat=2, pool=3)
    state.order, state.turn = [1, 0, 2, 3], 2
    assert armies_to_come(state) == pytest.approx([0, 0, 3, 7 + BONUS])
    state.phase, state.rnd = "events", None
    assert armies_to_come(state) == [0, 0, 0, 0]


def test_in_an_allocation_a_card_dealt_counts_and_a_seat_without_one_gets_the_mean_of_those_to_come() -> None:
    state = epoch_two({})
    state.phase = "allocate"
    state.alloc = Allocation(order=[0, 1, 2, 3], index=1, drawn="2-1", dealt={0: "2-3"}, kept=[0])
    state.deck = ["2-5", "2-6"]
    unknown = (4 + 8 + 7) / 3 + BONUS
    assert armies_to_come(state) == pytest.approx([2 + 8 + BONUS, unknown, 0 + unknown, 0 + unknown])


def test_a_seat_still_to_place_its_armies_is_worth_more_than_its_board_shows() -> None:
    def seat_one_with(pool: int):
        state = in_round(epoch_two(CURRENT), "2-3", seat=1, pool=pool)
        state.order = [1, 0, 2, 3]
        return state

    few, many = seat_one_with(1), seat_one_with(6)
    assert evaluate_board(few) == evaluate_board(many)  # the board alone cannot tell them apart
    assert evaluate(many)[1] > evaluate(few)[1]
    assert abs(sum(evaluate(many)) - 1) < 1e-9


def test_armies_to_come_in_random_positions_are_never_negative_and_none_once_a_seat_has_scored() -> None:
    phases = set()
    for state, _ in positions("cradle", 200, seed=24):
        coming = armies_to_come(state)
        phases.add(state.phase)
        assert all(k >= 0 for k in coming)
        if state.phase == "strategy":
            for seat in state.order[: state.turn]:
                if seat >= 0:
                    assert coming[seat] == 0
        if state.phase == "allocate":
            assert all(k > 0 for k in coming)  # everybody gets a card with Armies
    assert {"allocate", "strategy"} <= phases
