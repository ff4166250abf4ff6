"""Lengths of time as people type them: "3d", "12h", "90m", "1d12h" (issue 27).

On its own so the configuration (read before the engine loads) and the service read
them alike: `[clocks] default = "3d"`, `game new ... clock=3d`, `away 5d`, `wait 2d`.
"""

from __future__ import annotations

import re

_DURATION = re.compile(r"(?:[0-9]{1,5}[dhm])+", re.ASCII)
_PART = re.compile(r"([0-9]{1,5})([dhm])", re.ASCII)
_UNITS = {"d": 86400.0, "h": 3600.0, "m": 60.0}


def parse_duration(text: str) -> float | None:
    """ "3d" -> 259200.0, "1d12h" -> 129600.0, "30m" -> 1800.0; None when it is not a duration."""
    word = text.strip().lower()
    if not _DURATION.fullmatch(word):
        return None
    return sum(int(n) * _UNITS[unit] for n, unit in _PART.findall(word))
