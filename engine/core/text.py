"""Small pieces of English the engines' messages share (log lines and refusals read as spoken)."""

from __future__ import annotations

from collections.abc import Sequence


def listing(items: Sequence[str], conjunction: str = "and") -> str:
    """`a`, `a and b`, `a, b and c` (or with `or`)."""
    items = [str(i) for i in items]
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {conjunction} {items[-1]}"


def plural(word: str) -> str:
    """`coin` -> `coins`, `Army` -> `Armies`, `swap` -> `swaps` (regular nouns)."""
    if word.endswith("y") and word[-2:-1] not in ("a", "e", "o", "u"):
        return word[:-1] + "ies"
    return word + "s"


def count(n: int, word: str) -> str:
    """`count(1, "coin")` -> "1 coin", `count(2, "coin")` -> "2 coins", `count(0, "Army")` -> "0 Armies"."""
    return f"{n} {word}" if n == 1 else f"{n} {plural(word)}"


def possessive(name: str) -> str:
    """`ann's`, `Thomas'`: whose card, area or turn, for a message that names a player."""
    return f"{name}'" if name.endswith("s") else f"{name}'s"
