"""Databases made by the storage of schema 7 (before issue 48), kept as test fixtures.

    PYTHONPATH=$PWD python -m tests.bot.upgrade_fixtures   # from a checkout at schema 7

writes tests/bot/data/schema7.sqlite (a SQLite file at `user_version` 7) and
tests/bot/data/schema7.pg.sql (plain SQL from `pg_dump --inserts` of a PostgreSQL
schema with its 7 `schema_migrations` rows, the schema's name replaced by
`epochs_fixture`). Both hold the same kind of history, played through the service:
`test_migrate.community` (finished, running, lobby and cancelled tables, moves, an
undo, a vote, a resignation, a clock, reminders, sent and unsent notices, prefs, a
secret, a link, a time away, a post) and a few rated games in two servers.

The files were made by the code of commit ea4c4d2; re-running this on a later
checkout makes databases of that checkout's schema, which is not what the upgrade
tests (test_upgrade.py) are for.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import sqlite3
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from bot.service import Service, Settings
from bot.storage import open_storage
from tests import postgres_server

from .conftest import GAMES, Clock
from .test_migrate import community

DATA = Path(__file__).parent / "data"
SQLITE = DATA / "schema7.sqlite"
POSTGRES = DATA / "schema7.pg.sql"
#: The schema name the dump is written with; a test puts its own in its place.
SCHEMA = "epochs_fixture"
#: Every row of each, as the storage of schema 7 exported them (`export_rows`, as JSON):
#: what an upgraded database must still hold.
ROWS = {SQLITE: DATA / "schema7.sqlite.rows.json", POSTGRES: DATA / "schema7.pg.rows.json"}


async def rated(database: str, clock: Clock) -> None:
    """Counted games (no chosen seed) played to their end in two servers: ratings to upgrade."""
    storage = open_storage(database)
    await storage.open()
    service = Service(storage, clock=clock, games=GAMES, settings=Settings(images=False))
    rng = random.Random(5)
    try:
        for channel, guild, users in ((20, 7, (1, 2)), (21, 7, (2, 3)), (22, 8, (1, 3, 4)), (23, 8, (4, 1))):
            for user, line in [(users[0], "game new fake-race pile=6")] + [(u, "game join") for u in users[1:]]:
                reply = await service.handle(channel, user, f"p{user}", line, guild=guild)
                assert not reply.error, reply.text
            reply = await service.handle(channel, users[0], f"p{users[0]}", "game start", guild=guild)
            assert not reply.error, reply.text
            while (rec := await storage.open_table(channel)) is not None:
                # run on ea4c4d2 (schema 7), before issue 47 gave the service its parts
                state = await (service.tables.state(rec) if hasattr(service, "tables") else service._state(rec))  # type: ignore[attr-defined]
                seat = GAMES[rec.game].to_act(state)[0]
                player = rec.user_at(seat)
                assert player is not None
                line = "play " + rng.choice(GAMES[rec.game].legal_actions(state, seat))
                reply = await service.handle(channel, player.user, f"p{player.user}", line, guild=guild)
                assert not reply.error, reply.text
                clock.advance(1)
    finally:
        await storage.close()


async def fill(database: str, rows: Path) -> None:
    clock = Clock()
    await community(database, clock)
    await rated(database, clock)
    storage = open_storage(database)
    await storage.open()
    try:
        rows.write_text(json.dumps(await storage.export_rows(), indent=0) + "\n")
    finally:
        await storage.close()


def exported(path: Path) -> dict[str, list[list[Any]]]:
    """The rows kept in `ROWS[...]`, as JSON gives them (lists for tuples)."""
    return dict(json.loads(path.read_text()))


def as_json(rows: dict[str, list[tuple[Any, ...]]]) -> dict[str, list[list[Any]]]:
    """Rows as `exported` gives them, to compare."""
    return dict(json.loads(json.dumps(rows)))


def make_sqlite() -> None:
    SQLITE.unlink(missing_ok=True)
    asyncio.run(fill(str(SQLITE), ROWS[SQLITE]))
    conn = sqlite3.connect(SQLITE)
    try:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == 7
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        conn.execute("PRAGMA journal_mode=DELETE")  # one file, no -wal beside it
    finally:
        conn.close()


def make_postgres() -> None:
    server = postgres_server.start()
    try:
        url = server.schema()
        name = url.rsplit("search_path=", 1)[1]
        asyncio.run(fill(url, ROWS[POSTGRES]))
        bindir = postgres_server.binaries()
        assert bindir is not None
        dump = subprocess.run(
            [str(bindir / "pg_dump"), "--inserts", "--no-owner", "--no-privileges", "-n", name, server.url],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    finally:
        server.stop()
    dump = re.sub(rf"^CREATE SCHEMA {name};\n", "", dump, flags=re.M)  # the test makes its own
    dump = re.sub(r"^\\.*\n", "", dump, flags=re.M)  # psql's meta-commands, should a pg_dump write any
    POSTGRES.write_text(dump.replace(name, SCHEMA))


def load_postgres(url: str) -> str:
    """The dump's SQL for the (existing, empty) schema of `url`."""
    name = url.rsplit("search_path=", 1)[1].split("&")[0]
    return POSTGRES.read_text().replace(SCHEMA, name)


def main() -> None:
    DATA.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory():
        make_sqlite()
        make_postgres()
    for path in (SQLITE, POSTGRES, *ROWS.values()):
        print(f"{path}: {path.stat().st_size:,} bytes")


if __name__ == "__main__":
    main()
