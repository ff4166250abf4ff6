"""Autocomplete: the caller's legal actions that fit what they typed, best first.

Discord shows at most 25 choices. Matches are ordered by how well they fit
(exact, then prefix, then each typed word starting a word of the action in order,
then a plain substring, then all words anywhere, then the letters in order),
and within a kind by the service's own order, which is the game's natural one.
"""

from __future__ import annotations

from collections.abc import Sequence

MAX_CHOICES = 25


def _norm(text: str) -> str:
    return " ".join(text.lower().split())


def _words_in_order(typed: list[str], words: list[str]) -> bool:
    i = 0
    for word in words:
        if i < len(typed) and word.startswith(typed[i]):
            i += 1
    return i == len(typed)


def _subsequence(typed: str, text: str) -> bool:
    it = iter(text)
    return all(ch in it for ch in typed if ch != " ")


def fit(action: str, typed: str) -> int | None:
    """How well `action` fits `typed` (0 best), or None when it does not fit at all."""
    a, t = _norm(action), _norm(typed)
    if not t:
        return 5
    if a == t:
        return 0
    if a.startswith(t):
        return 1
    typed_words = t.split()
    if _words_in_order(typed_words, a.split()):
        return 2
    if t in a:
        return 3
    if all(w in a for w in typed_words):
        return 4
    if _subsequence(t, a):
        return 6
    return None


def rank(actions: Sequence[str], typed: str, limit: int = MAX_CHOICES) -> list[str]:
    scored = [(score, i, a) for i, a in enumerate(actions) if (score := fit(a, typed)) is not None]
    scored.sort()
    return [a for _, _, a in scored[:limit]]
