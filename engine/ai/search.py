"""Information-set Monte Carlo tree search over the engine contract, for any game.

After Cowling, Powley and Whitehouse (2012), "Information Set Monte Carlo Tree
Search", and OpenSpiel's `ismcts.py`. Each iteration:

1. *Determinize*: redraw everything hidden from the searching seat with the
   game's `resample` (hands, deck order, the generator's future), so this
   iteration plays in one possible world consistent with what the seat knows.
2. *Select* down the tree by UCB among the actions legal in this world. Worlds
   differ in which actions are legal deeper down (an opponent's hand), so an
   action's exploration term counts the visits in which it was *available*,
   not the parent's visits (ISMCTS's availability counts).
3. *Expand* one untried action, then play a short random *rollout*, and cut it
   off with the game's `evaluate` (or the result, when the game ended).
4. *Back up* each seat's reward along the path: a node's statistics are those
   of the seat that acted there, so every player maximises its own share
   (multiplayer, 2-6 seats).

The tree is open-loop: a node is the sequence of actions from the root, so
dice and draws inside `apply` (the state's own generator, redrawn per world)
are averaged over instead of branched on. A step where several seats may act
(simultaneous choices) is searched as if the first of them acted first; at the
root the searching seat acts.

Everything is bounded by counts (iterations, rollout and horizon steps), never
by the clock, so a decision is a pure function of its inputs and seed.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.core import BaseGame, Game, Rng

from .value import win_shares

Resample = Callable[[Any, int, Rng], Any]
Evaluate = Callable[[Any], list[float]]


@dataclass(frozen=True)
class Budget:
    """How hard to think: all counts, so a seed fixes the decision."""

    iterations: int  #: worlds sampled and searched
    rollout: int  #: random steps played after leaving the tree
    horizon: int  #: at most this many steps from the root, then evaluate
    exploration: float = 0.7  #: UCB constant (rewards lie in [0, 1])
    result_weight: float = 0.75  #: at the end, win shares vs the evaluation (keeps a lost cause trying)


class Node:
    """Statistics of one action in the tree: for the seat that chose it."""

    __slots__ = ("children", "visits", "total", "available")

    def __init__(self) -> None:
        self.children: dict[str, Node] = {}
        self.visits = 0
        self.total = 0.0
        self.available = 1

    def mean(self) -> float:
        return self.total / self.visits if self.visits else 0.0


def step(game: Game, state: Any, seat: int, action: str) -> Any:
    """The state after a legal `action`.

    Every action here comes from `legal_actions`, so for a BaseGame the checks
    `apply` repeats (whose turn, spelling, legality) are skipped: `clone` and
    `play` are what `apply` itself runs after them.
    """
    if isinstance(game, BaseGame):
        new = game.clone(state)
        game.play(new, seat, action)
        return new
    return game.apply(state, seat, action).state


class Search:
    def __init__(self, game: Game, resample: Resample, evaluate: Evaluate, budget: Budget, rand: random.Random) -> None:
        self.game = game
        self.resample = resample
        self.evaluate = evaluate
        self.budget = budget
        self.rand = rand

    def reward(self, state: Any) -> list[float]:
        values = self.evaluate(state)
        if not self.game.is_over(state):
            return values
        won = win_shares(self.game.winners(state), len(values))
        w = self.budget.result_weight
        return [w * a + (1 - w) * b for a, b in zip(won, values, strict=True)]

    def choose(self, root: Any, seat: int) -> str:
        """The action the searching `seat` takes at `root` (a world it may know)."""
        game = self.game
        legal = game.legal_actions(root, seat)
        if not legal:
            raise ValueError(f"seat {seat} has no legal action now (to act: {game.to_act(root)})")
        if len(legal) == 1:
            return legal[0]
        tree = Node()
        for _ in range(self.budget.iterations):
            world = self.resample(root, seat, Rng(self.rand.getrandbits(64)))
            self.iterate(tree, world, seat)
        return best(tree, legal)

    def iterate(self, tree: Node, state: Any, seat: int) -> None:
        game, rand, budget = self.game, self.rand, self.budget
        path: list[tuple[Node, int]] = []
        node = tree
        depth = 0
        while depth < budget.horizon and not game.is_over(state):
            actor = seat if depth == 0 else game.to_act(state)[0]
            legal = game.legal_actions(state, actor)
            children = node.children
            untried = []
            for a in legal:
                child = children.get(a)
                if child is None:
                    untried.append(a)
                else:
                    child.available += 1
            if untried:
                action = untried[rand.randrange(len(untried))]
                node = children[action] = Node()
            else:
                action = self.select(node, legal)
                node = children[action]
            path.append((node, actor))
            state = step(game, state, actor, action)
            depth += 1
            if untried:
                break
        for _ in range(min(budget.rollout, budget.horizon - depth)):
            if game.is_over(state):
                break
            acting = game.to_act(state)
            actor = acting[rand.randrange(len(acting))] if len(acting) > 1 else acting[0]
            legal = game.legal_actions(state, actor)
            state = step(game, state, actor, legal[rand.randrange(len(legal))])
        values = self.reward(state)
        for node, actor in path:
            node.visits += 1
            node.total += values[actor]

    def select(self, node: Node, legal: list[str]) -> str:
        """UCB1 with the children's means scaled to [0, 1] among themselves.

        Rewards are shares of estimated scores: in a five-player game the actions'
        means may differ by a hundredth, far less than any fixed exploration term,
        and the search would spread its visits evenly. Scaling the means by their
        range at this node (as MuZero scales values by the tree's range) keeps the
        exploration constant meaningful whatever the reward's scale.
        """
        c = self.budget.exploration
        children = [node.children[a] for a in legal]
        means = [ch.mean() for ch in children]
        low, high = min(means), max(means)
        scale = 1.0 / (high - low) if high > low else 0.0
        top, chosen = -1.0, legal[0]
        for a, child, mean in zip(legal, children, means, strict=True):
            score = (mean - low) * scale + c * math.sqrt(math.log(child.available) / child.visits)
            if score > top:
                top, chosen = score, a
        return chosen


def best(tree: Node, legal: list[str]) -> str:
    """The most visited root action (ties: the better mean, then the first listed)."""
    chosen, key = legal[0], (-1, -1.0)
    for a in legal:
        child = tree.children.get(a)
        if child is None:
            continue
        k = (child.visits, child.mean())
        if k > key:
            chosen, key = a, k
    return chosen
