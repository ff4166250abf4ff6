"""Engine benchmark: `python -m tests.bench engine <game-id> [--players N] [--games N] [--seed N]`.

Plays complete random games through the contract alone and prints: complete
games per second (everything included: setup, to_act, legal_actions, apply), the
mean and p99 time of one step (`legal_actions` + `apply`), and the state's JSON
size (mean and largest, at every 10th step and the end of 50 games, measured
apart from the timed games).
Targets from issue 2 are printed beside the figures; nothing here asserts time.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

#: The issues' targets per game: (games/s on one core, p99 step in us, state JSON KB).
#: Games/s: issue 2 asked 200 of Rising Cultures; issue 15 asks >= 40 of every other game
#: at its largest player count (bots simulate thousands of games).
TARGETS = {
    "rising-cultures": (200, 1000, 20),
    "rise-of-empires": (40, 2000, None),
    "cradle": (40, 2000, None),
    "mosaic": (40, 2000, None),
}


def play(game, players: int, seed: int, steps: list[float], snapshots: list[Any]) -> int:
    rng = random.Random(seed)
    state = game.setup([f"p{i}" for i in range(players)], seed)
    n = 0
    clock = time.perf_counter
    while not game.is_over(state):
        seat = rng.choice(game.to_act(state))
        t0 = clock()
        actions = game.legal_actions(state, seat)
        state = game.apply(state, seat, rng.choice(actions)).state
        steps.append(clock() - t0)
        n += 1
        if n % 10 == 0:
            snapshots.append(state)
    snapshots.append(state)
    return n


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m tests.bench engine", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("game", help="game id, e.g. rising-cultures")
    ap.add_argument("--players", type=int, default=None, help="player count (default: the game's minimum)")
    ap.add_argument("--games", type=int, default=300, help="complete random games to play")
    ap.add_argument("--seed", type=int, default=0, help="first seed")
    args = ap.parse_args(argv)

    import engine

    game = engine.get(args.game)
    players = args.players or game.min_players
    if not game.min_players <= players <= game.max_players:
        print(f"{args.game} takes {game.min_players}-{game.max_players} players, not {players}")
        return 2
    steps: list[float] = []
    actions = 0
    play(game, players, args.seed - 1, [], [])  # warm-up (imports, caches)
    t0 = time.perf_counter()
    for i in range(args.games):
        actions += play(game, players, args.seed + i, steps, [])
    elapsed = time.perf_counter() - t0
    snapshots: list[Any] = []
    for i in range(min(args.games, 50)):  # sizes measured apart, so dumps does not count as play time
        play(game, players, args.seed + i, [], snapshots)
    sizes = [len(game.dumps(s)) for s in snapshots]
    steps.sort()
    p99 = steps[min(len(steps) - 1, int(len(steps) * 0.99))]
    print(
        f"{args.game}, {players} players, {args.games} complete random games, {actions / args.games:.0f} actions a game"
    )
    games_t, p99_t, json_t = TARGETS.get(args.game, (None, None, None))
    print(f"  games/s:                 {args.games / elapsed:8.1f}" + (f"   (target >= {games_t})" if games_t else ""))
    print(f"  step mean (legal+apply): {statistics.fmean(steps) * 1e6:8.1f} us")
    print(f"  step p99  (legal+apply): {p99 * 1e6:8.1f} us" + (f" (target < {p99_t} us)" if p99_t else ""))
    print(
        f"  state JSON mean / max:   {statistics.fmean(sizes) / 1024:8.2f} KB / {max(sizes) / 1024:.2f} KB"
        + (f" (target < {json_t} KB)" if json_t else "")
    )
    return 0
