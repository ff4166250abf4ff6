"""Did an action reveal anything hidden or random? (decides whether undo is free)

Issue 3 §2: a player may take back their own last action alone only "when
nothing hidden or random was revealed since". The service cannot know each
game's secrets, so it decides from what the contract offers, in this order:

1. A game may answer itself: `game.reveals(before, after, seat) -> bool`
   (optional; exact where a game knows better).
2. Randomness: any `engine.core.Rng` inside the state advanced (a die rolled,
   a deck shuffled, a random pick) -> revealed.
3. Hidden facts, by names (string values and keys of views) that appear in a
   viewer's new view and were stored in the old state (`dumps(before)`) but not
   in that viewer's old view:
   - hidden from everyone before (in no view of the old state at all: a card
     drawn from a face-down deck, a tile flipped) -> revealed;
   - seen now by the acting seat though it was hidden from them before (a card
     taken from another's hand) -> revealed.
   Showing one's own secret (playing a card from one's hand) does not count:
   taking it back gives nobody an advantage. Player names never count, and
   names the action itself creates (a new phase's label) were nowhere in the
   old state.

The test is conservative for names and silent on hidden numbers that change
without any Rng (a game with such secrets should define `reveals`). Decisions
recorded in bot/DECISIONS.md.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from typing import Any

from engine.core import Game, Rng


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


def reveals(game: Game, before: Any, after: Any, seat: int, players: list[str]) -> bool:
    """True when the step from `before` to `after` (by `seat`) revealed something."""
    own = getattr(game, "reveals", None)
    if callable(own):
        return bool(own(before, after, seat))
    if list(_rngs(before)) != list(_rngs(after)):
        return True
    stored = game.dumps(before)
    viewers: list[int | None] = [None, *range(len(players))]
    old_views = {v: _names(game.view(before, v), set()) for v in viewers}
    seen_by_someone = set().union(*old_views.values())
    ignore = set(players)
    for viewer in viewers:
        new = _names(game.view(after, viewer), set()) - old_views[viewer] - ignore
        for name in new:
            if len(name) < 2 or json.dumps(name, ensure_ascii=False) not in stored:
                continue
            if name not in seen_by_someone or viewer == seat:
                return True
    return False
