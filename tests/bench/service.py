"""Service latency and durable throughput, on SQLite and PostgreSQL.

    python -m tests.bench service                       SQLite, 1,000 stored games
    python -m tests.bench service --database URL        that database (a SQLite file, or a
                                                        postgresql:// URL: a schema of its own
                                                        is made inside and dropped afterwards)
    python -m tests.bench service --both                SQLite and PostgreSQL side by side (a
                                                        throwaway PostgreSQL cluster with fsync
                                                        on, unless --postgres URL names one)
    --games 1000,10000  --plays 500  --seconds 3

For each database and each number of stored games (Rising Cultures when
registered, else the tests' fake game, each a few moves in; the first 40 are
played through the service, the rest are copies of their rows, so filling
10,000 takes seconds), measured through `Service.handle` with rendering off:

- `play` and `board` latency p50/p99 (random legal actions in random games; the
  state cache is smaller than the number of games, so many commands load a snapshot);
- durable actions per second (each on disk before its reply: SQLite
  synchronous=FULL, PostgreSQL synchronous_commit=on) with 20 games receiving
  commands at once, from one process, and from two processes of 10 games each
  on the same database.

Targets on the 2-core CI machine: p99 < 50 ms, >= 200 actions/s (20 games at once).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import engine

TARGET_P99_MS = 50.0
TARGET_ACTIONS = 200.0
TEMPLATE = 40  # games played through the service; the rest are copies of their rows
CONCURRENT = 20


def _games() -> tuple[dict, str]:
    if "rising-cultures" in engine.GAMES:
        return dict(engine.GAMES), "rising-cultures"
    from tests.bot.fakegame import GAME as FAKE

    return {**engine.GAMES, FAKE.id: FAKE}, FAKE.id


def _pct(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))] * 1000


async def _acting(service, channel: int) -> tuple[int, str, list[str]] | None:
    rec = await service.storage.open_table(channel)
    if rec is None or rec.status != "active":
        return None
    game = service.games[rec.game]
    state = await service.tables.state(rec)
    seats = game.to_act(state)
    if not seats:
        return None
    player = rec.user_at(seats[0])
    return player.user, player.name, game.legal_actions(state, seats[0])


# ------------------------------------------------------------------ filling
async def _template(games: dict, game_id: str, rng: random.Random) -> dict:
    """TEMPLATE games played a few moves in, as exported rows."""
    from bot.service import Service, Settings
    from bot.storage import SQLiteStorage

    with tempfile.TemporaryDirectory() as tmp:
        storage = SQLiteStorage(Path(tmp) / "template.sqlite", durable=False)
        await storage.open()
        service = Service(storage, games=games, settings=Settings(images=False))
        for channel in range(1, TEMPLATE + 1):
            a, b = 2 * channel, 2 * channel + 1
            await service.handle(channel, a, f"p{a}", f"game new {game_id} seed={channel}", guild=1)
            await service.handle(channel, b, f"p{b}", "game join", guild=1)
            await service.handle(channel, a, f"p{a}", "game start", guild=1)
            for _ in range(6):
                turn = await _acting(service, channel)
                if turn is None:
                    break
                user, name, legal = turn
                await service.handle(channel, user, name, "play", rng.choice(legal), guild=1)
        rows = await storage.export_rows()
        await storage.close()
    assert [r[0] for r in rows["games"]] == [r[2] for r in rows["games"]] == list(range(1, TEMPLATE + 1))
    return rows


def _copies(template: dict, count: int) -> dict:
    """`count` games: the template's rows again and again, ids and channels moved on."""
    out: dict[str, list[tuple]] = {table: [] for table in template}
    for start in range(0, count, TEMPLATE):
        for table, rows in template.items():
            if table == "games":
                out[table] += [(r[0] + start, r[1], r[2] + start, *r[3:]) for r in rows if r[0] + start <= count]
            elif table in ("seats", "actions", "snapshots", "reminders"):
                out[table] += [(r[0] + start, *r[1:]) for r in rows if r[0] + start <= count]
    out["outbox"], out["players"] = [], []
    return out


