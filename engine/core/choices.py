"""A legal action described for a person (issue 25): what a front end shows instead of a code.

`legal_actions` stays the machine's list (logs, exports, replays, typed commands);
`choices(state, seat)` gives the same actions, in the same order, each with the words a
player chooses by: the kind of decision (`group`), the thing chosen by its printed name
(`label`), what it costs and gives (`detail`) and the board places it concerns (`refers`).
The sizes are Discord's (a select option's label 100, description 100; a menu's
placeholder 150), kept smaller where a phone shows less.

A game builds its choices with `Choice(...)` (defined with the contract, in contract.py)
and may use `details` to keep a detail within its size (marking with `essential` the parts
that decide the choice, which are never dropped); `problems` is what the tests and
the conformance check ask of every list.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from .actions import slug
from .contract import Choice, Game

#: The longest group, label and detail a choice may have (characters).
GROUP_MAX, LABEL_MAX, DETAIL_MAX = 45, 80, 100


def clip(text: str, limit: int = DETAIL_MAX) -> str:
    """`text` within `limit` characters, cut at a word with an ellipsis when longer."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    if " " in cut[limit // 2 :]:
        cut = cut[: cut.rindex(" ")]
    return cut.rstrip(" ,;·:—-") + "…"


class Essential(str):
    """A part of a detail that decides the choice (its cost and gain, the totals, what is covered
    or lost): `details` always keeps it (issue 49). Made with `essential(...)`."""


def essential(part: str) -> str:
    """`part` marked as deciding the choice, so `details` never drops it: `details(essential("4 gold"),
    "+2 food a turn")` loses the effect, never the cost, when the two do not fit."""
    return Essential(part)


def details(*parts: str) -> str:
    """The non-empty parts joined with a middle dot within the detail's size, in their order
    (`details("4 gold", "", "2 VP")` -> "4 gold · 2 VP").

    What decides the choice stays, what is merely nice goes (issue 49): parts marked with
    `essential` are always kept; the others are added, most important (first) first, while the
    whole fits, and a part that would overflow is left out whole, never cut in the middle (a cut
    sum would mislead). A game keeps its essential parts short: only when they alone overflow are
    they cut at a word, with an ellipsis. Without essential parts, a first part longer than the
    whole size is cut and kept."""
    shown = [p for p in parts if p]
    whole = " · ".join(shown)
    if len(whole) <= DETAIL_MAX:  # the usual case: everything fits
        return whole
    if not any(isinstance(p, Essential) for p in shown) and len(shown[0]) > DETAIL_MAX:
        shown[0] = Essential(clip(shown[0]))
    kept = [isinstance(p, Essential) for p in shown]

    def joined() -> str:
        return " · ".join(p for p, k in zip(shown, kept, strict=True) if k)

    if len(joined()) > DETAIL_MAX:
        return clip(joined())
    for i, is_kept in enumerate(kept):
        if not is_kept:
            kept[i] = True
            kept[i] = len(joined()) <= DETAIL_MAX
    return joined()


def refers_of(game: Game, state: Any, seat: int, action: str) -> tuple[str, ...]:
    """The board places `action` concerns, as its described choice names them (what a front
    end frames on the map after it, issue 26); () for an action its choices do not list.
    Ask before the action is applied."""
    return next((c.refers for c in game.choices(state, seat) if c.action == action), ())


def grouped(choices: Iterable[Choice]) -> list[tuple[str, list[Choice]]]:
    """The choices by group, groups in the order they first appear (a menu per group)."""
    groups: dict[str, list[Choice]] = {}
    for c in choices:
        groups.setdefault(c.group, []).append(c)
    return list(groups.items())


def problems(actions: Sequence[str], choices: Sequence[Choice]) -> list[str]:
    """What is wrong with `choices` as the description of `actions` ([] when nothing):
    the same actions in the same order, labels unique, sizes kept, a label that is more
    than the action's slug."""
    out: list[str] = []
    if [c.action for c in choices] != list(actions):
        out.append(f"choices do not list the legal actions in their order: {[c.action for c in choices]} != {actions}")
    labels = [c.label for c in choices]
    if len(set(labels)) != len(labels):
        twice = sorted({label for label in labels if labels.count(label) > 1})
        out.append(f"labels appear twice: {twice}")
    for c in choices:
        if not 0 < len(c.group) <= GROUP_MAX:
            out.append(f"{c.action!r}: group {c.group!r} is not 1-{GROUP_MAX} characters")
        if not 0 < len(c.label) <= LABEL_MAX:
            out.append(f"{c.action!r}: label {c.label!r} is not 1-{LABEL_MAX} characters")
        if len(c.detail) > DETAIL_MAX:
            out.append(f"{c.action!r}: detail {c.detail!r} is over {DETAIL_MAX} characters")
        if len(c.action.split()) > 1 and slug(c.label) == slug(c.action):
            out.append(f"{c.action!r}: the label {c.label!r} only repeats the action")
        if "\n" in c.label or "\n" in c.detail:
            out.append(f"{c.action!r}: a label or detail spans lines")
    return out
