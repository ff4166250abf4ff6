"""Ratings benchmark: `python -m tests.bench ratings [--records N,N] [--backend postgres]`.

What ratings cost (issue 27 §4), on one server and one game (the worst case: every record
in one fold): the game-ending commit with its incremental update, against the same commit
with the update left out; the worst single commit (a game that ended before all the others,
so every later record is folded again); `epochs ratings` (the check) and `--rebuild` after
every rating was lost. On temporary SQLite files, or PostgreSQL schemas (a throwaway cluster,
fsync on, unless `--postgres URL` names a server). Figures only; nothing is asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from bot.storage import Backend, open_storage
from bot.storage.base import Change, GameRecord, RecordSeat
from bot.storage.postgres import PostgresStorage
from bot.storage.sqlite import SQLiteStorage
from tests.bench.service import Databases

GUILD = 7


def records(count: int, people: int, seed: int) -> list[GameRecord]:
    """`count` games of 2-4 of `people` people, ending an hour apart, with random places
    (a tie now and then) and a resignation now and then."""
    rng = random.Random(seed)
    out = []
    for n in range(count):
        players = rng.sample(range(1, people + 1), rng.choice((2, 3, 3, 4)))
        places = sorted(rng.choice((1, 2, 2, 3, 4)) for _ in players)
        seats = [
            RecordSeat(seat, user, f"p{user}", None, 10 - place, place, place == 1, rng.random() < 0.03)
            for seat, (user, place) in enumerate(zip(players, places, strict=True))
        ]
        out.append(GameRecord(0, GUILD, "cradle", "end", 3600.0 * n, 3600.0 * n + 1800, 50, False, seats))
    return out


async def fill(storage: Backend, games: list[GameRecord]) -> list[float]:
    """Write each game's record with the commit that ends it; the seconds each commit took."""
    took = []
    for record in games:
        rec = await storage.create_table(
            guild=GUILD,
            channel=1,
            game=record.game,
            creator=1,
            options={},
            seed=1,
            seats=[],
            remind_every=0,
            now=record.started,
        )
        record.table = rec.id
        began = time.perf_counter()
        await storage.commit(rec, Change(status="finished", record=record), record.ended)
        took.append(time.perf_counter() - began)
    return took


async def timed(work: Callable[[], Awaitable[Any]]) -> float:
    began = time.perf_counter()
    await work()
    return time.perf_counter() - began


async def measure(database: str, count: int, people: int, seed: int, *, rated: bool) -> dict[str, float]:
    storage = open_storage(database, durable=False)
    await storage.open()
    backend = PostgresStorage if isinstance(storage, PostgresStorage) else SQLiteStorage
    original = backend._refold
    if not rated:  # the same commits with the rating update left out, to see what it costs

        async def nothing(*_args: Any, **_kw: Any) -> list[Any]:
            return []

        backend._refold = nothing  # type: ignore[method-assign]
    try:
        commits = await fill(storage, records(count, people, seed))
        # the median, not the mean: on a shared machine a few commits wait hundreds of ms for a core
        out = {"commit_ms": statistics.median(commits) * 1000, "commit_p95_ms": _p95(commits) * 1000}
        if not rated:
            return out
        earliest = records(1, people, seed + 1)[0]
        earliest.ended = -1.0  # ends before every other game: all of them are folded again
        out["out_of_order_s"] = (await fill(storage, [earliest]))[0]
        out["check_s"] = await timed(lambda: storage.recompute_ratings(write=False))
        rows = await storage.export_rows()
        lost = [(*row[:-3], None, None, row[-1]) for row in rows["record_seats"]]
        out["rebuild_s"] = await timed(lambda: _rebuild(storage, lost))
        return out
    finally:
        backend._refold = original  # type: ignore[method-assign]
        await storage.close()


async def _rebuild(storage: Backend, lost: list[tuple[Any, ...]]) -> None:
    """Every rating lost (NULL), then `epochs ratings --rebuild`'s work; the wiping is not timed
    apart: it is one UPDATE, small beside the fold."""
    assert isinstance(storage, SQLiteStorage | PostgresStorage)
    await storage._write(lambda conn: conn.run("UPDATE record_seats SET mu = NULL, sigma = NULL"))
    results = await storage.recompute_ratings(write=True)
    assert sum(1 for r in results if r.changed) == sum(1 for row in lost if row[2] > 0)


def _p95(values: list[float]) -> float:
    return sorted(values)[int(len(values) * 0.95)]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.bench ratings")
    parser.add_argument("--records", default="1000,10000", help="how many records, comma-separated sizes")
    parser.add_argument("--people", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--backend", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--postgres", default=None, help="a server's URL (default: a throwaway cluster)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="epochs-bench-") as tmp:
        databases = Databases(Path(tmp), args.postgres)
        try:
            for count in (int(n) for n in args.records.split(",")):
                bare, rated = databases.fresh(args.backend, "bare"), databases.fresh(args.backend, "rated")
                without = asyncio.run(measure(bare, count, args.people, args.seed, rated=False))
                out = asyncio.run(measure(rated, count, args.people, args.seed, rated=True))
                report(args.backend, count, args.people, out, without)
        finally:
            databases.close()
    return 0


def report(backend: str, count: int, people: int, out: dict[str, float], without: dict[str, float]) -> None:
    print(f"{backend}: {count} records of one game on one server, {people} people, 2-4 a game")
    print(
        f"  game-ending commit: {out['commit_ms']:.2f} ms median, {out['commit_p95_ms']:.2f} ms p95 with the rating "
        f"update; {without['commit_ms']:.2f} ms, {without['commit_p95_ms']:.2f} ms without"
    )
    print(f"  a game stored after all the others but ended before them: {out['out_of_order_s']:.2f} s (all refolded)")
    print(f"  epochs ratings (check): {out['check_s']:.2f} s; --rebuild of every lost rating: {out['rebuild_s']:.2f} s")