# ---------------------------------------------------------------- measuring
@dataclass
class Players:
    """Who may act where, as players know it from the last reply's buttons; plays one move."""

    service: Any
    rng: random.Random
    turns: dict[int, dict[int, list[str]]]

    @classmethod
    async def of(cls, service, channels: list[int], rng: random.Random) -> Players:
        turns = {}
        for channel in channels:
            turn = await _acting(service, channel)
            if turn is not None:
                turns[channel] = {turn[0]: turn[2]}
        return cls(service, rng, turns)

    async def play(self, channel: int) -> float | None:
        choices = self.turns.get(channel)
        if not choices:
            return None
        user = self.rng.choice(list(choices))
        t0 = time.perf_counter()
        reply = await self.service.handle(channel, user, f"p{user}", "play", self.rng.choice(choices[user]), guild=1)
        elapsed = time.perf_counter() - t0
        assert not reply.error or reply.stale, reply.text
        if reply.error:
            turn = await _acting(self.service, channel)
            self.turns[channel] = {turn[0]: turn[2]} if turn else {}
            return None
        self.turns[channel] = reply.choices
        return elapsed

    async def concurrently(self, channels: list[int], seconds: float) -> int:
        """Moves made in `seconds` with one worker per channel group, CONCURRENT at once."""

        async def worker(pool: list[int], stop: float) -> int:
            n = 0
            while time.perf_counter() < stop and pool:
                channel = self.rng.choice(pool)
                if await self.play(channel) is None and not self.turns.get(channel):
                    pool.remove(channel)
                else:
                    n += 1
            return n

        width = min(CONCURRENT, len(channels))
        pools = [channels[i::width] for i in range(width)]
        stop = time.perf_counter() + seconds
        return sum(await asyncio.gather(*(worker(p, stop) for p in pools)))


async def _service(database: str, games: dict):
    from bot.service import Service, Settings
    from bot.storage import open_storage

    storage = open_storage(database)  # durable
    await storage.open()
    return Service(storage, games=games, settings=Settings(images=False), cache_size=256)


async def measure(database: str, count: int, plays: int, seconds: float) -> dict[str, float]:
    from bot.storage import open_storage

    games, game_id = _games()
    rng = random.Random(2026)
    start = time.perf_counter()
    filler = open_storage(database, durable=False)
    await filler.open()
    await filler.import_rows(_copies(await _template(games, game_id, rng), count))
    await filler.close()
    filled = time.perf_counter() - start

    service = await _service(database, games)
    players = await Players.of(service, list(range(1, count + 1)), rng)
    play_times: list[float] = []
    board_times: list[float] = []
    while len(play_times) < plays and players.turns:
        elapsed = await players.play(rng.randint(1, count))
        if elapsed is None:
            continue
        play_times.append(elapsed)
        t0 = time.perf_counter()
        await service.handle(rng.randint(1, count), 3, "p3", "board", guild=1)
        board_times.append(time.perf_counter() - t0)
    # 20 games at once, one process (the channels the two processes use next are others)
    t0 = time.perf_counter()
    one = await players.concurrently(list(range(1, CONCURRENT + 1)), seconds) / (time.perf_counter() - t0)
    await service.close()
    two = _two_processes(database, list(range(CONCURRENT + 1, 2 * CONCURRENT + 1)), seconds)
    return {
        "filled": filled,
        "play50": _pct(play_times, 0.5),
        "play99": _pct(play_times, 0.99),
        "board50": _pct(board_times, 0.5),
        "board99": _pct(board_times, 0.99),
        "one": one,
        "two": two,
        "mean": statistics.mean(play_times) * 1000,
    }


def _two_processes(database: str, channels: list[int], seconds: float) -> float:
    """Two OS processes of CONCURRENT/2 games each on the same database, started together."""
    begin = time.time() + 3.0  # both load their games first, then start at this moment
    halves = [channels[0::2], channels[1::2]]
    procs = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "tests.bench",
                "service",
                "--worker",
                database,
                "--channels",
                ",".join(map(str, half)),
                "--seconds",
                str(seconds),
                "--begin",
                str(begin),
            ],
            stdout=subprocess.PIPE,
            text=True,
        )
        for half in halves
    ]
    done = [json.loads(p.communicate(timeout=120)[0]) for p in procs]
    return sum(d["moves"] for d in done) / max(d["elapsed"] for d in done)


async def _worker(database: str, channels: list[int], seconds: float, begin: float) -> None:
    games, _ = _games()
    service = await _service(database, games)
    players = await Players.of(service, channels, random.Random(channels[0]))
    await asyncio.sleep(max(0.0, begin - time.time()))
    t0 = time.perf_counter()
    moves = await players.concurrently(channels, seconds)
    elapsed = time.perf_counter() - t0
    await service.close()
    print(json.dumps({"moves": moves, "elapsed": elapsed}))


