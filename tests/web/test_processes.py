"""Several bot processes on one database each serve the web table for any table (issue 28 §1).

Two services on one database (on SQLite and on PostgreSQL), each with its own web table,
stand for two processes: the signing secret is made once and shared through the database,
so a link made by one works on the other; a move made on one's page reaches a page open on
the other within a second; and `open_web` starts from config and stops with the service.
"""

from __future__ import annotations

import asyncio
import time

from aiohttp.test_utils import TestClient, TestServer

from bot.config import Config
from bot.service import Service, Settings
from bot.storage import open_storage
from bot.web import address, open_web
from bot.web.app import WebTable
from bot.web.links import Links, signing_secret
from bot.web.tokens import Signer
from tests.bot.conftest import GAMES, Clock

from .conftest import page_form


async def process(database: str, clock: Clock) -> tuple[Service, TestClient, WebTable]:
    storage = open_storage(database)
    await storage.open()
    service = Service(storage, clock=clock, games=GAMES, settings=Settings(images=False))
    secret = await signing_secret(storage, "", clock())
    links = Links("http://table.test", Signer(secret), 30, clock)
    service.links = links
    web = WebTable(service, links, clock=clock)
    client = TestClient(TestServer(web.app))
    await client.start_server()
    return service, client, web


async def test_any_process_serves_any_table_and_pages_follow_moves_made_elsewhere(any_database, clock):
    (one, client_one, _), (two, client_two, web_two) = [await process(any_database, clock) for _ in range(2)]
    try:
        for user, line in ((1, "game new fake-race seed=3 pile=9"), (2, "game join"), (1, "game start fixed")):
            reply = await one.handle(100, user, f"u{user}", line)
            assert not reply.error, reply.text
        table = reply.headline.table_url.removeprefix("http://table.test")
        seat = reply.decisions[1].seat_url.removeprefix("http://table.test")
        assert (await client_two.get(table)).status == 200  # process two reads process one's link
        events = await client_two.get(table + "/events")
        first = await asyncio.wait_for(events.content.readuntil(b"\n\n"), 2)
        form = dict(page_form(await (await client_two.get(seat)).text())) | {"action": "take 2"}
        started = time.monotonic()
        moved = await client_one.post(seat + "/play", data=form, headers={"Accept": "application/json"})
        assert moved.status == 200, await moved.text()
        news = await asyncio.wait_for(events.content.readuntil(b"\n\n"), 2)
        assert news != first and news.startswith(b"event: version\n")
        assert time.monotonic() - started < 1.0 + web_two.watcher.every
        events.close()
    finally:
        for client, service in ((client_one, one), (client_two, two)):
            await client.close()
            await service.close()


async def test_open_web_listens_from_config_and_stops_with_the_service(tmp_path, unused_tcp_port):
    storage = open_storage(str(tmp_path / "web.sqlite"))
    await storage.open()
    service = Service(storage, games=GAMES, settings=Settings(images=False))
    try:
        config = Config(web_listen=f"127.0.0.1:{unused_tcp_port}", web_public_url="https://epochs.example")
        web = await open_web(service, config)
        assert web is not None and service.links is not None
        assert service.links.table_url(1).startswith("https://epochs.example/t/")
        reader, writer = await asyncio.open_connection("127.0.0.1", unused_tcp_port)
        writer.write(b"GET / HTTP/1.0\r\n\r\n")
        assert b" 200 " in await reader.readline()
        writer.close()
        taken = Service(storage, games=GAMES, settings=Settings(images=False))
        assert await open_web(taken, config) is None and taken.links is None  # the address is taken: runs without
        assert await open_web(taken, Config(web_listen="")) is None  # off
    finally:
        await service.close()
    try:
        await asyncio.open_connection("127.0.0.1", unused_tcp_port)
        raise AssertionError("the web table still listens after the service closed")
    except OSError:
        pass


def test_listen_addresses():
    assert address("127.0.0.1:8765") == ("127.0.0.1", 8765)
    assert address("[::1]:80") == ("::1", 80)
