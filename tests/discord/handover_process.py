"""The second bot process of issue 50's stress run: `python -m tests.discord.handover_process`.

tests/discord/handovers.py plays its tables through two bot processes on one database:
itself, and this child. Here runs what a production process runs but the Discord
connection: a `Service` on the given database (bots answering in 0 to `--think` seconds,
a slow painter) and the Discord adapter's real `Dispatcher` under its own claim owner.
Its courier is the same slow fake "Discord" as the parent's: it sleeps, then writes what
it was handed to stdout as one JSON line, {"delivery": "post" | "dm", "ack", "reply",
"users"}, and returns only once the parent has counted it and answered {"ack"} on stdin
(as a send returns once the message is on Discord), so the notice is marked delivered
after it was counted, and the count's order is the order of the sends.

Commands come on stdin, one JSON line each: {"id", "channel", "user", "name", "command",
"args", "refuse"} runs that user's command; its public post and turn DMs are sent from
here, as this process's controller sends them, the channel held from before the command
until its post went out (bot/discord/order.py; so its order among this process's
dispatcher's posts is this process's own); with "refuse" the post is refused (held in the
outbox, as the controller does on a 503, sent late by a dispatcher). The answer is one line
{"id", "reply", "held"}, written after its deliveries. {"id", "busy": table} answers {"id", "busy"}:
whether a bot of this process is acting at that table. {"id", "stop"}: finish what is under
way, stop the dispatcher and the bots, answer {"id", "stopped"}; then stdin closes. Every line goes out in the order
written, so an answer follows every delivery written before it. End of stdin: a clean stop.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import random
import sys
import time
from collections.abc import Sequence
from typing import Any

from bot.discord.dispatcher import Dispatcher
from bot.discord.link import ServiceLink
from bot.service import Private, Reply, Service, Settings
from bot.storage import Claim, open_storage

from .handovers import _Picture


def reply_record(reply: Reply) -> dict[str, Any]:
    """What the stress run's counter reads of a reply, as JSON."""
    return {
        "table_id": reply.table_id,
        "version": reply.version,
        "text": reply.text,
        "error": bool(reply.error),
        "panel": bool(reply.panel),
        "standings": bool(reply.standings),
        "mentions": list(reply.mentions),
        "calls": {str(u): v for u, v in reply.calls.items()},
        "private": [[p.user, p.dm] for p in reply.private],
        "story": [[e.kind, e.via, e.seq] for e in reply.story],
        "choices": list(reply.choices),
    }


