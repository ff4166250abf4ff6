"""Quiet hours: when a player does not want to be reminded.

A player sets local hours [start, end) and their offset from UTC
(`settings quiet 22-7 utc+2`); a reminder falling inside is moved to the end of
the quiet hours, without counting as unanswered.
"""
from __future__ import annotations

import re

from ..storage.base import PlayerPrefs

_RANGE = re.compile(r"^(\d{1,2})(?::00)?-(\d{1,2})(?::00)?$")
_OFFSET = re.compile(r"^(?:utc|gmt)?([+-]\d{1,2})(?::(\d{2}))?$")


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
        raise ValueError(f"Quiet hours look like `22-7` (from 22:00 to 07:00), not {words[0][:20]!r}.")
    start, end = int(found.group(1)), int(found.group(2))
    if not (0 <= start <= 23 and 0 <= end <= 23) or start == end:
        raise ValueError("Quiet hours run from one hour (0-23) to a different one, e.g. `22-7`.")
    offset = None
    if len(words) > 1:
        off = _OFFSET.match(words[1].lower())
        if not off or abs(int(off.group(1))) > 14:
            raise ValueError(f"The UTC offset looks like `utc+2` or `utc-5:30`, not {words[1][:20]!r}.")
        hours = int(off.group(1))
        minutes = int(off.group(2) or 0)
        offset = hours * 60 + (minutes if hours >= 0 else -minutes)
    return start, end, offset
