"""The pictures the pages show, and the one place the web table asks for drawings.

Every picture comes through the service's drawing path (worker processes on Discord, a
thread at the terminal), which draws a view with `renderers.render(game_id, view, seat)`:
the public board as the renderers split it, its map (`Service.render_board`) and its
player tables, offers and legend (`render_board(part="tables")`), a seat's private
picture (`Service.private_image`), the board after a past step (`Service.board_after`,
public views only) and a seat's sandbox's map and own private picture
(`Service.sandbox_image`). Renderers draw at 1,200 px wide with no text below 18 px, and
the page serves each full picture, at least three times the width a phone shows it at, so
zooming in reads every label (bot/web/README.md, "The board").

A picture of a position never changes, so each is kept by what it shows (table, version or
step, viewer) in a cache bounded by bytes, and pages asking for one being drawn wait for
that drawing rather than start another: after a move every open page asks at once.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any

from ..service import Image, Service

#: What the kept pictures may weigh in all (a board is 10-170 KB).
CACHE_BYTES = 64 * 1024 * 1024


class Boards:
    """Pictures by key: ("board", table, version), ("tables", table, version), ("private",
    table, version, seat), ("step", table, version, seq, kind), ("sandbox", table, version,
    seat, kind, moves). None is kept too: a game without a picture stays without."""

    def __init__(self, service: Service, limit: int = CACHE_BYTES) -> None:
        self.service = service
        self.limit = limit
        self._kept: OrderedDict[tuple[Any, ...], Image | None] = OrderedDict()
        self._size = 0
        self._drawing: dict[tuple[Any, ...], asyncio.Future[Image | None]] = {}

    def has(self, key: tuple[Any, ...]) -> bool:
        """Whether `key` was drawn already (its picture may be None: the game has none)."""
        return key in self._kept

    def kept(self, key: tuple[Any, ...]) -> Image | None:
        """The picture already drawn for `key` (None when not drawn yet or none)."""
        return self._kept.get(key)

    async def public(self, table: int, version: int, kind: str) -> Image | None:
        """A public picture of `table` at `version`: "board", its map (the last post's moves
        framed), or "tables", its player tables, offers and legend. Both from the public view
        on every page, as Discord posts them to the channel: what a seat alone may see is in
        its private picture (None: the table moved on, or no picture)."""

        async def draw() -> Image | None:
            rec = await self.service.table_record(table)
            if rec is None or rec.version != version:
                return None
            return await self.service.render_board(table, part="tables" if kind == "tables" else None)

        return await self._get((kind, table, version), draw)

    async def private(self, table: int, version: int, seat: int) -> Image | None:
        """`seat`'s private picture at `version` (for that seat's page only)."""
        return await self._get(
            ("private", table, version, seat), lambda: self.service.private_image(table, seat, version)
        )

    async def step(self, table: int, version: int, seq: int, kind: str = "board") -> Image | None:
        """The public board after log line `seq` (the step-through), its map ("board") or its
        "tables", kept per table version: an undo makes a line no step any more, and
        `board_after` refuses it then."""
        part = "tables" if kind == "tables" else None
        return await self._get(("step", table, version, seq, kind), lambda: self.service.board_after(table, seq, part))

    async def sandbox(
        self, table: int, version: int, seat: int, moves: list[tuple[int, str]], kind: str = "board"
    ) -> Image | None:
        """A picture of `seat`'s sandbox (issue 52 §4) at `version` after `moves`: its public
        map ("board") or the seat's own private picture ("private"), for that seat's links
        only. Raises SandboxRefusal for moves that are not the sandbox's."""
        return await self._get(
            self.sandbox_key(table, version, seat, moves, kind),
            lambda: self.service.sandbox_image(table, seat, moves, version=version, own=kind == "private"),
        )

    @staticmethod
    def sandbox_key(table: int, version: int, seat: int, moves: list[tuple[int, str]], kind: str) -> tuple[Any, ...]:
        return ("sandbox", table, version, seat, kind, tuple(moves))

    async def _get(self, key: tuple[Any, ...], draw: Callable[[], Awaitable[Image | None]]) -> Image | None:
        if key in self._kept:
            self._kept.move_to_end(key)
            return self._kept[key]
        pending = self._drawing.get(key)
        if pending is not None:
            return await asyncio.shield(pending)
        future: asyncio.Future[Image | None] = asyncio.get_running_loop().create_future()
        self._drawing[key] = future
        try:
            image = await draw()
        except BaseException as err:
            future.set_exception(err)
            future.exception()  # retrieved: waiters re-raise it, nobody else logs it
            raise
        finally:
            self._drawing.pop(key, None)
        future.set_result(image)
        self._keep(key, image)
        return image

    def _keep(self, key: tuple[Any, ...], image: Image | None) -> None:
        self._kept[key] = image
        self._size += len(image.png) if image is not None else 0
        while self._size > self.limit and len(self._kept) > 1:
            _, old = self._kept.popitem(last=False)
            self._size -= len(old.png) if old is not None else 0
