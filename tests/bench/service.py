"""Service latency and durable throughput: `python -m tests.bench service [--games N] [--plays N]`.

Stores N games (default 1,000; Rising Cultures when registered, else the
tests' fake game) in a fresh SQLite file, each a few moves in, then measures
through `Service.handle` with rendering excluded:

- `play` latency p50/p99 (random legal actions in random games; the state
  cache is smaller than the number of games, so many commands load a snapshot);
- `board` latency p50/p99;
- sustained durable actions per second (synchronous=FULL: each action is on
  disk before its reply) with 20 games receiving commands at once (a bot's
  normal load; commands arriving together share a commit), and, for
  information, strictly one command after another (bounded by one fsync each).

Targets on the 2-core CI machine: p99 < 50 ms, >= 200 actions/s (20 games at once).
"""
from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from pathlib import Path

import engine

TARGET_P99_MS = 50.0
TARGET_ACTIONS = 200.0


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
    state = await service._state(rec)
    seats = game.to_act(state)
    if not seats:
        return None
    player = rec.user_at(seats[0])
    return player.user, player.name, game.legal_actions(state, seats[0])


async def _populate(path: Path, games: dict, game_id: str, count: int, moves: int, rng: random.Random) -> None:
    from bot.service import Service, Settings
    from bot.storage import SQLiteStorage

    storage = SQLiteStorage(path, durable=False)  # filling the database fast; measured runs are durable
    await storage.open()
    service = Service(storage, games=games, settings=Settings(images=False))
    for channel in range(1, count + 1):
        a, b = 2 * channel, 2 * channel + 1
        await service.handle(channel, a, f"p{a}", f"game new {game_id} seed={channel}", guild=1)
        await service.handle(channel, b, f"p{b}", "game join", guild=1)
        await service.handle(channel, a, f"p{a}", "game start", guild=1)
        for _ in range(moves):
            turn = await _acting(service, channel)
            if turn is None:
                break
            user, name, legal = turn
            await service.handle(channel, user, name, "play", rng.choice(legal), guild=1)
    await storage.close()


async def _run(count: int, plays: int, seconds: float) -> int:
    from bot.service import Service, Settings
    from bot.storage import SQLiteStorage

    games, game_id = _games()
    rng = random.Random(2026)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.sqlite"
        start = time.perf_counter()
        await _populate(path, games, game_id, count, 6, rng)
        print(f"stored {count} {game_id} games in {time.perf_counter() - start:.1f} s")

        storage = SQLiteStorage(path)  # durable: synchronous=FULL
        await storage.open()
        service = Service(storage, games=games, settings=Settings(images=False), cache_size=256)

        # who may act where, as players know it from the last reply's buttons
        turns: dict[int, dict[int, list[str]]] = {}
        for channel in range(1, count + 1):
            turn = await _acting(service, channel)
            if turn is not None:
                turns[channel] = {turn[0]: turn[2]}

        async def play(channel: int) -> float | None:
            choices = turns.get(channel)
            if not choices:
                return None
            user = rng.choice(list(choices))
            t0 = time.perf_counter()
            reply = await service.handle(channel, user, f"p{user}", "play", rng.choice(choices[user]), guild=1)
            elapsed = time.perf_counter() - t0
            assert not reply.error or reply.stale, reply.text
            if reply.error:
                turn = await _acting(service, channel)
                turns[channel] = {turn[0]: turn[2]} if turn else {}
                return None
            turns[channel] = reply.choices
            return elapsed

        play_times: list[float] = []
        board_times: list[float] = []
        while len(play_times) < plays and turns:
            elapsed = await play(rng.randint(1, count))
            if elapsed is None:
                continue
            play_times.append(elapsed)
            t0 = time.perf_counter()
            await service.handle(rng.randint(1, count), 3, "p3", "board", guild=1)
            board_times.append(time.perf_counter() - t0)

        # sustained durable actions per second, one command after another
        done, t0 = 0, time.perf_counter()
        while time.perf_counter() - t0 < seconds:
            done += await play(rng.randint(1, count)) is not None
        sequential = done / (time.perf_counter() - t0)

        # 20 games receiving commands at once
        async def worker(channels: list[int], stop: float) -> int:
            n = 0
            while time.perf_counter() < stop and channels:
                channel = rng.choice(channels)
                if await play(channel) is None and not turns.get(channel):
                    channels.remove(channel)
                else:
                    n += 1
            return n

        pools = [list(range(1 + i, count + 1, 20)) for i in range(20)]
        t0 = time.perf_counter()
        counts = await asyncio.gather(*(worker(p, t0 + seconds) for p in pools))
        concurrent = sum(counts) / (time.perf_counter() - t0)
        await storage.close()

    p50, p99 = _pct(play_times, 0.5), _pct(play_times, 0.99)
    b50, b99 = _pct(board_times, 0.5), _pct(board_times, 0.99)
    print(f"play  latency over {len(play_times)} commands: p50 {p50:.1f} ms, p99 {p99:.1f} ms "
          f"(target p99 < {TARGET_P99_MS:.0f} ms)")
    print(f"board latency over {len(board_times)} commands: p50 {b50:.1f} ms, p99 {b99:.1f} ms "
          f"(target p99 < {TARGET_P99_MS:.0f} ms)")
    print(f"durable actions/s: {concurrent:.0f} with 20 games at once (target >= {TARGET_ACTIONS:.0f}); "
          f"{sequential:.0f} strictly one after another (one fsync each); "
          f"mean play {statistics.mean(play_times) * 1000:.1f} ms")
    ok = max(p99, b99) < TARGET_P99_MS and concurrent >= TARGET_ACTIONS
    print("targets met" if ok else "targets NOT met")
    return 0


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.bench service")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--plays", type=int, default=500)
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args(argv)
    return asyncio.run(_run(args.games, args.plays, args.seconds))
