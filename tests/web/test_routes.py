"""Every route of the web table with aiohttp's test client (issue 28 §2, §3, §4).

Pages, the live part, pictures, the step-through and moves; then every refusal: forged,
expired, replaced and malformed links, another seat's link, a move from another site or
without the page's form token, an illegal move, a stale page, a huge body, too many
requests. Each refusal has its HTTP status and a sentence, and changes nothing.
"""

from __future__ import annotations

import asyncio
import re

from bot.web.tokens import Signer

from .conftest import PUBLIC, choices, page_form
from .test_words import COMMAND, text_of

DAY = 86_400


async def version(web) -> int:
    rec = await web.storage.latest_table(100)
    return rec.version


async def test_the_public_page_shows_the_table_as_everyone_sees_it(web):
    await web.started()
    table, _ = await web.links_of()
    status, html = await web.get(table)
    assert status == 200
    assert "<h1>Fake Race</h1>" in html and "</span> ann</th>" in html and "</span> bob</th>" in html
    assert "to act, since" in html and 'datetime="2026-01-01T12:00:00Z"' in html
    assert choices(html) == []  # the public page offers no move
    assert 'action="' not in html.split('id="live"')[1].split("</section>")[0]


async def test_the_seat_page_offers_the_seats_described_choices_grouped(web):
    await web.started()
    _, seats = await web.links_of()
    status, html = await web.get(seats[1])
    assert status == 200
    assert choices(html) == ["take 1", "take 2", "draw", "roll"]
    assert "<legend>Take from the pile</legend>" in html and "+2 · 7 left" in html
    assert "Take from the pile, draw a card or roll the die." in html and "Rulebook 3" in html
    _, other = await web.get(seats[2])
    assert choices(other) == [] and "Not your turn: waiting for ann." in other


async def test_a_move_from_the_page_is_stored_and_told_like_a_button_press(web):
    await web.started()
    table, seats = await web.links_of()
    before = await version(web)
    status, answer = await web.move(seats[1], "take 2")
    assert status == 200 and answer["ok"], answer
    assert answer["text"] == "Done: 2 from the pile. Your turn is over."
    assert await version(web) > before
    rows = await web.storage.actions((await web.storage.latest_table(100)).id)
    assert [(r.seat, r.action, r.user) for r in rows] == [(0, "take 2", 1)]
    # the turn passed: its post (and bob's private part) wait in the outbox for Discord or the terminal
    notices = await web.service.pending_notices()
    assert len(notices) == 1 and notices[0].reply.mentions == [2]
    assert "ann" in notices[0].reply.text and all(p.user != 1 for p in notices[0].reply.private)
    _, html = await web.get(table)
    assert "took 2" in html or "take 2" in html


def counting_reads(web, monkeypatch, names=("table", "versions", "open_table")) -> list[str]:
    """The reads of a table's row from here on, by storage method, in order."""
    reads: list[str] = []
    for name in names:
        real = getattr(web.storage, name)

        async def counted(*args, _real=real, _name=name, **kwargs):
            reads.append(_name)
            return await _real(*args, **kwargs)

        monkeypatch.setattr(web.storage, name, counted)
    return reads


async def test_a_move_from_the_page_reads_its_tables_row_once_before_the_command(web, monkeypatch):
    """The web table reads the table's record once a request (the link's check gives the
    channel, the player's name and the version the page is kept by); the command then reads
    the channel's table itself. It read the row four times before (issue 47)."""
    await web.started()
    _, seats = await web.links_of()
    _, html = await web.get(seats[1])  # the page the player has open, and its pictures
    for picture in ("board", "private"):
        assert (await web.client.get(f"{seats[1]}/{picture}.png")).status == 200
    form = {**dict(page_form(html)), "action": "take 2"}
    reads = counting_reads(web, monkeypatch)
    await web.get(seats[1])
    assert reads == ["table"]
    reads.clear()
    response = await web.client.post(f"{seats[1]}/play", data=form, headers={"Accept": "application/json"})
    assert response.status == 200, await response.text()
    assert reads == ["table", "open_table"]


