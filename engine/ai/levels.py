"""The bot's levels: how many worlds it searches, how far, and by which rule, per game.

Counts, not seconds, so a decision is the same on a slow machine as on a fast
one. The counts are set from `python -m tests.bench ai` so that `normal` takes
about a second of one core per decision at the game's largest player count
(Rising Cultures steps are cheap, Mosaic's dear), `strong` a few seconds, and
`easy` a small fraction of a second.

`normal` and `strong` play their rollouts 20 steps deep, to 40 steps from the root:
issue 24 found longer rollouts worth more than the worlds they cost, so `normal`
searches two thirds of issue 14's worlds in about the same time (Cradle and Mosaic three
fifths, their long rollouts being dearest) and won two thirds or more of its games against
issue 14's bot in Rising Cultures and Rise of Empires
(engine/ai/README.md, "Fewer worlds, longer rollouts").

Cradle's and Mosaic's `normal` and `strong` choose by the "floored" rule, the rest by
"tree": at four players the seats' shares lie within hundredths, the tree's range spreads
the visits nearly evenly over every seat's moves, and Cradle's bot with it lost every one of
12 games against issue 14's; the siblings' range with a floor keeps issue 14's focus and the
long shot, and won 8 of 24 (engine/ai/README.md, "Cradle at four players"). Mosaic's 15-25
moves spread the tree rule's visits too: with it Mosaic's `normal` won 19 of 38 against issue
14's bot, with "floored" 37 of 60. Cradle's also play the secure child rather than the
most visited, so a long shot found late is still played (engine/ai/README.md, "The final
choice"); in the other games the two choose alike.
"""

from __future__ import annotations

from .search import Budget

LEVELS = ("easy", "normal", "strong")
DEFAULT = "normal"

BUDGETS: dict[str, dict[str, Budget]] = {
    "easy": {
        "rising-cultures": Budget(iterations=60, rollout=4, horizon=12),
        "rise-of-empires": Budget(iterations=40, rollout=4, horizon=12),
        "cradle": Budget(iterations=40, rollout=4, horizon=12),
        "mosaic": Budget(iterations=40, rollout=4, horizon=12),
    },
    "normal": {
        "rising-cultures": Budget(iterations=2000, rollout=20, horizon=40),
        "rise-of-empires": Budget(iterations=1000, rollout=20, horizon=40),
        "cradle": Budget(iterations=1200, rollout=20, horizon=40, rule="floored", final="secure"),
        "mosaic": Budget(iterations=600, rollout=20, horizon=40, rule="floored"),
    },
    "strong": {
        "rising-cultures": Budget(iterations=6000, rollout=20, horizon=40),
        "rise-of-empires": Budget(iterations=3000, rollout=20, horizon=40),
        "cradle": Budget(iterations=3600, rollout=20, horizon=40, rule="floored", final="secure"),
        "mosaic": Budget(iterations=1800, rollout=20, horizon=40, rule="floored"),
    },
}


def budget(level: str, game_id: str) -> Budget:
    """The budget of `level` for `game_id`, or ValueError naming the levels."""
    if level not in BUDGETS:
        raise ValueError(f"no bot level {level!r}; levels: {', '.join(LEVELS)}")
    try:
        return BUDGETS[level][game_id]
    except KeyError:
        raise KeyError(f"no bot for {game_id!r}; bots play: {', '.join(BUDGETS[level])}") from None
