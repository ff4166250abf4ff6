"""A database that goes away (issue 23 §3): storage failures are told as what they are.

A command that did not commit: "the database cannot be reached; nothing was stored, try
again in a moment". A connection that died during COMMIT: the backend reads the table
back as soon as the server answers and the player hears the truth — the move's own
reply when it landed, "nothing was stored" when it did not, or that it cannot be told
yet and how to check (`log`). Never "nothing was changed" unless that is known.

On a real PostgreSQL server of this module's own (tests/postgres_server.py), stopped
abruptly (`pg_ctl -m immediate`, as a crash) and started again, with a relay
(tests/bot/wire.py) that loses a COMMIT or its answer at the exact moment; and on a
SQLite file that `epochs script` may not write, made writable again while it runs.
"""

from __future__ import annotations

import asyncio
import os
import queue
import shutil
import sqlite3
import subprocess
import sys
import threading
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from bot.local import user_id
from bot.service import Reply, Service, Settings
from bot.storage import SQLiteStorage, open_storage
from bot.storage.base import StorageUnavailable
from tests import postgres_server
from tests.conftest import start_postgres

from .conftest import CHANNEL, GAMES, Table
from .wire import Relay

ROOT = Path(__file__).resolve().parents[2]
NOTHING_STORED = "The database cannot be reached; nothing was stored, try again in a moment."
CANNOT_TELL = "whether it was stored cannot be told yet"


# ---- PostgreSQL ---------------------------------------------------------------------------
@pytest.fixture(scope="module")
def crashable():
    """A PostgreSQL server of this module alone: these tests stop it abruptly and start it again."""
    if os.environ.get(postgres_server.ENV_URL, "").strip():
        pytest.skip(f"{postgres_server.ENV_URL} names a server these tests cannot stop and start")
    server = start_postgres()
    yield server
    server.stop()


@dataclass
class Relayed(Table):
    """A table on the crashable server, reached through a relay that can lose a COMMIT."""

    relay: Relay = field(kw_only=True)
    server: postgres_server.Server = field(kw_only=True)


@pytest.fixture
async def relayed(crashable, clock):
    """A table whose storage talks to the crashable server through the relay."""
    url = crashable.schema()
    port = int(url.split("@127.0.0.1:")[1].split("/")[0])
    relay = Relay(port)
    await relay.start()
    storage = open_storage(relay.url(url))
    storage.recheck_delays = (0.2, 0.4, 0.8, 1.6, 3.2)
    await storage.open()
    service = Service(storage, clock=clock, games=GAMES, settings=Settings(images=False))
    table = Relayed(service, storage, clock, url, relay=relay, server=crashable)
    try:
        yield table
    finally:
        try:
            crashable.resume()
        except RuntimeError:
            pass  # it is running
        await storage.close()
        await relay.close()
        crashable.drop_schema(url)


async def at_move(table: Table) -> str:
    """Start a Fake Race; the move ann (to act) is about to make."""
    await table.started()
    return "play take 1"


async def moves(table: Table) -> list[tuple[int, str]]:
    rec = await table.storage.open_table(table.channel)
    assert rec is not None
    return [(r.seq, r.action) for r in await table.storage.actions(rec.id)]


async def test_postgres_stopped_abruptly_every_command_says_so_and_stores_nothing(relayed):
    move = await at_move(relayed)
    relayed.server.halt()
    for line in (move, "board", "log", "game status"):
        reply = await relayed.refused(1, line)
        assert reply.text == NOTHING_STORED, (line, reply.text)
    assert "nothing was changed" not in " ".join(r.text for r in relayed.replies)
    relayed.server.resume()
    await relayed.ok(1, move)  # the pool connects again by itself: no restart of the bot
    assert await moves(relayed) == [(1, "take 1")]


async def test_a_commit_whose_answer_was_lost_is_found_stored_and_told_as_stored(relayed):
    """The server committed; the connection died before the client heard. The service reads
    the table back and answers as for any stored move."""
    move = await at_move(relayed)
    relayed.relay.arm("answer")
    reply = await relayed.ok(1, move)
    assert relayed.relay.hit.is_set()
    assert [e.action for e in reply.story][:1] == ["take 1"] and reply.version is not None
    assert await moves(relayed) == [(1, "take 1")]
    await relayed.ok(2, "play take 1")  # and the game goes on


async def test_a_commit_that_never_reached_the_server_is_found_not_stored(relayed):
    move = await at_move(relayed)
    relayed.relay.arm("request")
    reply = await relayed.refused(1, move)
    assert relayed.relay.hit.is_set()
    assert reply.text == NOTHING_STORED
    assert await moves(relayed) == []
    await relayed.ok(1, move)  # trying again works
    assert await moves(relayed) == [(1, "take 1")]