async def test_a_form_post_without_the_script_answers_with_the_page(web):
    await web.started()
    _, seats = await web.links_of()
    _, html = await web.get(seats[1])
    form = dict(page_form(html)) | {"action": "take 1"}
    response = await web.client.post(seats[1] + "/play", data=form)
    assert response.status == 200 and response.content_type == "text/html"
    assert "Done: 1 from the pile. Your turn is over." in await response.text()


async def test_a_stale_page_is_refused_with_409_and_changes_nothing(web):
    await web.started()
    _, seats = await web.links_of()
    _, html = await web.get(seats[1])
    form = dict(page_form(html)) | {"action": "take 1"}
    first = await web.client.post(seats[1] + "/play", data=form, headers={"Accept": "application/json"})
    assert first.status == 200
    stored = await version(web)
    again = await web.client.post(seats[1] + "/play", data=form, headers={"Accept": "application/json"})
    assert again.status == 409
    assert "moved on" in (await again.json())["text"]
    assert await version(web) == stored


async def test_an_illegal_move_is_refused_with_422_saying_why(web):
    await web.started()
    _, seats = await web.links_of()
    before = await version(web)
    status, answer = await web.move(seats[1], "take 7")
    assert status == 422 and not answer["ok"]
    assert "take 1" in answer["text"]  # the engine's refusal says what is legal
    assert await version(web) == before
    # bob, not his turn: his page has no choices, but a form made with his own token still asks
    form = {"form": web.table.signer.form_token(seats[2][3:]), "version": str(before), "action": "take 1"}
    response = await web.client.post(seats[2] + "/play", data=form, headers={"Accept": "application/json"})
    assert response.status == 422 and "not your turn" in (await response.json())["text"].lower()


async def test_undo_from_the_page_takes_the_last_step_back(web):
    await web.started(options="seed=7 pile=9 bids=true")
    _, seats = await web.links_of()
    status, answer = await web.move(seats[1], "bid 1")
    assert status == 200, answer
    _, html = await web.get(seats[1])
    assert "Undo my last step" in html
    status, answer = await web.move(seats[1], command="undo")
    assert status == 200, answer
    rows = await web.storage.actions((await web.storage.latest_table(100)).id)
    assert [r.undone for r in rows] == [True]


async def test_the_live_part_and_the_events_follow_the_game(web):
    await web.started()
    table, seats = await web.links_of()
    status, part = await web.get(table + "/live")
    assert status == 200 and part.startswith('<div class="live"') and "<html" not in part
    response = await web.client.get(table + "/events")
    assert response.headers["Content-Type"] == "text/event-stream"
    first = await asyncio.wait_for(response.content.readuntil(b"\n\n"), 2)
    assert first.endswith(f"event: version\ndata: {await version(web)}\n\n".encode())
    await web.ok(1, "play take 1")  # a move by another front end (Discord, the terminal)
    nxt = await asyncio.wait_for(response.content.readuntil(b"\n\n"), 2)
    assert nxt == f"event: version\ndata: {await version(web)}\n\n".encode()
    response.close()


async def test_pictures_and_the_step_through_read_public_views_only(web):
    await web.started()
    table, seats = await web.links_of()
    await web.ok(1, "play draw")  # ann holds a hidden card now
    v = await version(web)
    for base in (table, seats[1], seats[2]):
        for name, part in (("board", "null"), ("tables", '"tables"')):
            response = await web.client.get(f"{base}/{name}.png?v={v}")
            assert response.status == 200 and response.content_type == "image/png"
            drawn = (await response.read()).decode("utf-8", "replace")
            assert '"seat": null' in drawn and f'"part": {part}' in drawn, (base, name)
    private = await web.client.get(f"{seats[1]}/private.png?v={v}")
    assert '"seat": 0' in (await private.read()).decode("utf-8", "replace")
    assert (await web.client.get(f"{table}/private.png?v={v}")).status == 404  # no private picture on the public page
    status, html = await web.get(f"{table}/at/1")
    assert status == 200 and "After step #1 (1 of 1)" in html and 'rel="prev"' in html
    step = await web.client.get(f"{table}/at/1.png")
    assert '"seat": null' in (await step.read()).decode("utf-8", "replace")
    step = await web.client.get(f"{table}/at/1/tables.png")
    drawn = (await step.read()).decode("utf-8", "replace")
    assert '"seat": null' in drawn and '"part": "tables"' in drawn
    assert f'src="{table}/at/1/tables.png"' in html
    assert (await web.get(f"{table}/at/9/tables.png"))[0] == 404
    assert (await web.get(f"{table}/at/0"))[0] == 200
    assert (await web.get(f"{table}/at/9"))[0] == 404
    assert (await web.get(f"{seats[1]}/at/1"))[0] == 404  # the step-through lives on the public page


