"""Databases made before issue 48 (schema 7) upgrade in place with nothing lost, on both backends.

The fixtures (tests/bot/data, made by tests/bot/upgrade_fixtures.py with the code of
commit ea4c4d2) are a SQLite file at `user_version` 7 and a pg_dump of a PostgreSQL
schema with its 7 migration rows, each with every kind of row the schema holds; beside
each, every row as that code exported it.
"""

from __future__ import annotations

import shutil
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import asyncpg
import pytest

from bot.migrate import migrate
from bot.service import Service, Settings
from bot.storage import open_storage
from bot.storage.base import Backend
from bot.storage.schema import LATEST
from tests.conftest import database_url

from .conftest import GAMES, Clock
from .upgrade_fixtures import POSTGRES, ROWS, SQLITE, as_json, exported, load_postgres


async def made_before(request: pytest.FixtureRequest, backend: str, tmp_path) -> str:
    """A database of `backend` as the schema-7 code left it (a copy of the fixture)."""
    if backend == "sqlite":
        path = tmp_path / "schema7.sqlite"
        shutil.copyfile(SQLITE, path)
        return str(path)
    url = database_url(request, "postgres", tmp_path)
    conn = await asyncpg.connect(url)
    try:
        await conn.execute(load_postgres(url))
    finally:
        await conn.close()
    return url


@asynccontextmanager
async def opened(database: str) -> AsyncIterator[Backend]:
    """The database opened by this build (which upgrades it), closed afterwards."""
    storage = open_storage(database)
    await storage.open()
    try:
        yield storage
    finally:
        await storage.close()


def rows_before(backend: str) -> dict[str, list[list[Any]]]:
    """Every row of the fixture of `backend`, as the schema-7 code exported them (and the
    tables added since, empty: issue 51's plans)."""
    return {**exported(ROWS[SQLITE if backend == "sqlite" else POSTGRES]), "plans": []}


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
async def test_a_schema_7_database_upgrades_in_place_with_every_row(request, tmp_path, backend):
    async with opened(await made_before(request, backend, tmp_path)) as storage:
        assert await storage.schema_version() == LATEST == 9
        assert as_json(await storage.export_rows()) == rows_before(backend)
        assert not [r for r in await storage.recompute_ratings(write=False) if r.changed]
        assert [r for r in await storage.ratings(7)]  # rated records came along


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
async def test_an_upgraded_database_migrates_both_ways_and_replays_every_game(request, tmp_path, backend):
    database = await made_before(request, backend, tmp_path)
    other = database_url(request, "postgres" if backend == "sqlite" else "sqlite", tmp_path, "other")
    back = database_url(request, backend, tmp_path, "back")
    rows = rows_before(backend)
    there = await migrate(database, other, games=GAMES, say=lambda _: None)
    assert there.ok, there.problems
    assert there.replayed == len(rows["snapshots"]) and there.replayed > 5
    again = await migrate(other, back, games=GAMES, say=lambda _: None)
    assert again.ok, again.problems
    async with opened(back) as storage:
        assert as_json(await storage.export_rows()) == rows


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
async def test_an_upgraded_database_plays_on(request, tmp_path, backend):
    async with opened(await made_before(request, backend, tmp_path)) as storage:
        clock = Clock(1767400000.0)
        service = Service(storage, clock=clock, games=GAMES, settings=Settings(images=False))
        rec = await storage.open_table(2)
        assert rec is not None and [s.user for s in rec.seats] == [1, 2, 3]  # the joining order kept
        state = await service.tables.state(rec)
        seat = GAMES["fake-race"].to_act(state)[0]
        player = rec.user_at(seat)
        assert player is not None
        legal = GAMES["fake-race"].legal_actions(state, seat)
        reply = await service.handle(2, player.user, "x", "play " + legal[0], guild=7)
        assert not reply.error, reply.text
        created = await service.handle(30, 1, "ann", "game new fake-race", guild=7)
        assert not created.error, created.text
        new = await storage.open_table(30)
        assert new is not None and new.id > max(row[0] for row in rows_before(backend)["games"])
        assert (await storage.prefs(1)).quiet_start == 22
