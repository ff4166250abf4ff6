"""Snapshot cost: `python -m tests.bench serial [game-id ...] [--players N] [--games N] [--seed N]`.

Every accepted move stores the new state's `dumps` text, and every command reads
it back with `loads`, so these two run once per play command beside one step of
the rules. Per game (at its largest player count unless `--players` says
otherwise) this plays random games, keeps the states of the middle half of each
(mid-game: decks dealt, boards filled, decisions pending), and prints the mean
CPU time of `dumps`, `loads` and one random step (`legal_actions` + `apply`)
over those states, and the share of `dumps` in the three: dumps / (step + dumps
+ loads). Issue 15's target is a share of at most 25%.

A second table measures the same share where it was found: whole `play` commands
through the service (a SQLite file without fsync, no images, the state cache warm, so a
command is one step, one `dumps` and the reply), after 100 random moves of a few
tables per game. Nothing here asserts time.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import time

TARGET_SHARE = 0.25


def mid_game_states(game, players: int, seed: int) -> list:
    """The states of the middle half of one random game."""
    rng = random.Random(seed)
    state = game.setup([f"p{i}" for i in range(players)], seed)
    states = [state]
    while not game.is_over(state):
        seat = rng.choice(game.to_act(state))
        state = game.apply(state, seat, rng.choice(game.legal_actions(state, seat))).state
        states.append(state)
    n = len(states)
    return states[n // 4 : 3 * n // 4]


def timed(jobs: dict[str, tuple], repeat: int) -> dict[str, float]:
    """Mean CPU seconds of `fn(item)` over its items, per job.

    The jobs take turns, pass after pass, and each keeps its best pass: on a
    machine shared with other work, a busy moment then slows one pass of each
    rather than every pass of one, and the shares stay comparable.
    """
    clock = time.process_time
    best = {name: float("inf") for name in jobs}
    for _ in range(repeat):
        for name, (fn, items) in jobs.items():
            t0 = clock()
            for item in items:
                fn(item)
            best[name] = min(best[name], (clock() - t0) / len(items))
    return best


def measure(game, players: int, games: int, seed: int, repeat: int) -> dict[str, float]:
    states: list = []
    for i in range(games):
        states.extend(mid_game_states(game, players, seed + i))
    texts = [game.dumps(s) for s in states]
    rng = random.Random(seed)
    moves = []
    for s in states:
        seat = rng.choice(game.to_act(s))
        moves.append((s, seat, rng.choice(game.legal_actions(s, seat))))

    def step(move) -> None:
        s, seat, action = move
        game.legal_actions(s, seat)
        game.apply(s, seat, action)

    out = timed({"dumps": (game.dumps, states), "loads": (game.loads, texts), "step": (step, moves)}, repeat)
    out["states"] = len(states)
    out["kb"] = statistics.fmean(len(t) for t in texts) / 1024
    out["share"] = out["dumps"] / (out["step"] + out["dumps"] + out["loads"])
    return out


async def service_share(game, players: int, tables: int, warm: int, plays: int, seed: int) -> dict[str, float]:
    """CPU of a `play` command through the service, and the part of it spent in `dumps`."""
    import tempfile
    from pathlib import Path

    import engine
    from bot.service import Service, Settings
    from bot.storage import SQLiteStorage

    spent = [0.0]
    dumps = game.dumps

    def timed_dumps(state) -> str:
        t0 = time.process_time()
        try:
            return dumps(state)
        finally:
            spent[0] += time.process_time() - t0

    game.dumps = timed_dumps  # this instance only, for this measurement
    folder = tempfile.TemporaryDirectory()
    # a SQLite file without fsync (issue 48: the in-memory test storage is gone): its CPU is
    # part of a command's, as in the bot
    storage = SQLiteStorage(Path(folder.name) / "serial.sqlite", durable=False)
    await storage.open()
    try:
        service = Service(storage, games=dict(engine.GAMES), settings=Settings(images=False))
        rng = random.Random(seed)
        users = list(range(10, 10 + players))
        for table in range(1, tables + 1):
            await service.handle(table, users[0], f"p{users[0]}", f"game new {game.id} seed={seed + table}", guild=1)
            for user in users[1:]:
                await service.handle(table, user, f"p{user}", "game join", guild=1)
            await service.handle(table, users[0], f"p{users[0]}", "game start fixed", guild=1)

        async def move(table: int) -> float | None:
            rec = await service.storage.open_table(table)
            if rec is None or rec.status != "active":
                return None
            state = await service.tables.state(rec)
            seats = game.to_act(state)
            player = rec.user_at(seats[0])
            assert player is not None, f"no player in seat {seats[0]}"
            action = rng.choice(game.legal_actions(state, seats[0]))
            t0 = time.process_time()
            await service.handle(table, player.user, player.name, "play", action, guild=1)
            return time.process_time() - t0

        for _ in range(warm):
            for table in range(1, tables + 1):
                await move(table)
        spent[0] = 0.0
        times = [t for _ in range(plays) for table in range(1, tables + 1) if (t := await move(table)) is not None]
    finally:
        del game.dumps
        await storage.close()
        folder.cleanup()
    total = sum(times)
    return {
        "plays": len(times),
        "command": total / len(times),
        "dumps": spent[0] / len(times),
        "share": spent[0] / total,
    }


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m tests.bench serial", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("games", nargs="*", help="game ids (default: every game)")
    ap.add_argument("--players", type=int, default=None, help="player count (default: each game's largest)")
    ap.add_argument("--games", type=int, default=6, dest="count", help="random games per game to take states from")
    ap.add_argument("--seed", type=int, default=0, help="first seed")
    ap.add_argument("--repeat", type=int, default=5, help="timed passes over the states (the best is kept)")
    ap.add_argument("--no-service", action="store_true", help="skip the play commands through the service")
    args = ap.parse_args(argv)

    import engine

    ids = args.games or list(engine.GAMES)
    counts = {}
    for gid in ids:
        game = engine.get(gid)
        players = args.players or game.max_players
        if game.min_players <= players <= game.max_players:
            counts[gid] = players
        else:
            print(f"  {gid} takes {game.min_players}-{game.max_players} players, not {players}")
    print(
        f"dumps / loads / one step on mid-game states, mean CPU of each (target: dumps <= {TARGET_SHARE:.0%} "
        f"of step + dumps + loads)"
    )
    print(
        f"  {'game':<16}{'players':>8}{'states':>8}{'JSON KB':>9}{'dumps us':>10}{'loads us':>10}"
        f"{'step us':>10}{'dumps share':>13}"
    )
    for gid, players in counts.items():
        m = measure(engine.get(gid), players, args.count, args.seed, args.repeat)
        print(
            f"  {gid:<16}{players:>8}{m['states']:>8}{m['kb']:>9.1f}{m['dumps'] * 1e6:>10.1f}"
            f"{m['loads'] * 1e6:>10.1f}{m['step'] * 1e6:>10.1f}{m['share']:>12.0%}"
        )
    if args.no_service:
        return 0
    print(
        f"play commands through the service (SQLite without fsync, no images), mean CPU "
        f"(target: dumps <= {TARGET_SHARE:.0%} of the command)"
    )
    print(f"  {'game':<16}{'players':>8}{'plays':>8}{'command us':>12}{'dumps us':>10}{'dumps share':>13}")
    for gid, players in counts.items():
        m = asyncio.run(service_share(engine.get(gid), players, tables=4, warm=60, plays=40, seed=args.seed))
        print(
            f"  {gid:<16}{players:>8}{m['plays']:>8}{m['command'] * 1e6:>12.0f}{m['dumps'] * 1e6:>10.1f}"
            f"{m['share']:>12.0%}"
        )
    return 0
