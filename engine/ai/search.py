"""Information-set Monte Carlo tree search over the engine contract, for any game.

After Cowling, Powley and Whitehouse (2012), "Information Set Monte Carlo Tree
Search", and OpenSpiel's `ismcts.py`. Each iteration:

1. *Determinize*: redraw everything hidden from the searching seat with the
   game's `resample` (hands, deck order, the generator's future), so this
   iteration plays in one possible world consistent with what the seat knows.
2. *Select* down the tree by UCB among the actions legal in this world. Worlds
   differ in which actions are legal deeper down (an opponent's hand), so an
   action's exploration term counts the visits in which it was *available*,
   not the parent's visits (ISMCTS's availability counts). The actions' means
   are scaled by the range of the means over the whole tree (`Range`), as the
   MuZero paper does, so the exploration constant keeps its meaning whatever
   the rewards' scale while a trailing action keeps its share of visits.
3. *Expand* one untried action, then play a short random *rollout*, and cut it
   off with the game's `evaluate` (or the result, when the game ended). A
   rollout's moves are drawn by the game's `Draw` when it has one (the same
   distribution as a uniform choice among the legal actions, without listing
   them all), else uniformly from `legal_actions`.
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

Each iteration plays in its own world, a fresh state from `resample`, so the
steps change that world in place (`play`) instead of copying it at every step
as `apply` does: the copy was a fifth of a decision.
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
#: A random legal action of `seat`, uniform over `legal_actions(state, seat)` (a game's fast path).
Draw = Callable[[Any, int, random.Random], str]

#: The choice rules (`Budget.rule`): "tree" scales means by the tree's range (the default);
#: "sibling" by the range among the siblings (issue 14's rule, kept as the bench's baseline);
#: "plain" adds the exploration term to the raw means (plain UCB1); "root" scales by the tree's
#: range at the root and by the siblings' below it; "floored" by the siblings' range, counted at
#: least RANGE_FLOOR wide (candidates, measured in engine/ai/README.md).
RULES = ("tree", "sibling", "plain", "root", "floored")
#: How the root action is finally chosen (`Budget.final`): "visits" plays the most visited
#: child; "secure" the child whose mean is best less SECURE / sqrt(visits), so a move found
#: late but clearly better is played though it has fewer visits (Chaslot et al. 2008,
#: "Progressive strategies for Monte-Carlo tree search", the secure child).
FINALS = ("visits", "secure")
#: The secure child's constant, on rewards in [0, 1] (engine/ai/README.md, "The final choice").
SECURE = 1.0
#: The narrowest range the "tree" rule scales means by (`Range`): rewards lie in [0, 1].
RANGE_FLOOR = 0.05


@dataclass(frozen=True)
class Budget:
    """How hard to think: all counts, so a seed fixes the decision."""

    iterations: int  #: worlds sampled and searched
    rollout: int  #: random steps played after leaving the tree
    horizon: int  #: at most this many steps from the root, then evaluate
    exploration: float = 0.7  #: UCB constant (on means scaled to [0, 1] by `rule`)
    result_weight: float = 0.75  #: at the end, win shares vs the evaluation (keeps a lost cause trying)
    rule: str = "tree"  #: how means are scaled before exploration is added (`RULES`)
    final: str = "visits"  #: how the root action is chosen once the tree is grown (`FINALS`)
    #: the game's position value, by its name in the game's bot module (`parts`): the bench's
    #: issue-14 levels keep the evaluation issue 14 had where a game's has changed since
    evaluation: str = "evaluate"


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


class Range:
    """The lowest and highest mean of any node in the tree (MuZero's `MinMaxStats`).

    Rewards are shares of estimated scores: with five players the means of good
    and bad actions may differ by a hundredth, far less than any fixed
    exploration term, and the search would spread its visits evenly. Scaling
    every mean by the tree's range keeps the constant meaningful; scaling by
    the range among one node's children (issue 14's rule) made the worst child
    0 and the best 1 whatever their gap, so after a few visits a trailing
    action was never tried again (tests/bench/ai.py --bandits measures both).

    Until the tree has seen rewards far apart, its range is no measure of the rewards' scale:
    when every outcome so far was a loss and the means differ only in the score share added to
    it, a range of a few hundredths would make those differences the whole scale, and a move
    that wins one time in three but lost its first visits would look hopeless at once and not
    be tried again (Cradle's `attack assur` tactic, issue 24). So a range narrower than
    `RANGE_FLOOR` counts as that wide; on the synthetic bandits, whose arms differ by a
    hundredth or less, the floor changes nothing beyond the noise (engine/ai/README.md).
    """

    __slots__ = ("low", "high")

    def __init__(self) -> None:
        self.low = math.inf
        self.high = -math.inf

    def add(self, mean: float) -> None:
        if mean < self.low:
            self.low = mean
        if mean > self.high:
            self.high = mean

    def scale(self) -> tuple[float, float]:
        """(offset, factor) mapping a mean into [0, 1]; (0, 1) until the tree has a range."""
        if self.high > self.low:
            return self.low, 1.0 / max(self.high - self.low, RANGE_FLOOR)
        return 0.0, 1.0


def uniform(game: Game) -> Draw:
    """A uniform choice among `legal_actions`: the rollout move of a game without a fast path."""

    def draw(state: Any, seat: int, rand: random.Random) -> str:
        legal = game.legal_actions(state, seat)
        return legal[rand.randrange(len(legal))]

    return draw


def stepper(game: Game) -> Callable[[Any, int, str], Any]:
    """Carry out a legal action on a world the search owns, returning the world after it.

    Every action here comes from `legal_actions` (or a `Draw` that gives only
    those), so for a BaseGame the checks `apply` repeats are skipped, and so is
    its copy: each world is the search's own (a fresh `resample`), nobody looks
    at it again after the step. Another game steps through `apply`.
    """
    if isinstance(game, BaseGame):
        play = game.play

        def in_place(state: Any, seat: int, action: str) -> Any:
            play(state, seat, action)
            return state

        return in_place
    return lambda state, seat, action: game.apply(state, seat, action).state


class Search:
    def __init__(
        self,
        game: Game,
        resample: Resample,
        evaluate: Evaluate,
        budget: Budget,
        rand: random.Random,
        draw: Draw | None = None,
    ) -> None:
        if budget.rule not in RULES:
            raise ValueError(f"no choice rule {budget.rule!r}; rules: {', '.join(RULES)}")
        if budget.final not in FINALS:
            raise ValueError(f"no final choice {budget.final!r}; final choices: {', '.join(FINALS)}")
        self.game = game
        self.resample = resample
        self.evaluate = evaluate
        self.budget = budget
        self.rand = rand
        self.draw = draw or uniform(game)
        self.step = stepper(game)
        self.range = Range()

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
        return best(self.grow(root, seat, legal), legal, self.budget.final)

    def grow(self, root: Any, seat: int, legal: list[str]) -> Node:
        """The tree of the budget's iterations from `root`, `legal` being the seat's actions there
        (`choose` plays the child `Budget.final` names; `tests/bench/visits.py` shows where the visits went)."""
        tree = Node()
        for _ in range(self.budget.iterations):
            world = self.resample(root, seat, Rng(self.rand.getrandbits(64)))
            self.iterate(tree, world, seat, legal)
        return tree

    def iterate(self, tree: Node, state: Any, seat: int, root_legal: list[str]) -> None:
        """One world: down the tree, one new node, a rollout, and the rewards backed up.

        The searching seat's own actions at the root are the same in every world
        (`resample` keeps what the seat knows: tests/engine/ai/test_resample.py).
        """
        game, rand, budget, step = self.game, self.rand, self.budget, self.step
        path: list[tuple[Node, int]] = []
        node = tree
        depth = 0
        while depth < budget.horizon and not game.is_over(state):
            actor = seat if depth == 0 else game.to_act(state)[0]
            legal = root_legal if depth == 0 else game.legal_actions(state, actor)
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
                action = self.select(node, legal, depth)
                node = children[action]
            path.append((node, actor))
            state = step(state, actor, action)
            depth += 1
            if untried:
                break
        draw = self.draw
        for _ in range(min(budget.rollout, budget.horizon - depth)):
            if game.is_over(state):
                break
            acting = game.to_act(state)
            actor = acting[rand.randrange(len(acting))] if len(acting) > 1 else acting[0]
            state = step(state, actor, draw(state, actor, rand))
        values = self.reward(state)
        tree_range = self.range
        for node, actor in path:
            node.visits += 1
            node.total += values[actor]
            tree_range.add(node.total / node.visits)

    def select(self, node: Node, legal: list[str], depth: int = 0) -> str:
        """UCB1 on the children's means, scaled as `Budget.rule` says (see `Range`).

        "root" keeps the tree's range for the searching seat's own choice, where a trailing move
        must stay alive, and is greedy among siblings below it: a turn is many small steps of one
        seat, and a root move should be valued by its best follow-ups, not by their average.
        """
        c = self.budget.exploration
        children = [node.children[a] for a in legal]
        rule = self.budget.rule
        if rule == "root":
            rule = "tree" if depth == 0 else "sibling"
        if rule == "tree":
            low, scale = self.range.scale()
        elif rule == "plain":
            low, scale = 0.0, 1.0
        else:  # "sibling" (issue 14's rule, the baseline) and "floored"
            means = [ch.total / ch.visits for ch in children]
            low, high = min(means), max(means)
            if rule == "floored":
                scale = 1.0 / max(high - low, RANGE_FLOOR)
            else:
                scale = 1.0 / (high - low) if high > low else 0.0
        top, chosen = -math.inf, legal[0]
        for a, child in zip(legal, children, strict=True):
            visits = child.visits
            score = (child.total / visits - low) * scale + c * math.sqrt(math.log(child.available) / visits)
            if score > top:
                top, chosen = score, a
        return chosen


def best(tree: Node, legal: list[str], final: str = "visits") -> str:
    """The root action to play: the most visited ("visits") or the secure child ("secure").

    Ties go to the better mean, then to the first listed. The secure child's bound, the mean
    less `SECURE` / sqrt(visits), lets a move the search found late beat a move visited six
    times as often only when its mean is clearly better (Cradle's long-shot attack: 95 visits
    at 0.25 against 597 at 0.10); among close means it is the most visited.
    """
    chosen, key = legal[0], (-math.inf, -1.0)
    for a in legal:
        child = tree.children.get(a)
        if child is None:
            continue
        mean = child.mean()
        k = (mean - SECURE / math.sqrt(child.visits), mean) if final == "secure" else (child.visits, mean)
        if k > key:
            chosen, key = a, k
    return chosen
