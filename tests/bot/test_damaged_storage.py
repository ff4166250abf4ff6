"""Issue 11 §2: damaged storage. A database file that is not usable stops `epochs` at
once with the file's name, untouched; one table's damaged row costs that table alone,
and the log (the source of truth) rebuilds what it can."""

from __future__ import annotations

import hashlib
import logging
import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot.storage import SQLiteStorage
from bot.storage.base import DamagedDatabase

from .conftest import CHANNEL, GUILD


async def _good_file(path: Path) -> None:
    """A database with one table and a few moves, checkpointed into the main file."""
    storage = SQLiteStorage(path)
    await storage.open()
    await storage.close()
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()


def _damaged(kind: str, good: bytes) -> bytes:
    if kind == "not-sqlite":
        return b"these are my notes, not a database\n" * 40
    if kind == "truncated":
        return good[: len(good) // 2]
    if kind == "garbage-after-header":
        return good[:100] + bytes((i * 37 + 11) % 256 for i in range(len(good) - 100))
    raise ValueError(kind)


KINDS = ["not-sqlite", "truncated", "garbage-after-header"]


@pytest.mark.parametrize("kind", KINDS)
async def test_open_refuses_a_damaged_file_naming_it_and_writes_nothing(tmp_path, kind):
    good = tmp_path / "good.sqlite"
    await _good_file(good)
    bad = tmp_path / "bad.sqlite"
    bad.write_bytes(_damaged(kind, good.read_bytes()))
    before = hashlib.sha256(bad.read_bytes()).hexdigest()
    storage = SQLiteStorage(bad)
    with pytest.raises(DamagedDatabase) as caught:
        await storage.open()
    assert str(bad) in str(caught.value) and "damaged" in str(caught.value)
    assert hashlib.sha256(bad.read_bytes()).hexdigest() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.sqlite", "good.sqlite"]  # no -wal/-shm made


@pytest.mark.parametrize("mode", ["script", "local", "discord"])
@pytest.mark.parametrize("kind", KINDS)
async def test_epochs_exits_at_once_with_a_clear_message_in_every_mode(tmp_path, kind, mode):
    good = tmp_path / "good.sqlite"
    await _good_file(good)
    bad = tmp_path / "bad.sqlite"
    bad.write_bytes(_damaged(kind, good.read_bytes()))
    before = bad.read_bytes()
    env = {**os.environ, "DISCORD_TOKEN": "x" * 60 if mode == "discord" else "", "EPOCHS_CONFIG": ""}
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "bot", "--db", str(bad), mode],
        input="ann game status\n",
        capture_output=True,
        text=True,
        timeout=20,
        env=env,
        cwd=tmp_path,
    )
    elapsed = time.monotonic() - started
    assert done.returncode == 3, (done.stdout, done.stderr)
    assert f"the database {bad} is damaged" in done.stderr and "Traceback" not in done.stderr
    assert bad.read_bytes() == before
    assert elapsed < 10  # not a hang (the process itself takes well under a second)


# ---------------------------------------------------------------- one table's damaged row
async def _two_games(table):
    """A game in CHANNEL with three moves, and another game in the next channel."""
    await table.started()
    for line in ("play take 1", "play take 2", "play take 1"):
        rec, state = await table.state()
        user = rec.user_at(table.service.games[rec.game].to_act(state)[0]).user
        await table.ok(user, line)
    await table.ok(3, "game new fake-race", channel=CHANNEL + 1)
    rec = await table.storage.open_table(CHANNEL)
    return rec


def _sql(table, statement: str, *params) -> None:
    conn = sqlite3.connect(table.path)
    conn.execute(statement, params)
    conn.commit()
    conn.close()


async def test_a_damaged_snapshot_is_rebuilt_from_the_log(table, caplog):
    rec = await _two_games(table)
    good = (await table.storage.snapshot(rec.id))[1]
    _sql(table, "UPDATE snapshots SET state = '{\"broken' WHERE game = ?", rec.id)
    await table.reopen()  # no cached state: the command reads the stored text
    with caplog.at_level(logging.WARNING):
        board = await table.ok(1, "board")
    assert "move 3" in board.text
    assert (await table.storage.snapshot(rec.id))[1] == good
    assert any("rebuilt from its log" in r.getMessage() for r in caplog.records)


async def test_a_missing_snapshot_is_rebuilt_from_the_log(table):
    rec = await _two_games(table)
    good = (await table.storage.snapshot(rec.id))[1]
    _sql(table, "DELETE FROM snapshots WHERE game = ?", rec.id)
    await table.reopen()
    await table.ok(1, "status")
    assert (await table.storage.snapshot(rec.id))[1] == good


async def test_damaged_meta_is_rebuilt_from_the_log_and_play_goes_on(table, caplog):
    rec = await _two_games(table)
    _sql(table, "UPDATE games SET meta = 'not json' WHERE id = ?", rec.id)
    listing = await table.ok(2, "games")
    assert "stored record damaged" in listing.text and listing.text.count("Fake Race") == 2
    with caplog.at_level(logging.WARNING):
        status = await table.ok(1, "status")
    assert "3 steps so far" in status.text
    rec = await table.storage.open_table(CHANNEL)
    assert rec.damaged == [] and rec.meta["seq"] == 3 and rec.meta["last_seq"] == {"0": 3, "1": 2}
    _, state = await table.state()
    user = rec.user_at(table.service.games[rec.game].to_act(state)[0]).user
    await table.ok(user, "play take 1")
    assert any("meta" in r.getMessage() and "rebuilt" in r.getMessage() for r in caplog.records)


async def test_a_damaged_seat_row_costs_that_table_alone(table):
    rec = await _two_games(table)
    _sql(table, "UPDATE seats SET seat = 'x' WHERE game = ? AND user_id = 2", rec.id)
    listing = await table.ok(3, "games")
    assert "players unreadable" in listing.text and "stored record damaged" in listing.text
    await table.refused(1, "board", contains="stored record is damaged")
    await table.refused(1, "play take 1", contains="stored record is damaged")
    assert await table.service.legal_actions_for(CHANNEL, 1) == []
    await table.ok(3, "game status", channel=CHANNEL + 1)  # the other table is untouched
    await table.ok(4, "game join", channel=CHANNEL + 1)
    await table.ok(1, "game cancel")  # the creator frees the channel
    await table.ok(1, "game new fake-race")


async def test_a_damaged_log_line_keeps_the_log_readable_and_the_game_replayable(table):
    rec = await _two_games(table)
    _sql(table, "UPDATE actions SET events = '[broken' WHERE game = ? AND seq = 2", rec.id)
    _sql(table, "UPDATE snapshots SET state = 'x' WHERE game = ?", rec.id)
    await table.reopen()
    log = await table.ok(1, "log")
    assert "#2" in log.text and "log line damaged" in log.text
    await table.ok(1, "board")


async def test_a_log_that_cannot_rebuild_the_snapshot_says_so(table):
    rec = await _two_games(table)
    _sql(table, "UPDATE actions SET action = 'take 99' WHERE game = ? AND seq = 1", rec.id)
    _sql(table, "UPDATE snapshots SET state = 'x' WHERE game = ?", rec.id)
    await table.reopen()
    await table.refused(1, "board", contains="log cannot rebuild it")
    await table.ok(3, "game status", channel=CHANNEL + 1)
    assert await table.storage.tables(GUILD)  # the server-wide list still reads
