"""No web client can stop the bot (issue 53): a bot process allowed 1,024 file descriptors,
Discord and the web table in it, holds 1,000 live pages and 1,100 clients that never
finish their request's headers, and still answers a slash command and stores a move made
through Discord, its live pages hear of it, and its log stays small.

Before: the slow clients alone used up the descriptors; `/game status` and `/play` went
unanswered (the move was not stored) and asyncio logged 228 MB in 30 seconds.

The bot runs in a child process (tests/web/siege.py) with its own descriptor limit and the
loopback Discord of tests/discord; every client is on the loopback (127.0.x.y sources, as
many machines), each opened once, and the whole test is bounded in time.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import resource
import sys
from pathlib import Path

import pytest

DESCRIPTORS = 1024
STREAMS = 1000
SLOW = 1100
#: What the bot may log meanwhile: its start, a report of refusals a minute (a flood once
#: wrote 256 MB in 90 s).
LOG_BYTES = 64 * 1024
ROOT = Path(__file__).parents[2]
Client = tuple[asyncio.StreamReader, asyncio.StreamWriter]


@pytest.fixture
def descriptors():
    """This test process opens 2,100 connections: its own soft limit is raised for it."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < STREAMS + SLOW + 500:
        pytest.skip(f"this machine allows {hard} descriptors a process; the test needs {STREAMS + SLOW + 500}")
    resource.setrlimit(resource.RLIMIT_NOFILE, (STREAMS + SLOW + 500 if hard == resource.RLIM_INFINITY else hard, hard))
    yield
    resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


async def status_line(reader: asyncio.StreamReader) -> int:
    """The status of an answer (0: the connection was closed without one)."""
    try:
        line = await asyncio.wait_for(reader.readline(), 30)
    except (TimeoutError, ConnectionError):
        return 0
    parts = line.split()
    return int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else 0


def machine(base: int, n: int) -> str:
    """The loopback address of client `n`: ten clients a machine."""
    number = n // 10
    return f"127.0.{base + number // 200}.{1 + number % 200}"


async def connect_all(sources: list[str], requests: list[bytes], port: int) -> list[Client | None]:
    """A connection from each source, its request (or the start of one) written; None where
    the bot did not take the connection within a few seconds. At most 200 at once."""
    room = asyncio.Semaphore(200)

    async def one(source: str, request: bytes) -> Client | None:
        async with room:
            try:
                connecting = asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
                reader, writer = await asyncio.wait_for(connecting, 5)
            except (TimeoutError, OSError):
                return None
            writer.write(request)
            return reader, writer

    return list(await asyncio.gather(*(one(s, r) for s, r in zip(sources, requests, strict=True))))


async def open_streams(port: int, paths: list[str]) -> list[tuple[int, Client | None]]:
    """One live page per path, and the status each was answered with (0: none)."""
    requests = [f"GET {p}/events HTTP/1.1\r\nHost: table.test\r\nAccept: text/event-stream\r\n\r\n" for p in paths]
    opened = await connect_all([machine(10, n) for n in range(len(paths))], [r.encode() for r in requests], port)
    statuses = await asyncio.gather(*(status_line(c[0]) if c else asyncio.sleep(0, 0) for c in opened))
    return list(zip(statuses, opened, strict=True))


async def open_slow(port: int) -> list[Client | None]:
    """Clients that start a request and never finish its headers."""
    start = b"GET / HTTP/1.1\r\nHost: table.test\r\nX-Waiting: "
    return await connect_all([machine(20, n) for n in range(SLOW)], [start] * SLOW, port)


async def next_version(reader: asyncio.StreamReader, after: int) -> int:
    """The first version a live page hears that is past `after`."""
    while True:
        line = await reader.readline()
        if not line:
            return -1
        if line.startswith(b"data: ") and int(line[6:]) > after:
            return int(line[6:])


async def test_a_bot_with_1024_descriptors_answers_discord_while_2100_web_clients_hold_on(descriptors, tmp_path):
    log = tmp_path / "bot.log"
    with log.open("wb") as err:
        bot = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "tests.web.siege",
            str(tmp_path / "siege.sqlite"),
            str(DESCRIPTORS),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=err,
            cwd=ROOT,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
    assert bot.stdin is not None and bot.stdout is not None
    held: list[asyncio.StreamWriter] = []
    try:
        started = json.loads(await asyncio.wait_for(bot.stdout.readline(), 120))
        port, table, seats = started["port"], started["table"], started["seats"]
        paths = [table] * (STREAMS - 100) + [seats["1001"]] * 50 + [seats["1002"]] * 50
        streams = await open_streams(port, paths)
        slow = await open_slow(port)
        held += [c[1] for _, c in streams if c] + [c[1] for c in slow if c]
        live = [c for status, c in streams if status == 200 and c]
        refused = [status for status, _ in streams if status != 200]
        assert live and set(refused) <= {0, 429, 503}
        first = await asyncio.wait_for(next_version(live[0][0], -1), 30)
        bot.stdin.write(b"check\n")
        await bot.stdin.drain()
        checked = json.loads(await asyncio.wait_for(bot.stdout.readline(), 120))
        assert "waiting for" in checked["status"], checked  # `/game status` answered
        assert checked["played"] and checked["stored"] == 1, checked  # `/play` answered, the move stored
        assert await asyncio.wait_for(next_version(live[0][0], first), 30) > first  # a live page heard of it
        assert log.stat().st_size < LOG_BYTES, log.read_text()[-2000:]
        print(
            f"bot: {started['descriptors']} descriptors at the start, {checked['descriptors']} under the flood; "
            f"{len(live)} live pages held, {len(refused)} refused; log {log.stat().st_size:,} bytes"
        )
    finally:
        for writer in held:
            writer.close()
        with contextlib.suppress(ConnectionError):
            bot.stdin.write(b"quit\n")
            await bot.stdin.drain()
        try:
            await asyncio.wait_for(bot.wait(), 30)
        except TimeoutError:
            bot.kill()
            await bot.wait()
