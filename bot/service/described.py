"""What a game says about a decision, read in one place (issue 25 §1, §2).

The engine contract gains `choices(state, seat)` (each legal action described:
`engine.core.Choice`), `prompt(state, seat)` (one plain sentence for the acting seat),
`rule(state, seat)` (the rulebook section behind the decision) and
`needs_private_view(state, seat)` (`BaseGame` says False). The service reads them
here and nowhere else. Until every game has them, a game without them gets the plain
fallback below: the action text as its label, one group, the prompt its public view
shows. A description that does not list exactly the legal actions is not shown (a
front end must never offer what the game refuses): the fallback stands in and the
mismatch is logged.

Pure: no storage, no asyncio.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from engine.core import Choice, Game

from .core import shown

log = logging.getLogger(__name__)

#: The fallback for games that do not describe their choices: one group of this name.
FALLBACK_GROUP = "Choose"
#: The fallback prompt when the game has none and its public view names none either.
FALLBACK_PROMPT = "Choose your action."


def choices(game: Game, state: Any, seat: int, legal: list[str] | None = None) -> list[Choice]:
    """The seat's legal actions, each described (`legal`: the seat's legal actions, when
    the caller has them already)."""
    legal = game.legal_actions(state, seat) if legal is None else legal
    describe = getattr(game, "choices", None)
    if describe is not None:
        described = list(describe(state, seat))
        if [c.action for c in described] == legal:
            return described
        log.error("%s: choices() does not list the legal actions of seat %s; shown undescribed", game.id, seat)
    # the fallback for games that do not describe their choices: the action text is the label
    return [Choice(action, FALLBACK_GROUP, action) for action in legal]


def prompt(game: Game, state: Any, seat: int, public: Callable[[Any], dict[str, Any]] | None = None) -> str:
    """One sentence saying what the seat decides now (`public(state)`: the public view, when
    the caller keeps it)."""
    ask = getattr(game, "prompt", None)
    if ask is not None:
        return str(ask(state, seat))
    # the fallback for games that do not describe their choices: the prompt of the public view
    said = (public(state) if public is not None else game.view(state, None)).get("prompt")
    return said if isinstance(said, str) and said else FALLBACK_PROMPT


def rule(game: Game, state: Any, seat: int) -> str:
    """The rulebook section(s) behind the decision ("6.0", "5.4"), or ""."""
    section = getattr(game, "rule", None)
    return str(section(state, seat)) if section is not None else ""


def needs_private_view(game: Game, state: Any, seat: int) -> bool:
    """Does the decision depend on what only the seat sees (a hand, a drawn card)?"""
    needs = getattr(game, "needs_private_view", None)
    return bool(needs(state, seat)) if needs is not None else False


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
