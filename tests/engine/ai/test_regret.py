"""The move-by-move comparison of the bots, new and as issue 14 left them (tests/bench/regret.py, issue 24)."""

from __future__ import annotations

import math

import pytest

from tests.bench.regret import BOTS, MATTERS, Position, mine, regrets, sign_test


def test_sign_test_is_exact_and_two_sided() -> None:
    assert sign_test(7, 0) == 2 / 2**7  # all seven discordant decisions one way
    assert sign_test(0, 7) == sign_test(7, 0)
    assert sign_test(3, 3) == 1.0
    assert sign_test(0, 0) == 1.0
    assert math.isclose(sign_test(9, 1), 2 * (1 + 10) / 2**10)


@pytest.fixture(scope="module")
def position() -> Position:
    (p,) = mine("rising-cultures", 1, first_seed=5000)
    return p


def test_mined_positions_matter_and_regrets_are_measured_against_their_best(
    position: Position,
) -> None:
    p = position
    assert max(p.values.values()) - min(p.values.values()) >= MATTERS
    got = regrets(p, "easy", seeds=2)
    assert set(got) == set(BOTS)
    spread = max(p.values.values()) - min(p.values.values())
    assert all(0.0 <= r <= spread for rs in got.values() for r in rs) and all(len(rs) == 2 for rs in got.values())


def test_a_move_below_the_best_is_charged_its_gap(position: Position) -> None:
    """Values set by hand, every move but one a quarter: the regret is 0 or the gap."""
    p = position
    best = max(p.values, key=p.values.__getitem__)
    rigged = Position(p.game_id, p.state, p.seat, {a: (1.0 if a == best else 0.25) for a in p.values})
    for rs in regrets(rigged, "easy", seeds=2).values():
        assert all(r in (0.0, 0.75) for r in rs)
