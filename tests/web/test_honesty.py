"""No page, JSON, picture or event stream holds what its viewer may not know (issue 28 §3).

Tested as the bots' honesty is (tests/engine/ai/test_honesty.py): for random positions of
every game, a second state that differs only in what one seat cannot see
(`scramble`: hidden cards moved between hidden places, a new generator), and its sandbox
(issue 52 §4) likewise, its pictures included. Two web tables,
one on each state — two databases, the same secret, so the same links — must then answer
that seat's page, its live part, its pictures and its event stream byte for byte alike,
its refusal of a move (JSON), and the public page likewise wherever the public view of the
two states is the same
(the public knows less than any seat). The stand-in renderer writes the view it was given
into the picture and its alt text, and the pages print the alt texts, so a page that
passed any view but the viewer's own would differ.
"""

from __future__ import annotations

import asyncio
import html
import random
import re

import pytest

import engine
from bot.storage.base import Change, SeatRecord
from tests.engine.ai.positions import positions, scramble

from .conftest import close_web, make_web

GAMES = ["rising-cultures", "rise-of-empires", "cradle", "mosaic"]
#: Positions per game: spread over several player counts and stages of random games.
POSITIONS = 10


async def seat_table(web, channel: int, game_id: str, state, now: float) -> int:
    """A running table of `game_id` at `state` (players p0.., users 1000+seat)."""
    game = engine.get(game_id)
    seats = [SeatRecord(1000 + i, f"p{i}", i, False, now) for i in range(len(game.scores(state)))]
    rec = await web.storage.create_table(
        guild=7, channel=channel, game=game_id, creator=1000, options={}, seed=1, seats=[], remind_every=0, now=now
    )
    await web.storage.commit(rec, Change(status="active", seats=seats, snapshot=game.dumps(state)), now)
    return rec.id


async def answers(web, table_id: int, seat: int, *, public: bool) -> dict[str, bytes]:
    """Everything the seat's page (and, when `public`, the public page) serves, pictures first
    so that the pages print their alt texts."""
    rec = await web.storage.table(table_id)
    links = web.table.links
    paths = [links.seat_path(table_id, seat, 1000 + seat, 0)] + ([links.table_path(table_id)] if public else [])
    out: dict[str, bytes] = {}
    for base in paths:
        kind = base[:2]
        pictures = ["board.png", "tables.png"] + (["private.png"] if kind == "/s" else [])
        for name in pictures:
            response = await web.client.get(f"{base}/{name}?v={rec.version}")
            out[f"{kind} {name}"] = await response.read()
        for part in ("", "/live"):
            response = await web.client.get(base + part)
            assert response.status == 200, (base + part, await response.text())
            out[f"{kind} page{part}"] = await response.read()
        response = await web.client.get(base + "/events")
        out[f"{kind} events"] = await asyncio.wait_for(response.content.readuntil(b"\n\n"), 5)
        response.close()
        if kind == "/t":
            out["/t step 0"] = await (await web.client.get(base + "/at/0")).read()
        else:  # a move the seat cannot make: the refusal (JSON) says why and what it may do
            form = {"form": web.table.signer.form_token(base[3:]), "version": str(rec.version), "action": "no such"}
            refused = await web.client.post(base + "/play", data=form, headers={"Accept": "application/json"})
            assert refused.status in (409, 422), await refused.text()
            out["/s refusal json"] = await refused.read()
            out["/s sandbox"] = await sandbox_answers(web, base)
    return out


async def sandbox_answers(web, base: str) -> bytes:
    """The seat's sandbox (issue 52 §4): its first page, then, where another seat decides, the
    page after a bot's pick for it, each with its pictures (the map and the seat's own view):
    drawn from the seat's own knowledge, so alike in both worlds."""
    response = await web.client.get(base + "/try")
    page = await response.read()
    assert response.status in (200, 422), page  # 422: a finished game has no sandbox
    page += await sandbox_pictures(web, page)
    other = re.search(rb'name="bot" value="(\d+)"', page)
    if other is None:
        return page
    form = {"form": web.table.signer.form_token(base[3:]), "moves": "[]", "bot": other.group(1).decode()}
    picked = await web.client.post(base + "/try", data=form)
    assert picked.status == 200, await picked.text()
    after = await picked.read()
    return page + after + await sandbox_pictures(web, after)


async def sandbox_pictures(web, page: bytes) -> bytes:
    """The pictures a sandbox page shows, as served."""
    out = b""
    for src in re.findall(rb'src="([^"]*/try/(?:board|private)\.png[^"]*)"', page):
        response = await web.client.get(html.unescape(src.decode()))
        assert response.status == 200, await response.text()
        out += await response.read()
    return out


@pytest.mark.parametrize("game_id", GAMES)
async def test_states_differing_only_in_hidden_information_give_the_viewer_the_same_bytes(tmp_path, clock, game_id):
    game = engine.get(game_id)
    worlds = [await make_web(str(tmp_path / f"world{i}.sqlite"), clock) for i in range(2)]
    rand = random.Random(11)
    compared = public = 0
    try:
        for k, (first, seat) in enumerate(positions(game_id, POSITIONS, seed=3)):
            second = scramble(game_id, first, seat, rand)
            assert game.view(second, seat) == game.view(first, seat), "the scramble must not show to the seat"
            if game.dumps(second) == game.dumps(first):
                continue
            same_public = game.view(second, None) == game.view(first, None)
            got = []
            for web, state in zip(worlds, (first, second), strict=True):
                table_id = await seat_table(web, 500 + k, game_id, state, clock())
                got.append(await answers(web, table_id, seat, public=same_public))
            for what in got[0]:
                assert got[0][what] == got[1][what], f"{game_id}, position {k}, seat {seat}: {what} differs"
            compared += 1
            public += same_public
    finally:
        for web in worlds:
            await close_web(web)
    assert compared >= POSITIONS - 2 and public >= compared // 2, (compared, public)
