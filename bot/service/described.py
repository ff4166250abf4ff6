"""What a game says about a decision, read in one place (issue 25 §1, §2).

The engine contract has `choices(state, seat)` (each legal action described:
`engine.core.Choice`), `prompt(state, seat)` (one plain sentence for the acting seat),
`rule(state, seat)` (the rulebook section behind the decision) and
`needs_private_view(state, seat)`. The service reads them here and nowhere else. A
description that does not list exactly the legal actions is not shown (a front end
must never offer what the game refuses): the plain actions stand in, one group, and
the game's mistake is logged.

Pure: no storage, no asyncio.
"""

from __future__ import annotations

import logging
from typing import Any

from engine.core import Choice, Game

from .core import shown

log = logging.getLogger(__name__)

#: The one group of the plain actions shown when a game's description is wrong.
FALLBACK_GROUP = "Choose"


def choices(game: Game, state: Any, seat: int, legal: list[str] | None = None) -> list[Choice]:
    """The seat's legal actions, each described (`legal`: the seat's legal actions, when
    the caller has them already)."""
    legal = game.legal_actions(state, seat) if legal is None else legal
    described = list(game.choices(state, seat))
    if [c.action for c in described] == legal:
        return described
    log.error("%s: choices() does not list the legal actions of seat %s; shown undescribed", game.id, seat)
    return [Choice(action, FALLBACK_GROUP, action) for action in legal]


def prompt(game: Game, state: Any, seat: int) -> str:
    """One sentence saying what the seat decides now."""
    return str(game.prompt(state, seat))


def rule(game: Game, state: Any, seat: int) -> str:
    """The rulebook section(s) behind the decision ("6.0", "5.4"), or ""."""
    return str(game.rule(state, seat))


def needs_private_view(game: Game, state: Any, seat: int) -> bool:
    """Does the decision depend on what only the seat sees (a hand, a drawn card)?"""
    return bool(game.needs_private_view(state, seat))


def breakdown(game: Game, state: Any) -> list[list[tuple[str, int]]] | None:
    """How each seat's score was made, in the rulebook's scoring categories: per seat a list of
    (category, points) adding up to its score; None for a game that does not say (optional:
    `score_breakdown(state)`, beyond the contract)."""
    told = getattr(game, "score_breakdown", None)
    if told is None:
        return None
    parts = told(state)
    scores = game.scores(state)
    if len(parts) != len(scores) or any(
        sum(p for _, p in seat) != score for seat, score in zip(parts, scores, strict=True)
    ):
        log.error("%s: score_breakdown() does not add up to the scores; left out", game.id)
        return None
    return [[(str(label), int(points)) for label, points in seat] for seat in parts]


def public_label(game: Game, state: Any, seat: int, action: str) -> str:
    """What `action`, chosen by `seat` in `state`, was, as every seat may read it.

    The choice's label where the decision did not depend on what only the seat sees
    (then its labels are built from public facts alone) and the action hides nothing
    (`public_action`); otherwise the action text in public form."""
    public = shown(game, action)
    if public != action or needs_private_view(game, state, seat):
        return public
    for choice in choices(game, state, seat):
        if choice.action == action:
            return choice.label
    return public
