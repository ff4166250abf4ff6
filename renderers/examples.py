"""Write example board images: `python -m renderers.examples [out_dir]` (default docs/images).

Rising Cultures gets an early and a late board and a private hand (below);
every other registered game gets one mid-game board from seeded random play.

The states come from a seeded Rising Cultures game in which each seat plays a
simple greedy policy (construct when it can, move up when offered, compete for
provinces), so that the examples show a board with something on it. Same seed,
same images.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import engine
import renderers

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
    game = engine.get(GAME)
    rng = random.Random(seed)
    state = game.setup(["Alice", "Bob"], seed, {"civs": list(civs)})
    events: list[str] = []
    while True:
        yield state, events
        if game.is_over(state):
            return
        seat = rng.choice(game.to_act(state))
        step = game.apply(state, seat, choose(game.legal_actions(state, seat), rng))
        state, events = step.state, list(step.events)


def pick(seed: int = 7):
    """(early, late) states: a construction in round 2 and in round 6."""
    early = late = None
    for state, events in states(seed):
        built = any("constructs" in e or "places" in e and "leader" in e for e in events)
        if early is None and state.round == 2 and state.phase == "play" and built:
            early = (state, events)
        if state.round == 6 and state.phase == "play" and built:
            late = (state, events)
        if state.round > 6:
            break
    return early, late


def main(argv: list[str]) -> int:
    out = Path(argv[0] if argv else "docs/images")
    out.mkdir(parents=True, exist_ok=True)
    game = engine.get(GAME)
    early, late = pick()
    for label, (state, events) in (("early", early), ("late", late)):
        view = game.view(state, None)
        view["last_move"] = events
        img = renderers.render(GAME, view)
        (out / f"rising-cultures-{label}.png").write_bytes(img.png)
        (out / f"rising-cultures-{label}.txt").write_text(img.alt + "\n")
        print(out / f"rising-cultures-{label}.png", img)
    state, events = late
    seat = game.to_act(state)[0]
    view = game.view(state, seat)
    view["last_move"] = events
    img = renderers.render(GAME, view, seat=seat)
    (out / "rising-cultures-hand.png").write_bytes(img.png)
    (out / "rising-cultures-hand.txt").write_text(img.alt + "\n")
    print(out / "rising-cultures-hand.png", img)
    for game_id, players in MID_GAME.items():
        if game_id in engine.GAMES:
            write_mid_game(out, game_id, players)
    return 0


#: Other games shown in the README, with the player count of their example.
MID_GAME = {"rise-of-empires": 4, "cradle": 5, "mosaic": 4}


def write_mid_game(out: Path, game_id: str, players: int, seed: int = 3) -> None:
    """A board from halfway through a seeded random game (same seed, same image)."""
    game = engine.get(game_id)
    names = ["Alice", "Bob", "Chloe", "Dara", "Emre", "Femi"][:players]
    rng = random.Random(seed)
    history = []
    state = game.setup(names, seed)
    while not game.is_over(state):
        seat = rng.choice(game.to_act(state))
        step = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
        history.append((state, step.events))
        state = step.state
    half = len(history) // 2
    state, events = history[half + 1][0], history[half][1]  # the board just after move `half`
    view = game.view(state, None)
    view["last_move"] = events
    img = renderers.render(game_id, view)
    (out / f"{game_id}-mid.png").write_bytes(img.png)
    (out / f"{game_id}-mid.txt").write_text(img.alt + "\n")
    print(out / f"{game_id}-mid.png", img)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
