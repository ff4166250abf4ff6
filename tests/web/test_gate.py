"""What the web table may hold open (issue 53): connections and live pages within a budget
made from the process's file descriptors, refused quickly past it, freed as soon as their
client leaves or stalls; and floods logged once with a count.

These tests use the web table's own listener (`WebTable.start`) on the loopback, clients
spread over loopback addresses (127.0.0.x) to stand for different machines.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
from collections.abc import AsyncIterator

import aiohttp

from bot.web.app import WebTable
from bot.web.gate import KEPT, Budget, Gate
from bot.web.repeats import Repeats

#: A small budget, so the tests reach its edges with a few connections.
SMALL = Budget(connections=6, per_address=3, streams=4, streams_per_address=2, idle=0.3, body=0.3)


@contextlib.asynccontextmanager
async def listening(web, budget: Budget = SMALL, proxies: tuple[str, ...] = ()) -> AsyncIterator[WebTable]:
    """A second web table of the harness's service, on its own loopback port."""
    table = WebTable(web.service, web.table.links, clock=web.clock, budget=budget, proxies=proxies)
    await table.start("127.0.0.1", 0)
    try:
        yield table
    finally:
        await table.stop()


async def connect(table: WebTable, source: str) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    return await asyncio.open_connection("127.0.0.1", table.port, local_addr=(source, 0))


async def closed(reader: asyncio.StreamReader) -> bytes:
    """All the server sent until it closed the connection (bounded: a server that holds it fails)."""
    return await asyncio.wait_for(reader.read(), 10)


async def settle(predicate, rounds: int = 500) -> bool:
    """Whether `predicate()` comes true while the loop runs a few rounds (a few seconds at most)."""
    for _ in range(rounds):
        if predicate():
            return True
        await asyncio.sleep(0.01)
    return predicate()


def test_the_budget_leaves_descriptors_for_discord_the_database_and_the_workers():
    budget = Budget.for_descriptors(1024)
    assert budget.connections == 1024 - KEPT and budget.streams == budget.connections // 2
    assert budget.per_address < budget.connections and budget.streams_per_address < budget.streams
    assert Budget.for_descriptors(200).connections == 50  # a quarter at least, never all
    assert Budget.for_descriptors().connections > 0  # this process's own limit


async def test_a_client_that_never_finishes_its_headers_or_goes_quiet_is_closed(web):
    async with listening(web) as table:
        reader, writer = await connect(table, "127.0.0.1")
        writer.write(b"GET / HTTP/1.1\r\nHost: table.test\r\nX-Slow: ")  # and nothing more
        assert await closed(reader) == b""
        quiet_reader, quiet = await connect(table, "127.0.0.2")
        quiet.write(b"GET / HTTP/1.1\r\nHost: table.test\r\n\r\n")  # kept alive, then nothing
        assert (await closed(quiet_reader)).startswith(b"HTTP/1.1 200 ")
        assert await settle(lambda: table.gate.open == 0)
        writer.close()
        quiet.close()


async def test_a_moves_body_that_never_comes_is_refused(web):
    await web.started()
    _, seats = await web.links_of()
    async with listening(web) as table:
        reader, writer = await connect(table, "127.0.0.1")
        writer.write(
            f"POST {seats[1]}/play HTTP/1.1\r\nHost: table.test\r\nAccept: application/json\r\n"
            "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 500\r\n\r\naction=".encode()
        )
        answer = await closed(reader)
        assert answer.startswith(b"HTTP/1.1 408 ") and b"did not come in time" in answer
        writer.close()


