"""How many steps make a turn: `python -m tests.bench steps <game-id> [--players N] [--games N]`.

Plays complete random games through the engine contract alone and counts, per
game: steps, decisions (steps where the acting seat had more than one legal
action: a step with one legal action is played by the service at once, issue 12),
forced steps, and handovers. A handover is a step after which the set of seats to
act includes a seat that was not acting before it (the channel gets one post per
handover, bot/DECISIONS.md "Turns"). Printed per handover, so a change that turns
confirmations into automatic steps or merges a payment into one choice shows here
before the service is involved.
"""

from __future__ import annotations

import argparse
import random


def count(game, players: int, seed: int) -> dict[str, int]:
    rng = random.Random(seed)
    state = game.setup([f"p{i}" for i in range(players)], seed)
    out = {"steps": 0, "decisions": 0, "forced": 0, "handovers": 0}
    acting = game.to_act(state)
    while not game.is_over(state):
        seat = rng.choice(acting)
        legal = game.legal_actions(state, seat)
        out["steps"] += 1
        out["decisions" if len(legal) > 1 else "forced"] += 1
        state = game.apply(state, seat, rng.choice(legal)).state
        now = game.to_act(state)
        if set(now) - set(acting):
            out["handovers"] += 1
        acting = now
    return out


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m tests.bench steps", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("game", help="game id, e.g. cradle")
    ap.add_argument("--players", type=int, default=None, help="player count (default: the game's minimum)")
    ap.add_argument("--games", type=int, default=40, help="complete random games to play")
    ap.add_argument("--seed", type=int, default=0, help="first seed")
    args = ap.parse_args(argv)

    import engine

    game = engine.get(args.game)
    players = args.players or game.min_players
    totals = {"steps": 0, "decisions": 0, "forced": 0, "handovers": 0}
    for i in range(args.games):
        for k, v in count(game, players, args.seed + i).items():
            totals[k] += v
    per = max(totals["handovers"], 1)
    print(f"{args.game}, {players} players, {args.games} random games")
    for k in ("steps", "decisions", "forced", "handovers"):
        print(f"  {k + ':':<12}{totals[k] / args.games:9.1f} a game")
    print(f"  steps per handover:     {totals['steps'] / per:6.2f}")
    print(f"  decisions per handover: {totals['decisions'] / per:6.2f}")
    return 0