async def killed_during_commit(table: Relayed) -> asyncio.Task[Reply]:
    """Ann's move, with the server killed while its COMMIT is on the way (the task answers it)."""
    move = await at_move(table)
    table.relay.arm("hold")
    command = asyncio.create_task(table.say(1, move))
    await asyncio.wait_for(table.relay.hit.wait(), 10)
    table.server.halt()
    table.relay.release()
    return command


async def test_a_server_that_dies_during_commit_and_comes_back_is_asked_what_landed(relayed):
    """The server is killed while the COMMIT is on its way and started again while the
    service still looks: it finds the move not stored and says so."""
    command = await killed_during_commit(relayed)
    await asyncio.sleep(0.5)
    relayed.server.resume()
    reply = await asyncio.wait_for(command, 30)
    assert reply.error and reply.text == NOTHING_STORED
    assert await moves(relayed) == []


async def test_a_server_that_stays_away_after_a_broken_commit_is_told_as_unknown(relayed):
    """Not back while the service looks: it says it cannot tell yet and how to find out."""
    relayed.storage.recheck_delays = (0.2, 0.2)
    command = await killed_during_commit(relayed)
    reply = await asyncio.wait_for(command, 30)
    assert reply.error and CANNOT_TELL in reply.text and "`log`" in reply.text
    assert "nothing was" not in reply.text
    relayed.server.resume()
    log = await relayed.ok(1, "log")
    assert "No moves yet" in log.text  # as the reply said: `log` tells


# ---- SQLite -------------------------------------------------------------------------------
async def test_sqlite_with_a_full_disk_stores_nothing_says_so_and_recovers(table):
    """SQLite's own "database or disk is full": the file may not grow by another page. The
    moves that fit in its free pages are stored; the first that does not is refused as
    not stored, and nothing of it is; the next write opens the writer afresh (the disk
    has room again) and is stored."""
    await table.started(options="seed=7 pile=30")
    await table.storage._w.execute("PRAGMA max_page_count = 1")  # no page beyond those it has
    user = 1
    for _ in range(500):
        before = (await table.storage.open_table(CHANNEL)).version
        reply = await table.say(user, "play roll")
        if reply.error:
            break
        user = 3 - user
    assert reply.error and reply.text == NOTHING_STORED, reply.text
    assert (await table.storage.open_table(CHANNEL)).version == before
    assert not (await table.say(user, "play roll")).error


async def test_sqlite_that_may_only_read_stores_nothing_says_so_and_recovers(table):
    """What SQLite does with a file it may not write: it opens it read-only. Every kind of
    write (a move, a new table, a setting) is refused as not stored; once the writer is
    opened afresh on a writable file, they go through."""
    import aiosqlite

    async def read_only() -> None:
        await table.storage._w.close()
        table.storage._writer = await aiosqlite.connect(f"file:{table.path}?mode=ro", uri=True, isolation_level=None)
        table.storage._renew_writer = False

    await table.started()
    for line, channel in (("play take 1", CHANNEL), ("game new fake-race", CHANNEL + 1), ("settings dm on", CHANNEL)):
        await read_only()
        reply = await table.say(1, line, channel=channel)
        assert reply.text == NOTHING_STORED, (line, reply.text)
    # the file is writable again: the writer is opened afresh after the last refusal
    await table.ok(1, "play take 1")
    await table.ok(1, "game new fake-race", channel=CHANNEL + 1)
    assert await moves(table) == [(1, "take 1")]


@pytest.mark.parametrize("landed", [True, False])
async def test_sqlite_commit_that_fails_is_read_back(table, monkeypatch, landed):
    """An I/O error reported by COMMIT: the file may or may not hold the transaction. The
    reader looks; a move that is there gets its reply, one that is not is "cannot be told
    yet" (an I/O error during a sync may leave a commit that a recovery brings back)."""
    from bot.storage import sqlite as backend

    await table.started()
    table.storage.recheck_delays = (0.05,)
    real = backend._commit

    async def failing(w):
        if landed:
            await real(w)
        else:
            await w.execute("ROLLBACK")
        err = sqlite3.OperationalError("disk I/O error")
        err.sqlite_errorcode = sqlite3.SQLITE_IOERR
        raise err

    monkeypatch.setattr(backend, "_commit", failing)
    reply = await table.say(1, "play take 1")
    monkeypatch.setattr(backend, "_commit", real)
    rec = await table.storage.open_table(CHANNEL)
    stored = [r.action for r in await table.storage.actions(rec.id)]
    if landed:
        assert not reply.error and stored == ["take 1"], reply.text
    else:
        assert reply.error and CANNOT_TELL in reply.text and stored == []


