"""Write example board images: `python -m renderers.examples [out_dir]` (default docs/images).

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
PREFERENCE = ("build", "progress yes", "compete", "develop", "military", "resources", "income", "done", "keep",
              "nile", "top", "resource", "bottom", "coins")


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
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