async def test_both_pictures_of_the_board_are_on_the_pages_and_follow_the_version(web):
    await web.started()
    table, seats = await web.links_of()
    v = await version(web)
    for base in (table, seats[1]):
        _, html = await web.get(base)
        for name, label in (("board", "The board of Fake Race"), ("tables", "The player tables, offers and legend")):
            assert re.search(rf'<img id="{name}" src="{re.escape(base)}/{name}.png\?v={v}" alt="{label}', html), name
        _, part = await web.get(base + "/live")
        assert f'data-tables="{base}/tables.png?v={v}"' in part
    before = await web.client.get(f"{table}/tables.png?v={v}")  # as the browser asks, after the page
    assert before.status == 200
    await web.ok(1, "play take 1")
    now = await version(web)
    _, part = await web.get(seats[1] + "/live")
    assert f'data-board="{seats[1]}/board.png?v={now}"' in part
    assert f'data-tables="{seats[1]}/tables.png?v={now}"' in part
    kept = await web.client.get(f"{table}/tables.png?v={v}", allow_redirects=False)  # drawn before: kept
    current = await web.client.get(f"{table}/tables.png?v={now}")
    assert kept.status == 200 and await kept.read() == await before.read() != await current.read()
    never = await web.client.get(f"{table}/tables.png?v={now + 5}", allow_redirects=False)  # not drawn: now's
    assert never.status == 302 and never.headers["Location"] == f"{table}/tables.png?v={now}"
    assert (await web.get(f"{table}/tables.png?v=x"))[0] == 400


async def test_links_that_cannot_be_used_are_refused_with_their_status(web):
    await web.started()
    table, seats = await web.links_of()
    rec = await web.storage.latest_table(100)
    forged = Signer("another secret")
    cases = {
        "/t/AAAA": 404,  # too short to be a token
        "/t/" + "A" * 300: 404,  # no route: longer than any token
        "/t/" + forged.table_token(rec.id): 403,
        "/s/" + forged.seat_token(rec.id, 0, 1, 0, int(web.clock()) + DAY): 403,
        "/s/" + table[3:]: 404,  # a table's token is no seat's (another length)
        "/s/" + web.table.signer.seat_token(rec.id, 0, 1, 0, int(web.clock()) - 1): 410,  # expired
        "/s/" + web.table.signer.seat_token(rec.id, 1, 1, 0, int(web.clock()) + DAY): 403,  # another seat
        "/s/" + web.table.signer.seat_token(rec.id + 5, 0, 1, 0, int(web.clock()) + DAY): 404,  # no such table
        "/nowhere": 404,
    }
    for path, expected in cases.items():
        status, html = await web.get(path)
        assert status == expected, (path, status, html)
        assert "this link cannot be shown" in html
        assert not COMMAND.search(text_of(html)), html  # words, no command to type (issue 52 §2)
    assert (await web.client.post(table, data={})).status == 405  # the public page never moves
    assert (await web.client.post(table + "/play", data={})).status == 404


async def test_game_link_reset_voids_the_old_seat_link(web):
    await web.started()
    _, seats = await web.links_of()
    reply = await web.ok(1, "game link reset")
    [part] = reply.private
    assert part.user == 1 and "every older link to your seat stops working" in part.text
    status, html = await web.get(seats[1])
    assert status == 410 and "replaced" in html and "Open my seat" in html
    assert not COMMAND.search(text_of(html)), html  # words, no command to type (issue 52 §2)
    _, fresh = await web.links_of()
    assert fresh[1] in part.text and (await web.get(fresh[1]))[0] == 200
    assert (await web.get(seats[2]))[0] == 200  # bob's link is his own


