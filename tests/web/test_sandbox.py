"""Try it out (issue 52 point 4): a seat's private sandbox of its position. No hidden card of
another seat on any of its pages nor in its pictures' words, its own coming moves planned
with their labels, the board of the position tried (its map and the seat's own private
picture, never another seat's), and only from its own seat's page. (That two positions
differing only in what the seat cannot see give the same sandbox, pictures included, is
tested with every page in test_honesty.py.)"""

from __future__ import annotations

import html as markup
import json
import re
from dataclasses import replace
from typing import Any

import engine
from bot.service.sandbox import replay, world
from bot.web.app import moves_of_code
from tests.bot.test_hidden_information import Moment, named

from .conftest import choices, close_web, make_web, viewed

MOSAIC = engine.get("mosaic")


def sandbox_fields(html: str) -> dict[str, str]:
    """The hidden fields every sandbox form carries (form token, moves tried)."""
    found = re.findall(r'<input type="hidden" name="(form|moves)" value="([^"]*)">', html)[:2]
    return {name: markup.unescape(value) for name, value in found}


async def try_move(web, seat_path: str, html: str, **fields: str) -> tuple[int, str]:
    response = await web.client.post(f"{seat_path}/try", data={**sandbox_fields(html), **fields})
    return response.status, await response.text()


def picture_paths(html: str) -> dict[str, str]:
    """The sandbox page's pictures by kind ("board", "private"): their addresses."""
    found = re.findall(r'src="([^"]*/try/(board|private)\.png[^"]*)"', html)
    return {kind: markup.unescape(src) for src, kind in found}


async def picture(web, path: str) -> tuple[int, bytes]:
    response = await web.client.get(path)
    return response.status, await response.read()


def no_picture(game_id: str, view: dict[str, Any], /, **_: Any) -> None:
    """A renderer with no picture of any game."""
    return None


def drawn(png: bytes) -> dict[str, Any]:
    """What the stand-in renderer was given (conftest.viewed: the signature, a hash, the JSON)."""
    return json.loads(png[8 + 32 :])


async def test_a_seat_page_offers_the_sandbox_and_it_names_no_other_seats_hidden_card(web):
    await web.started("mosaic", options="seed=3")
    _, seats = await web.links_of()
    rec = await web.storage.open_table(100)
    state = await web.service.tables.state(rec)
    moment = Moment(MOSAIC, state, 2, set(), set())
    secrets = moment.of[1] - moment.known[0]  # bob's hidden cards ann cannot know
    assert secrets, "the position must hide something from ann"
    _, page = await web.get(seats[1])
    assert f'href="{seats[1]}/try">Try it out</a>' in page
    status, first = await web.get(f"{seats[1]}/try")
    assert status == 200 and "Back to the table" in first and 'name="bot" value="1"' in first
    status, after_bot = await try_move(web, seats[1], first, bot="1", seat="1")
    assert status == 200 and "bob: " in after_bot
    status, after_own = await try_move(web, seats[1], after_bot, seat="0", action=choices(after_bot)[0])
    assert status == 200
    for html in (first, after_bot, after_own):
        assert not named(secrets, html, moment.names), named(secrets, html, moment.names)
        paths = picture_paths(html)
        assert set(paths) == {"board", "private"}, paths
        for path in paths.values():  # the pictures' words (their alt texts), as the page prints them
            status, png = await picture(web, path)
            assert status == 200
            alt = drawn(png)["view"]
            assert not named(secrets, json.dumps(alt), moment.names), (path, named(secrets, json.dumps(alt)))


async def test_the_sandbox_shows_the_board_of_the_position_tried_and_only_the_seats_own_view(web):
    """After a tried move the sandbox's map is the public view of the sandbox's world after
    it, the move's places framed, unlike the table's own map; its private picture is the
    seat's own view of that world. Both printed in words on the page."""
    await web.started("mosaic", options="seed=3")
    _, seats = await web.links_of()
    rec = await web.storage.open_table(100)
    state = await web.service.tables.state(rec)
    status, first = await web.get(f"{seats[1]}/try")
    assert status == 200
    _, real = await picture(web, f"{seats[1]}/board.png?v={rec.version}")
    _, untried = await picture(web, picture_paths(first)["board"])
    assert untried == real, "before any move the sandbox's map is the table's"
    _, html = await try_move(web, seats[1], first, bot="1")
    moves = [(int(seat), str(action)) for seat, action in json.loads(sandbox_fields(html)["moves"])]
    assert [seat for seat, _ in moves] == [1]
    now, played = replay(MOSAIC, world(MOSAIC, state, 0), 0, moves)
    paths = picture_paths(html)
    status, board = await picture(web, paths["board"])
    assert status == 200 and board != real
    shown = drawn(board)
    assert (shown["seat"], shown["view"]) == (None, json.loads(json.dumps(MOSAIC.view(now, None))))
    assert shown["highlight"] == list(played[-1].places)
    status, private = await picture(web, paths["private"])
    assert status == 200
    own = drawn(private)
    assert (own["seat"], own["view"]) == (0, json.loads(json.dumps(MOSAIC.view(now, 0))))
    page = markup.unescape(html)
    assert json.dumps(shown, sort_keys=True) in page and json.dumps(own, sort_keys=True) in page


