"""A bot process under siege (issue 53): the whole bot, Discord included, in one process
started with few file descriptors, for `test_siege.py` to flood its web table from outside.

    python -m tests.web.siege DATABASE DESCRIPTORS

It lowers its own RLIMIT_NOFILE to DESCRIPTORS, starts the loopback Discord
(tests/discord/emulator.py), the real bot on it and the web table on a free loopback
port, opens a game through slash commands, and prints one JSON line: the port and the
table's public and seat paths. Then it reads commands, one a line, and answers each with
one JSON line:

- `check`: a slash command (`/game status`) and a move (`/play`), each through the
  loopback Discord, and whether each was answered and the move stored;
- `quit`: stops.

It logs as `epochs` does (bot/__main__.py: INFO and up, to stderr), so the test can
weigh what a flood makes the bot log.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import resource
import socket
import sys
import tempfile
from pathlib import Path

import engine
from bot.config import Config
from bot.web import open_web
from tests.discord.emulator import DiscordEmulator
from tests.discord.harness import Harness

GAME = "rising-cultures"
CHANNEL = 1


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def answered(harness: Harness, user: object, name: str, options: dict[str, object] | None = None) -> str:
    """The text of a slash command's answer ("" when it was not answered in time)."""
    emu = harness.emu
    try:
        inter = await emu.finished(await emu.slash(user, CHANNEL, name, options), timeout=20)  # type: ignore[arg-type]
    except (TimeoutError, AssertionError):
        return ""
    await harness.settle()
    return emu.reply_text(inter)


async def check(harness: Harness) -> dict[str, object]:
    """A lookup and a move, both through Discord, while the flood goes on."""
    emu = harness.emu
    status = await answered(harness, emu.users[1001], "game status")
    rec = await harness.table(CHANNEL)
    game = engine.GAMES[rec.game]
    state = game.loads((await harness.storage.snapshot(rec.id))[1])
    seats = {s.user: s.seat for s in rec.seats}
    mover = next(user for user, seat in seats.items() if seat in game.to_act(state))
    action = game.legal_actions(state, seats[mover])[0]
    before = len(await harness.storage.actions(rec.id))
    played = await answered(harness, emu.users[mover], "play", {"action": action})
    after = len(await harness.storage.actions(rec.id))
    return {"status": status[:200], "played": played[:200], "stored": after - before, "descriptors": open_descriptors()}


def open_descriptors() -> int:
    """The descriptors this process holds now."""
    return len(os.listdir("/proc/self/fd")) if os.path.isdir("/proc/self/fd") else -1


async def main(database: str) -> None:
    emu = DiscordEmulator()
    await emu.start()
    emu.patch_discord()
    emu.add_user(1001, "Alice")
    emu.add_user(1002, "Bob")
    harness = Harness(emu, Path(database), images=False)
    await harness.start()
    assert harness.service is not None
    web = await open_web(harness.service, Config(web_listen=f"127.0.0.1:{free_port()}"))
    assert web is not None and harness.service.links is not None
    alice, bob = emu.users[1001], emu.users[1002]
    await answered(harness, alice, "game new", {"game": GAME})
    await answered(harness, bob, "game join")
    await answered(harness, alice, "game start", {"fixed": True})
    rec = await harness.table(CHANNEL)
    links = web.links
    seats = {p.user: links.seat_path(rec.id, p.seat, p.user, 0) for p in rec.players if p.seat is not None}
    port = web.port
    ready = {"port": port, "table": links.table_path(rec.id), "seats": seats, "descriptors": open_descriptors()}
    print(json.dumps(ready), flush=True)
    reader = asyncio.StreamReader()
    loop = asyncio.get_running_loop()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    while line := (await reader.readline()).decode().strip():
        if line == "check":
            print(json.dumps(await check(harness)), flush=True)
        elif line == "quit":
            break
    await harness.stop()
    await emu.stop()


if __name__ == "__main__":
    descriptors = int(sys.argv[2])
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (descriptors, hard))
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    with tempfile.TemporaryDirectory(prefix="siege-") as tmp:
        asyncio.run(main(sys.argv[1] if sys.argv[1] != "-" else str(Path(tmp) / "siege.sqlite")))
