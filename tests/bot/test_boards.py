"""Issue 26 §4, the service's side: the handover post carries the map with the places of the
moves it tells framed (each move's described choice's `refers`, kept until the post); `board`
sends the map and the tables; an undone move is not framed."""

from __future__ import annotations

import random
from dataclasses import dataclass

import pytest

from bot.service import Service, Settings
from engine.core import refers_of

from .conftest import GAMES, Table, open_storage


@dataclass
class Drawn:
    png: bytes
    alt: str


@pytest.fixture
async def drawing(database, clock):
    """A service that draws with a stand-in renderer noting what it was asked for."""
    calls: list[dict] = []

    def renderer(game_id, view, *, seat=None, part=None, highlight=()):
        calls.append({"game": game_id, "seat": seat, "part": part, "highlight": tuple(highlight)})
        return Drawn(b"\x89PNG " + (part or "private").encode(), f"{part} of {game_id}")

    storage = open_storage(database)
    await storage.open()
    service = Service(storage, clock=clock, games=GAMES, settings=Settings(images=True), renderer=renderer)
    t = Table(service, storage, clock, database)
    t.calls = calls
    yield t
    await t.service.close_bots()
    await t.storage.close()


async def _start(t, game_id: str, players: int, seed: int = 5) -> None:
    await t.ok(1, f"game new {game_id} seed={seed}")
    for user in range(2, players + 1):
        await t.ok(user, "game join")
    await t.ok(1, "game start fixed")


@pytest.mark.parametrize("game_id, players", [("rise-of-empires", 3), ("mosaic", 3), ("cradle", 4)])
async def test_the_handover_post_frames_the_places_of_every_move_it_tells(drawing, game_id, players):
    game = GAMES[game_id]
    await _start(drawing, game_id, players)
    rng = random.Random(3)
    told = framed = 0
    unposted: list[str] = []
    for _ in range(150):
        rec, state = await drawing.state()
        if rec is None or game.is_over(state):
            break
        seat = rng.choice(game.to_act(state))
        action = rng.choice(game.legal_actions(state, seat))
        seen = len(await drawing.storage.actions(rec.id))
        unposted += refers_of(game, state, seat, action)
        drawing.calls.clear()
        reply = await drawing.ok(rec.user_at(seat).user, "play " + action)
        rows = (await drawing.storage.actions(rec.id))[seen:]
        assert all(r.via in ("", "forced") for r in rows)
        unposted += [p for r in rows[1:] for p in await _forced_places(drawing, rec, r)]  # played after the move
        if reply.panel:  # the turn goes on: nothing drawn for the channel yet
            assert not [c for c in drawing.calls if c["seat"] is None]
            continue
        (public,) = [c for c in drawing.calls if c["seat"] is None]
        assert public["part"] == "map" and reply.image is not None
        assert set(public["highlight"]) == set(unposted), (public, unposted)
        told += 1
        framed += bool(public["highlight"])
        unposted = []
    assert told > 5 and framed > 0


async def _forced_places(t, rec, row) -> list[str]:
    """The places of a forced step, from the position before it (replayed)."""
    rows = [r for r in await t.storage.actions(rec.id) if not r.undone]
    state = t.service.tables.replay(rec, rows, before=row.seq)
    return list(refers_of(GAMES[rec.game], state, row.seat, row.action))


async def test_board_sends_the_map_with_the_last_posts_places_and_the_tables(drawing):
    game = GAMES["rise-of-empires"]
    await _start(drawing, "rise-of-empires", 2)
    rng = random.Random(2)
    for _ in range(300):  # until a post frames something
        rec, state = await drawing.state()
        seat = game.to_act(state)[0]
        legal = game.legal_actions(state, seat)
        action = next((a for a in legal if refers_of(game, state, seat, a)), rng.choice(legal))
        reply = await drawing.ok(rec.user_at(seat).user, "play " + action)
        if not reply.panel and drawing.service.tables.highlight(await drawing.storage.table(rec.id)):
            break
    else:
        pytest.fail("no post framed a place")
    rec = await drawing.storage.table(rec.id)
    drawing.calls.clear()
    board = await drawing.ok(1, "board")
    assert [c["part"] for c in drawing.calls] == ["map", "tables"]
    assert drawing.calls[0]["highlight"] == tuple(rec.meta["highlight"]["places"]) != ()
    assert board.image.filename == "rise-of-empires-board.png"
    (tables,) = board.files
    assert (tables.kind, tables.filename, tables.data) == ("tables", "rise-of-empires-tables.png", b"\x89PNG tables")


async def test_the_last_posts_places_are_framed_only_while_that_post_tells_the_latest_moves(drawing):
    """An undo of a posted move sets `posted` back (undo.py): the map frames nothing then."""
    await _start(drawing, "rise-of-empires", 2)
    rec, _ = await drawing.state()
    rec.meta = {**rec.meta, "highlight": {"posted": 7, "places": ["anatolia"]}, "posted": 7}
    assert drawing.service.tables.highlight(rec) == ["anatolia"]
    rec.meta = {**rec.meta, "posted": 6}  # an undo took the posted move back
    assert drawing.service.tables.highlight(rec) == []
