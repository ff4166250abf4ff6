"""An export file read as what it is: bytes from outside, checked before anything uses them.

An export comes from a Discord attachment or a path at the terminal, so from anyone
(issue 23): not UTF-8, not JSON, JSON nested 100,000 deep (Python's parser then runs
out of stack), strings that are not text (a lone surrogate such as `"\\udc80"` is legal
JSON but cannot be encoded, printed or stored), numbers no column holds, times before
year 1 or after 9999. `document` turns the bytes into a JSON document whose every
string is printable text and whose nesting is bounded, or raises `ExportError` saying
what is wrong and where ("step 12, field `action`") without quoting the broken text
itself; `moment` reads one time. The shape of each field is export.py's to check.
"""

from __future__ import annotations

import json
import math
import re
from datetime import UTC, datetime
from typing import Any

#: The largest file read as an export. A long six-player game is some 200 KB; Discord
#: hands the bot attachments of at most 8 MB.
MAX_BYTES = 16 * 1024 * 1024
#: How deep lists and objects may nest. An export nests 4 deep (the file, its actions,
#: an action, its events); anything much deeper is not an export.
MAX_DEPTH = 16
#: The longest text of any field; names, actions and ids have tighter bounds (export.py).
MAX_TEXT = 4000
#: Digits a whole number may have (a seed is below 2**63: 19 digits).
MAX_DIGITS = 19
#: The span an export's times must lie in: no game of Epochs was played before 2000, no
#: clock reads 2100 yet, and every time in it can be written, stored and read anywhere.
EARLIEST = datetime(2000, 1, 1, tzinfo=UTC)
LATEST = datetime(2100, 1, 1, tzinfo=UTC)

_BROKEN = re.compile("[\ud800-\udfff]")
#: Control characters (C0 but for none, DEL and C1): they would move the cursor, clear a
#: terminal or hide text; no export Epochs writes holds one.
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")
_UNFIT = re.compile("[\ud800-\udfff\x00-\x1f\x7f-\x9f]")


class ExportError(ValueError):
    """A file that is not a usable export; the message says what is wrong."""


def document(data: bytes | str) -> dict[str, Any]:
    """The JSON object of an export file, every string in it checked (see the module doc)."""
    if len(data) > MAX_BYTES:
        raise ExportError(
            f"the file is {len(data) / 1024 / 1024:.1f} MB; an export is at most {MAX_BYTES // 1024 // 1024} MB."
        )
    if isinstance(data, bytes):
        try:
            text = data.decode("utf-8-sig")  # a byte order mark, as some editors write, is fine
        except UnicodeDecodeError:
            raise ExportError("the file is not text (UTF-8), so it is not an Epochs export.") from None
    else:
        text = data
    try:
        doc = json.loads(text, parse_int=_whole, parse_constant=_no_constant)
    except RecursionError:
        raise ExportError(_too_deep()) from None
    except ValueError as err:
        if isinstance(err, ExportError):
            raise
        raise ExportError(f"the file is not JSON ({_said(err)}), so it is not an Epochs export.") from None
    if not isinstance(doc, dict):
        raise ExportError("the file is not an Epochs export (it is not a JSON object).")
    _walk(doc)
    return doc


def moment(value: Any, place: str) -> float | None:
    """A time of an export as Unix seconds: an ISO 8601 text (no zone: UTC) within
    EARLIEST..LATEST, or None for null (a time the exporting bot did not know)."""
    if value is None:
        return None
    shape = f"{place} must be a time such as 2026-01-31T18:00:00Z"
    if not isinstance(value, str) or len(value) > 40:
        raise ExportError(f"{shape}.")
    try:
        when = datetime.fromisoformat(value)
        if when.tzinfo is None:
            when = when.replace(tzinfo=UTC)
        inside = EARLIEST <= when < LATEST
    except (ValueError, OverflowError):
        raise ExportError(f"{shape}, not {value!r}.") from None
    if not inside:
        raise ExportError(
            f"{place} is {value}, outside the times an export can hold "
            f"({EARLIEST.year}-01-01 to {LATEST.year}-01-01, UTC)."
        )
    return when.timestamp()


def writable(when: float | None) -> bool:
    """Can this time (Unix seconds) be written into an export, and read back by `moment`?
    Times stored by an older build, or read from a bad clock, may not."""
    return when is not None and math.isfinite(when) and EARLIEST.timestamp() <= when < LATEST.timestamp()


def place(doc: dict[str, Any], path: tuple[Any, ...]) -> str:
    """Where `path` points in the export, in a reader's words: "the field `game`",
    "seat 2, field `name`", "step 12, field `action`"."""
    if not path:
        return "the file"
    head = path[0]
    if head in ("actions", "seats") and len(path) > 1 and isinstance(path[1], int):
        where = f"seat {path[1]}" if head == "seats" else step(doc["actions"][path[1]], path[1])
        if len(path) > 2 and isinstance(path[2], str):
            return f"{where}, field `{path[2][:30]}`"
        return where
    return f"the field `{str(head)[:30]}`"


def step(row: Any, index: int) -> str:
    """An action of the export by the step number `log` shows, or by its place in the
    file when its own number is unusable."""
    seq = row.get("seq") if isinstance(row, dict) else None
    if isinstance(seq, int) and not isinstance(seq, bool) and 0 < seq < 10**9:
        return f"step {seq}"
    return f"action {index + 1} of the file"


def _walk(doc: dict[str, Any]) -> None:
    """Every string (keys included) is text that can be encoded and shown; nothing nests
    deeper than MAX_DEPTH. Iterative: the file decides how deep it goes, not the stack."""
    stack: list[tuple[Any, tuple[Any, ...]]] = [(doc, ())]
    while stack:
        value, path = stack.pop()
        if len(path) > MAX_DEPTH:
            raise ExportError(_too_deep())
        if isinstance(value, str):
            if len(value) > MAX_TEXT or _UNFIT.search(value):
                raise ExportError(_unfit(value, place(doc, path)))
        elif isinstance(value, dict):
            for key, item in value.items():
                if len(key) > MAX_TEXT or _UNFIT.search(key):
                    raise ExportError(_unfit(key, "a field name in " + place(doc, path)))
                stack.append((item, (*path, key)))
        elif isinstance(value, list):
            stack.extend((item, (*path, i)) for i, item in enumerate(value))


def _unfit(value: str, where: str) -> str:
    """Why a text cannot be taken (never quoting it: it may be what cannot be shown)."""
    if _BROKEN.search(value):
        return (
            f"{where} holds a broken character (a lone UTF-16 surrogate, which is not valid Unicode), "
            "so it cannot be read."
        )
    if _CONTROL.search(value):
        return f"{where} holds a control character, which no export holds."
    return f"{where} is {len(value):,} characters long; a text in an export has at most {MAX_TEXT:,}."


def _whole(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > MAX_DIGITS:
        raise ExportError(
            f"the file holds a number of {digits} digits; no field of an export needs more than {MAX_DIGITS}."
        )
    return int(text)


def _no_constant(name: str) -> Any:
    raise ExportError(f"the file holds {name}, which is not a number in JSON, so it is not an Epochs export.")


def _too_deep() -> str:
    return f"the file nests lists and objects more than {MAX_DEPTH} deep, so it is not an Epochs export."


def _said(err: ValueError) -> str:
    """The JSON parser's complaint, short and safe to show."""
    text = str(err)
    return _CONTROL.sub("?", _BROKEN.sub("?", text))[:120]
