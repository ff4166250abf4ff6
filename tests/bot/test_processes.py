"""Several bot processes on one database (issue 16 §2): real OS processes
(tests/bot/service_process.py), each with the service and the real dispatcher
claiming its shards' notices; presses racing across processes, reminders
delivered once, and a process killed with SIGKILL in the middle of play."""

from __future__ import annotations

import asyncio
import itertools
import json
import signal
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from bot.service import Service, Settings
from bot.storage import open_storage, shard_of
from bot.storage.postgres import PostgresStorage
from bot.storage.sqlite import SQLiteStorage

from .conftest import GAMES

ROOT = Path(__file__).resolve().parents[2]
LEASE = 3.0  # short, so a crashed process's claims lapse within the test; renewed every 0.2 s round


def guild_on(shard: int, n: int = 0) -> int:
    """A snowflake-sized guild id on `shard` of 2."""
    guild = (1_200_000_000 + 2 * n + shard) << 22
    assert shard_of(guild, 2) == shard
    return guild


class Process:
    """One service process, spoken to over its stdin/stdout."""

    def __init__(
        self, database: str, owner: str, deliveries: Path, shard_ids: list[int] | None, stall: int | None = None
    ) -> None:
        self.database, self.owner, self.deliveries, self.shard_ids = database, owner, deliveries, shard_ids
        self.stall = stall  # a channel whose posts hang in this process
        self._proc: asyncio.subprocess.Process | None = None
        self.ids = itertools.count(1)
        self.waiting: dict[int, asyncio.Future] = {}
        self._reader: asyncio.Task | None = None
        self.dead = False

    @property
    def proc(self) -> asyncio.subprocess.Process:
        assert self._proc is not None, "start() the process first"
        return self._proc

    @property
    def reader(self) -> asyncio.Task:
        assert self._reader is not None, "start() the process first"
        return self._reader

    @property
    def stdin(self) -> asyncio.StreamWriter:
        assert self.proc.stdin is not None
        return self.proc.stdin

    @property
    def stdout(self) -> asyncio.StreamReader:
        assert self.proc.stdout is not None
        return self.proc.stdout

    async def start(self) -> Process:
        shard_args = ["--shard-count", "2", "--shard-ids", *map(str, self.shard_ids)] if self.shard_ids else []
        if self.stall is not None:
            shard_args += ["--stall", str(self.stall)]
        self._proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "tests.bot.service_process",
            self.database,
            "--owner",
            self.owner,
            "--deliveries",
            str(self.deliveries),
            "--lease",
            str(LEASE),
            *shard_args,
            cwd=ROOT,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
        )
        ready = json.loads(await asyncio.wait_for(self.stdout.readline(), 30))
        assert ready == {"ready": self.owner}
        self._reader = asyncio.create_task(self._read())
        return self

    async def _read(self) -> None:
        while line := await self.stdout.readline():
            answer = json.loads(line)
            self.waiting.pop(answer["id"]).set_result(answer)

    def send(
        self, channel: int, user: int, line: str, guild: int, expected_version: int | None = None
    ) -> asyncio.Future:
        request_id = next(self.ids)
        future = asyncio.get_running_loop().create_future()
        if self.dead:
            future.cancel()
            return future
        self.waiting[request_id] = future
        self.stdin.write(
            (
                json.dumps(
                    {
                        "id": request_id,
                        "channel": channel,
                        "user": user,
                        "line": line,
                        "guild": guild,
                        "expected_version": expected_version,
                    }
                )
                + "\n"
            ).encode()
        )
        return future

    async def say(self, channel: int, user: int, line: str, guild: int, **kw: Any) -> dict:
        answer = await asyncio.wait_for(self.send(channel, user, line, guild, **kw), 30)
        assert not answer["error"], (line, answer["text"])
        return answer

    async def stop(self) -> None:
        """A clean stop: stdin closed, answers finished, claims given back."""
        if self.proc.returncode is None:
            self.stdin.close()
            await asyncio.wait_for(self.proc.wait(), 30)
        await asyncio.gather(self.reader, return_exceptions=True)

    async def kill(self) -> None:
        """SIGKILL: no clean-up of any kind."""
        self.proc.send_signal(signal.SIGKILL)
        self.dead = True
        await self.proc.wait()
        await asyncio.gather(self.reader, return_exceptions=True)
        for future in self.waiting.values():  # commands in flight: never answered
            future.cancel()


def delivered(path: Path) -> list[dict]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


async def wait_until(predicate, timeout: float = 20.0) -> None:
    stop = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < stop, "timed out"
        await asyncio.sleep(0.05)