async def test_connections_over_the_budget_are_refused_at_once_with_retry_after(web):
    async with listening(web) as table:
        held = [await connect(table, "127.0.0.1") for _ in range(3)]
        one_address = await connect(table, "127.0.0.1")  # a fourth from one address
        answer = await closed(one_address[0])
        assert answer.startswith(b"HTTP/1.1 429 ") and b"Retry-After: 10\r\n" in answer
        held += [await connect(table, "127.0.0.2") for _ in range(3)]
        assert await settle(lambda: table.gate.open == 6)
        everyone = await connect(table, "127.0.0.3")
        answer = await closed(everyone[0])
        assert answer.startswith(b"HTTP/1.1 503 ") and b"Retry-After: 10\r\n" in answer
        held[0][1].close()  # one leaves: its place is free again
        assert await settle(lambda: table.gate.open == 5)
        reader, writer = await connect(table, "127.0.0.3")
        writer.write(b"GET / HTTP/1.1\r\nHost: table.test\r\nConnection: close\r\n\r\n")
        assert (await closed(reader)).startswith(b"HTTP/1.1 200 ")
        for _, w in held[1:] + [one_address, everyone, (reader, writer)]:
            w.close()


@contextlib.asynccontextmanager
async def client(source: str) -> AsyncIterator[aiohttp.ClientSession]:
    connector = aiohttp.TCPConnector(local_addr=(source, 0), force_close=True)
    async with aiohttp.ClientSession(connector=connector) as session:
        yield session


async def test_the_public_pages_live_updates_are_counted_per_client_not_per_link(web):
    """Nine readers of the channel, each on their own machine, all follow the table live (one
    link, shared: it once held 8 streams, whoever opened them)."""
    await web.started()
    table_path, _ = await web.links_of()
    async with listening(web, Budget.for_descriptors(1024)) as table:
        url = f"http://127.0.0.1:{table.port}{table_path}/events"
        async with contextlib.AsyncExitStack() as stack:
            for n in range(1, 10):
                session = await stack.enter_async_context(client(f"127.0.0.{n}"))
                response = await stack.enter_async_context(session.get(url))
                assert response.status == 200, n
                assert (await response.content.readuntil(b"\n\n")).startswith(b"retry: 1000\nevent: version")
            for path in (table_path, "/static/table.js", "/static/table.css"):  # pages and files pass the gate
                async with session.get(f"http://127.0.0.1:{table.port}{path}") as response:
                    assert response.status == 200 and len(await response.read()) > 1000, path


async def test_one_client_cannot_take_every_live_place_and_gets_retry_after(web):
    await web.started()
    table_path, seats = await web.links_of()
    async with listening(web) as table:
        url = f"http://127.0.0.1:{table.port}"
        async with client("127.0.0.1") as greedy, client("127.0.0.2") as other:
            first = await greedy.get(url + table_path + "/events")
            second = await greedy.get(url + seats[1] + "/events")
            third = await greedy.get(url + table_path + "/events", headers={"Accept": "application/json"})
            assert (first.status, second.status, third.status) == (200, 200, 429)
            assert int(third.headers["Retry-After"]) >= 1 and (await third.json())["status"] == 429
            mine = await other.get(url + table_path + "/events")
            assert mine.status == 200  # another reader of the channel is live all the same
            for response in (first, second, mine):
                response.close()


async def test_a_seats_player_holds_eight_live_pages_whatever_their_links_and_a_closed_one_frees_its_place_at_once(web):
    await web.started()
    links = []
    for _ in range(5):  # each day's link to ann's seat: another text, the same seat
        _, seats = await web.links_of()
        links.append(seats[1])
        web.clock.advance(24)
    assert len(set(links)) == 5
    budget = Budget.for_descriptors(1024)
    async with listening(web, budget) as table:
        urls = [f"http://127.0.0.1:{table.port}{link}/events" for link in links]
        async with contextlib.AsyncExitStack() as stack:
            sessions = [await stack.enter_async_context(client(f"127.0.1.{n}")) for n in range(1, 10)]
            open_ = [await session.get(urls[n % 4]) for n, session in enumerate(sessions[:8])]
            assert [response.status for response in open_] == [200] * 8
            ninth = await sessions[8].get(urls[4])
            assert ninth.status == 429 and "Retry-After" in ninth.headers
            open_[0].close()  # a tab closed (or reloaded): its place is free before any write to it
            assert await settle(lambda: table.gate.streams == 7)
            again = await sessions[8].get(urls[4])
            assert again.status == 200
            for response in open_[1:] + [again]:
                response.close()
        assert await settle(lambda: table.gate.streams == 0 and table.gate.open == 0)