class Child:
    """The service, its dispatcher, and a slow courier writing to stdout."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.rnd = random.Random(args.seed)
        self.pending: list[Any] = []  # (the Delivers protocol: sends kept for later; none here)
        self.service: Service | None = None
        self.dispatcher: Dispatcher | None = None
        self.acks: dict[int, asyncio.Future[None]] = {}
        self.ids = itertools.count(1)

    def write(self, record: dict[str, Any]) -> None:
        sys.stdout.write(json.dumps(record) + "\n")
        sys.stdout.flush()

    async def deliver(self, kind: str, reply: Reply, users: list[int]) -> None:
        """Hand a delivery to the parent, and return once it has counted it: a send to Discord
        returns once the message is there, so the next send comes after it."""
        ident = next(self.ids)
        counted = self.acks[ident] = asyncio.get_running_loop().create_future()
        self.write({"delivery": kind, "ack": ident, "reply": reply_record(reply), "users": users})
        await counted

    def draw(self, game_id: str, view: Any, *, seat: Any = None, part: Any = None, highlight: Any = ()) -> Any:
        time.sleep(self.rnd.uniform(0.0, self.args.draw))
        return _Picture(b"\x89PNG-stress", f"{game_id} board")

    async def decide(self, rec: Any, game: Any, state: Any, seat: int, level: str, seed: int) -> str:
        await asyncio.sleep(self.rnd.uniform(0.0, self.args.think))
        return random.Random(seed).choice(game.legal_actions(state, seat))

    # ---- the Delivers protocol -------------------------------------------------------------
    async def post(self, channel: int, reply: Reply, *, buttons: str | None = None) -> Any:
        await asyncio.sleep(self.rnd.uniform(0.0, self.args.send))
        await self.deliver("post", reply, [])
        return None

    async def direct(
        self,
        user: int,
        parts: Sequence[Private],
        *,
        fallback_channel: int | None,
        reply: Reply | None = None,
        link: str | None = None,
        turn: bool = False,
    ) -> bool:
        await asyncio.sleep(self.rnd.uniform(0.0, self.args.send))
        if reply is not None:
            await self.deliver("dm", reply, [p.user for p in parts])
        return True

    async def nudge(self, channel: int, user: int) -> None:
        return None

    # ---- commands ---------------------------------------------------------------------------
    async def answer(self, request: dict[str, Any]) -> None:
        service = self.service
        assert service is not None
        if "busy" in request:
            self.write({"id": request["id"], "busy": service.bots.thinking_at(request["busy"])})
            return
        channel = request["channel"]
        assert self.dispatcher is not None
        async with self.dispatcher.order.command(channel):  # held as the controller holds it
            reply = await service.handle(
                channel, request["user"], request["name"], request["command"], request["args"], guild=1
            )
            public = bool(reply.text) and not reply.panel and not reply.error and reply.table_id is not None
            held = public and bool(request.get("refuse"))
            if held:
                await service.enqueue(channel, reply)
            elif public:  # posted by this process, as its controller would: the post, then the turn DMs
                await self.dispatcher.order.settled(channel)
                await self.post(channel, reply)
        if public and not held:
            for part in reply.private:
                if part.dm:
                    await self.direct(part.user, [part], fallback_channel=channel, reply=reply)
        self.write({"id": request["id"], "reply": reply_record(reply), "held": held})

    async def serve(self) -> None:
        storage = open_storage(self.args.database)
        await storage.open()
        self.service = Service(storage, settings=Settings(images=True), renderer=self.draw)
        self.service.bots.bot_decision = self.decide  # type: ignore[method-assign]
        self.dispatcher = Dispatcher(
            ServiceLink(self.service), self, poll=0.05, retry_base=0.05, claim=Claim(self.args.owner, lease=60.0)
        )
        self.service.on_notice = self.dispatcher.wake
        self.dispatcher.start()
        loop = asyncio.get_running_loop()
        reader = asyncio.StreamReader()
        await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
        self.write({"ready": self.args.owner})
        tasks: set[asyncio.Task[None]] = set()
        while line := await reader.readline():
            request = json.loads(line)
            if "ack" in request:
                self.acks.pop(request["ack"]).set_result(None)
                continue
            work = self.stop(request["id"], set(tasks)) if "stop" in request else self.answer(request)
            task = asyncio.create_task(work)
            tasks.add(task)
            task.add_done_callback(tasks.discard)
        await asyncio.gather(*tasks)

    async def stop(self, ident: int, tasks: set[asyncio.Task[None]]) -> None:
        """Finish the commands under way, then the dispatcher and the bots (their last
        deliveries still counted: acks keep coming on stdin), and say so."""
        assert self.service is not None and self.dispatcher is not None
        await asyncio.gather(*tasks)
        await self.dispatcher.stop()
        await self.service.close_bots()
        await self.service.tables.storage.close()
        self.write({"id": ident, "stopped": True})


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m tests.discord.handover_process")
    parser.add_argument("database")
    parser.add_argument("--owner", required=True)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--draw", type=float, default=0.3)
    parser.add_argument("--send", type=float, default=0.3)
    parser.add_argument("--think", type=float, default=3.0)
    asyncio.run(Child(parser.parse_args()).serve())


if __name__ == "__main__":
    main()
