"""The web table's figures (issue 28 §5):

    python -m tests.bench web                 SQLite, 1,000 stored games
    python -m tests.bench web --postgres      the same on a throwaway PostgreSQL cluster
    --games 1000  --requests 300  --commits 40  --pages 200

- page p50/p95: the public page and seat pages of random tables among the stored games,
  over HTTP on the loopback; "first" is a table's first view in this process (its story
  worked out from the log), "again" a view of a table whose position was read before
  (every page after the first of a position: the live updates of all its open pages);
- commit to update: a move committed by another service on the same database (another
  process, as far as the page can tell) until an open page has its event and has fetched
  its new live part, p50/p95;
- 200 open pages on one process (event streams over 50 tables): the process's memory
  before and after, and the commit-to-update time with all of them open;
- the live task's cost: one look at the versions of the open tables, per look.

Beside each page figure, the CPU time this process spent on it (`time.process_time`, the
client's share included, the database server's not): on the shared machine the wall-clock
figures follow the other helpers' load, the CPU time far less, so a change is compared by both.

Pictures are left out of the page figures (the HTML never waits for one; boards are
timed by `python -m tests.bench render`): the renderer here answers "no picture".
Targets on the 2-core machine: page p95 < 150 ms, commit to update p95 < 1 s.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import engine

from .memory import rss_mb
from .service import Databases, _copies, _pct

TARGET_PAGE_P95_MS = 150.0
TARGET_UPDATE_P95_S = 1.0
#: Tables played through the service for the copies: every game, at several lengths.
TEMPLATE = 24
GAMES = [("rising-cultures", 2), ("rise-of-empires", 3), ("cradle", 4), ("mosaic", 3)]


def nothing(
    game_id: str, view: dict[str, Any], /, *, seat: int | None, part: str | None = None, highlight: Sequence[str] = ()
) -> None:
    return None


async def _template(rng: random.Random) -> dict:
    """TEMPLATE tables of the four games, played at random 5 to 150 steps in, as rows."""
    from bot.service import Service, Settings
    from bot.storage import SQLiteStorage

    with tempfile.TemporaryDirectory() as tmp:
        storage = SQLiteStorage(Path(tmp) / "template.sqlite", durable=False)
        await storage.open()
        service = Service(storage, settings=Settings(images=False), renderer=nothing)
        for channel in range(1, TEMPLATE + 1):
            game_id, players = GAMES[channel % len(GAMES)]
            users = [100 * channel + i for i in range(players)]
            await service.handle(channel, users[0], f"p{users[0]}", f"game new {game_id} seed={channel}", guild=1)
            for user in users[1:]:
                await service.handle(channel, user, f"p{user}", "game join", guild=1)
            await service.handle(channel, users[0], f"p{users[0]}", "game start fixed", guild=1)
            for _ in range(rng.randint(5, 150)):
                rec = await storage.open_table(channel)
                if rec is None or rec.status != "active":
                    break
                game = engine.get(rec.game)
                state = await service.tables.state(rec)
                seat = rng.choice(game.to_act(state))
                player = rec.user_at(seat)
                assert player is not None
                action = rng.choice(game.legal_actions(state, seat))
                await service.handle(channel, player.user, player.name, "play", action, guild=1)
        rows = await storage.export_rows()
        await storage.close()
    return rows


async def _web(database: str):
    import aiohttp
    from aiohttp.test_utils import TestClient, TestServer

    from bot.service import Service, Settings
    from bot.storage import open_storage
    from bot.web.app import WebTable
    from bot.web.gate import Budget
    from bot.web.links import Links, signing_secret
    from bot.web.tokens import Signer

    storage = open_storage(database)
    await storage.open()
    service = Service(storage, settings=Settings(images=False), renderer=nothing, cache_size=256)
    links = Links("http://bench", Signer(await signing_secret(storage, "", time.time())))
    service.links = links
    # the bench is one client asking fast and holding every open page: no rate limit, and no cap
    # per address (issue 53's budget would refuse its 33rd page from one address)
    many = 1 << 20
    web = WebTable(service, links, budget=Budget(many, many, many, many))
    web.reads.burst = web.reads.rate = 1e9
    # a browser holds one connection per open page: no pool limit (aiohttp's default is 100)
    client = TestClient(TestServer(web.app), connector=aiohttp.TCPConnector(limit=0))
    await client.start_server()
    return service, web, client


async def _pages(
    client, web, service, ids: list[int], rng: random.Random, requests: int
) -> tuple[dict[str, list[float]], dict[str, list[float]]]:
    """(wall-clock seconds, this process's CPU seconds) of each page, "first" and "again"."""
    times: dict[str, list[float]] = {"first": [], "again": []}
    cpu: dict[str, list[float]] = {"first": [], "again": []}
    seen: set[tuple[int, int | None]] = set()
    chosen = []
    for table in rng.sample(ids, min(len(ids), requests // 2)):
        rec = await service.storage.table(table)
        chosen.append((table, rng.choice([None] + [p.seat for p in rec.players])))
    for table, seat in chosen + chosen:  # each page once, then again
        rec = await service.storage.table(table)
        path = web.links.table_path(table)
        if seat is not None:
            player = rec.user_at(seat)
            path = web.links.seat_path(table, seat, player.user, 0)
        kind = "again" if (table, seat) in seen else "first"
        started, cpu_started = time.perf_counter(), time.process_time()
        response = await client.get(path)
        await response.read()
        times[kind].append(time.perf_counter() - started)
        cpu[kind].append(time.process_time() - cpu_started)
        assert response.status == 200, (path, response.status)
        seen.add((table, seat))
    return times, cpu


async def _acting(service, table: int, rng: random.Random):
    rec = await service.storage.table(table)
    if rec is None or rec.status != "active":
        return None
    game = engine.get(rec.game)
    state = await service.tables.state(rec)
    seat = rng.choice(game.to_act(state))
    return rec, rec.user_at(seat), rng.choice(game.legal_actions(state, seat))


async def _follow(client, web, stream, table: int, committed: float) -> float:
    """One open page's update: its event, then its live part fetched."""
    await asyncio.wait_for(stream.content.readuntil(b"\n\n"), 10)
    live = await client.get(web.links.table_path(table) + "/live")
    await live.read()
    return time.perf_counter() - committed


async def _updates(client, web, mover, tables: list[int], pages_per_table: int, commits: int, rng) -> list[float]:
    """Open event streams on `tables`; commit moves with `mover` (another service on the
    database); the time from each commit to every page of its table having its event and
    its fetched live part."""
    streams: dict[int, list[Any]] = {}
    for table in tables:
        for _ in range(pages_per_table):
            response = await client.get(web.links.table_path(table) + "/events")
            await response.content.readuntil(b"\n\n")
            streams.setdefault(table, []).append(response)
    while web.watcher.pages < len(tables) * pages_per_table:
        await asyncio.sleep(0.01)
    delays: list[float] = []
    for _ in range(commits):
        table = rng.choice(tables)
        acting = await _acting(mover, table, rng)
        if acting is None:
            continue
        rec, player, action = acting
        reply = await mover.handle(rec.channel, player.user, player.name, "play", action, guild=1)
        committed = time.perf_counter()
        if reply.error:
            continue

        delays += await asyncio.gather(*(_follow(client, web, s, table, committed) for s in streams[table]))
        await asyncio.sleep(rng.uniform(0.05, 0.3))  # commits come at any moment of the poll
    for responses in streams.values():
        for response in responses:
            response.close()
    return delays


async def measure(database: str, count: int, requests: int, commits: int, pages: int) -> None:
    from bot.service import Service, Settings
    from bot.storage import open_storage

    rng = random.Random(28)
    print(f"filling {count:,} games ...", flush=True)
    filler = open_storage(database)
    await filler.open()
    await filler.import_rows(_copies(await _template(rng), count))
    await filler.close()
    service, web, client = await _web(database)
    mover_storage = open_storage(database)
    await mover_storage.open()
    mover = Service(mover_storage, settings=Settings(images=False), renderer=nothing)
    try:
        ids = [r.id for r in await service.storage.tables(1) if r.status == "active"]
        times, cpu = await _pages(client, web, service, ids, rng, requests)
        for kind, samples in times.items():
            print(
                f"page, {kind:>5}: p50 {_pct(samples, 0.5):6.1f} ms  p95 {_pct(samples, 0.95):6.1f} ms  "
                f"({len(samples)} requests; target p95 < {TARGET_PAGE_P95_MS:.0f} ms)   load {_load()}"
            )
            print(
                f"  its CPU in this process: p50 {_pct(cpu[kind], 0.5):6.1f} ms  p95 {_pct(cpu[kind], 0.95):6.1f} ms  "
                f"(client and server; the database's own work not included; other processes' load barely moves it)"
            )
        few = rng.sample(ids, 10)
        delays = await _updates(client, web, mover, few, 1, commits, rng)
        print(
            f"commit to update, 1 page on each of 10 tables: p50 {_pct(delays, 0.5) / 1000:.2f} s  "
            f"p95 {_pct(delays, 0.95) / 1000:.2f} s  ({len(delays)} updates; target p95 < "
            f"{TARGET_UPDATE_P95_S:.0f} s)   load {_load()}"
        )
        before = rss_mb(os.getpid())
        many = rng.sample(ids, 50)
        delays = await _updates(client, web, mover, many, pages // 50, commits, rng)
        after = rss_mb(os.getpid())
        print(
            f"{pages} open pages (50 tables): commit to update p50 {_pct(delays, 0.5) / 1000:.2f} s  "
            f"p95 {_pct(delays, 0.95) / 1000:.2f} s  ({len(delays)} updates); memory of the process "
            f"{before:.0f} MB before, {after:.0f} MB with them open (client and server in one process)   "
            f"load {_load()}"
        )
        looks = []
        for _ in range(50):
            started = time.perf_counter()
            await service.storage.versions(many)
            looks.append(time.perf_counter() - started)
        print(
            f"live task: one look at 50 open tables' versions p50 {_pct(looks, 0.5):.2f} ms "
            f"p95 {_pct(looks, 0.95):.2f} ms, {1 / web.watcher.every:.0f} looks a second while any page is open"
        )
    finally:
        await client.close()
        await service.close()
        await mover.close()


def _load() -> str:
    return "{:.1f} {:.1f} {:.1f}".format(*os.getloadavg())


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.bench web", description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--commits", type=int, default=40)
    parser.add_argument("--pages", type=int, default=200)
    parser.add_argument("--postgres", action="store_true", help="on a throwaway PostgreSQL cluster")
    parser.add_argument("--database", default=None, help="an empty PostgreSQL server URL to use instead")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        databases = Databases(Path(tmp), args.database)
        try:
            kind = "postgres" if args.postgres or args.database else "sqlite"
            database = databases.fresh(kind, "web")
            print(f"web table on {kind}, {args.games:,} stored games; load {_load()} (2 cores)")
            asyncio.run(measure(database, args.games, args.requests, args.commits, args.pages))
        finally:
            databases.close()
    print(f"uptime: {os.popen('uptime').read().strip()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(__import__("sys").argv[1:]))
