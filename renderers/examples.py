"""Write example board images: `python -m renderers.examples [out_dir]` (default docs/images).

Rising Cultures gets an early and a late board and a private hand (below);
every other registered game gets one mid-game board from seeded random play.
Each board is two images, as the bot sends them (issue 26): the map, with the
places of the move just played framed (its choice's `refers`, as the service
highlights them), and the tables.

The states come from a seeded Rising Cultures game in which each seat plays a
simple greedy policy (construct when it can, move up when offered, compete for
provinces), so that the examples show a board with something on it. Same seed,
same images.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Sequence
from pathlib import Path

import engine
import renderers
from engine.core import refers_of

GAME = "rising-cultures"
PREFERENCE = (
    "build",
    "progress yes",
    "compete",
    "develop",
    "military",
    "resources",
    "income",
    "done",
    "keep",
    "nile",
    "top",
    "resource",
    "bottom",
    "coins",
)


def choose(actions: list[str], rng: random.Random) -> str:
    for word in PREFERENCE:
        hits = [a for a in actions if word in a]
        if hits:
            return rng.choice(hits)
    return rng.choice(actions)


def states(seed: int = 7, civs=("egypt", "rome")):
    """(state, events of the move that led to it, that move's places), move by move."""
    game = engine.get(GAME)
    rng = random.Random(seed)
    state = game.setup(["Alice", "Bob"], seed, {"civs": list(civs)})
    events: list[str] = []
    places: tuple[str, ...] = ()
    while True:
        yield state, events, places
        if game.is_over(state):
            return
        seat = rng.choice(game.to_act(state))
        action = choose(game.legal_actions(state, seat), rng)
        places = refers_of(game, state, seat, action)
        step = game.apply(state, seat, action)
        state, events = step.state, list(step.events)


def pick(seed: int = 7):
    """(early, late) states: a construction in round 2 and in round 6."""
    early = late = None
    for state, events, places in states(seed):
        built = any("constructs" in e or "places" in e and "leader" in e for e in events)
        if early is None and state.round == 2 and state.phase == "play" and built:
            early = (state, events, places)
        if state.round == 6 and state.phase == "play" and built:
            late = (state, events, places)
        if state.round > 6:
            break
    return early, late


def write(out: Path, name: str, game_id: str, view: dict, seat: int | None, part: str, places=()) -> None:
    img = renderers.render(game_id, view, seat, part, places)
    (out / f"{name}.png").write_bytes(img.png)
    (out / f"{name}.txt").write_text(img.alt + "\n")
    print(out / f"{name}.png", img)


def write_board(out: Path, name: str, game_id: str, view: dict, places: Sequence[str]) -> None:
    """The two public images of a position: `<name>-map.png` and `<name>-tables.png`."""
    write(out, f"{name}-map", game_id, view, None, "map", places)
    write(out, f"{name}-tables", game_id, view, None, "tables")


def main(argv: list[str]) -> int:
    out = Path(argv[0] if argv else "docs/images")
    out.mkdir(parents=True, exist_ok=True)
    game = engine.get(GAME)
    early, late = pick()
    for label, (state, events, places) in (("early", early), ("late", late)):
        view = game.view(state, None)
        view["last_move"] = events
        write_board(out, f"rising-cultures-{label}", GAME, view, places)
    state, events, _ = late
    seat = game.to_act(state)[0]
    view = game.view(state, seat)
    view["last_move"] = events
    write(out, "rising-cultures-hand", GAME, view, seat, "private")
    for game_id, players in MID_GAME.items():
        if game_id in engine.GAMES:
            write_mid_game(out, game_id, players)
    return 0


#: Other games shown in the README, with the player count of their example.
MID_GAME = {"rise-of-empires": 4, "cradle": 5, "mosaic": 4}


def write_mid_game(out: Path, game_id: str, players: int, seed: int = 3) -> None:
    """A board from halfway through a seeded random game (same seed, same images)."""
    game = engine.get(game_id)
    names = ["Alice", "Bob", "Chloe", "Dara", "Emre", "Femi"][:players]
    rng = random.Random(seed)
    history = []
    state = game.setup(names, seed)
    while not game.is_over(state):
        seat = rng.choice(game.to_act(state))
        action = rng.choice(game.legal_actions(state, seat))
        places = refers_of(game, state, seat, action)
        step = game.apply(state, seat, action)
        history.append((state, step.events, places))
        state = step.state
    half = len(history) // 2
    state, events, places = history[half + 1][0], history[half][1], history[half][2]  # just after move `half`
    view = game.view(state, None)
    view["last_move"] = events
    write_board(out, f"{game_id}-mid", game_id, view, places)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
