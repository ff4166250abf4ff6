"""Memory benchmark: `python -m tests.bench memory [--stored N] [--tables N] [--workers N] [--db PATH]`.

What the bot holds after drawing many tables' boards: a database of N stored
games (default 10,000, the four games in turn, each started and a few random
moves in), then the boards of `--tables` different tables (default 200, a
quarter of each game) drawn through `Service.handle(..., "board")`, 20 at a
time, as the Discord bot draws them: in `--workers` drawing processes (default:
one per core; 0 draws in this process on threads, as the bot did before).

Printed per process and in total: resident memory (RSS) and proportional
memory (PSS: shared pages split between the processes that share them), after
the last board, once the workers have gone idle. The main process imports the
Discord adapter as the bot does. The database is filled in a separate process
(so filling it leaves nothing in the measured one); `--db PATH` keeps it for
another run. Target (issue 15): RSS of the main process plus the workers
<= 150 MB.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import engine

TARGET_MB = 150.0
#: (game, players, options) of the stored tables, in turn.
TABLES = [("rising-cultures", 2, ""), ("rise-of-empires", 4, ""), ("cradle", 5, "non_player=true"), ("mosaic", 4, "")]
USER_BASE = 10_000


def _kib(pid: int, key: str, name: str = "status") -> float:
    try:
        with open(f"/proc/{pid}/{name}") as handle:
            for line in handle:
                if line.startswith(key):
                    return float(line.split()[1])
    except OSError:
        pass
    return float("nan")


def rss_mb(pid: int) -> float:
    return _kib(pid, "VmRSS:") / 1024


def pss_mb(pid: int) -> float:
    return _kib(pid, "Pss:", "smaps_rollup") / 1024


def users_of(channel: int, players: int) -> list[int]:
    return [USER_BASE + channel * 8 + i for i in range(players)]


# ---- filling the database (in its own process) -------------------------------------------
async def populate(path: Path, stored: int, moves: int) -> None:
    from bot.service import Service, Settings
    from bot.storage import SQLiteStorage

    storage = SQLiteStorage(path, durable=False)
    await storage.open()
    service = Service(storage, settings=Settings(images=False), cache_size=64)
    rng = random.Random(15)
    for channel in range(1, stored + 1):
        game_id, players, options = TABLES[(channel - 1) % len(TABLES)]
        users = users_of(channel, players)
        await service.handle(channel, users[0], f"p{users[0]}", f"game new {game_id} seed={channel} {options}")
        for u in users[1:]:
            await service.handle(channel, u, f"p{u}", "game join")
        await service.handle(channel, users[0], f"p{users[0]}", "game start fixed")
        for _ in range(moves):
            rec = await storage.open_table(channel)
            assert rec is not None, f"no open table in channel {channel}"
            state = await service.tables.state(rec)
            game = engine.get(game_id)
            acting = game.to_act(state)
            if not acting:
                break
            player = rec.user_at(acting[0])
            assert player is not None, f"no player in seat {acting[0]}"
            await service.handle(
                channel, player.user, player.name, "play", rng.choice(game.legal_actions(state, acting[0]))
            )
        if channel % 1000 == 0:
            print(f"  stored {channel} games", flush=True)
    await storage.close()


# ---- drawing and measuring ---------------------------------------------------------------
def spread(stored: int, tables: int) -> list[int]:
    """Channels of `tables` stored tables, the same number of each game, spread over the database."""
    per_game, rows = max(1, tables // len(TABLES)), max(1, stored // len(TABLES))
    step = max(1, rows // per_game)
    return [g + 1 + len(TABLES) * k for g in range(len(TABLES)) for k in range(0, rows, step)[:per_game]]


async def measure(path: Path, stored: int, tables: int, workers: int) -> bool:
    import bot.discord  # noqa: F401 - the bot's main process has the adapter loaded
    from bot.service import Service
    from bot.storage import SQLiteStorage

    storage = SQLiteStorage(path)
    await storage.open()
    service = Service(storage)
    pool = None
    try:
        if workers:
            from bot.workers import WorkerPool

            pool = service.workers = WorkerPool(workers, initializer="renderers:warm", name="bench-render")
            await pool.start()
        chosen = spread(stored, tables)
        t0 = time.perf_counter()
        drawn = 0
        for start in range(0, len(chosen), 20):
            batch = chosen[start : start + 20]
            replies = await asyncio.gather(*(service.handle(c, 1, "viewer", "board") for c in batch))
            drawn += sum(r.image is not None for r in replies)
        elapsed = time.perf_counter() - t0
        gc.collect()
        await asyncio.sleep(2.5)  # the workers tidy up once idle (bot/workers.py TIDY_AFTER)
        pids = [("main", os.getpid())] + [(f"worker {i + 1}", pid) for i, pid in enumerate(pool.pids if pool else [])]
        rows = [(name, rss_mb(pid), pss_mb(pid)) for name, pid in pids]
    finally:
        if pool is not None:
            await pool.close()
        await storage.close()
    mode = f"{workers} drawing processes" if workers else "drawn in this process (threads)"
    print(
        f"memory after drawing {drawn} boards of {len(chosen)} different tables "
        f"({len(TABLES)} games) in {elapsed:.1f} s, {stored} games stored; {mode}"
    )
    for name, rss, pss in rows:
        print(f"  {name:<9} RSS {rss:6.1f} MB   PSS {pss:6.1f} MB")
    total, total_pss = sum(r[1] for r in rows), sum(r[2] for r in rows)
    print(f"  {'total':<9} RSS {total:6.1f} MB   PSS {total_pss:6.1f} MB   (target: RSS <= {TARGET_MB:.0f} MB)")
    print("  (RSS counts the pages the processes share, libraries and fonts, once in each; PSS splits them)")
    good = total <= TARGET_MB
    print(f"  {'meets' if good else 'MISSES'} the target")
    return good


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="python -m tests.bench memory", description=__doc__.splitlines()[0])
    p.add_argument("--stored", type=int, default=10_000, help="games in the database (default 10000)")
    p.add_argument("--tables", type=int, default=200, help="different tables whose board is drawn (default 200)")
    p.add_argument("--moves", type=int, default=3, help="random moves into each stored game (default 3)")
    p.add_argument("--workers", type=int, default=None, help="drawing processes (default: the cores; 0: threads)")
    p.add_argument("--db", help="database file: filled when missing, reused otherwise")
    p.add_argument("--populate-only", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.populate_only:
        asyncio.run(populate(Path(args.db), args.stored, args.moves))
        return 0
    workers = args.workers
    if workers is None:
        from bot.workers import default_size

        workers = default_size()
    with tempfile.TemporaryDirectory(prefix="epochs-memory-") as tmp:
        path = Path(args.db) if args.db else Path(tmp) / "memory.sqlite"
        if not path.exists():
            t0 = time.perf_counter()
            subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "tests.bench",
                    "memory",
                    "--populate-only",
                    "--db",
                    str(path),
                    "--stored",
                    str(args.stored),
                    "--moves",
                    str(args.moves),
                ],
                check=True,
            )
            print(f"stored {args.stored} games in {time.perf_counter() - t0:.0f} s ({path.stat().st_size >> 20} MB)")
        asyncio.run(measure(path, args.stored, args.tables, workers))
    return 0
