"""One bot process for the several-processes tests: `python -m tests.bot.service_process`.

It runs what a production process runs but the Discord connection: the
`Service` on the given database, and the Discord adapter's real `Dispatcher`
with this process's claim (owner, lease, shards), whose courier writes every
message it would post to `--deliveries` (one JSON line each, flushed and
fsynced before the notice is marked delivered, as a real post precedes it).

Commands come on stdin, one JSON object a line — {"id", "channel", "user",
"line", "guild", "expected_version"} — and each answer goes to stdout as one JSON
line {"id", "error", "stale", "version", "table", "choices", "text"}, written
only after `Service.handle` returned, i.e. after the command was committed.
Commands run concurrently, as Discord interactions do.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
from typing import Any

from bot.discord.dispatcher import Dispatcher
from bot.discord.link import ServiceLink
from bot.service import Service, Settings
from bot.storage import Claim, Shards, open_storage

from .conftest import GAMES


class FileCourier:
    """The Dispatcher's courier, writing what it would send to a file."""

    def __init__(self, path: str, owner: str, stall: int | None = None) -> None:
        self.pending: list[Any] = []
        self.owner = owner
        #: A channel whose posts never return (a Discord outage there): the notice stays claimed.
        self.stall = stall
        self.handle = open(path, "a", encoding="utf-8")

    def _write(self, record: dict[str, Any]) -> None:
        self.handle.write(json.dumps({"owner": self.owner, **record}) + "\n")
        self.handle.flush()
        os.fsync(self.handle.fileno())

    async def post(self, channel: int, reply: Any, *, buttons: Any = None) -> None:
        if channel == self.stall:
            self._write({"attempt": channel, "text": reply.text})
            await asyncio.Event().wait()
        self._write({"channel": channel, "text": reply.text})

    async def direct(self, user: int, parts: Any, *, fallback_channel: int | None, **_: Any) -> bool:
        self._write({"dm": user, "text": " ".join(p.text for p in parts)})
        return True

    async def nudge(self, channel: int, user: int) -> None:
        self._write({"channel": channel, "nudge": user})


async def serve(args: argparse.Namespace) -> None:
    storage = open_storage(args.database)
    await storage.open()
    service = Service(storage, games=GAMES, settings=Settings(images=False))
    shards = Shards(args.shard_count, frozenset(args.shard_ids)) if args.shard_count else None
    dispatcher = Dispatcher(
        ServiceLink(service),
        FileCourier(args.deliveries, args.owner, args.stall),
        poll=args.poll,
        claim=Claim(args.owner, args.lease, shards),
    )
    dispatcher.start()
    out = sys.stdout

    async def answer(request: dict[str, Any]) -> None:
        reply = await service.handle(
            request["channel"],
            request["user"],
            f"p{request['user']}",
            request["line"],
            guild=request.get("guild"),
            expected_version=request.get("expected_version"),
        )
        dispatcher.wake()
        out.write(
            json.dumps(
                {
                    "id": request["id"],
                    "error": reply.error,
                    "stale": reply.stale,
                    "version": reply.version,
                    "table": reply.table_id,
                    "text": reply.text,
                    "choices": {str(k): v for k, v in reply.choices.items()},
                }
            )
            + "\n"
        )
        out.flush()

    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    out.write(json.dumps({"ready": args.owner}) + "\n")
    out.flush()
    tasks: set[asyncio.Task] = set()
    while line := await reader.readline():
        task = asyncio.create_task(answer(json.loads(line)))
        tasks.add(task)
        task.add_done_callback(tasks.discard)
    await asyncio.gather(*tasks)
    await dispatcher.stop()
    await service.close()


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m tests.bot.service_process")
    parser.add_argument("database")
    parser.add_argument("--owner", required=True)
    parser.add_argument("--deliveries", required=True)
    parser.add_argument("--shard-count", type=int, default=0)
    parser.add_argument("--shard-ids", type=int, nargs="*", default=[])
    parser.add_argument("--lease", type=float, default=2.0)
    parser.add_argument("--poll", type=float, default=0.2)
    parser.add_argument("--stall", type=int, default=None, help="a channel whose posts hang")
    asyncio.run(serve(parser.parse_args()))


if __name__ == "__main__":
    main()
