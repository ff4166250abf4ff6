"""Limits that nobody can spend for others (issue 53): rate limits counted on what a link
means (a seat's, whatever day its link was made; the public link's per client, as a whole
channel shares it), and the safety headers on every answer that carries a seat's token."""

from __future__ import annotations

import aiohttp

from .test_routes import version


async def test_one_client_looping_on_the_public_link_leaves_the_others_theirs(web):
    await web.started()
    table, _ = await web.links_of()
    looping = [(await web.client.get(table + "/live")).status for _ in range(web.table.reads.burst + 5)]
    assert looping[0] == 200 and looping[-1] == 429
    # another reader of the channel, from another address, reads on
    connector = aiohttp.TCPConnector(local_addr=("127.0.0.2", 0))
    async with aiohttp.ClientSession(connector=connector) as other:
        async with other.get(web.client.make_url(table + "/live")) as response:
            assert response.status == 200


async def test_every_link_to_one_seat_counts_as_that_seat(web):
    await web.started()
    _, seats = await web.links_of()
    today = seats[1]
    web.clock.advance(24)  # tomorrow's link to the same seat: another text, the same seat
    _, later = await web.links_of()
    assert later[1] != today
    statuses = [(await web.client.get(today + "/live")).status for _ in range(web.table.reads.burst + 5)]
    assert statuses[0] == 200 and statuses[-1] == 429
    assert (await web.client.get(later[1] + "/live")).status == 429
    assert (await web.client.get(later[2] + "/live")).status == 200  # bob's seat is his own


async def test_a_redirect_from_a_seats_picture_carries_the_safety_headers_and_no_store(web):
    await web.started()
    _, seats = await web.links_of()
    now = await version(web)
    for picture in ("board", "tables", "private"):
        moved = await web.client.get(f"{seats[1]}/{picture}.png?v={now + 5}", allow_redirects=False)
        assert moved.status == 302 and moved.headers["Location"].startswith(seats[1])
        assert moved.headers["Cache-Control"] == "no-store"
        assert moved.headers["X-Frame-Options"] == "DENY"
        assert moved.headers["Referrer-Policy"] == "same-origin"
        assert "frame-ancestors 'none'" in moved.headers["Content-Security-Policy"]
