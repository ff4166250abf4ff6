"""Whole games of every registered game played through the service, and their exports.

Playing a game to its end through the service takes seconds, and several test modules
need one (replay, fork, chart): each game is played once per test run and its export
kept (`exported(game_id)`), on its own throwaway SQLite file.
"""

from __future__ import annotations

import json
import random
import tempfile
from pathlib import Path
from typing import Any

from bot.service import Service, Settings
from bot.storage import SQLiteStorage

#: Players and options per game: the fewest each game takes (Cradle: with non-player civilizations).
SETUPS: dict[str, tuple[int, str]] = {
    "rising-cultures": (2, ""),
    "rise-of-empires": (3, ""),
    "cradle": (4, "non_player=true"),
    "mosaic": (3, ""),
}
NAMES = ["ann", "bob", "cy", "dee", "eve", "fay"]
CHANNEL, GUILD = 300, 9

_EXPORTS: dict[str, bytes] = {}


async def play_out(
    service: Service,
    game_id: str,
    *,
    seed: int = 3,
    channel: int = CHANNEL,
    guild: int = GUILD,
    stop_after: int | None = None,
    players: int | None = None,
) -> int:
    """Open (with `seed`: a practice game, the same every run), start and play `game_id`
    with random legal actions to its end, or until `stop_after` actions; returns the table id."""
    count, options = SETUPS.get(game_id, (2, ""))
    count = players or count
    users = list(range(1, count + 1))

    async def say(user: int, line: str) -> Any:
        reply = await service.handle(channel, user, NAMES[user - 1], line, guild=guild)
        assert not reply.error, f"{line!r}: {reply.text}"
        return reply

    await say(1, f"game new {game_id} seed={seed} {options}".strip())
    for user in users[1:]:
        await say(user, "game join")
    await say(1, "game start fixed")
    rng = random.Random(seed)
    played = 0
    while stop_after is None or played < stop_after:
        rec, state = await service.tables.position(channel)
        if rec is None or rec.status != "active":
            break
        game = service.games[rec.game]
        seat = rng.choice(game.to_act(state))
        player = rec.user_at(seat)
        assert player is not None, f"nobody in seat {seat}"
        user = player.user
        legal = await service.legal_actions_for(channel, user)
        await say(user, "play " + rng.choice(legal))
        played += 1
    rec = await service.storage.open_table(channel) or await service.storage.latest_table(channel)
    assert rec is not None, f"no table in channel {channel}"
    return rec.id


async def exported(game_id: str) -> bytes:
    """The export of a whole game of `game_id`, played to its end through the service."""
    if game_id not in _EXPORTS:
        folder = Path(tempfile.mkdtemp(prefix="epochs-played-"))
        storage = SQLiteStorage(folder / "played.sqlite", durable=False)
        await storage.open()
        try:
            service = Service(storage, settings=Settings(images=False))
            table = await play_out(service, game_id)
            reply = await service.handle(CHANNEL, 1, "ann", f"game export #{table}", guild=GUILD)
            assert not reply.error and reply.files, reply.text
            _EXPORTS[game_id] = reply.files[0].data
        finally:
            await storage.close()
    return _EXPORTS[game_id]


def document(data: bytes) -> dict[str, Any]:
    return json.loads(data)
