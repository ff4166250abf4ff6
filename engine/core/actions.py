"""Canonical action strings: how a player's text becomes one legal action.

Actions read like a player would say them (`play brewery build`, `swap 2`): lower
case, words separated by single spaces, names as slugs from the data files.
Law 1: `apply` accepts exactly the legal actions after canonicalising case and
spacing, and a name may be typed as players read it: `play julius caesar build`
is `play julius-caesar build`, `place South Zagros` is `place south-zagros`
(`resolve`: the text and the action read the same once both are slugs). Nothing
looser: prefixes and suggestions belong to the service, which can offer them
without bending the engine.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Collection, Iterable, Sequence

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


def resolve(text: str, legal: Sequence[str]) -> str | None:
    """The legal action `text` names, or None (none, or several: see `match`).

    Exactly as listed after canonical(), or with its names typed as printed:
    `julius caesar` or `Julius-Caesar` for the slug `julius-caesar`,
    `al-mu'tasim` for `al-mu-tasim`.
    """
    named = _named(canonical(text), legal)
    return named[0] if len(named) == 1 else None


def _named(wanted: str, legal: Sequence[str]) -> list[str]:
    if wanted in legal:
        return [wanted]
    key = slug(wanted)
    return [a for a in legal if slug(a) == key] if key else []


#: The most words a name runs to ("temple of the feathered serpent" and longer are rare).
_LONGEST_NAME = 6


def readable(text: str, names: Collection[str]) -> str:
    """`text` (canonical) with the names in it written as slugs, where a run of words is one.

    `play julius caesar build` -> `play julius-caesar build` when `julius-caesar`
    is among `names`, so a game's reason for refusing it (`why_not`) reads the
    card it names. The longest run wins; words that name nothing stay as they are.
    """
    words = text.split(" ")
    out: list[str] = []
    i = 0
    while i < len(words):
        for j in range(min(len(words), i + _LONGEST_NAME), i, -1):
            name = slug(" ".join(words[i:j]))
            if name in names:
                out.append(name)
                i = j
                break
        else:
            out.append(words[i])
            i += 1
    return " ".join(out)


def _words_of(legal: Iterable[str]) -> set[str]:
    """Every word of the legal actions: the names a refusal can recognise without help."""
    return {w for a in legal for w in a.split(" ")}


def match(
    text: str,
    legal: Sequence[str],
    *,
    known_verbs: Sequence[str] = (),
    why_not: Callable[[str], str | None] | None = None,
    names: Collection[str] = (),
) -> str:
    """Return the legal action `text` names, or raise IllegalAction saying why.

    `known_verbs` are the first words of this game's actions; text starting
    with none of them is "unreadable" rather than "not legal now". Text whose
    names fit several legal actions is "ambiguous". `why_not` (given the
    canonical text, its names written as slugs) may name the rule that stands
    in the way; it is asked only for a readable action that is not legal now.
    `names` are slugs the game's actions may name besides those in `legal`
    (cards not in hand, areas out of reach), so such a name typed with spaces
    still reaches `why_not` as the slug.
    """
    wanted = canonical(text)
    if wanted in legal:
        return wanted
    named = _named(wanted, legal)
    if len(named) == 1:
        return named[0]
    if named:
        raise IllegalAction(
            f"`{wanted[:60]}` could be {describe_choices(named)}: type the one you mean as it is listed.",
            kind="ambiguous",
            legal=legal,
        )
    verb = wanted.split(" ", 1)[0] if wanted else ""
    if not wanted or (known_verbs and verb not in known_verbs):
        raise IllegalAction(
            f"`{text.strip()[:60]}` is not an action of this game. Legal now: {describe_choices(legal)}",
            kind="unreadable",
            legal=legal,
        )
    slugged = readable(wanted, _words_of(legal).union(names))
    near = suggestions(slugged, legal)
    hint = f" Did you mean {describe_choices(near)}?" if near else ""
    reason = why_not(slugged) if why_not else None
    because = f" {reason}" if reason else ""
    raise IllegalAction(
        f"`{wanted[:60]}` is not legal now.{because}{hint} Legal now: {describe_choices(legal)}",
        kind="not-legal",
        legal=legal,
    )