async def test_the_sandbox_pictures_are_the_seats_link_alone(web):
    """A sandbox picture's address answers its own seat's link only: a forged link is
    refused, and another seat's link with the same moves draws that seat's own sandbox,
    never the first seat's view."""
    await web.started("mosaic", options="seed=3")
    _, seats = await web.links_of()
    _, html = await web.get(f"{seats[1]}/try")
    _, html = await try_move(web, seats[1], html, bot="1")
    path = picture_paths(html)["private"]
    forged = seats[1][:-3] + ("AAA" if not seats[1].endswith("AAA") else "BBB")
    status, _ = await picture(web, path.replace(seats[1], forged, 1))
    assert status in (403, 404)
    status, bobs = await picture(web, path.replace(seats[1], seats[2], 1))
    assert status == 422 or (status == 200 and drawn(bobs)["seat"] == 1)
    status, _ = await picture(web, path.split("&m=")[0] + "&m=not-deflated")
    assert status == 400
    version = int(re.search(r"v=(\d+)", path).group(1))
    status, _ = await picture(web, path.replace(f"v={version}", f"v={version + 1}"))
    assert status == 404  # no such position yet: refused, and nothing kept for when it comes
    moves, rec = moves_of_code(path.split("&m=")[1]), await web.storage.open_table(100)
    assert web.table.boards.has(web.table.boards.sandbox_key(rec.id, version, 0, moves, "private"))
    assert not web.table.boards.has(web.table.boards.sandbox_key(rec.id, version + 1, 0, moves, "private"))


async def test_the_sandbox_answers_in_words_when_pictures_are_off(tmp_path, clock):
    """Pictures off (`Settings(images=False)`) or none for the game: the sandbox is words only."""
    for how in ("off", "none"):
        web = await make_web(str(tmp_path / f"{how}.sqlite"), clock, renderer=viewed if how == "off" else no_picture)
        if how == "off":
            web.service.tables.settings = replace(web.service.tables.settings, images=False)
        try:
            await web.started("mosaic", options="seed=3")
            _, seats = await web.links_of()
            status, html = await web.get(f"{seats[1]}/try")
            assert status == 200 and "Let a bot pick" in html
            status, html = await try_move(web, seats[1], html, bot="1")
            assert status == 200 and "bob: " in html and not picture_paths(html)
            assert "The board" not in html and "Your private view here" not in html
        finally:
            await close_web(web)


async def test_plan_these_moves_plans_the_seats_own_coming_moves_with_their_labels(web):
    await web.started("mosaic", options="seed=3")
    _, seats = await web.links_of()
    _, html = await web.get(f"{seats[1]}/try")
    assert not choices(html) and 'name="bot" value="1"' in html  # bob decides first, for real too
    _, html = await try_move(web, seats[1], html, bot="1")
    own = choices(html)
    assert own, "ann decides next in the sandbox"
    label = re.search(rf'value="{re.escape(own[0])}"><span class="label">([^<]*)<', html).group(1)
    _, html = await try_move(web, seats[1], html, seat="0", action=own[0])
    assert "Plan these moves" in html
    status, html = await try_move(web, seats[1], html, plan="1")
    assert status == 200, html
    rec = await web.storage.open_table(100)
    [planned] = (await web.storage.plans(rec.id))[1]
    assert (planned.action, planned.label) == (own[0], markup.unescape(label))
    assert (await web.storage.plans(rec.id)).get(2, []) == []


async def test_the_sandbox_refuses_a_forged_link_and_another_seats_form(web):
    await web.started("mosaic", options="seed=3")
    _, seats = await web.links_of()
    forged = seats[1][:-3] + ("AAA" if not seats[1].endswith("AAA") else "BBB")
    status, _ = await web.get(f"{forged}/try")
    assert status in (403, 404)
    _, bobs = await web.get(f"{seats[2]}/try")
    status, _ = await try_move(web, seats[1], bobs, bot="1")  # bob's form token on ann's link
    assert status == 403
    rec = await web.storage.open_table(100)
    assert (await web.storage.plans(rec.id)) == {} or all(not q for q in (await web.storage.plans(rec.id)).values())


async def test_a_move_not_of_the_sandbox_is_refused_and_changes_nothing(web):
    await web.started("mosaic", options="seed=3")
    _, seats = await web.links_of()
    rec = await web.storage.open_table(100)
    _, html = await web.get(f"{seats[1]}/try")
    status, text = await try_move(web, seats[1], html, seat="1", action="no such move")
    assert status == 422 and "cannot be played" in text
    status, _ = await try_move(web, seats[1], html, moves="not json", seat="0", action="x")
    assert status == 400
    assert (await web.storage.open_table(100)).version == rec.version


async def test_the_service_says_where_the_sandbox_is_offered_a_seat_of_a_game_in_play(web):
    """The page offers "Try it out" where the service's view says so (a seat of a running
    game its bots play), never on the public page nor once the game is over."""
    await web.started("mosaic", options="seed=3")
    rec = await web.storage.open_table(100)
    seat_view, public_view = await web.service.table_view(rec.id, 1), await web.service.table_view(rec.id)
    assert seat_view is not None and seat_view.tryable
    assert public_view is not None and not public_view.tryable
    _, seats = await web.links_of()
    await web.ok(1, "resign")
    ended = await web.service.table_view(rec.id, 1)
    assert ended is not None and ended.status != "active" and not ended.tryable
    assert "Try it out" not in (await web.get(seats[1]))[1]
