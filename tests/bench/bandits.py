"""The search's choice rule on synthetic bandits: `python -m tests.bench bandits [--trials T]
[--iterations I] [--rules tree:0.7,sibling:0.7,...]`.

Each bandit is a tiny game played through the project's own `Search` (engine/ai/search.py):
seat 0 picks an arm (and in the two-level bandit seat 1 then picks a reply), and the
position is worth a noisy reward whose mean per arm is known. A rule is good when the
most visited arm — the move the bot plays — is the best arm. Prints, per bandit and
rule, the share of T seeded searches that picked the best arm, with its Wilson 95%
interval. Issue 24 chose the default rule from this table (engine/ai/README.md).

The bandits mimic what the games' rewards look like: soft-maximum shares of five
players whose arms differ by a hundredth, a two-player win or loss, an arm that is
best on average but often bad at first (the "trailing move"), and a two-level
maximin where seat 1 answers, and a long shot: an arm that wins 3 times in 8 and otherwise
does worst, beside arms that lose for sure with score shares a hundredth apart (Cradle's
`attack assur` tactic). The first two come again "deep": four levels of moves that change
nothing follow the arm, played out by random rollout moves, so that as in a game each
iteration ends in a new node whose mean is a single noisy reward, and those spread the tree's
range (`search.Range`) far beyond the arms' differences.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.ai.search import Budget, Search
from engine.core import BaseGame, Rng
from tests.bench.ai import wilson


@dataclass(frozen=True)
class Bandit:
    name: str
    players: int
    #: seat 0's mean reward per arm (one level) or per (arm, reply) (two levels, replies by seat 1)
    means: tuple[tuple[float, ...], ...]
    #: "gauss:<sd>", "bernoulli", or "long-shot:<chance>:<win>": the best arm pays <win> by chance,
    #: else its mean, and the others pay their means exactly
    noise: str
    best: int  #: the best arm for seat 0
    #: levels of three moves that change nothing, played after the arm (and reply) by the seats in
    #: turn, as a game's tree goes on past a decision: each iteration then ends in a new node
    #: visited once, whose mean is one noisy reward
    filler: int = 0

    @property
    def levels(self) -> int:
        return 1 if len(self.means) == 1 else 2

    @property
    def depth(self) -> int:
        return self.levels + self.filler


@dataclass
class Pulls:
    bandit: Bandit
    picks: list[int] = field(default_factory=list)
    reward: float = 0.0
    rng: Rng = field(default_factory=Rng)


class BanditGame(BaseGame[Pulls]):
    """Seat 0 pulls an arm; with two levels seat 1 then picks a reply. Never over: the
    search's horizon (= the levels) cuts it off and `value` gives the reward."""

    id = "bandit"
    title = "Bandit"
    min_players = 2
    max_players = 6
    state_type = Pulls

    def setup(self, players: Sequence[str], seed: int, options: Mapping[str, Any] | None = None) -> Pulls:
        raise NotImplementedError

    def to_act(self, state: Pulls) -> list[int]:
        done, b = len(state.picks), state.bandit
        return [done % b.players] if done < b.depth else []

    def legal_actions(self, state: Pulls, seat: int) -> list[str]:
        b = state.bandit
        if seat not in self.to_act(state):
            return []
        done = len(state.picks)
        if done >= b.levels:
            return [f"arm {k}" for k in range(3)]  # a filler level
        arms = len(b.means[0]) if b.levels == 1 else (len(b.means) if not done else len(b.means[0]))
        return [f"arm {k}" for k in range(arms)]

    def play(self, state: Pulls, seat: int, action: str) -> list[str]:
        state.picks.append(int(action.split()[1]))
        b = state.bandit
        if len(state.picks) == b.depth:
            mean = b.means[0][state.picks[0]] if b.levels == 1 else b.means[state.picks[0]][state.picks[1]]
            if b.noise == "bernoulli":
                state.reward = 1.0 if state.rng.next64() < mean * 2.0**64 else 0.0
            elif b.noise.startswith("long-shot"):
                _, chance, win = b.noise.split(":")
                lucky = state.picks[0] == b.best and state.rng.next64() < float(chance) * 2.0**64
                state.reward = float(win) if lucky else mean
            else:
                sd = float(b.noise.split(":")[1])
                u = [state.rng.next64() / 2.0**64 for _ in range(12)]  # Irwin-Hall: about normal
                state.reward = min(1.0, max(0.0, mean + sd * (sum(u) - 6)))
        return []

    def view(self, state: Pulls, seat: int | None) -> dict[str, Any]:
        return {"picks": state.picks}

    def is_over(self, state: Pulls) -> bool:
        return False

    def scores(self, state: Pulls) -> list[int]:
        return [0] * state.bandit.players

    def winners(self, state: Pulls) -> list[int]:
        return []