# --------------------------------------------------------------- databases
class Databases:
    """Fresh empty databases of each kind asked for, cleaned up afterwards."""

    def __init__(self, tmp: Path, postgres_url: str | None) -> None:
        self.tmp = tmp
        self.postgres_url = postgres_url
        self.server: Any = None
        self.made: list[str] = []

    def fresh(self, kind: str, tag: str) -> str:
        from tests import postgres_server

        if kind == "sqlite":
            return str(self.tmp / f"bench-{tag}.sqlite")
        if self.server is None:
            if self.postgres_url:
                self.server = postgres_server.Server(self.postgres_url)
            else:
                print("starting a throwaway PostgreSQL cluster (fsync on) ...", flush=True)
                self.server = postgres_server.start(durable=True)
        url = self.server.schema("bench")
        self.made.append(url)
        return url

    def close(self) -> None:
        if self.server is not None:
            for url in self.made:
                self.server.drop_schema(url)
            self.server.stop()


def _kind(database: str) -> str:
    return "postgres" if database.startswith(("postgres://", "postgresql://")) else "sqlite"


def run(
    kinds: list[str], sizes: list[int], plays: int, seconds: float, postgres_url: str | None, sqlite_path: str | None
) -> int:
    results: list[tuple[str, int, dict[str, float]]] = []
    with tempfile.TemporaryDirectory() as tmp:
        dbs = Databases(Path(tmp), postgres_url)
        try:
            for count in sizes:
                for kind in kinds:
                    database = sqlite_path if kind == "sqlite" and sqlite_path else dbs.fresh(kind, f"{count}")
                    figures = asyncio.run(measure(database, count, plays, seconds))
                    print(f"{kind} {count}: filled in {figures['filled']:.1f} s", flush=True)
                    results.append((kind, count, figures))
        finally:
            dbs.close()
    header = (
        f"{'backend':<9} {'games':>6}  {'play p50':>8} {'play p99':>8}  {'board p50':>9} {'board p99':>9}  "
        f"{'actions/s, 20 games: 1 process':>31} {'2 processes':>11}"
    )
    print()
    print(header)
    print("-" * len(header))
    for kind, count, f in results:
        print(
            f"{kind:<9} {count:>6}  {f['play50']:>6.1f}ms {f['play99']:>6.1f}ms  {f['board50']:>7.1f}ms "
            f"{f['board99']:>7.1f}ms  {f['one']:>31.0f} {f['two']:>11.0f}"
        )
    print(
        f"(latency over {plays} commands each; durable: every action on disk before its reply; "
        f"targets: p99 < {TARGET_P99_MS:.0f} ms, >= {TARGET_ACTIONS:.0f} actions/s with 20 games at once)"
    )
    ok = all(max(f["play99"], f["board99"]) < TARGET_P99_MS and f["one"] >= TARGET_ACTIONS for *_, f in results)
    print("targets met" if ok else "targets NOT met")
    return 0


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.bench service")
    parser.add_argument("--database", help="a SQLite file (must not exist yet) or a postgresql:// URL")
    parser.add_argument("--both", action="store_true", help="SQLite and PostgreSQL side by side")
    parser.add_argument("--postgres", help="the PostgreSQL server for --both (default: a throwaway cluster)")
    parser.add_argument("--games", default="1000", help="numbers of stored games, e.g. 1000,10000")
    parser.add_argument("--plays", type=int, default=500)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--worker", help=argparse.SUPPRESS)  # one of the two processes
    parser.add_argument("--channels", help=argparse.SUPPRESS)
    parser.add_argument("--begin", type=float, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        asyncio.run(_worker(args.worker, [int(c) for c in args.channels.split(",")], args.seconds, args.begin))
        return 0
    sizes = [int(n) for n in args.games.split(",")]
    named_postgres = args.database if args.database and _kind(args.database) == "postgres" else None
    if args.both:
        return run(["sqlite", "postgres"], sizes, args.plays, args.seconds, args.postgres or named_postgres, None)
    if named_postgres:
        return run(["postgres"], sizes, args.plays, args.seconds, named_postgres, None)
    if args.database and (Path(args.database).exists() or len(sizes) > 1):
        print(
            "--database FILE: the benchmark fills one new SQLite file (it must not exist yet; one --games "
            "number); leave --database out to use temporary files",
            file=sys.stderr,
        )
        return 2
    return run(["sqlite"], sizes, args.plays, args.seconds, None, args.database)
