"""What a budget costs, paired: `python -m tests.bench budgets <game-id> [--players N]
[--seeds 1,2] [--steps 30,70,110,150] 1500,10,30 1000,20,40 ...`.

Each budget is `iterations,rollout,horizon` (the level's choice rule and constant).
On positions of seeded random games (the steps given, where the seat has a choice),
one decision per budget from the same infostate and seed, and its CPU time: so
budgets that trade worlds for longer rollouts can be matched in time before their
games are played (issue 24, engine/ai/README.md "Fewer worlds, longer rollouts").
Prints a line per position and the mean and max per budget. CPU seconds are what
one core spends, but a loaded machine still slows them somewhat: compare budgets
run together, not figures from different runs.
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import statistics
import time


def costs(game_id: str, players: int, seed: int, steps: list[int], budgets: list[str]) -> list[tuple[int, list[float]]]:
    """(step, CPU seconds per budget) on the positions of one seeded random game."""
    import engine
    from engine.ai.levels import budget
    from engine.ai.parts import search
    from tests.bench.visits import positions

    game = engine.get(game_id)
    rows = []
    for step, root, seat, _ in positions(game_id, players, seed, steps, moves=1):
        times = []
        for spec in budgets:
            iterations, rollout, horizon = (int(x) for x in spec.split(","))
            limits = dataclasses.replace(
                budget("normal", game_id), iterations=iterations, rollout=rollout, horizon=horizon
            )
            searching = search(game, limits, random.Random(seed))
            t0 = time.process_time()
            searching.choose(root, seat)
            times.append(time.process_time() - t0)
        rows.append((step, times))
    return rows


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m tests.bench budgets", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("game", help="game id, e.g. mosaic")
    ap.add_argument("budgets", nargs="+", help="iterations,rollout,horizon (e.g. 1000,20,40)")
    ap.add_argument("--players", type=int, default=None, help="player count (default: the game's largest)")
    ap.add_argument("--seeds", default="1,2", help="random games whose positions are used")
    ap.add_argument("--steps", default="30,70,110,150", help="steps of each game where a decision is timed")
    args = ap.parse_args(argv)

    import engine

    game = engine.get(args.game)
    for spec in args.budgets:
        parts = spec.split(",")
        if len(parts) != 3 or not all(p.isdigit() for p in parts):
            print(f"a budget is iterations,rollout,horizon in whole numbers (e.g. 1000,20,40), not {spec!r}")
            return 2
    players = args.players or game.max_players
    steps = [int(s) for s in args.steps.split(",")]
    every: list[list[float]] = [[] for _ in args.budgets]
    print(f"{args.game}, {players} players: CPU seconds of one decision per budget")
    for seed in (int(s) for s in args.seeds.split(",")):
        for step, times in costs(args.game, players, seed, steps, args.budgets):
            print(
                f"  seed {seed}, step {step:3}: "
                + "  ".join(f"{b} {t:.2f}" for b, t in zip(args.budgets, times, strict=True))
            )
            for column, t in zip(every, times, strict=True):
                column.append(t)
    for spec, column in zip(args.budgets, every, strict=True):
        if column:
            print(f"  {spec:>14}: mean {statistics.fmean(column):.2f} s, max {max(column):.2f} s over {len(column)}")
    return 0
