"""Snapshot cost: `python -m tests.bench serial [game-id ...] [--players N] [--games N] [--seed N]`.

Every accepted move stores the new state's `dumps` text, and every command reads
it back with `loads`, so these two run once per play command beside one step of
the rules. Per game (at its largest player count unless `--players` says
otherwise) this plays random games, keeps the states of the middle half of each
(mid-game: decks dealt, boards filled, decisions pending), and prints the mean
CPU time of `dumps`, `loads` and one random step (`legal_actions` + `apply`)
over those states, and the share of `dumps` in the three: dumps / (step + dumps
+ loads). Issue 15's target is a share of at most 25%. Nothing here asserts time.
"""
from __future__ import annotations

import argparse
import random
import statistics
import time

TARGET_SHARE = 0.25


def mid_game_states(game, players: int, seed: int) -> list:
    """The states of the middle half of one random game."""
    rng = random.Random(seed)
    state = game.setup([f"p{i}" for i in range(players)], seed)
    states = [state]
    while not game.is_over(state):
        seat = rng.choice(game.to_act(state))
        state = game.apply(state, seat, rng.choice(game.legal_actions(state, seat))).state
        states.append(state)
    n = len(states)
    return states[n // 4: 3 * n // 4]


def timed(jobs: dict[str, tuple], repeat: int) -> dict[str, float]:
    """Mean CPU seconds of `fn(item)` over its items, per job.

    The jobs take turns, pass after pass, and each keeps its best pass: on a
    machine shared with other work, a busy moment then slows one pass of each
    rather than every pass of one, and the shares stay comparable.
    """
    clock = time.process_time
    best = {name: float("inf") for name in jobs}
    for _ in range(repeat):
        for name, (fn, items) in jobs.items():
            t0 = clock()
            for item in items:
                fn(item)
            best[name] = min(best[name], (clock() - t0) / len(items))
    return best


def measure(game, players: int, games: int, seed: int, repeat: int) -> dict[str, float]:
    states: list = []
    for i in range(games):
        states.extend(mid_game_states(game, players, seed + i))
    texts = [game.dumps(s) for s in states]
    rng = random.Random(seed)
    moves = []
    for s in states:
        seat = rng.choice(game.to_act(s))
        moves.append((s, seat, rng.choice(game.legal_actions(s, seat))))

    def step(move) -> None:
        s, seat, action = move
        game.legal_actions(s, seat)
        game.apply(s, seat, action)

    out = timed({"dumps": (game.dumps, states), "loads": (game.loads, texts), "step": (step, moves)}, repeat)
    out["states"] = len(states)
    out["kb"] = statistics.fmean(len(t) for t in texts) / 1024
    out["share"] = out["dumps"] / (out["step"] + out["dumps"] + out["loads"])
    return out


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="python -m tests.bench serial", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("games", nargs="*", help="game ids (default: every game)")
    ap.add_argument("--players", type=int, default=None, help="player count (default: each game's largest)")
    ap.add_argument("--games", type=int, default=6, dest="count", help="random games per game to take states from")
    ap.add_argument("--seed", type=int, default=0, help="first seed")
    ap.add_argument("--repeat", type=int, default=5, help="timed passes over the states (the best is kept)")
    args = ap.parse_args(argv)

    import engine

    ids = args.games or list(engine.GAMES)
    print(f"dumps / loads / one step on mid-game states, mean of each (target: dumps <= {TARGET_SHARE:.0%} "
          f"of step + dumps + loads)")
    print(f"  {'game':<16}{'players':>8}{'states':>8}{'JSON KB':>9}{'dumps us':>10}{'loads us':>10}"
          f"{'step us':>10}{'dumps share':>13}")
    for gid in ids:
        game = engine.get(gid)
        players = args.players or game.max_players
        if not game.min_players <= players <= game.max_players:
            print(f"  {gid:<16} takes {game.min_players}-{game.max_players} players, not {players}")
            continue
        m = measure(game, players, args.count, args.seed, args.repeat)
        print(f"  {gid:<16}{players:>8}{m['states']:>8}{m['kb']:>9.1f}{m['dumps'] * 1e6:>10.1f}"
              f"{m['loads'] * 1e6:>10.1f}{m['step'] * 1e6:>10.1f}{m['share']:>12.0%}")
    return 0