async def open_games(process: Process, guilds: list[int], first_channel: int) -> dict[int, int]:
    """A started fake-race game per guild (players 1 and 2); channel -> guild."""
    games = {}
    for n, guild in enumerate(guilds):
        channel = first_channel + n
        await process.say(channel, 1, "game new fake-race seed=5 pile=400", guild)
        await process.say(channel, 2, "game join", guild)
        await process.say(channel, 1, "game start fixed", guild)
        games[channel] = guild
    return games


async def make_reminders_due(database: str) -> None:
    """Every waiting player's reminder due now (instead of waiting the 12 hours)."""
    storage = open_storage(database)
    assert isinstance(storage, SQLiteStorage | PostgresStorage)  # both write through _write
    await storage.open()
    try:
        await storage._write(lambda w: w.run("UPDATE reminders SET due = 0"))
    finally:
        await storage.close()


async def audit(database: str) -> Any:
    """Every table's log replays to its snapshot; returns the storage's rows."""
    storage = open_storage(database)
    await storage.open()
    try:
        service = Service(storage, games=GAMES, settings=Settings(images=False))
        rows = await storage.export_rows()
        for table_id, *_ in rows["games"]:
            snap = await storage.snapshot(table_id)
            if snap is not None:
                assert GAMES["fake-race"].dumps(await service.replay(table_id)) == snap[1], table_id
        return rows
    finally:
        await storage.close()


@pytest.fixture(params=["postgres", "sqlite"])
def shared(request, tmp_path) -> str:
    from tests.conftest import database_url

    return database_url(request, request.param, tmp_path, "shared")


async def test_simultaneous_presses_in_two_processes_exactly_one_is_accepted(shared, tmp_path):
    a = await Process(shared, "a", tmp_path / "a.jsonl", None).start()
    b = await Process(shared, "b", tmp_path / "b.jsonl", None).start()
    try:
        guild = guild_on(0)
        await open_games(a, [guild], 10)
        version = (await a.say(10, 1, "board", guild))["version"]
        for press in range(12):
            user = 1 + press % 2
            answers = await asyncio.gather(
                a.send(10, user, "play take 1", guild, expected_version=version),
                b.send(10, user, "play take 1", guild, expected_version=version),
            )
            accepted = [x for x in answers if not x["error"]]
            assert len(accepted) == 1, [x["text"] for x in answers]
            assert next(x for x in answers if x["error"])["stale"]  # the other is told the game moved on
            version = accepted[0]["version"]
    finally:
        await a.stop()
        await b.stop()
    rows = await audit(shared)
    assert len(rows["actions"]) == 12 and [r[1] for r in rows["actions"]] == list(range(1, 13))


async def test_each_reminder_is_delivered_once_by_a_process_of_its_shard(shared, tmp_path):
    a = await Process(shared, "a", tmp_path / "a.jsonl", [0]).start()
    b = await Process(shared, "b", tmp_path / "b.jsonl", [1]).start()
    # c runs every shard: it competes with both for every notice, only the claims keep it fair
    c = await Process(shared, "c", tmp_path / "c.jsonl", None).start()
    try:
        games = await open_games(a, [guild_on(0, n) for n in range(3)], 10)
        games |= await open_games(b, [guild_on(1, n) for n in range(3)], 20)
        for round_ in range(2):
            await make_reminders_due(shared)
            expected = [f"Reminder {round_ + 1}:" for _ in games]
            await wait_until(
                lambda round_=round_, expected=expected: (
                    sum(
                        f"Reminder {round_ + 1}:" in d.get("text", "")
                        for p in (a, b, c)
                        for d in delivered(p.deliveries)
                    )
                    >= len(expected)
                )
            )
            await asyncio.sleep(3 * 0.2)  # a few more dispatcher rounds: nothing may come twice
    finally:
        for p in (a, b, c):
            await p.stop()
    posts = [(p.owner, d) for p in (a, b, c) for d in delivered(p.deliveries) if "Reminder" in d.get("text", "")]
    channels = sorted(d["channel"] for _, d in posts)
    assert channels == sorted(list(games) * 2)  # every game reminded twice, never more
    for owner, d in posts:
        assert owner == "c" or shard_of(games[d["channel"]], 2) == "ab".index(owner), (owner, d["channel"])
    storage = open_storage(shared)
    await storage.open()
    assert await storage.notices() == []  # every notice marked delivered
    await storage.close()