async def test_a_move_needs_the_pages_form_token_and_its_own_origin(web):
    await web.started()
    _, seats = await web.links_of()
    before = await version(web)
    _, html = await web.get(seats[1])
    form = dict(page_form(html)) | {"action": "take 1"}
    json_accept = {"Accept": "application/json"}
    # another site's form, posting with the seat's link (it cannot know the form token)
    response = await web.client.post(seats[1] + "/play", data={**form, "form": "x"}, headers=json_accept)
    assert response.status == 403 and "reload the page" in (await response.json())["text"]
    response = await web.client.post(
        seats[1] + "/play", data=form, headers={**json_accept, "Origin": "https://elsewhere.example"}
    )
    assert response.status == 403 and "another site" in (await response.json())["text"]
    # bob's form token does not act on ann's seat
    bobs = web.table.signer.form_token(seats[2][3:])
    response = await web.client.post(seats[1] + "/play", data={**form, "form": bobs}, headers=json_accept)
    assert response.status == 403
    assert await version(web) == before
    response = await web.client.post(seats[1] + "/play", data=form, headers={**json_accept, "Origin": PUBLIC})
    assert response.status == 200


async def test_malformed_and_huge_requests_are_refused_and_change_nothing(web):
    await web.started()
    _, seats = await web.links_of()
    before = await version(web)
    _, html = await web.get(seats[1])
    form = dict(page_form(html))
    json_accept = {"Accept": "application/json"}
    bad = [
        ({**form, "action": "take 1", "version": "three"}, 400),
        ({**form, "action": "take 1", "version": ""}, 400),
        ({**form, "action": ""}, 400),
        ({**form, "action": "take 1", "key": "<script>"}, 400),
        ({**form, "action": "x" * 600}, 400),
        ({**form, "action": "take 1", "padding": "x" * 40_000}, 413),
    ]
    for data, expected in bad:
        response = await web.client.post(seats[1] + "/play", data=data, headers=json_accept)
        answer = await response.json()
        assert response.status == expected, (data.get("version"), answer)
        assert answer["ok"] is False and answer["text"]
    assert (await web.get(seats[1] + "/board.png?v=x"))[0] == 400
    assert await version(web) == before


async def test_too_many_requests_from_one_link_are_refused_with_429(web):
    await web.started()
    table, seats = await web.links_of()
    statuses = [(await web.client.get(table + "/live")).status for _ in range(web.table.reads.burst + 5)]
    assert statuses[0] == 200 and statuses[-1] == 429
    response = await web.client.get(table + "/live")
    assert response.status == 429 and int(response.headers["Retry-After"]) >= 1
    assert (await web.client.get(seats[1] + "/live")).status == 200  # counted per link


async def test_every_response_forbids_framing_and_a_seats_is_never_cached(web):
    await web.started()
    table, seats = await web.links_of()
    public = await web.client.get(table)
    seat = await web.client.get(seats[1])
    for response in (public, seat):
        assert response.headers["X-Frame-Options"] == "DENY"
        assert "frame-ancestors 'none'" in response.headers["Content-Security-Policy"]
        assert response.headers["Referrer-Policy"] == "same-origin"
    assert seat.headers["Cache-Control"] == "no-store"
    static = await web.client.get("/static/table.js")
    assert static.status == 200 and "EventSource" in await static.text()


async def test_a_link_to_a_finished_game_never_acts_on_the_channels_next_game(web):
    await web.started(options="seed=7 pile=2")
    _, old = await web.links_of()
    _, html = await web.get(old[1])
    stale_form = dict(page_form(html))
    await web.ok(1, "play take 2")  # the game ends
    await web.started(options="seed=8 pile=5")  # a new game in the same channel, same seats
    response = await web.client.post(
        old[1] + "/play", data={**stale_form, "action": "take 1"}, headers={"Accept": "application/json"}
    )
    answer = await response.json()
    assert response.status in (409, 422) and not answer["ok"]
    rows = await web.storage.actions((await web.storage.latest_table(100)).id)
    assert rows == []
    status, finished = await web.get(old[1])
    assert status == 200 and "Game over" in finished


