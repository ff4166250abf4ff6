"""Tactical positions for the bots: one move clearly best by the rules, checked by an oracle.

A *tactic* is a position near a game's end, a seat to move and the move that wins:
the last-round scoring, a winning province, a decisive build, an overwhelming
attack. The oracle sees everything — every card and the generator — and solves the
rest of the game exactly: each seat, in turn, takes the action that gives it the
largest share of the win in the end (`solve`, perfect information, exhaustive).
Dice it cannot know in advance are handled by solving under several generators and
averaging (`values`). A position is kept when one move's value exceeds every
other's by `GAP` or more, in the true state and in hand-scrambled worlds the seat
cannot tell from it (tests/engine/ai/positions.py), so the move is best from what
the seat knows, not only from what the oracle sees.

`mine` finds such positions in seeded random games (the last few decisions of each);
`tests/engine/ai/data/tactics/<game>-<first seed>.json` keep those the suite plays,
with the oracle's values; `python -m tests.engine.ai.tactics <game> ...` writes them. Where a game keeps
victory points as a running count (Cradle, Rise of Empires, Mosaic), a position whose
outcome no longer depends on the move is made decisive by setting one rival's count
(`RIVAL_VP`) a point below what the best move gives the seat: a last-round scoring in
which that one move wins (the oracle then checks that every other move falls short).
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import engine
from engine.ai.value import win_shares
from engine.core import Rng
from tests.engine.ai.positions import scramble

DATA = Path(__file__).parent / "data" / "tactics"
#: One move's value (share of the win) must exceed every other move's by this much.
GAP = 0.3
#: Generators the oracle solves under (dice and draws it cannot know in advance).
GENERATORS = 8
#: Worlds the seat cannot tell from the position, in which the same move must be best.
WORLDS = 2
#: Positions solved per game at most, each with this many nodes at most.
NODES = 1500


class TooLarge(Exception):
    """The rest of the game has more than `NODES` positions."""


@dataclass
class Tactic:
    game_id: str
    state: str  #: the position (`game.dumps`)
    seat: int
    best: str  #: the move that wins
    values: dict[str, float]  #: the oracle's share of the win per move
    kind: str  #: what makes the move best, in words


def solve(game: Any, state: Any, budget: list[int]) -> list[float]:
    """Each seat's share of the win when everyone plays perfectly from `state` (all seen)."""
    budget[0] -= 1
    if budget[0] < 0:
        raise TooLarge
    if game.is_over(state):
        return win_shares(game.winners(state), len(game.scores(state)))
    seat = game.to_act(state)[0]
    best: list[float] | None = None
    for action in dict.fromkeys(game.legal_actions(state, seat)):
        child = game.clone(state)
        game.play(child, seat, action)
        v = solve(game, child, budget)
        if best is None or v[seat] > best[seat]:
            best = v
    assert best is not None
    return best


def values(game: Any, state: Any, seat: int, generators: int = GENERATORS) -> dict[str, float]:
    """The seat's share of the win after each of its moves, averaged over `generators` futures."""
    out: dict[str, float] = {}
    for action in dict.fromkeys(game.legal_actions(state, seat)):
        total = 0.0
        for g in range(generators):
            world = game.clone(state)
            world.rng = Rng.from_seed(g, "oracle")
            game.play(world, seat, action)
            total += solve(game, world, [NODES])[seat]
        out[action] = total / generators
    return out


def clear_best(vals: dict[str, float]) -> str | None:
    """The move whose value exceeds every other's by `GAP`, if there is one."""
    ranked = sorted(vals.items(), key=lambda kv: -kv[1])
    if len(ranked) < 2 or ranked[0][1] - ranked[1][1] < GAP:
        return None
    return ranked[0][0]


# ---------------------------------------------------------------- making a position decisive
def _cradle_vp(state: Any, seat: int) -> int:
    return int(state.vp[seat])


def _set_cradle_vp(state: Any, seat: int, vp: int) -> None:
    state.vp[seat] = vp


def _player_vp(state: Any, seat: int) -> int:
    return int(state.players[seat].vp)


def _set_player_vp(state: Any, seat: int, vp: int) -> None:
    state.players[seat].vp = vp


#: game id -> (read, write) a seat's running victory points
RIVAL_VP: dict[str, tuple[Callable[[Any, int], int], Callable[[Any, int, int], None]]] = {
    "cradle": (_cradle_vp, _set_cradle_vp),
    "rise-of-empires": (_player_vp, _set_player_vp),
    "mosaic": (_player_vp, _set_player_vp),
}


def final_scores(game: Any, state: Any, seat: int, action: str) -> list[float]:
    """The mean final scores after `action`, everyone playing on as the oracle would."""
    n = len(game.scores(state))
    sums = [0.0] * n
    for g in range(GENERATORS):
        world = game.clone(state)
        world.rng = Rng.from_seed(g, "oracle")
        game.play(world, seat, action)
        line = _perfect_line(game, world)
        for i, v in enumerate(game.scores(line)):
            sums[i] += v
    return [s / GENERATORS for s in sums]


