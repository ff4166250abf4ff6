"""Plain-text pictures of views and logs, for text-only boards and the terminal.

Views are JSON-safe dicts (the engine contract); when no renderer draws a game,
or as the text beside an image, they are written out as short indented lines.
Discord caps a message at 2,000 characters, so everything here is bounded.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

LIMIT = 1800

_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


#: An `@` not yet followed by a zero-width space (so neutralising twice changes nothing).
_AT = re.compile("@(?!\u200b)")


def neutral(text: str) -> str:
    """`text` that can neither ping nor break out of code formatting in a reply.

    `@` gets a zero-width space (no `@everyone`), `<` becomes `‹` (no `<@id>`
    or `<@&role>`), a backtick becomes `'`: user text quoted inside `...` stays
    inside it, even if a reply were ever sent with broader `allowed_mentions`.
    Canonical actions never hold these characters, so a typed action still matches.
    """
    return _AT.sub("@\u200b", str(text)).replace("<", "\u2039").replace("`", "'")


def quote(text: str, limit: int = 40) -> str:
    """User text shown back in a reply: neutralised, on one line, cut to `limit`, in code formatting."""
    flat = " ".join(neutral(text).split())
    if len(flat) > limit:
        flat = flat[: limit - 1] + "…"
    return f"`{flat}`"


#: What a terminal would act on rather than show: ANSI escape sequences (CSI, OSC and the
#: two-character ones), C0 and C1 control characters and DEL, and the bidi embeddings,
#: overrides and isolates that turn the text after them around. Newlines and tabs stay.
_ESCAPE = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]"  # CSI: colours, cursor moves, erasing
    r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?"  # OSC: window titles, hyperlinks
    r"|\x1b[@-_]"  # the other two-character escapes
    "|[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]"
)
#: Where Discord's markdown would act on user text, and what makes each inert without a
#: visible change: a zero-width space splits a masked link's `](`, an auto-link's `://`, a
#: spoiler's `||`, underline or strike marks (`__`, `~~`), and goes before a heading's `#`
#: or a quote's `>` (wherever they are: a name may begin a line); an asterisk becomes the
#: look-alike `∗` (no bold or italic, and the service's own `**...**` around a name holds).
_MARKDOWN = re.compile(r"(?<=\])(?=\()|(?<=:)(?=//)|(?<=\|)(?=\|)|(?<=_)(?=_)|(?<=~)(?=~)|(?<!\u200b)(?=[#>])")


def printable(text: str) -> str:
    """`text` with nothing a terminal would act on: escape sequences and control characters
    removed (newlines kept), so a name or note can neither colour, move nor hide what follows."""
    return _ESCAPE.sub("", str(text))


def user_text(text: str, limit: int) -> str:
    """Text a person wrote (a display name, an away note), made safe once, where it enters the
    service (bot/DECISIONS.md, "User text"): broken characters (lone surrogates) replaced,
    escape sequences and control characters (NUL among them: PostgreSQL refuses it) removed,
    on one line, cut to `limit`; then inert in every reply: no mention, no code, and none of
    Discord's markdown (links, headings, spoilers, emphasis), by zero-width spaces and
    look-alikes, so the terminal and the web show it as typed."""
    flat = " ".join(printable(_LONE_SURROGATE.sub("\ufffd", str(text))).replace("\n", " ").split())[:limit]
    return _MARKDOWN.sub("\u200b", neutral(flat)).replace("*", "\u2217")


def unreadable(text: str) -> bool:
    """Text holding lone surrogates (not valid Unicode; nothing can store or send it)."""
    return bool(_LONE_SURROGATE.search(text))


def _scalar(value: Any) -> bool:
    return value is None or isinstance(value, (str, int, float, bool))


def _fmt(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def view_lines(view: Any, indent: int = 0, depth: int = 0) -> list[str]:
    """The view as `key: value` lines; lists of plain values on one line."""
    pad = "  " * indent
    lines: list[str] = []
    if isinstance(view, dict):
        for key, value in view.items():
            if _scalar(value):
                lines.append(f"{pad}{key}: {_fmt(value)}")
            elif isinstance(value, (list, tuple)) and all(_scalar(v) for v in value):
                lines.append(f"{pad}{key}: {', '.join(_fmt(v) for v in value) if value else '-'}")
            elif depth >= 5:
                lines.append(f"{pad}{key}: ...")
            else:
                lines.append(f"{pad}{key}:")
                lines.extend(view_lines(value, indent + 1, depth + 1))
    elif isinstance(view, (list, tuple)):
        for i, value in enumerate(view):
            if _scalar(value):
                lines.append(f"{pad}- {_fmt(value)}")
            else:
                lines.append(f"{pad}- [{i}]")
                lines.extend(view_lines(value, indent + 1, depth + 1))
    else:
        lines.append(f"{pad}{_fmt(view)}")
    return lines


def clip(text: str, limit: int = LIMIT) -> str:
    """`text` cut at a line end to fit `limit` characters."""
    if len(text) <= limit:
        return text
    cut = text[: limit - 20]
    if "\n" in cut:
        cut = cut.rsplit("\n", 1)[0]
    return cut + "\n... (cut short)"


def view_text(view: dict[str, Any], limit: int = LIMIT) -> str:
    return clip("\n".join(view_lines(view)), limit)


def choices_text(legal: list[str], limit: int = 40) -> str:
    if not legal:
        return "nothing"
    shown = ", ".join(f"`{a}`" for a in legal[:limit])
    return shown + (f" (and {len(legal) - limit} more)" if len(legal) > limit else "")


def sentences(events: Sequence[str]) -> str:
    """Log lines run together on one line: sentences stay sentences, fragments get `;`."""
    out = ""
    for event in events:
        if out:
            out += " " if out.rstrip().endswith((".", "!", "?", ":")) else "; "
        out += event.strip()
    return out


def names(users: list[str]) -> str:
    """`a`, `a and b`, `a, b and c`."""
    if not users:
        return "nobody"
    if len(users) == 1:
        return users[0]
    return ", ".join(users[:-1]) + " and " + users[-1]


#: The letter each seat goes by on the boards and the score chart (renderers' PLAYER_LETTERS),
#: beside its colour: a player is named by name and letter, never by a seat number.
SEAT_LETTERS = "ABCDEF"


def letter(seat: int) -> str:
    """The board's letter of a seat: A for the first."""
    return SEAT_LETTERS[seat % len(SEAT_LETTERS)]


def lettered(name: str, seat: int) -> str:
    """ "ann (A)": a player as the boards show them."""
    return f"{name} ({letter(seat)})"


def duration(seconds: float) -> str:
    """ "3 hours", "12 minutes", "2 days", "a moment": how long, in the largest whole unit."""
    for unit, size in (("day", 86400), ("hour", 3600), ("minute", 60)):
        if seconds >= size:
            n = int(seconds // size)
            return f"{n} {unit}{'s' if n != 1 else ''}"
    return "a moment"
