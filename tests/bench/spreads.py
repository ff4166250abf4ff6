"""How well Cradle's evaluation predicts who wins: `python -m tests.bench spreads [--games 200]
[--level easy] [--seed 100000] [--jobs 2]`.

`engine.cradle.resample.evaluate` turns each seat's estimated final score into its share of
the win with a soft maximum whose spread, `SPREAD`, is how many points make a lead count.
This plays `--games` 4-player games with every seat at `--level` (or `random` legal play),
keeps every 5th position with the seats' estimates and, once the game is over, who won. Per
Epoch it prints the positions, the spread that would best predict the winner from the
estimates (maximum likelihood, a golden-section search), the committed spread, and the mean
log-loss of the winner (lower is better; a coin's is ln 4 = 1.386) for a coin, issue 14's
`evaluate_board` and the committed `evaluate`. A prediction is not a move: spreads fitted
this way predicted better and played no better (engine/ai/README.md, "Cradle: the Armies
to come").
"""

from __future__ import annotations

import argparse
import functools
import math
import random
from concurrent.futures import ProcessPoolExecutor

PLAYERS = 4
EVERY = 5  #: keep every 5th position of a game


def play(level: str, seed: int) -> list[tuple[int, list[float], list[float], list[float], list[float]]]:
    """One game: per kept position (Epoch, estimates, evaluate_board's and evaluate's shares, win shares)."""
    import engine
    import engine.ai as ai
    from engine.ai.value import win_shares
    from engine.cradle.resample import estimated_scores, evaluate, evaluate_board

    game = engine.get("cradle")
    rand = random.Random(seed)
    state = game.setup([f"p{i}" for i in range(PLAYERS)], seed)
    kept = []
    steps = 0
    while not game.is_over(state):
        seat = game.to_act(state)[0]
        if steps % EVERY == 0:
            kept.append((state.epoch, estimated_scores(state), evaluate_board(state), evaluate(state)))
        legal = game.legal_actions(state, seat)
        if level == "random" or len(legal) == 1:
            action = legal[rand.randrange(len(legal))]
        else:
            text = ai.infostate(game, state, seat, seed=seed * 100_003 + steps)
            action = ai.decide("cradle", text, seat, level=level, seed=steps)
        state = game.apply(state, seat, action).state
        steps += 1
    won = win_shares(game.winners(state), PLAYERS)
    return [(*k, won) for k in kept]


def log_loss(predicted: list[float], won: list[float]) -> float:
    return -sum(w * math.log(max(p, 1e-12)) for p, w in zip(predicted, won, strict=True))


def fitted_spread(rows: list[tuple[list[float], list[float]]]) -> float:
    """The spread of `shares` that gives the winners the least log-loss, searched on 1-1000 points."""
    from engine.ai.value import shares

    def loss(log_spread: float) -> float:
        spread = math.exp(log_spread)
        return sum(log_loss(shares(est, spread), won) for est, won in rows)

    lo, hi = 0.0, math.log(1000.0)
    golden = (math.sqrt(5) - 1) / 2
    for _ in range(60):
        a, b = hi - golden * (hi - lo), lo + golden * (hi - lo)
        if loss(a) < loss(b):
            hi = b
        else:
            lo = a
    return math.exp((lo + hi) / 2)


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="python -m tests.bench spreads", description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--level", default="easy", help="easy | normal | strong | random")
    p.add_argument("--seed", type=int, default=100_000)
    p.add_argument("--jobs", type=int, default=2)
    args = p.parse_args(argv)
    from engine.cradle.resample import SPREAD

    with ProcessPoolExecutor(args.jobs) as pool:
        games = list(pool.map(functools.partial(play, args.level), range(args.seed, args.seed + args.games)))
    rows = [row for g in games for row in g]
    print(f"cradle, {PLAYERS} players, {args.games} games at {args.level}, {len(rows)} positions")
    print("epoch  positions  fitted spread  committed   log-loss: coin  evaluate_board  evaluate")
    totals = [0.0, 0.0, 0.0]
    for epoch in range(1, 7):
        mine = [r for r in rows if r[0] == epoch]
        if not mine:
            continue
        coin = sum(log_loss([1 / PLAYERS] * PLAYERS, r[4]) for r in mine)
        board = sum(log_loss(r[2], r[4]) for r in mine)
        now = sum(log_loss(r[3], r[4]) for r in mine)
        for i, x in enumerate((coin, board, now)):
            totals[i] += x
        spread = fitted_spread([(r[1], r[4]) for r in mine])
        n = len(mine)
        print(
            f"{epoch:>5}  {n:>9}  {spread:>13.1f}  {SPREAD:>9.1f}   "
            f"{coin / n:>14.3f}  {board / n:>14.3f}  {now / n:>8.3f}"
        )
    n = len(rows)
    print(f"  all  {n:>9}  {'':>13}  {'':>9}   {totals[0] / n:>14.3f}  {totals[1] / n:>14.3f}  {totals[2] / n:>8.3f}")
    return 0