def _perfect_line(game: Any, state: Any) -> Any:
    """The final state when every seat plays the oracle's move (ties: the first listed)."""
    while not game.is_over(state):
        seat = game.to_act(state)[0]
        best, chosen = -1.0, None
        for action in dict.fromkeys(game.legal_actions(state, seat)):
            child = game.clone(state)
            game.play(child, seat, action)
            v = solve(game, child, [NODES])[seat]
            if v > best:
                best, chosen = v, child
        state = chosen
    return state


def decisive(game: Any, state: Any, seat: int) -> Any | None:
    """The position with one rival's victory points set a point below what the seat's best-scoring
    move gives it, so that move wins the game (and a move scoring a point less at best ties);
    None when no move scores a point more than every other."""
    read, write = RIVAL_VP[game.id]
    moves = list(dict.fromkeys(game.legal_actions(state, seat)))
    finals = {a: final_scores(game, state, seat, a) for a in moves}
    mine = sorted(((f[seat], a) for a, f in finals.items()), reverse=True)
    if len(mine) < 2 or mine[0][0] - mine[1][0] < 1:
        return None
    top = mine[0][0]
    rival = max((r for r in range(len(game.scores(state))) if r != seat), key=lambda r: read(state, r))
    rival_final = max(f[rival] for f in finals.values())
    built = game.clone(state)  # the rival ends a point below the best move: the others tie it at best
    write(built, rival, read(state, rival) + math.ceil(top - 1 - rival_final))
    return built


# ---------------------------------------------------------------- finding positions
def endings(game_id: str, seed: int, last: int) -> Iterator[tuple[Any, int]]:
    """The last `last` positions of a seeded random game with a choice, with the seat to choose."""
    game = engine.get(game_id)
    rand = random.Random(seed)
    players = (game.min_players + game.max_players) // 2 if game_id != "cradle" else 4
    state = game.setup([f"p{i}" for i in range(players)], seed)
    line: list[tuple[Any, int]] = []
    while not game.is_over(state):
        seat = rand.choice(game.to_act(state))
        legal = game.legal_actions(state, seat)
        if len(set(legal)) > 1:
            line.append((state, seat))
        state = game.apply(state, seat, rand.choice(legal)).state
    yield from reversed(line[-last:])


def check(game: Any, state: Any, seat: int, rand: random.Random) -> tuple[str, dict[str, float]] | None:
    """(best move, oracle values) when one move is clearly best here and in scrambled worlds."""
    try:
        vals = values(game, state, seat)
        best = clear_best(vals)
        if best is None:
            return None
        for _ in range(WORLDS):
            world = scramble(game.id, state, seat, rand)
            if clear_best(values(game, world, seat)) != best:
                return None
    except TooLarge:
        return None
    return best, vals


def mine(game_id: str, wanted: int, seeds: range, last: int = 6) -> Iterator[Tactic]:
    """Up to `wanted` tactics from the endings of random games, one per game at most; no more
    than half of them a choice between two moves (often a yes or no at the very end)."""
    game = engine.get(game_id)
    rand = random.Random(0)
    found: list[Tactic] = []
    for seed in seeds:
        for state, seat in endings(game_id, seed, last):
            two = len(set(game.legal_actions(state, seat))) == 2
            if two and 2 * sum(len(t.values) == 2 for t in found) >= wanted:
                continue
            kind = "the last decisions: it wins"
            got = check(game, state, seat, rand)
            if got is None and game_id in RIVAL_VP:
                try:
                    built = decisive(game, state, seat)
                except TooLarge:
                    built = None
                if built is not None:
                    got = check(game, built, seat, rand)
                    state, kind = built, "the last-round scoring, a rival's VP set a point below the best move: it wins"
            if got is not None:
                best, vals = got
                found.append(Tactic(game_id, game.dumps(state), seat, best, vals, kind))
                yield found[-1]
                break
        if len(found) >= wanted:
            break


def load() -> list[Tactic]:
    """Every game's tactics, games in name order."""
    return [Tactic(**t) for path in sorted(DATA.glob("*.json")) for t in json.loads(path.read_text())]


def main(argv: list[str]) -> None:
    """`python -m tests.engine.ai.tactics <game> [wanted] [first seed] [seeds] [last]`: mine anew,
    writing each position as it is found."""
    game_id = argv[0]
    wanted, first, seeds, last = (int(x) for x in (argv[1:] + ["8", "1000", "400", "6"][len(argv) - 1 :]))
    DATA.mkdir(parents=True, exist_ok=True)
    found = []
    for tactic in mine(game_id, wanted, range(first, first + seeds), last):
        found.append(asdict(tactic))
        print(f"{game_id}: {tactic.best} ({tactic.values})", flush=True)
        (DATA / f"{game_id}-{first}.json").write_text(json.dumps(found, indent=1) + "\n")


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
