"""How fast a game goes with planned moves (issue 51):
`python -m tests.bench pace <game-id> [--players N] [--games N] [--seed S]`.

A table of people who each check in at random times (exponential gaps, mean 8 hours). At a
check-in a person plays every decision they have then (the way their seat's fill-in bot at the
`easy` level would choose it, from their own seat's knowledge: `engine.ai.infostate`/`decide`),
and, with plans, plans their next 1-3 decisions: in one world their seat cannot tell from the
real one (`engine.ai.resample`), their own decisions chosen by their easy bot, everyone else's
by the games' fast rollout move (`draw`), until the seat has met that many decisions. Each
planned move keeps its choice's label, as a move planned from the panel or the web page does.
When a decision of a person comes, their first planned move is played at once if it is legal
and reads the same; otherwise the whole queue is dropped (the service's rule, bot/service/plans.py).
Steps with one legal action are played at once (the service's automatic steps).

Played at the engine level (no storage: the rule is the same and it runs in minutes). The same
seeds are played without and with plans; the figures: days per game, and the share of planned
moves that were played. Goal (issue 51): at least 30% fewer days per game in two games or more.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from dataclasses import dataclass, field
from typing import Any

import engine
from engine.ai import decide, infostate, resample
from engine.ai.parts import draw
from engine.core import Game, Rng

#: Mean hours between one person's check-ins.
MEAN_HOURS = 8.0
#: Typical player counts, per game.
TYPICAL = {"rising-cultures": 2, "rise-of-empires": 3, "cradle": 4, "mosaic": 3}
#: Steps played forward in an imagined world while planning, at most.
LOOKAHEAD = 400


@dataclass
class Outcome:
    hours: float = 0.0
    planned: int = 0
    played: int = 0
    decisions: int = 0


@dataclass
class Table:
    game: Game
    state: Any
    rand: random.Random
    plans: dict[int, list[tuple[str, str]]] = field(default_factory=dict)
    out: Outcome = field(default_factory=Outcome)
    calls: int = 0

    def choose(self, state: Any, seat: int) -> str:
        """The seat's easy bot's move, from its own knowledge of `state`."""
        self.calls += 1
        seed = self.rand.randrange(1 << 30)
        return decide(self.game.id, infostate(self.game, state, seat, seed), seat, "easy", seed)

    def label(self, state: Any, seat: int, action: str) -> str:
        return next((c.label for c in self.game.choices(state, seat) if c.action == action), "")

    def apply(self, seat: int, action: str) -> None:
        self.state = self.game.apply(self.state, seat, action).state
        self.settle()

    def settle(self) -> None:
        """Automatic steps, then the planned moves of every seat whose decision came."""
        for _ in range(5000):
            if self.game.is_over(self.state):
                return
            acting = self.game.to_act(self.state)
            forced = next((s for s in acting if len(self.game.legal_actions(self.state, s)) == 1), None)
            if forced is not None:
                self.state = self.game.apply(self.state, forced, self.game.legal_actions(self.state, forced)[0]).state
                continue
            due = next((s for s in acting if self.plans.get(s)), None)
            if due is None:
                return
            action, label = self.plans[due].pop(0)
            legal = self.game.legal_actions(self.state, due)
            if action not in legal or self.label(self.state, due, action) != label:
                self.plans[due] = []  # no longer fits: the whole queue is dropped
                return
            self.out.played += 1
            self.out.decisions += 1
            self.state = self.game.apply(self.state, due, action).state

    def plan(self, seat: int, count: int) -> None:
        """Plan `seat`'s next `count` decisions in a world it cannot tell from the real one."""
        world = resample(self.game.id, self.state, seat, Rng.from_seed(self.rand.randrange(1 << 30), "pace"))
        fast = draw(self.game.id)
        queue: list[tuple[str, str]] = []
        for _ in range(LOOKAHEAD):
            if self.game.is_over(world) or len(queue) >= count:
                break
            acting = self.game.to_act(world)
            s = seat if seat in acting else acting[0]
            legal = self.game.legal_actions(world, s)
            if s == seat and len(legal) > 1:
                action = self.choose(world, seat)
                queue.append((action, self.label(world, seat, action)))
            elif len(legal) == 1:
                action = legal[0]
            else:
                action = fast(world, s, self.rand) if fast else self.rand.choice(legal)
            world = self.game.apply(world, s, action).state
        self.plans[seat] = queue
        self.out.planned += len(queue)


def play(game_id: str, players: int, seed: int, plans: bool) -> tuple[Outcome, int]:
    """One game; (its outcome, the easy bot's decisions asked)."""
    game = engine.GAMES[game_id]
    rand = random.Random(seed)
    state = game.setup([f"p{i}" for i in range(players)], seed)
    table = Table(game, state, random.Random(seed * 7 + 1))
    table.settle()
    clock = [rand.expovariate(1 / MEAN_HOURS) for _ in range(players)]
    for _ in range(100_000):
        if game.is_over(table.state):
            break
        seat = min(range(players), key=clock.__getitem__)
        now = clock[seat]
        clock[seat] = now + rand.expovariate(1 / MEAN_HOURS)
        for _ in range(200):  # every decision they have now
            if game.is_over(table.state) or seat not in game.to_act(table.state):
                break
            table.plans[seat] = []  # a person at the table decides themself
            table.out.decisions += 1
            table.apply(seat, table.choose(table.state, seat))
        table.out.hours = now
        if plans and not game.is_over(table.state) and not table.plans.get(seat):
            table.plan(seat, rand.randint(1, 3))
    return table.out, table.calls


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.bench pace")
    parser.add_argument("game", choices=sorted(TYPICAL))
    parser.add_argument("--players", type=int, default=0)
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    players = args.players or TYPICAL[args.game]
    days: dict[bool, list[float]] = {False: [], True: []}
    planned = played = 0
    started = time.perf_counter()
    for i in range(args.games):
        for with_plans in (False, True):
            out, _ = play(args.game, players, args.seed + i, with_plans)
            days[with_plans].append(out.hours / 24)
            if with_plans:
                planned, played = planned + out.planned, played + out.played
    before, after = statistics.mean(days[False]), statistics.mean(days[True])
    print(f"{args.game}, {players} players, {args.games} games (seeds {args.seed}-{args.seed + args.games - 1}):")
    print(f"  days per game without plans: {before:.1f} ({', '.join(f'{d:.1f}' for d in days[False])})")
    print(f"  days per game with plans:    {after:.1f} ({', '.join(f'{d:.1f}' for d in days[True])})")
    print(f"  fewer days: {100 * (1 - after / before):.0f}% (goal: at least 30% in two games or more)")
    print(f"  planned moves played: {played} of {planned} ({100 * played / max(planned, 1):.0f}%)")
    print(f"  ({time.perf_counter() - started:.0f} s)")
    return 0
