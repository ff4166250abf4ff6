"""Live pages (issue 28 §2): an open page hears of a new position within a second of any
commit, by any process on the same database.

One task per process asks the database for the versions of the tables whose pages are
open (`Service.table_versions`, one indexed read for all of them) every `every` seconds, and
tells each open page whose table moved on. It costs nothing while no page is open, one
small read four times a second while any is, whatever their number; it needs nothing of
the database beyond a read, so it works alike on SQLite and PostgreSQL, and a commit by
another process is seen exactly like one of this process (bot/web/README.md, "Live").
A move made on this process's pages wakes the task at once (`poke`).

What a page hears is its table's new version number and nothing else: it then asks for
its own view again, with its own link, so the stream holds nothing of any seat.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Iterator, Sequence

from ..storage.base import StorageError

log = logging.getLogger(__name__)

#: Seconds between two looks at the open tables' versions.
EVERY = 0.25


class Watcher:
    """The versions of the tables whose pages are open, looked up every `every` seconds."""

    def __init__(self, versions: Callable[[Sequence[int]], Awaitable[dict[int, int]]], every: float = EVERY) -> None:
        #: The versions of the tables asked for that are still kept (`Service.table_versions`).
        self.versions = versions
        self.every = every
        self._pages: dict[int, set[asyncio.Queue[int]]] = {}
        self._known: dict[int, int] = {}
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    @property
    def pages(self) -> int:
        """How many pages listen now."""
        return sum(len(queues) for queues in self._pages.values())

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run(), name="web-live")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    def poke(self) -> None:
        """Look now (a move was just made here)."""
        self._wake.set()

    @contextlib.contextmanager
    def listen(self, table: int, version: int) -> Iterator[asyncio.Queue[int]]:
        """A queue that receives the table's version each time it moves on from `version`
        (only the newest waits: a slow page skips what it missed)."""
        queue: asyncio.Queue[int] = asyncio.Queue(maxsize=1)
        self._pages.setdefault(table, set()).add(queue)
        self._known.setdefault(table, version)
        if self._known[table] != version:
            queue.put_nowait(self._known[table])  # it moved on before this page started listening
        self.poke()
        try:
            yield queue
        finally:
            queues = self._pages.get(table)
            if queues is not None:
                queues.discard(queue)
                if not queues:
                    del self._pages[table]
                    self._known.pop(table, None)

    async def _run(self) -> None:
        while True:
            if self._pages:
                try:
                    self._tell(await self.versions(list(self._pages)))
                except StorageError as err:  # the database is away: pages wait, nothing else breaks
                    log.info("web: table versions cannot be read now: %s", err)
                except Exception:  # noqa: BLE001 - the live task must outlive any one failure
                    log.exception("web: reading table versions failed")
            self._wake.clear()
            with contextlib.suppress(TimeoutError):  # not `wait_for`: in 3.11 it swallows a cancel at a wake-up
                async with asyncio.timeout(self.every):
                    await self._wake.wait()

    def _tell(self, versions: dict[int, int]) -> None:
        for table, version in versions.items():
            if self._known.get(table) == version or table not in self._pages:
                continue
            self._known[table] = version
            for queue in self._pages[table]:
                if queue.full():
                    queue.get_nowait()
                queue.put_nowait(version)
