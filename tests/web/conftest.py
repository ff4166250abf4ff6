"""Fixtures for the web table's tests: a service on a real database, the web application on
aiohttp's test server, and helpers to read pages and make moves as a browser would.

Boards are drawn by a stand-in renderer (`viewed`) that writes the view it was given into
the picture and its alt text: quick, and a test can read what view reached a picture.
The browser tests (test_browser.py) draw real boards.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.service import Reply, Service, Settings
from bot.storage import Storage, open_storage
from bot.web.app import WebTable
from bot.web.links import Links
from bot.web.tokens import Signer
from tests.bot.conftest import GAMES, GUILD, Clock

SECRET = "the tests' secret"
PUBLIC = "http://table.test"
NAMES = {1: "ann", 2: "bob", 3: "cy", 4: "dee", 5: "eve", 6: "fay"}


@dataclass(frozen=True)
class Drawn:
    """A stand-in picture: the view itself, as JSON (what a renderer was given)."""

    png: bytes
    alt: str


def viewed(
    game_id: str, view: dict[str, Any], /, *, seat: int | None, part: str | None = None, highlight: Sequence[str] = ()
) -> Drawn:
    """Everything a renderer is given, highlight included: the honesty tests compare it byte for byte."""
    text = json.dumps(
        {"game": game_id, "seat": seat, "part": part, "highlight": list(highlight), "view": view}, sort_keys=True
    )
    return Drawn(b"\x89PNG\r\n\x1a\n" + hashlib.sha256(text.encode()).digest() + text.encode(), text)


@dataclass
class Web:
    """A service, its web table and a client for it."""

    service: Service
    storage: Storage
    table: WebTable
    client: TestClient
    clock: Clock
    replies: list[Reply] = field(default_factory=list)

    async def say(self, user: int, line: str, channel: int = 100) -> Reply:
        reply = await self.service.handle(channel, user, NAMES.get(user, f"u{user}"), line, guild=GUILD)
        self.replies.append(reply)
        return reply

    async def ok(self, user: int, line: str, channel: int = 100) -> Reply:
        reply = await self.say(user, line, channel)
        assert not reply.error, f"{line!r}: {reply.text}"
        return reply

    async def started(
        self, game: str = "fake-race", users=(1, 2), options: str = "seed=7 pile=9", channel=100
    ) -> Reply:
        await self.ok(users[0], f"game new {game} {options}", channel)
        for user in users[1:]:
            await self.ok(user, "game join", channel)
        return await self.ok(users[0], "game start fixed", channel)

    async def links_of(self, channel: int = 100) -> tuple[str, dict[int, str]]:
        """The table's public path and each person's seat path (by user)."""
        rec = await self.storage.open_table(channel) or await self.storage.latest_table(channel)
        assert rec is not None
        links = self.table.links
        seats = {}
        for p in rec.players:
            assert p.seat is not None
            generation = await self.storage.link_generation(rec.id, p.user)
            seats[p.user] = links.seat_path(rec.id, p.seat, p.user, generation)
        return links.table_path(rec.id), seats

    async def get(self, path: str, **kw: Any) -> tuple[int, str]:
        response = await self.client.get(path, **kw)
        return response.status, await response.text()

    async def move(self, seat_path: str, action: str | None = None, *, command: str = "play", **fields: str):
        """A move as the page's script makes it: the form's fields, read from the page."""
        _, html = await self.get(seat_path)
        form = dict(page_form(html))
        if action is not None:
            form["action"] = action
        form.update(fields)
        if command == "undo":
            form.pop("key", None)
            form.pop("action", None)
        response = await self.client.post(f"{seat_path}/{command}", data=form, headers={"Accept": "application/json"})
        return response.status, await response.json()


def page_form(html: str) -> list[tuple[str, str]]:
    """The hidden fields of a page's choice form (version, key, form token)."""
    return re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)">', html)[:3]


def choices(html: str) -> list[str]:
    return re.findall(r'<button type="submit" name="action" value="([^"]*)"', html)


async def make_web(database: str, clock: Clock, renderer: Any = viewed, every: float = 0.05) -> Web:
    storage = open_storage(database)
    await storage.open()
    service = Service(storage, clock=clock, games=GAMES, settings=Settings(stand_in_level="easy"), renderer=renderer)
    links = Links(PUBLIC, Signer(SECRET), 30, clock)
    service.links = links
    table = WebTable(service, links, clock=clock, every=every)
    client = TestClient(TestServer(table.app))
    await client.start_server()
    return Web(service, storage, table, client, clock)


async def close_web(web: Web) -> None:
    await web.client.close()
    await web.service.close()


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def web(tmp_path, clock):
    harness = await make_web(str(tmp_path / "web.sqlite"), clock)
    yield harness
    await close_web(harness)
