"""Did an action reveal anything hidden or random? (decides whether undo is free)

Issue 3 §2: a player may take back their own last action alone only "when
nothing hidden or random was revealed since". The service cannot know each
game's secrets, so it decides from what the contract offers, in this order:

1. A game may answer itself: `game.reveals(before, after, seat) -> bool`
   (optional; exact where a game knows better).
2. Randomness: any `engine.core.Rng` inside the state advanced (a die rolled,
   a deck shuffled, a random pick) -> revealed.
3. Hidden facts: for every viewer (the public and each seat), a name (a string
   value or key) now visible in `view(after, viewer)` that was not visible in
   `view(before, viewer)`, but was already stored somewhere in the state before
   (`dumps(before)`): it was hidden from that viewer and is not any more (a card
   drawn, a tile flipped). Names created by the action itself (a new phase's
   label, a computed summary) were nowhere in the old state and do not count.

The test is conservative for names and silent on hidden numbers that change
without any Rng (a game with such secrets should define `reveals`). Decisions
recorded in bot/README-service.md.
"""
from __future__ import annotations

import dataclasses
import json
from typing import Any, Iterator

from engine.core import Rng


def _rngs(obj: Any, depth: int = 0) -> Iterator[int]:
    if depth > 12:
        return
    if isinstance(obj, Rng):
        yield obj.state
    elif dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        for f in dataclasses.fields(obj):
            yield from _rngs(getattr(obj, f.name), depth + 1)
    elif isinstance(obj, dict):
        for v in obj.values():
            yield from _rngs(v, depth + 1)
    elif isinstance(obj, (list, tuple)):
        for v in obj:
            if isinstance(v, (str, int, float, bool)) or v is None:
                break  # a list of plain values holds no generator
            yield from _rngs(v, depth + 1)


def _names(obj: Any, out: set[str]) -> set[str]:
    if isinstance(obj, str):
        out.add(obj)
    elif isinstance(obj, dict):
        for k, v in obj.items():
            out.add(str(k))
            _names(v, out)
    elif isinstance(obj, (list, tuple)):
        for v in obj:
            _names(v, out)
    return out


def reveals(game: Any, before: Any, after: Any, seat: int, players: int) -> bool:
    """True when the step from `before` to `after` (by `seat`) revealed something."""
    own = getattr(game, "reveals", None)
    if callable(own):
        return bool(own(before, after, seat))
    if list(_rngs(before)) != list(_rngs(after)):
        return True
    stored = game.dumps(before)
    for viewer in [None, *range(players)]:
        old = _names(game.view(before, viewer), set())
        new = _names(game.view(after, viewer), set())
        for name in new - old:
            if len(name) > 1 and json.dumps(name) in stored:
                return True
    return False