async def test_a_fault_after_the_move_was_stored_never_claims_nothing_was_changed(table, monkeypatch):
    """A bug, or the database going away, after the move's commit: the reply must not say
    "nothing was changed" (the bug path said so whatever had happened)."""
    await table.started()

    async def bug(*args, **kw):
        raise RuntimeError("a bug in building the reply")

    monkeypatch.setattr(table.service.moves, "position_reply", bug)
    reply = await table.say(1, "play take 1")
    assert reply.error and "after part of your command was stored" in reply.text and "`log`" in reply.text
    assert await moves(table) == [(1, "take 1")]
    monkeypatch.undo()

    async def gone(*args, **kw):
        raise StorageUnavailable("the database went away")

    reads = table.storage.actions
    monkeypatch.setattr(table.storage, "actions", gone)  # read after the commit
    reply = await table.say(2, "play take 1")
    monkeypatch.setattr(table.storage, "actions", reads)
    assert reply.error and "part of it was stored" in reply.text and "nothing was" not in reply.text
    assert await moves(table) == [(1, "take 1"), (2, "take 1")]


def script_command(db: Path, *, bound: bool) -> tuple[list[str], dict[str, str]]:
    """`epochs script --db DB -` and its environment. `bound`: file permissions bind it (an
    ordinary user is bound already; root gives up the capabilities that let it write
    anything, with setpriv, or the test is skipped)."""
    prefix: list[str] = []
    if bound and os.geteuid() == 0:
        setpriv = shutil.which("setpriv")
        if setpriv is None:
            pytest.skip("running as root without setpriv: file permissions cannot bind this process")
        prefix = [setpriv, "--bounding-set=-dac_override,-dac_read_search", "--"]
    env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "EPOCHS_CONFIG", "EPOCHS_DATABASE")}
    env.update(PYTHONPATH=str(ROOT), PYTHONUNBUFFERED="1")
    return [*prefix, sys.executable, "-m", "bot", "script", "--db", str(db), "-"], env


def run_script(db: Path, lines: str, *, bound: bool) -> subprocess.CompletedProcess[str]:
    command, env = script_command(db, bound=bound)
    return subprocess.run(command, input=lines, capture_output=True, text=True, cwd=db.parent, env=env, timeout=60)


def test_sqlite_file_that_cannot_be_written_then_can_under_a_running_script(tmp_path):
    """`epochs script` runs on a database file it may not write (mode 0444): it reads the game,
    a move is refused as "nothing was stored", the script goes on; the file made writable
    again while it runs, the same move is stored. (Taking write permission away from a
    file already open changes nothing on Linux: the open file stays writable. So the
    script starts on the read-only file, as a bot restarted on it would.)"""
    db = tmp_path / "game.sqlite"
    done = run_script(db, "ann game new rising-cultures seed=1\nbob game join\nann game start fixed\n", bound=False)
    assert done.returncode == 0, done.stderr
    bound, env = script_command(db, bound=True)
    move = asyncio.run(_first_move(db, "ann"))
    files = lambda: [p for p in tmp_path.iterdir() if p.name.startswith("game.sqlite")]  # noqa: E731
    for path in files():
        path.chmod(0o444)
    process = subprocess.Popen(
        bound,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=tmp_path,
        env=env,
    )
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=lambda: [lines.put(line) for line in process.stdout], daemon=True).start()

    def said(line: str) -> list[str]:
        process.stdin.write(line + "\n")
        process.stdin.flush()
        out = [lines.get(timeout=60)]
        while not out[-1].startswith(f"> ann: {line.split(' ', 1)[1]}"):
            out.append(lines.get(timeout=60))
        out.append(lines.get(timeout=60))  # the reply's first line
        return out

    try:
        assert said(f"ann play {move}")[-1].strip() == "! " + NOTHING_STORED
        for path in files():
            path.chmod(0o644)
        assert not said(f"ann play {move}")[-1].startswith("!")
    finally:
        process.stdin.close()
        code = process.wait(60)
    err = process.stderr.read()
    assert code == 0 and "Traceback" not in err, err
    assert "game.sqlite cannot be written: every command that stores will be refused" in err  # said at the start
    assert asyncio.run(_log(db)) == [move]


def test_a_new_database_that_cannot_be_written_stops_the_bot_saying_why(tmp_path):
    """Its tables cannot be made: status 3, and the reason (not "damaged": it is not)."""
    db = tmp_path / "new.sqlite"
    db.touch(mode=0o444)
    done = run_script(db, "ann help\n", bound=True)
    assert done.returncode == 3 and "new.sqlite: it cannot be written (read-only)" in done.stderr, done.stderr
    assert "damaged" not in done.stderr and "Traceback" not in done.stderr


async def _first_move(db: Path, name: str) -> str:
    storage = SQLiteStorage(db)
    await storage.open()
    try:
        service = Service(storage, settings=Settings(images=False))
        return (await service.legal_actions_for(1, user_id(name)))[0]
    finally:
        await storage.close()


async def _log(db: Path) -> list[str]:
    storage = SQLiteStorage(db)
    await storage.open()
    try:
        rec = await storage.latest_table(1)
        assert rec is not None
        return [r.action for r in await storage.actions(rec.id)]
    finally:
        await storage.close()
