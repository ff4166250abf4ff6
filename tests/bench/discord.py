"""Discord adapter latency through the loopback emulator: `python -m tests.bench discord`.

Measures, with the real discord.py client, service and SQLite storage, the time
from the emulator sending INTERACTION_CREATE for `/play` to the bot's interaction
callback (what Discord's 3-second deadline is about), and to the public move
message, with N stored games (default 1,000):

- sequential: one `/play` at a time on random games;
- concurrent: 20 games receiving a `/play` at the same moment, repeated;
- autocomplete of `/play` (answered directly, it cannot be deferred), alone and 20 at once.

The emulator runs in the same process and event loop as the bot, so its own work
is inside the figures (they are pessimistic). Target: callback p99 < 250 ms.
"""
from __future__ import annotations

import argparse
import asyncio
import logging
import random
import statistics
import tempfile
import time
from pathlib import Path

import engine

GAME = "rising-cultures"
TARGET_MS = 250.0


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered)) - 1))]


def report(label: str, values: list[float]) -> str:
    ms = [v * 1000 for v in values]
    return (f"{label:<44} n={len(ms):4d}  p50={pct(ms, 50):7.1f} ms  p99={pct(ms, 99):7.1f} ms  "
            f"max={max(ms):7.1f} ms  mean={statistics.fmean(ms):6.1f} ms")


async def _setup_games(service, emu, count: int, users: list[int]) -> None:
    for channel in range(1, count + 1):
        if channel not in emu.channels:
            emu.add_channel(channel, f"game-{channel}")
        a, b = users[(channel * 2) % len(users)], users[(channel * 2 + 1) % len(users)]
        await service.handle(channel, a, f"P{a}", "game new", GAME, guild=emu.guild_id)
        await service.handle(channel, b, f"P{b}", "game join", guild=emu.guild_id)
        await service.handle(channel, a, f"P{a}", "game start", "fixed", guild=emu.guild_id)


async def _move(harness, channel: int, rnd: random.Random) -> tuple[int, str] | None:
    """(user, action) for someone who must act in this channel's game, or None when it is over."""
    table = await harness.storage.open_table(channel)
    if table is None:
        return None
    game = engine.GAMES[table.game]
    state = game.loads((await harness.storage.snapshot(table.id))[1])
    acting = game.to_act(state)
    if not acting:
        return None
    seat = acting[0]
    user = next(s.user for s in table.seats if s.seat == seat)
    return user, rnd.choice(game.legal_actions(state, seat))


async def _play(harness, emu, channel: int, rnd: random.Random) -> tuple[float, float] | None:
    move = await _move(harness, channel, rnd)
    if move is None:
        return None
    user, action = move
    before = len(emu.public_messages(channel))
    inter = await emu.slash(emu.users[user], channel, "play", {"action": action})
    await emu.finished(inter, timeout=30)  # callback, public post, then the caller's ephemeral edit
    posted = emu.public_messages(channel)[before:]
    if not posted:
        raise AssertionError(f"/play {action!r} in channel {channel} was not accepted: {emu.reply_text(inter)}")
    return inter.callback_at - inter.sent_at, posted[0]["at"] - inter.sent_at


async def _suggest(harness, emu, channel: int, rnd: random.Random) -> float | None:
    """Autocomplete cannot be deferred: its answer is the callback itself."""
    move = await _move(harness, channel, rnd)
    if move is None:
        return None
    user, action = move
    inter = await emu.autocomplete(emu.users[user], channel, "play", {"action": action[:3]}, "action")
    await emu.answered(inter, timeout=30)
    return inter.callback_at - inter.sent_at


async def run(games: int, samples: int, rounds: int, concurrency: int, images: bool) -> int:
    from tests.discord.emulator import DiscordEmulator
    from tests.discord.harness import Harness

    logging.basicConfig(level=logging.ERROR)
    emu = DiscordEmulator()
    await emu.start()
    emu.patch_discord()
    users = [emu.add_user(5000 + i, f"P{5000 + i}").id for i in range(40)]
    with tempfile.TemporaryDirectory() as tmp:
        harness = Harness(emu, Path(tmp) / "bench.sqlite", images=images)
        await harness.start()
        try:
            t0 = time.perf_counter()
            harness.service.settings.images = False  # storing the games is not what is measured
            await _setup_games(harness.service, emu, games, users)
            harness.service.settings.images = images
            print(f"stored {games} started {GAME} games in {time.perf_counter() - t0:.1f} s "
                  f"(images {'on' if images else 'off'})")
            rnd = random.Random(7)
            seq_cb, seq_done = [], []
            for _ in range(samples):
                result = await _play(harness, emu, rnd.randint(1, games), rnd)
                if result:
                    seq_cb.append(result[0])
                    seq_done.append(result[1])
            auto = [t for t in [await _suggest(harness, emu, rnd.randint(1, games), rnd)
                                for _ in range(samples)] if t is not None]
            auto_con: list[float] = []
            for _ in range(rounds):
                channels = rnd.sample(range(1, games + 1), concurrency)
                auto_con += [t for t in await asyncio.gather(*(_suggest(harness, emu, c, rnd) for c in channels))
                             if t is not None]
            con_cb, con_done = [], []
            for _ in range(rounds):
                channels = rnd.sample(range(1, games + 1), concurrency)
                results = await asyncio.gather(*(_play(harness, emu, c, rnd) for c in channels))
                for result in results:
                    if result:
                        con_cb.append(result[0])
                        con_done.append(result[1])
        finally:
            await harness.stop()
            await emu.stop()
    print(report("/play INTERACTION_CREATE -> callback", seq_cb))
    print(report("/play INTERACTION_CREATE -> public message", seq_done))
    print(report("/play autocomplete -> answer", auto))
    print(report(f"{concurrency} autocompletes at once -> answer", auto_con))
    print(report(f"{concurrency} games at once: -> callback", con_cb))
    print(report(f"{concurrency} games at once: -> public message", con_done))
    worst = max(pct([v * 1000 for v in values], 99) for values in (seq_cb, con_cb, auto, auto_con))
    print(f"target: callback p99 < {TARGET_MS:.0f} ms (Discord's limit is 3,000 ms) -> "
          f"{'met' if worst < TARGET_MS else 'NOT met'} (worst p99 {worst:.1f} ms)")
    return 0


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.bench discord", description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="stored games (default 1000)")
    parser.add_argument("--samples", type=int, default=300, help="sequential /play samples")
    parser.add_argument("--rounds", type=int, default=15, help="rounds of concurrent /play")
    parser.add_argument("--concurrency", type=int, default=20, help="games receiving /play at once")
    parser.add_argument("--no-images", action="store_true", help="do not render board images")
    args = parser.parse_args(argv)
    if GAME not in engine.GAMES:
        print(f"{GAME} is not registered; nothing to measure")
        return 1
    return asyncio.run(run(args.games, args.samples, args.rounds, args.concurrency, not args.no_images))
