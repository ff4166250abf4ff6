"""A repeated error is logged once with a count, never once per attempt (issue 53).

Under a flood of connections that used up the process's file descriptors, asyncio's accept
loop logged "socket.accept() out of system resource", with its traceback, once per
connection waiting and again every time it tried anew: 256 MB in 90 seconds, enough to
fill a disk. The web table's budget (gate.py) keeps the descriptors from running out; this
filter bounds what any such flood can still write: each kind of message (its logger and
its format, whatever the arguments) passes once per `every` seconds, and the first to
pass after others were held back says how many.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

#: The loggers a flood or an outage makes talk: asyncio's event loop (accepting), aiohttp's
#: server, and the web table's live task (four looks a second at a database that is away).
NOISY = ("asyncio", "aiohttp.server", "aiohttp.web", "aiohttp.access", "bot.web.live", "bot.web.app")


class Repeats(logging.Filter):
    """Each (logger, message format, level) once per `every` seconds, then with a count."""

    def __init__(self, every: float = 60.0, *, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.every = every
        self.clock = clock
        self._seen: dict[tuple[str, int, str], tuple[float, int]] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        key = (record.name, record.levelno, str(record.msg))
        now = self.clock()
        said, held = self._seen.get(key, (float("-inf"), 0))
        if now - said < self.every:
            self._seen[key] = (said, held + 1)
            return False
        if held:
            record.msg = f"{record.msg} [{held:,} more like it in the last {now - said:.0f} s, not logged]"
        if len(self._seen) > 1000:  # kinds of message, not messages: a few at most
            self._seen.clear()
        self._seen[key] = (now, 0)
        return True


def quiet_repeats(names: tuple[str, ...] = NOISY, every: float = 60.0) -> Repeats:
    """Put one `Repeats` on each of these loggers (once: a second call adds none)."""
    for name in names:
        logger = logging.getLogger(name)
        for existing in logger.filters:
            if isinstance(existing, Repeats):
                return existing
    repeats = Repeats(every)
    for name in names:
        logging.getLogger(name).addFilter(repeats)
    return repeats
