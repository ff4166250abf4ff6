"""Canonical action strings: how a player's text becomes one legal action.

Actions read like a player would say them (`play brewery build`, `swap 2`): lower
case, words separated by single spaces, names as slugs from the data files.
Law 1: `apply` accepts exactly the legal actions after canonicalising case and
spacing, nothing looser. Friendlier matching (prefixes, suggestions) belongs to
the service, which can offer it without bending the engine.
"""
from __future__ import annotations

import difflib
import re
from typing import Callable, Sequence

from .contract import IllegalAction

_SPACES = re.compile(r"\s+")
_NON_SLUG = re.compile(r"[^a-z0-9]+")


def canonical(text: str) -> str:
    """Lower case, trimmed, single spaces: the form legal actions are listed in."""
    return _SPACES.sub(" ", str(text)).strip().lower()


def slug(name: str) -> str:
    """`"Abbasid Caliphate"` -> `"abbasid-caliphate"`: a name fit for an action string."""
    return _NON_SLUG.sub("-", name.lower()).strip("-")


def suggestions(text: str, legal: Sequence[str], limit: int = 5) -> list[str]:
    """Legal actions closest to what was typed, best first (for 'did you mean')."""
    wanted = canonical(text)
    starts = [a for a in legal if a.startswith(wanted)] if wanted else []
    close = difflib.get_close_matches(wanted, list(legal), n=limit, cutoff=0.5)
    out: list[str] = []
    for a in starts + close:
        if a not in out:
            out.append(a)
    return out[:limit]


def describe_choices(legal: Sequence[str], limit: int = 12) -> str:
    """A short, readable list of legal actions for an error message."""
    if not legal:
        return "nothing"
    shown = ", ".join(f"`{a}`" for a in legal[:limit])
    more = len(legal) - limit
    return shown + (f" (and {more} more)" if more > 0 else "")


def match(text: str, legal: Sequence[str], *, known_verbs: Sequence[str] = (),
          why_not: Callable[[str], str | None] | None = None) -> str:
    """Return the legal action `text` names, or raise IllegalAction saying why.

    `known_verbs` are the first words of this game's actions; text starting
    with none of them is "unreadable" rather than "not legal now". `why_not`
    (given the canonical text) may name the rule that stands in the way; it is
    asked only for a readable action that is not legal now.
    """
    wanted = canonical(text)
    if wanted in legal:
        return wanted
    verb = wanted.split(" ", 1)[0] if wanted else ""
    if not wanted or (known_verbs and verb not in known_verbs):
        raise IllegalAction(
            f"`{text.strip()[:60]}` is not an action of this game. Legal now: {describe_choices(legal)}",
            kind="unreadable", legal=legal)
    near = suggestions(wanted, legal)
    hint = f" Did you mean {describe_choices(near)}?" if near else ""
    reason = why_not(wanted) if why_not else None
    because = f" {reason}" if reason else ""
    raise IllegalAction(
        f"`{wanted[:60]}` is not legal now.{because}{hint} Legal now: {describe_choices(legal)}",
        kind="not-legal", legal=legal)