async def test_a_process_killed_mid_play_loses_nothing_and_the_other_serves_on(request, tmp_path):
    from tests.conftest import database_url

    shared = database_url(request, "postgres", tmp_path)
    a = await Process(shared, "a", tmp_path / "a.jsonl", [0]).start()
    b = await Process(shared, "b", tmp_path / "b.jsonl", [1]).start()
    games_a = await open_games(a, [guild_on(0, n) for n in range(4)], 10)
    games_b = await open_games(b, [guild_on(1, n) for n in range(4)], 20)
    turn = {channel: 1 for channel in games_a | games_b}
    accepted = {channel: 0 for channel in turn}
    in_flight = {channel: 0 for channel in turn}

    async def play(process: Process, channel: int, guild: int) -> None:
        in_flight[channel] += 1
        try:
            answer = await process.send(channel, turn[channel], "play take 1", guild)
        except asyncio.CancelledError:
            return  # the process died with this command in flight: it may or may not be stored
        in_flight[channel] -= 1
        assert not answer["error"], answer["text"]
        accepted[channel] += 1
        turn[channel] = 3 - turn[channel]

    async def stream(process: Process, games: dict[int, int], rounds: int) -> None:
        for _ in range(rounds):
            if process.dead:
                return
            await asyncio.gather(*(play(process, c, g) for c, g in games.items()))

    def reminded(process: Process, channels) -> set[int]:
        return {
            d["channel"]
            for d in delivered(process.deliveries)
            if "Reminder" in d.get("text", "") and d["channel"] in channels
        }

    a2 = None
    try:
        b_stream = asyncio.create_task(stream(b, games_b, 15))
        a_stream = asyncio.create_task(stream(a, games_a, 1000))
        await wait_until(lambda: sum(accepted[c] for c in games_a) >= 12)
        await a.kill()  # in the middle of play, commands in flight
        await a_stream
        await b_stream  # b was never disturbed ...
        await make_reminders_due(shared)
        await wait_until(lambda: reminded(b, games_b) == set(games_b))
        for channel, guild in games_b.items():  # ... and goes on serving its shard
            await b.say(channel, turn[channel], "play take 1", guild)
            accepted[channel] += 1
        await asyncio.sleep(1.0)  # five dispatcher rounds of b
        assert all(d.get("channel") in games_b for d in delivered(b.deliveries))  # never shard 0's
        # shard 0 waits for a process of its own: a new one sends its reminders
        a2 = await Process(shared, "a2", tmp_path / "a2.jsonl", [0]).start()
        await wait_until(lambda: reminded(a2, games_a) == set(games_a))
        storage = open_storage(shared)
        await storage.open()
        await wait_until_empty(storage)
        await storage.close()
    finally:
        for p in (a2, b):
            if p is not None:
                await p.stop()
        if not a.dead:
            await a.kill()
    rows = await audit(shared)  # nothing half written: every log replays to its snapshot
    stored = {channel: 0 for channel in turn}
    channel_of = {r[0]: r[2] for r in rows["games"]}
    for action in rows["actions"]:
        stored[channel_of[action[0]]] += 1
    for channel in turn:  # every answered move is stored; at most the ones in flight besides
        assert accepted[channel] <= stored[channel] <= accepted[channel] + in_flight[channel], channel


async def test_a_crashed_processs_claim_expires_and_another_delivers_the_notice(request, tmp_path):
    from tests.conftest import database_url

    shared = database_url(request, "postgres", tmp_path)
    a = await Process(shared, "a", tmp_path / "a.jsonl", None, stall=77).start()
    b = None
    try:
        storage = open_storage(shared)
        await storage.open()
        await storage.add_notice(None, 77, {"text": "held post"}, time.time())
        await wait_until(lambda: any(d.get("attempt") == 77 for d in delivered(a.deliveries)))
        b = await Process(shared, "b", tmp_path / "b.jsonl", None).start()
        await asyncio.sleep(1.5 * LEASE)  # longer than the lease: a, alive, renewed it; b must not send it
        assert delivered(b.deliveries) == []
        await a.kill()
        await wait_until(
            lambda: [d.get("text") for d in delivered(b.deliveries)] == ["held post"], timeout=3 * LEASE + 10
        )
        await wait_until_empty(storage)
        await storage.close()
    finally:
        if b is not None:
            await b.stop()
        if not a.dead:
            await a.kill()


async def wait_until_empty(storage) -> None:
    stop = time.monotonic() + 20
    while await storage.notices():
        assert time.monotonic() < stop, [n.payload.get("text", "")[:40] for n in await storage.notices()]
        await asyncio.sleep(0.1)
