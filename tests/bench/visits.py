"""Where a decision's visits go, per choice rule: `python -m tests.bench visits <game-id>
[--players N] [--games 3] [--steps 30,70,110] [--level normal] [--rules tree,sibling,tree:0.35]`.

The choice rules were first compared on synthetic bandits (`tests/bench/bandits.py`), whose
trees are one or two levels deep. A game's tree is thirty: each iteration ends in a node
visited once, whose mean is one noisy reward, so the range of means over the whole tree
(`search.Range`) is far wider than the root moves' differences. This shows it on positions
of seeded random games (the steps given, where the seat has more than two moves): per rule,
the share of the iterations spent on the most visited and the second root move, the
tree's range, and the range of the root moves' means, with the move played. When the
root moves' means lie within a few hundredths and the tree's range is nearly [0, 1], the
"tree" rule spreads the visits almost evenly over the root moves.
"""

from __future__ import annotations

import argparse
import dataclasses
import random
from collections.abc import Iterator
from typing import Any


def positions(
    game_id: str, players: int, seed: int, steps: list[int], moves: int
) -> Iterator[tuple[int, Any, int, int]]:
    """(step, the seat's infostate world, seat, its number of moves) at each of `steps` of one
    seeded random game where the seat to act has more than `moves` moves (also tests/bench/budgets.py)."""
    import engine
    import engine.ai as ai

    game = engine.get(game_id)
    state = game.setup([f"p{i}" for i in range(players)], seed)
    rand = random.Random(seed)
    for step in range(max(steps) + 1):
        if game.is_over(state):
            break
        seat = game.to_act(state)[0]
        legal = game.legal_actions(state, seat)
        if step in steps and len(set(legal)) > moves:
            yield step, game.loads(ai.infostate(game, state, seat, seed)), seat, len(set(legal))
        state = game.apply(state, seat, legal[rand.randrange(len(legal))]).state


def report(game_id: str, players: int, seed: int, steps: list[int], level: str, rules: list[str]) -> list[str]:
    """The lines for one seeded random game: at each of `steps`, each rule's root visits."""
    import engine
    from engine.ai.levels import budget
    from engine.ai.parts import search as searcher
    from engine.ai.search import best

    game = engine.get(game_id)
    lines = []
    for step, root, seat, moves in positions(game_id, players, seed, steps, moves=2):
        lines.append(f"  seed {seed}, step {step}: {moves} moves")
        for spec in rules:
            rule, _, c = spec.partition(":")
            limits = dataclasses.replace(budget(level, game_id), rule=rule)
            if c:
                limits = dataclasses.replace(limits, exploration=float(c))
            search = searcher(game, limits, random.Random(seed))
            own = game.legal_actions(root, seat)
            tree = search.grow(root, seat, own)
            visits = sorted((c.visits for c in tree.children.values()), reverse=True) + [0]
            means = [c.mean() for c in tree.children.values()]
            lines.append(
                f"    {spec:12} top {visits[0] / limits.iterations:.2f}, 2nd {visits[1] / limits.iterations:.2f}; "
                f"tree's range {search.range.low:.2f}-{search.range.high:.2f}, "
                f"root moves {min(means):.3f}-{max(means):.3f}; plays {best(tree, own)}"
            )
    return lines


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m tests.bench visits", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("game", help="game id")
    ap.add_argument("--players", type=int, default=None, help="player count (default: the game's minimum)")
    ap.add_argument("--games", type=int, default=3, help="seeded random games (seeds 0, 1, ...)")
    ap.add_argument("--steps", default="30,70,110", help="the steps of each game to look at")
    ap.add_argument("--level", default="normal", help="the level whose counts are searched")
    ap.add_argument(
        "--rules",
        default="tree,sibling",
        help="choice rules (engine/ai/search.py RULES), each with :CONSTANT if wanted",
    )
    args = ap.parse_args(argv)

    import engine

    game = engine.get(args.game)
    players = args.players or game.min_players
    steps = [int(x) for x in args.steps.split(",")]
    print(f"{args.game}, {players} players, {args.level}'s counts: the root's visits per rule")
    for seed in range(args.games):
        print("\n".join(report(args.game, players, seed, steps, args.level, args.rules.split(","))), flush=True)
    return 0
