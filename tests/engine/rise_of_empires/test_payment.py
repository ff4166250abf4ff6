"""6.0: paying for a B-turn disc, every split within three picks (payment.py, RULES-NOTES 6.0)."""

from __future__ import annotations

import functools
import random

from engine.rise_of_empires.payment import (
    GOODS,
    LIMIT,
    all_splits,
    cheapest,
    count_splits,
    pay_action,
    picks,
    read_pay,
    route,
    within,
)

GOLD, CUBE, RESOURCE, FOOD, VP = range(5)
#: Spare food first, then gold, discs, cubes, the rest of the food, VP (pay_step.spending_order).
ORDER = ((FOOD, 3), (GOLD, 99), (RESOURCE, 99), (CUBE, 99), (FOOD, 99), (VP, 99))


def _valid(split, have, cost):
    return sum(split) == cost and all(0 <= k <= h for k, h in zip(split, have, strict=True))


def reachable(have: tuple[int, ...], cost: int) -> dict[tuple[int, ...], int]:
    """Every split the picks reach, with the fewest picks that reach it (a part fixes its good)."""

    @functools.cache
    def reach(have: tuple[int, ...], left: int) -> dict[tuple[int, ...], int]:
        out: dict[tuple[int, ...], int] = {}
        for pick in picks(have, left, ORDER):
            if pick.whole:
                out[pick.paid] = 1
                continue
            g = next(i for i, k in enumerate(pick.paid) if k)
            rest = tuple(0 if i == g else h for i, h in enumerate(have))
            for split, n in reach(rest, left - pick.paid[g]).items():
                total = tuple(a + b for a, b in zip(split, pick.paid, strict=True))
                out[total] = min(out.get(total, 9), n + 1)
        return out

    return reach(have, cost)


def test_6_0_every_split_in_one_pick_while_there_are_few():
    have = (5, 5, 2, 16, 0)  # gold, cubes, resources, food; no VP
    offered = [p.action for p in picks(have, 2, ORDER)]
    assert offered == [
        "pay 2 food",  # the cheapest: food the Food phase can spare (3 here)
        "pay 2 gold",
        "pay 2 cubes",
        "pay 2 resources",
        "pay 1 gold 1 cube",
        "pay 1 gold 1 resource",
        "pay 1 gold 1 food",
        "pay 1 cube 1 resource",
        "pay 1 cube 1 food",
        "pay 1 resource 1 food",
    ]
    assert len(offered) == count_splits(have, 2) and all(p.whole for p in picks(have, 2, ORDER))


def test_6_0_two_gold_two_vp_with_four_of_every_good():
    """Issue 22: with 4 of every good and 4 owed, `pay 2 gold 2 vp` was refused. 70 splits: the
    usual ones whole, the others through a part of one good."""
    have = (4, 4, 4, 4, 4)
    assert count_splits(have, 4) == 70 >= LIMIT
    first = picks(have, 4, ORDER)
    assert [p.action for p in first if p.whole] == [
        "pay 1 gold 3 food",  # the cheapest: the 3 food the Food phase can spare, then gold
        "pay 4 gold",
        "pay 4 cubes",
        "pay 4 resources",
        "pay 4 food",
        "pay 4 vp",
    ]
    assert first[0].kind == "cheapest" and first[0].paid == (1, 0, 0, 3, 0)
    assert "pay 2 gold first" in [p.action for p in first]
    steps = route(have, 4, (2, 0, 0, 0, 2), ORDER)
    assert [p.action for p in steps] == ["pay 2 gold first", "pay 2 vp"]


def test_6_0_every_split_is_reached_within_three_picks():
    """Issue 22: no split the rulebook allows is missing at any cost, and none takes more than three picks."""
    rng = random.Random(22)
    cases = [((9,) * 5, 9), ((9,) * 5, 8), ((4,) * 5, 4), ((2, 3, 3, 3, 3), 7), ((0, 9, 9, 9, 9), 9)]
    cases += [(tuple(rng.randint(0, 10) for _ in GOODS), rng.randint(1, 9)) for _ in range(40)]
    for have, cost in cases:
        found = reachable(have, cost)
        assert set(found) == set(all_splits(have, cost)), (have, cost)
        assert max(found.values(), default=1) <= 3, (have, cost)


def test_6_0_route_names_the_picks_of_any_split():
    rng = random.Random(7)
    for _ in range(200):
        have = tuple(rng.randint(0, 9) for _ in GOODS)
        cost = rng.randint(1, 9)
        options = all_splits(have, cost)
        if not options:
            continue
        split = rng.choice(options)
        steps = route(have, cost, split, ORDER)
        assert 1 <= len(steps) <= 3 and steps[-1].whole and not any(p.whole for p in steps[:-1])
        assert tuple(map(sum, zip(*(p.paid for p in steps), strict=True))) == split


def test_6_0_the_cheapest_spends_in_the_spending_order():
    assert cheapest((5, 5, 5, 4, 5), 6, ORDER) == (3, 0, 0, 3, 0)  # 3 spare food, then gold
    assert cheapest((1, 5, 1, 4, 5), 6, ORDER) == (1, 1, 1, 3, 0)  # food, gold, disc, then a cube
    assert cheapest((0, 0, 0, 4, 5), 6, ORDER) == (0, 0, 0, 4, 2)  # all the food, then VP
    assert cheapest((0, 0, 0, 1, 1), 3, ORDER) is None


def test_law_2_payment_lists_stay_short_and_every_payment_pays_the_cost():
    rng = random.Random(6)
    for _ in range(3000):
        cost = rng.randint(1, 9)  # at most 9 discs to the left (10 circles, 6.0)
        have = tuple(rng.randint(0, 12) for _ in GOODS)
        found = picks(have, cost, ORDER)
        assert len(found) < LIMIT
        for p in found:
            assert _valid(p.paid, have, cost) if p.whole else 0 < sum(p.paid) < cost
        assert bool(found) == (sum(have) >= cost)
        assert len({p.action for p in found}) == len(found)


def test_6_0_payment_actions_read_back():
    for split in [(1, 0, 0, 0, 0), (0, 1, 2, 0, 1), (2, 2, 2, 3, 4)]:
        assert read_pay(pay_action(split)) == (split, True)
        assert read_pay(pay_action(split) + " first") == (split, False)
    assert pay_action((0, 1, 2, 0, 1)) == "pay 1 cube 2 resources 1 vp"


def test_6_0_what_an_action_needs_is_kept_out_of_the_payment():
    assert within([5, 2, 3, 16, 0], [4, 0, 3, 0, 0]) == [1, 2, 0, 16, 0]
