"""No typed command on the web (issue 52 §2): every page a player reads is pictures and
words, and acting is tapping a choice, so no page of a seat or of the table tells anyone
to type `draft <number>` or `play ...`.

Positions of all four games, the setup steps among them (where the private views used to
print "Draft hand (pick with `draft <number>`)"), are served by a web table drawing real
pictures (the words on the page are the pictures' alt texts), and every seat's page, its
live part and the public page are read for command syntax.
"""

from __future__ import annotations

import html
import re

import pytest

import engine

from .conftest import close_web, make_web
from .test_honesty import seat_table

GAMES = ["rising-cultures", "rise-of-empires", "cradle", "mosaic"]
#: What a typed command looks like: in backticks, a <placeholder>, "pick with", "play <verb> ...".
COMMAND = re.compile(r"`|<[a-z]+>|\(pick with|\bplay [a-z]+ (?:<|\d)|<code>")


def opening(game_id: str, steps: int) -> list:
    """The setup position of `game_id` and those after its first `steps` moves (first legal
    action each time: a game's setup steps come first)."""
    game = engine.get(game_id)
    state = game.setup([f"p{i}" for i in range(game.min_players)], 11)
    out = [state]
    for _ in range(steps):
        seat = game.to_act(state)[0]
        state = game.apply(state, seat, game.legal_actions(state, seat)[0]).state
        out.append(state)
    return out


def text_of(page: str) -> str:
    """What a reader reads: the page without its tags, entities read."""
    body = page.split("<body>", 1)[-1]
    return html.unescape(re.sub(r"<[^>]+>", " ", re.sub(r"<code>", "<code>`", body)))


@pytest.mark.parametrize("game_id", GAMES)
async def test_no_page_of_the_web_table_shows_a_typed_command(tmp_path, clock, game_id):
    web = await make_web(str(tmp_path / "words.sqlite"), clock, renderer=None)
    try:
        game = engine.get(game_id)
        for n, state in enumerate(opening(game_id, 6)):
            table_id = await seat_table(web, 200 + n, game_id, state, clock())
            rec = await web.storage.table(table_id)
            links = web.table.links
            await web.table.boards.public(table_id, rec.version, "board")
            paths = [links.table_path(table_id)]
            for seat in range(len(game.scores(state))):
                await web.table.boards.private(table_id, rec.version, seat)
                paths.append(links.seat_path(table_id, seat, 1000 + seat, 0))
            for path in paths:
                for part in ("", "/live"):
                    status, page = await web.get(path + part)
                    assert status == 200, page
                    said = [line for line in text_of(page).splitlines() if COMMAND.search(line)]
                    assert not said, (game_id, n, path[:3] + part, said)
    finally:
        await close_web(web)