async def test_behind_our_proxy_each_client_it_names_is_counted_as_a_client(web):
    await web.started()
    table_path, _ = await web.links_of()
    async with listening(web, dataclasses.replace(SMALL, streams=10), proxies=("127.0.0.1",)) as table:
        url = f"http://127.0.0.1:{table.port}{table_path}/events"
        held = [await connect(table, "127.0.0.1") for _ in range(4)]  # the proxy: over one address's 3
        assert await settle(lambda: table.gate.open == 4)
        for _, writer in held:
            writer.close()
        assert await settle(lambda: table.gate.open == 0)
        async with client("127.0.0.1") as proxy, client("127.0.0.2") as other:

            async def status(session: aiohttp.ClientSession, forwarded: str) -> int:
                response = await session.get(url, headers={"X-Forwarded-For": forwarded})
                opened.append(response)
                return response.status

            opened: list[aiohttp.ClientResponse] = []
            ann = [await status(proxy, "203.0.113.7") for _ in range(3)]
            assert ann == [200, 200, 429]  # one client behind the proxy: two live pages
            assert await status(proxy, "198.51.100.1, 203.0.113.8") == 200  # another: the last address named
            # an address written by a client that is not our proxy proves nothing
            assert [await status(other, f"192.0.2.{n}") for n in range(3)] == [200, 200, 429]
            for response in opened:
                response.close()


def test_a_repeated_error_is_logged_once_with_a_count():
    now = [0.0]
    repeats = Repeats(60.0, clock=lambda: now[0])
    records = []
    for n in range(10_000):
        record = logging.LogRecord(
            "asyncio", logging.ERROR, __file__, 1, "socket.accept() out of system resource", (), None
        )
        if repeats.filter(record):
            records.append(record.getMessage())
        now[0] += 0.001 if n < 9_999 else 60.0
    record = logging.LogRecord(
        "asyncio", logging.ERROR, __file__, 1, "socket.accept() out of system resource", (), None
    )
    assert repeats.filter(record)
    assert records == ["socket.accept() out of system resource"]
    assert "9,999 more like it" in record.getMessage()
    other = logging.LogRecord("asyncio", logging.ERROR, __file__, 1, "another problem", (), None)
    assert repeats.filter(other)  # another kind of message is its own


class Recorded(asyncio.Protocol):
    """A stand-in for aiohttp's handler: what it was told."""

    def __init__(self) -> None:
        self.heard: list[str] = []

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.heard.append("made")

    def pause_writing(self) -> None:
        self.heard.append("paused")

    def resume_writing(self) -> None:
        self.heard.append("resumed")

    def connection_lost(self, exc: Exception | None) -> None:
        self.heard.append("lost")


class Transport(asyncio.Transport):
    def __init__(self) -> None:
        super().__init__()
        self.aborted = False

    def get_extra_info(self, name: str, default: object = None) -> object:
        return ("127.0.0.9", 5000) if name == "peername" else default

    def abort(self) -> None:
        self.aborted = True


async def test_an_answer_its_client_does_not_read_is_dropped_after_stalled_seconds():
    gate = Gate(dataclasses.replace(SMALL, stalled=0.05))
    inner, transport = Recorded(), Transport()
    guarded = gate.protocol(lambda: inner)()
    guarded.connection_made(transport)
    guarded.pause_writing()  # the client stopped reading: the buffer is full
    guarded.resume_writing()  # it read again in time
    guarded.pause_writing()
    assert await settle(lambda: transport.aborted)  # and then it never did
    guarded.connection_lost(None)
    assert inner.heard == ["made", "paused", "resumed", "paused", "lost"] and gate.open == 0
