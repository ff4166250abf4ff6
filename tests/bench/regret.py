"""The choice rules compared move by move: `python -m tests.bench regret [<game-id>]
[--positions 20] [--seeds 10] [--first-seed 5000] [--levels easy,normal] [--jobs 2]`.

Whole games between two bots of the same budget are decided mostly by dice and
cards: telling a 55% win share from 50% takes several hundred games (issue 24,
engine/ai/README.md). This measures the same thing where it is cheap and paired:
on endings of seeded random games (seeds apart from the tactical suite's) that the
oracle of `tests/engine/ai/tactics.py` solves exactly, every move gets its value
(the seat's share of the win, averaged over the true position and two scrambled
worlds the seat cannot tell from it, so the value is what the seat's knowledge
gives). A position is kept when its moves' values differ by `MATTERS` or more.
On each, every level of `--levels` decides as it is now ("new") and as issue 14
left it ("old": `old-<level>` of tests/bench/ai.py, issue 14's counts and choice
rule), for the same seeds; a decision's regret is the best value minus the value
of the move taken.

Prints per game and level, and overall per level: decisions, how often each bot took a best move, the
mean regret of each, and the decisions where the two bots' moves differ in value
(the new bot's better / worse), with the exact two-sided sign test on those.
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import math
import random
from concurrent.futures import ProcessPoolExecutor

from tests.engine.ai.tactics import WORLDS, TooLarge, endings, values

#: A position counts when its best and worst moves' values differ by this much.
MATTERS = 0.1
#: The bots compared: each level as it is, and as issue 14 left it.
BOTS = ("new", "old")


@dataclasses.dataclass
class Position:
    game_id: str
    state: str
    seat: int
    values: dict[str, float]


def mine(game_id: str, wanted: int, first_seed: int) -> list[Position]:
    """Up to `wanted` positions whose moves matter, one per seeded random game (its last 6 decisions)."""
    import engine
    from tests.engine.ai.positions import scramble

    game = engine.get(game_id)
    rand = random.Random(first_seed)
    found: list[Position] = []
    for seed in range(first_seed, first_seed + 20 * wanted):
        for state, seat in endings(game_id, seed, 6):
            try:
                each = [values(game, state, seat)]
                if max(each[0].values()) - min(each[0].values()) < MATTERS:
                    continue  # no move matters in the true position: no need to scramble
                each += [values(game, scramble(game_id, state, seat, rand), seat) for _ in range(WORLDS)]
            except (TooLarge, RecursionError):  # a line the oracle cannot finish (everyone working forever)
                continue
            if any(v.keys() != each[0].keys() for v in each):
                continue  # the seat's moves are the same in every world it cannot tell apart; guard all the same
            mean = {a: sum(v[a] for v in each) / len(each) for a in each[0]}
            if max(mean.values()) - min(mean.values()) >= MATTERS:
                found.append(Position(game_id, game.dumps(state), seat, mean))
                break
        if len(found) >= wanted:
            break
    return found


def regrets(p: Position, level: str, seeds: int) -> dict[str, list[float]]:
    """Bot ("new", "old") -> the regret of each seed's decision on position `p` at `level`."""
    import engine
    import engine.ai as ai
    from tests.bench.ai import OLD, add_old_levels

    add_old_levels()
    game = engine.get(p.game_id)
    state = game.loads(p.state)
    top = max(p.values.values())
    out: dict[str, list[float]] = {}
    for bot, bot_level in zip(BOTS, (level, OLD + level), strict=True):
        out[bot] = [
            top - p.values[ai.decide(p.game_id, ai.infostate(game, state, p.seat, s), p.seat, bot_level, s)]
            for s in range(seeds)
        ]
    return out


def sign_test(better: int, worse: int) -> float:
    """Exact two-sided p of `better` against `worse` under a fair coin."""
    n = better + worse
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, i) for i in range(min(better, worse) + 1)) / 2**n
    return min(1.0, 2 * tail)


def summary(name: str, results: list[dict[str, list[float]]]) -> str:
    new = [r for x in results for r in x["new"]]
    old = [r for x in results for r in x["old"]]
    better = sum(n < o - 1e-9 for n, o in zip(new, old, strict=True))
    worse = sum(n > o + 1e-9 for n, o in zip(new, old, strict=True))
    best = "; ".join(f"{bot} {sum(r < 1e-9 for r in rs)}/{len(rs)}" for bot, rs in (("new", new), ("old", old)))
    return (
        f"  {name:24} {len(results):3} positions, {len(new):4} decisions: best move {best}; "
        f"mean regret new {sum(new) / max(len(new), 1):.4f}, old {sum(old) / max(len(old), 1):.4f}; "
        f"new better in {better}, worse in {worse} (sign test p {sign_test(better, worse):.3f})"
    )


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m tests.bench regret", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("game", nargs="?", help="game id (default: all four)")
    ap.add_argument("--positions", type=int, default=20, help="positions per game")
    ap.add_argument("--seeds", type=int, default=10, help="decisions per position, rule and level")
    ap.add_argument("--first-seed", type=int, default=5000, help="first random game mined for positions")
    ap.add_argument("--levels", default="easy,normal", help="the bots' levels (each new and old)")
    ap.add_argument("--jobs", type=int, default=1, help="processes")
    args = ap.parse_args(argv)

    import engine.ai as ai

    levels = args.levels.split(",")
    for level in levels:
        if level not in ai.LEVELS:
            print(f"no level {level!r}; levels: {', '.join(ai.LEVELS)}")
            return 2
    games = [args.game] if args.game else sorted(ai.GAMES)
    print(f"each of {', '.join(levels)} new and as issue 14 left it, {args.seeds} seeds a position")
    every: dict[str, list[dict[str, list[float]]]] = {level: [] for level in levels}
    with ProcessPoolExecutor(args.jobs) as pool:
        mined = pool.map(functools.partial(mine, wanted=args.positions, first_seed=args.first_seed), games)
        for game_id, positions in zip(games, mined, strict=True):
            for level in levels:
                results = list(pool.map(functools.partial(regrets, level=level, seeds=args.seeds), positions))
                every[level] += results
                print(summary(f"{game_id}, {level}", results), flush=True)
    for level in levels:
        print(summary(f"all, {level}", every[level]))
    return 0
