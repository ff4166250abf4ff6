"""Quiet hours: when a player does not want to be reminded.

A player sets local hours [start, end) and their offset from UTC
(`settings quiet 22-7 utc+2`); a reminder falling inside is moved to the end of
the quiet hours, without counting as unanswered.
"""

from __future__ import annotations

import re

from ..storage.base import PlayerPrefs
from .text import quote

_RANGE = re.compile(r"^(\d{1,2})(?::00)?-(\d{1,2})(?::00)?$", re.ASCII)
_OFFSET = re.compile(r"^(?:utc|gmt)?([+-])(\d{1,2})(?::(\d{2}))?$", re.ASCII)

#: UTC offsets in use on Earth run from UTC-12:00 to UTC+14:00.
OFFSET_RANGE = (-12 * 60, 14 * 60)


def local_hour(prefs: PlayerPrefs, now: float) -> float:
    """The player's local time of day in hours, 0 <= h < 24."""
    return ((now + prefs.utc_offset * 60) % 86400) / 3600


def in_quiet_hours(prefs: PlayerPrefs, now: float) -> bool:
    if prefs.quiet_start is None or prefs.quiet_end is None or prefs.quiet_start == prefs.quiet_end:
        return False
    hour = local_hour(prefs, now)
    start, end = prefs.quiet_start, prefs.quiet_end
    if start < end:
        return start <= hour < end
    return hour >= start or hour < end  # over midnight, e.g. 22-7


def quiet_ends(prefs: PlayerPrefs, now: float) -> float:
    """The first moment after `now` outside the quiet hours."""
    assert prefs.quiet_end is not None
    hour = local_hour(prefs, now)
    wait = (prefs.quiet_end - hour) % 24
    return now + wait * 3600


def parse_quiet(words: list[str]) -> tuple[int | None, int | None, int | None]:
    """`["22-7", "utc+2"]` -> (22, 7, 120); `["off"]` -> (None, None, None).

    The offset is optional (None: keep the stored one)."""
    if not words:
        raise ValueError("Give quiet hours as `settings quiet 22-7 [utc+2]`, or `settings quiet off`.")
    if words[0].lower() == "off":
        return None, None, None
    found = _RANGE.match(words[0])
    if not found:
        raise ValueError(f"Quiet hours look like `22-7` (from 22:00 to 07:00), not {quote(words[0], 20)}.")
    start, end = int(found.group(1)), int(found.group(2))
    if not (0 <= start <= 23 and 0 <= end <= 23) or start == end:
        raise ValueError("Quiet hours run from one hour (0-23) to a different one, e.g. `22-7`.")
    offset = None
    if len(words) > 1:
        offset = parse_offset(words[1])
    return start, end, offset


def parse_offset(word: str) -> int:
    """`utc+2` -> 120, `utc-0:30` -> -30, `utc+5:45` -> 345 (minutes east of UTC).

    The sign belongs to the whole offset (`-0:30` is half an hour west), minutes
    are 00-59, and the total lies between UTC-12:00 and UTC+14:00."""
    found = _OFFSET.match(word.lower())
    if found:
        sign = -1 if found.group(1) == "-" else 1
        hours, minutes = int(found.group(2)), int(found.group(3) or 0)
        offset = sign * (hours * 60 + minutes)
        if minutes < 60 and OFFSET_RANGE[0] <= offset <= OFFSET_RANGE[1]:
            return offset
    raise ValueError(
        f"The UTC offset looks like `utc+2`, `utc-5` or `utc+5:30` (minutes 00-59, "
        f"from utc-12 to utc+14), not {quote(word, 20)}."
    )


def offset_text(minutes: int) -> str:
    """120 -> `UTC+2`, -30 -> `UTC-0:30`, 345 -> `UTC+5:45`."""
    sign = "-" if minutes < 0 else "+"
    hours, rest = divmod(abs(minutes), 60)
    return f"UTC{sign}{hours}" + (f":{rest:02d}" if rest else "")
