"""A TCP relay between the bot and a PostgreSQL server that can lose a COMMIT or its answer.

"The connection died during COMMIT" cannot be timed from outside: a server stopped a
millisecond early or late gives an ordinary outage. The relay makes it exact. It passes
bytes both ways and reads the client's side message by message (PostgreSQL's wire
protocol: untyped startup messages, then a type byte and a length); once armed, the
next `COMMIT` the client sends is

- `lose="request"`: never delivered; both connections are closed (the server, seeing
  its client gone, rolls the transaction back: it did not land);
- `lose="answer"`: delivered; the server's "COMMIT" reply is withheld and the client's
  connection closed (the transaction landed, the client never heard);
- `lose="hold"`: held until `release()` (meanwhile a test stops the server), then
  delivered to whatever is left of the connection.

`hit` is set when the COMMIT arrives.
"""

from __future__ import annotations

import asyncio
import contextlib
import struct

#: Untyped requests that may come before the startup message (SSL, GSS encryption).
_PRELUDES = {80877103, 80877104}
#: The server's CommandComplete for a COMMIT.
_COMMITTED = b"C" + struct.pack("!I", 11) + b"COMMIT\x00"


class Relay:
    def __init__(self, port: int) -> None:
        self.upstream = port
        self.port = 0
        self.lose: str | None = None
        self.hit = asyncio.Event()
        self._released = asyncio.Event()
        self._server: asyncio.Server | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    def arm(self, lose: str) -> None:
        self.lose = lose
        self.hit.clear()
        self._released.clear()

    def release(self) -> None:
        self._released.set()

    def url(self, server_url: str) -> str:
        """`server_url` pointed at the relay (plain text on the wire: the relay reads it)."""
        url = server_url.replace(f":{self.upstream}/", f":{self.port}/")
        return url + ("&" if "?" in url else "?") + "sslmode=disable"

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.upstream)
        except OSError:
            writer.close()
            return
        cut = asyncio.Event()  # set: withhold the server's next COMMIT reply and hang up
        tasks = [
            asyncio.create_task(self._from_client(reader, up_writer, writer, cut)),
            asyncio.create_task(self._from_server(up_reader, writer, up_writer, cut)),
        ]
        self._tasks.update(tasks)
        await asyncio.gather(*tasks, return_exceptions=True)
        for w in (writer, up_writer):
            w.close()

    async def _from_client(
        self,
        reader: asyncio.StreamReader,
        up: asyncio.StreamWriter,
        down: asyncio.StreamWriter,
        cut: asyncio.Event,
    ) -> None:
        untyped = True
        with contextlib.suppress(ConnectionError, asyncio.IncompleteReadError):
            while True:
                if untyped:
                    head = await reader.readexactly(4)
                    body = await reader.readexactly(struct.unpack("!I", head)[0] - 4)
                    untyped = struct.unpack("!I", body[:4])[0] in _PRELUDES
                    message, kind = head + body, b""
                else:
                    head = await reader.readexactly(5)
                    body = await reader.readexactly(struct.unpack("!I", head[1:])[0] - 4)
                    message, kind = head + body, head[:1]
                if self.lose and kind == b"Q" and body.upper().startswith(b"COMMIT"):
                    lose, self.lose = self.lose, None
                    self.hit.set()
                    if lose == "request":
                        break
                    if lose == "answer":
                        cut.set()
                    if lose == "hold":
                        await self._released.wait()
                up.write(message)
                await up.drain()
        for w in (up, down):
            w.close()

    async def _from_server(
        self,
        reader: asyncio.StreamReader,
        down: asyncio.StreamWriter,
        up: asyncio.StreamWriter,
        cut: asyncio.Event,
    ) -> None:
        pending = b""
        with contextlib.suppress(ConnectionError):
            while data := await reader.read(65536):
                if cut.is_set():
                    pending += data
                    if _COMMITTED in pending:  # the commit is done; its client never hears of it
                        break
                    continue
                down.write(data)
                await down.drain()
        for w in (down, up):
            w.close()
