"""6.0: paying for a B-turn disc in one choice (payment.py, RULES-NOTES 6.0)."""

from __future__ import annotations

import random

from engine.rise_of_empires.payment import GOODS, LIMIT, count_splits, pay_action, read_pay, splits, within


def _valid(split, have, cost):
    return sum(split) == cost and all(0 <= k <= h for k, h in zip(split, have, strict=True))


def test_6_0_every_split_while_there_are_few():
    have = (5, 5, 2, 16, 0)  # gold, cubes, resources, food; no VP
    offered = [pay_action(x) for x in splits(have, 2)]
    assert offered == [
        "pay 2 gold",
        "pay 2 cubes",
        "pay 2 resources",
        "pay 2 food",
        "pay 1 gold 1 cube",
        "pay 1 gold 1 resource",
        "pay 1 gold 1 food",
        "pay 1 cube 1 resource",
        "pay 1 cube 1 food",
        "pay 1 resource 1 food",
    ]
    assert len(offered) == count_splits(have, 2)


def test_6_0_many_ways_to_pay_keep_the_whole_holding_splits():
    """With LIMIT or more splits, each good is unused or paid in full but one, which makes up the rest."""
    assert count_splits((9, 9, 9, 9, 9), 5) >= LIMIT
    assert [pay_action(x) for x in splits((9, 9, 9, 9, 9), 5)] == [
        "pay 5 gold",
        "pay 5 cubes",
        "pay 5 resources",
        "pay 5 food",
        "pay 5 vp",
    ]
    have = (2, 3, 3, 3, 3)  # the largest such list: 30 payments
    found = splits(have, 7)
    assert count_splits(have, 7) >= LIMIT and len(found) == 30
    for x in found:
        assert _valid(x, have, 7)
        assert sum(1 for k, h in zip(x, have, strict=True) if 0 < k < h) <= 1


def test_law_2_payment_lists_stay_short_and_every_payment_pays_the_cost():
    rng = random.Random(6)
    for _ in range(3000):
        cost = rng.randint(1, 9)  # at most 9 discs to the left (10 circles, 6.0)
        have = tuple(rng.randint(0, 12) for _ in GOODS)
        found = splits(have, cost)
        assert len(found) < LIMIT
        assert all(_valid(x, have, cost) for x in found)
        assert bool(found) == (sum(have) >= cost)
        assert len(set(found)) == len(found)


def test_6_0_payment_actions_read_back():
    for split in [(1, 0, 0, 0, 0), (0, 1, 2, 0, 1), (2, 2, 2, 3, 4)]:
        assert read_pay(pay_action(split)) == split
    assert pay_action((0, 1, 2, 0, 1)) == "pay 1 cube 2 resources 1 vp"


def test_6_0_what_an_action_needs_is_kept_out_of_the_payment():
    assert within([5, 2, 3, 16, 0], [4, 0, 3, 0, 0]) == [1, 2, 0, 16, 0]
