"""Fixtures for the service tests: a real database, a hand-set clock, the fake game.

The database is a SQLite file; tests marked `both_backends` (the ones that matter
for storage: races, restarts, undo, reminders) run once on SQLite and once on
PostgreSQL (the session's throwaway server, tests/conftest.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pytest

import engine
from bot.service import Reply, Service, Settings
from bot.storage import Storage, open_storage
from tests.conftest import BACKENDS, database_url

from .fakegame import GAME as FAKE

GAMES = {**engine.GAMES, FAKE.id: FAKE}
NAMES = {1: "ann", 2: "bob", 3: "cy", 4: "dee"}
CHANNEL = 100
GUILD = 7


class Clock:
    """An injectable clock: starts at a fixed moment (2026-01-01 12:00 UTC), moved by hand."""

    def __init__(self, now: float = 1767268800.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, hours: float) -> None:
        self.now += hours * 3600


@dataclass
class Table:
    """A service on a database file, with helpers to speak as a user."""

    service: Service
    storage: Storage
    clock: Clock
    database: str
    channel: int = CHANNEL
    replies: list[Reply] = field(default_factory=list)

    @property
    def path(self) -> Path:
        """The SQLite file (for tests that damage it on purpose)."""
        return Path(self.database)

    async def say(self, user: int, line: str, **kw) -> Reply:
        kw.setdefault("guild", GUILD)
        reply = await self.service.handle(
            kw.pop("channel", self.channel), user, NAMES.get(user, f"u{user}"), line, **kw
        )
        self.replies.append(reply)
        return reply

    async def ok(self, user: int, line: str, **kw) -> Reply:
        reply = await self.say(user, line, **kw)
        assert not reply.error, f"{line!r} refused: {reply.text}"
        return reply

    async def refused(self, user: int, line: str, *, contains: str = "", **kw) -> Reply:
        reply = await self.say(user, line, **kw)
        assert reply.error, f"{line!r} was accepted: {reply.text}"
        assert contains.lower() in reply.text.lower(), reply.text
        return reply

    async def reopen(self) -> None:
        """Close the database and go on with a fresh storage and service on the same file
        (what a restart of the bot does)."""
        await self.service.close_bots()
        await self.storage.close()
        self.storage = open_storage(self.database)
        await self.storage.open()
        self.service = Service(self.storage, clock=self.clock, games=GAMES, settings=self.service.settings)

    async def state(self):
        """The channel's open table and its current state ((None, None) once closed)."""
        rec = await self.storage.open_table(self.channel)
        if rec is None:
            return None, None
        return rec, await self.service.tables.state(rec)

    async def started(self, game: str = FAKE.id, users=(1, 2), options: str = "seed=7 pile=6") -> Reply:
        await self.ok(users[0], f"game new {game} {options}")
        for u in users[1:]:
            await self.ok(u, "game join")
        return await self.ok(users[0], "game start fixed")


@pytest.fixture
def clock() -> Clock:
    return Clock()


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "backend" in metafunc.fixturenames and metafunc.definition.get_closest_marker("both_backends"):
        metafunc.parametrize("backend", BACKENDS)


@pytest.fixture
def backend() -> str:
    """The storage backend of `database` (SQLite unless the test is marked `both_backends`)."""
    return "sqlite"


@pytest.fixture
def database(request: pytest.FixtureRequest, backend: str, tmp_path: Path) -> str:
    """A fresh database URL on `backend`."""
    return database_url(request, backend, tmp_path)


@pytest.fixture(params=["sqlite", "postgres"])
async def records_storage(request: pytest.FixtureRequest, tmp_path: Path):
    """A fresh storage of each backend."""
    storage = open_storage(database_url(request, request.param, tmp_path))
    await storage.open()
    yield storage
    await storage.close()


@pytest.fixture
async def table(database: str, clock: Clock):
    storage = open_storage(database)
    await storage.open()
    # bots standing in for resigned players play at the quick level (the levels have their own tests)
    service = Service(storage, clock=clock, games=GAMES, settings=Settings(images=False, stand_in_level="easy"))
    t = Table(service, storage, clock, database)
    yield t
    await t.service.close_bots()
    await t.storage.close()