async def test_the_service_fills_the_links_into_headlines_and_decisions(web):
    reply = await web.started()
    table, seats = await web.links_of()
    assert reply.headline.table_url == PUBLIC + table
    assert reply.decisions[1].seat_url == PUBLIC + seats[1]
    web.service.links = None
    plain = await web.ok(1, "board")
    assert plain.headline.table_url == "" and plain.decisions[1].seat_url == ""
    refused = await web.say(1, "game link")
    assert refused.error and "web table is off" in refused.text


def test_the_page_colours_are_the_boards_player_colours():
    """Colours and letters as on the boards (renderers/common/palette.py)."""
    from pathlib import Path

    from renderers.common.palette import PLAYER_COLORS

    css = (Path(__file__).parents[2] / "bot/web/static/table.css").read_text()
    found = dict(re.findall(r"--p(\d): #([0-9a-f]{6})", css))
    assert [tuple(bytes.fromhex(found[str(i)])) for i in range(6)] == [tuple(c) for c in PLAYER_COLORS]


async def test_the_pages_show_the_clocks_and_who_is_away(web):
    """Issue 27 §1-§2: beside whose turn it is, their time left and their time away; on the
    seat's own page, the time left on its clock."""
    await web.started(options="seed=7 pile=9 clock=2d")
    table, seats = await web.links_of()
    web.clock.advance(5)  # hours
    _, html = await web.get(table)
    assert '<p class="clock">ann: 1d 19h left on the clock</p>' in html
    assert "<td>to act · 1d 19h left</td>" in html
    _, mine = await web.get(seats[1])
    assert '<p class="clock">1d 19h left on your clock.</p>' in mine
    web.clock.advance(1)  # the same version, an hour later: the page's clock has moved on
    _, html = await web.get(table)
    assert '<p class="clock">ann: 1d 18h left on the clock</p>' in html
    await web.ok(1, "away 1d holiday")
    web.clock.advance(2)
    _, html = await web.get(table)
    assert "ann: 1d 18h left on the clock; away until <time" in html and "(holiday)</p>" in html


async def test_49_4_the_players_name_a_bot_once_and_a_log_line_its_mover_once(web):
    """Issue 49 §4 (issue 52 §5): the list of players says "Ashoka (bot, easy)", not "Bot
    Ashoka (easy) (bot, easy)"; a move's line "ann chooses the Farmer.", not "ann: ann
    chooses the Farmer."."""
    await web.ok(1, "game new mosaic seed=5")
    await web.ok(2, "game join")
    await web.ok(1, "game bot easy")
    await web.ok(1, "game start fixed")
    table, seats = await web.links_of()
    assert (await web.move(seats[1], "leader farmer"))[0] == 200
    for path in (table, seats[1]):
        _, html = await web.get(path)
        assert '</span> Ashoka <span class="mark">(bot, easy)</span></th>' in html
        assert "Bot Ashoka (easy) <span" not in html
        assert "<b>ann</b> chooses the Farmer." in html and "<b>ann</b>: ann" not in html


async def test_the_live_watcher_stops_right_after_a_poke():
    """A move made here (`poke`) and the server's `stop` in one go: the wait for the wake-up
    ends as the cancellation comes. Python 3.11's `asyncio.wait_for` then returned instead of
    cancelling, so the task looked on and `stop` waited for ever (as the Discord dispatcher's)."""
    from bot.web.live import Watcher

    async def versions(tables):
        return {}

    watcher = Watcher(versions, every=3600)
    watcher.start()
    await asyncio.sleep(0.05)  # it waits to be poked
    watcher.poke()
    stopping = asyncio.create_task(watcher.stop())
    done, _ = await asyncio.wait([stopping], timeout=5)  # (not cancelled on the way: it must end by itself)
    assert stopping in done