GAME = BanditGame()


def resample(state: Pulls, seat: int, rng: Rng) -> Pulls:
    return Pulls(state.bandit, list(state.picks), state.reward, Rng(rng.next64()))


def value(state: Pulls) -> list[float]:
    """Seat 0's reward; the others share the rest."""
    n = state.bandit.players
    return [state.reward] + [(1 - state.reward) / (n - 1)] * (n - 1)


BANDITS = (
    Bandit("5 players, arms 0.01 apart", 5, ((0.20, 0.19, 0.19, 0.18, 0.18, 0.17, 0.16),), "gauss:0.05", 0),
    Bandit("2 players, win or lose", 2, ((0.55, 0.50, 0.50, 0.48, 0.45, 0.45, 0.40, 0.40),), "bernoulli", 0),
    Bandit("a trailing arm: best, often bad", 2, ((0.62, 0.56, 0.55, 0.55, 0.50),), "bernoulli", 0),
    Bandit(
        "two levels, seat 1 answers",
        2,
        ((0.60, 0.55, 0.58), (0.62, 0.45, 0.70), (0.52, 0.56, 0.54), (0.40, 0.70, 0.80)),
        "gauss:0.15",
        0,
    ),
    Bandit("6 players, arms 0.005 apart", 6, ((0.170, 0.165, 0.165, 0.160, 0.160, 0.155),), "gauss:0.03", 0),
    # a last-round attack that wins 3 times in 8 against sure losses whose score shares differ a little
    Bandit("a long shot: wins 3 in 8", 4, ((0.055, 0.08, 0.075, 0.07, 0.065, 0.06),), "long-shot:0.375:0.8", 0),
    # the first two again with a game's depth after the arm: four levels whose nodes are mostly visited once
    Bandit("2 players, win or lose, deep", 2, ((0.55, 0.50, 0.50, 0.48, 0.45, 0.45, 0.40, 0.40),), "bernoulli", 0, 4),
    Bandit("5 players, 0.01 apart, deep", 5, ((0.20, 0.19, 0.19, 0.18, 0.18, 0.17, 0.16),), "gauss:0.05", 0, 4),
)


def picks_best(bandit: Bandit, rule: str, c: float, iterations: int, seed: int) -> bool:
    budget = Budget(iterations=iterations, rollout=bandit.filler, horizon=bandit.depth, exploration=c, rule=rule)
    search = Search(GAME, resample, value, budget, random.Random(seed))
    root = Pulls(bandit, rng=Rng(seed))
    return search.choose(root, 0) == f"arm {bandit.best}"


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="python -m tests.bench bandits", description=__doc__)
    ap.add_argument("--trials", type=int, default=200, help="seeded searches per bandit and rule")
    ap.add_argument("--iterations", type=int, default=1000, help="iterations per search")
    ap.add_argument(
        "--rules",
        default="sibling:0.7,tree:0.35,tree:0.5,tree:0.7,tree:1.0,plain:0.1,plain:0.2,plain:0.35",
        help="RULE:EXPLORATION pairs to compare (rules: tree, sibling, plain)",
    )
    args = ap.parse_args(argv)
    rules = [(r.split(":")[0], float(r.split(":")[1])) for r in args.rules.split(",")]
    print(f"share of {args.trials} searches of {args.iterations} iterations picking the best arm (Wilson 95%)")
    print(f"{'rule':>14} " + " ".join(f"{b.name[:24]:>26}" for b in BANDITS))
    for rule, c in rules:
        cells = []
        for b in BANDITS:
            hits = sum(picks_best(b, rule, c, args.iterations, seed) for seed in range(args.trials))
            p = hits / args.trials
            low, high = wilson(p, args.trials)
            cells.append(f"{p:6.1%} ({low:.0%}-{high:.0%})")
        print(f"{rule + ' ' + str(c):>14} " + " ".join(f"{x:>26}" for x in cells), flush=True)
    return 0
