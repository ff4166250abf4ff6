"""Every handover reaches its player (issue 50): many tables at once, counted.

Tables of all four games, people and bots mixed, are played at the same time by two bot
processes on one database (PostgreSQL in the test). One is this process: a `Service` with
its storage connection, position cache, bots' tasks and the real outbox dispatcher of the
Discord adapter (bot/discord/dispatcher.py, claiming notices under the owner "one"). The
other is a real child OS process, tests/discord/handover_process.py: its own `Service` and
`Dispatcher` (owner "two") on the same database, spoken to over stdin (one JSON line per
command) and writing each delivery and each command's answer on stdout; its deliveries are
counted here with this process's own, each before its send returns (as a send to Discord
returns once the message is there). Delays are injected in both, each drawn at random so
their orders vary: drawing a board, every send to "Discord" (the courier sleeps, then hands
over what it was given), and each bot's decision. A person's command goes to either process
at random (the tables are opened through this one); its public post is now and then refused
(then held in that process's outbox, as the controller does on a 503), so held posts go late,
sent by whichever dispatcher claims them. Each process holds the table's channel from before
the command until its post went out or into the outbox, and waits for its dispatcher's delivery
in flight there before posting, as the Discord controller does (bot/discord/order.py): the real
ordering of a command's post among the dispatcher's, within each process.

People act as people do: only once notified of their turn (a mention, or a DM where they
asked for them). When a table falls quiet — no bot to act or thinking in either process,
nothing in its outbox — and a person must act but was never notified, that is a missed
notification; they then act anyway, so the table goes on.

Counted per handover (a person called to act: `TableMeta.called`, the version at which
their spell of acting began): notifications of it (target exactly 1), missed (0); pings
and turn DMs to someone who cannot act when they arrive, the caller included (0); posts
that told only bots' moves and notified nobody, or came before the post of the moves
that set them off from the same process (0); posts saying "Sent late" (0 in this ordinary
play). Posts of the two processes in flight at the same moment may reach Discord in either
order: that is counted ("across the two processes") and reported, not a target.

`python -m tests.bench discord handovers` runs it at the full size (1,000+ handovers, the
full delays, SQLite unless `--postgres`); tests/discord/test_handovers.py at a size CI
affords, on PostgreSQL.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.discord.dispatcher import Dispatcher
from bot.discord.link import ServiceLink
from bot.discord.order import ChannelOrder
from bot.service import Private, Reply, Service, Settings
from bot.storage import Claim, StaleWrite, open_storage

#: game, people, bots (easy)
TABLES = [
    ("rising-cultures", 1, 1),
    ("rise-of-empires", 2, 1),
    ("cradle", 2, 2),
    ("mosaic", 2, 1),
]
CHANNEL_BASE = 9000
USER_BASE = 7000


@dataclass
class Delays:
    """The longest injected delays (s): each is drawn uniformly from 0 up to it."""

    draw: float = 0.3
    send: float = 0.3
    think: float = 3.0
    #: The chance that a command's public post is refused (held in the outbox, goes late).
    refuse: float = 0.1


@dataclass
class Tally:
    """What reached the people, per handover (table, user, called-at version)."""

    notified: dict[tuple[int, int, int], int] = field(default_factory=dict)
    handovers: set[tuple[int, int, int]] = field(default_factory=set)
    missed: set[tuple[int, int, int]] = field(default_factory=set)
    #: Turns that started within their player's own command (told by their panel, not a handover).
    own: set[tuple[int, int, int]] = field(default_factory=set)
    not_acting: int = 0  # pings and turn DMs to someone who could not act when they arrived
    caller: int = 0  # of those, to the person whose command the post answers
    bot_only: int = 0
    out_of_order: int = 0  # a post telling older moves than one the same process already sent
    #: The same across the two processes: two senders' posts in flight at once reach Discord in
    #: either order (reported, not a target: nothing orders one process's sends after another's).
    crossed: int = 0
    late_lines: int = 0
    posts: int = 0
    held: int = 0
    picks: int = 0
    bot_steps: int = 0
    #: What the child process did: commands it ran, deliveries its dispatcher made.
    child_picks: int = 0
    child_deliveries: int = 0

    def lines(self, seconds: float) -> list[str]:
        counts = [self.notified.get(k, 0) for k in self.handovers]
        return [
            f"handovers to a person: {len(self.handovers)} ({self.picks} picks, {self.bot_steps} bot steps, "
            f"{self.posts} posts, {self.held} held and sent late) in {seconds:.0f} s; the child process: "
            f"{self.child_picks} picks, {self.child_deliveries} deliveries",
            f"  notified exactly once: {sum(c == 1 for c in counts)}; missed: {len(self.missed)}   (target 0); "
            f"more than once: {sum(c > 1 for c in counts)}   (target 0)",
            f"  pinged while unable to act: {self.not_acting}   (target 0); the player who just acted: "
            f"{self.caller}   (target 0; {len(self.own)} turns went on in their own panel)",
            f"  bot-only posts: {self.bot_only}   (target 0); before the post of what set them off: "
            f"{self.out_of_order}   (target 0; across the two processes: {self.crossed}); "
            f"'Sent late' lines: {self.late_lines}   (target 0)",
        ]

    @property
    def clean(self) -> bool:
        counts = [self.notified.get(k, 0) for k in self.handovers]
        return (
            all(c == 1 for c in counts)
            and not self.missed
            and not self.not_acting
            and not self.caller
            and not self.bot_only
            and not self.out_of_order
            and not self.late_lines
        )


class Process:
    """This bot process: a service on its own storage connection, and the outbox dispatcher."""

    def __init__(self, run: Run, name: str, database: str) -> None:
        self.run = run
        self.name = name
        self.database = database
        self.service: Service | None = None
        self.dispatcher: Dispatcher | None = None
        self.pending: list[Any] = []  # (the Delivers protocol: sends kept for later; none here)

    async def start(self) -> None:
        storage = open_storage(self.database)
        await storage.open()
        settings = Settings(images=True)
        self.service = Service(storage, settings=settings, renderer=self.run.draw)
        self.service.bots.bot_decision = self.run.decide  # type: ignore[method-assign]
        self.dispatcher = Dispatcher(
            ServiceLink(self.service), self, poll=0.05, retry_base=0.05, claim=Claim(self.name, lease=60.0)
        )
        self.service.on_notice = self.dispatcher.wake
        self.dispatcher.start()

    @property
    def storage(self) -> Any:
        assert self.service is not None
        return self.service.tables.storage

    @property
    def order(self) -> ChannelOrder:
        """The dispatcher's channel order, which the controller holds (bot/discord/order.py)."""
        assert self.dispatcher is not None
        return self.dispatcher.order

    async def stop(self) -> None:
        if self.dispatcher is not None:
            await self.dispatcher.stop()
        if self.service is not None:
            await self.service.close_bots()
            await self.service.tables.storage.close()

    # ---- the Delivers protocol: a slow "Discord" that writes down what it is handed --------
    async def post(self, channel: int, reply: Reply, *, buttons: str | None = None) -> Any:
        await self.run.slow("send")
        await self.run.told(reply, dms=False, origin="one")  # (the dispatcher sends the DMs apart: `direct`)
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
        await self.run.slow("send")
        if reply is not None:
            await self.run.dm(reply, [p.user for p in parts])
        return True

    async def nudge(self, channel: int, user: int) -> None:
        return None


@dataclass(frozen=True)
class _Part:
    user: int
    dm: bool


@dataclass(frozen=True)
class _Entry:
    kind: str
    via: str
    seq: int


@dataclass
class Told:
    """A reply as the child process wrote it (tests/discord/handover_process.py): what the
    counter reads of a `Reply`, under the same names."""

    table_id: int | None
    version: int
    text: str
    error: bool
    panel: bool
    standings: bool
    mentions: list[int]
    calls: dict[int, int]
    private: list[_Part]
    story: list[_Entry]
    choices: set[int]

    @classmethod
    def of(cls, record: dict[str, Any]) -> Told:
        return cls(
            table_id=record["table_id"],
            version=record["version"],
            text=record["text"],
            error=record["error"],
            panel=record["panel"],
            standings=record["standings"],
            mentions=list(record["mentions"]),
            calls={int(u): int(v) for u, v in record["calls"].items()},
            private=[_Part(u, dm) for u, dm in record["private"]],
            story=[_Entry(kind, via or "", seq) for kind, via, seq in record["story"]],
            choices=set(record["choices"]),
        )


class ChildProcess:
    """The second bot process: a child OS process (tests/discord/handover_process.py) on the
    same database, spoken to over its stdin; its deliveries and answers come on its stdout,
    read in order, so an answer is read only after every delivery it wrote before it."""

    def __init__(self, run: Run, name: str, database: str) -> None:
        self.run = run
        self.name = name
        self.database = database
        self.proc: asyncio.subprocess.Process | None = None
        self.reader: asyncio.Task[None] | None = None
        self.waiting: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self.ids = itertools.count(1)

    async def start(self) -> None:
        root = str(Path(__file__).resolve().parents[2])
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")]))}
        delays = self.run.delays
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "tests.discord.handover_process",
            self.database,
            f"--owner={self.name}",
            f"--seed={self.run.rnd.randrange(10**6)}",
            f"--draw={delays.draw}",
            f"--send={delays.send}",
            f"--think={delays.think}",
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            cwd=root,
            env=env,
            limit=2**24,
        )
        assert self.proc.stdout is not None
        ready = json.loads(await asyncio.wait_for(self.proc.stdout.readline(), 60))
        assert ready == {"ready": self.name}, ready
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        """Every line in order: a delivery is counted before the next line is read."""
        assert self.proc is not None and self.proc.stdout is not None
        while line := await self.proc.stdout.readline():
            record = json.loads(line)
            if "delivery" in record:
                self.run.tally.child_deliveries += 1
                told = Told.of(record["reply"])
                if record["delivery"] == "post":
                    await self.run.told(told, dms=False, origin="two")  # (the dispatcher sends the DMs apart)
                else:
                    await self.run.dm(told, record["users"])
                assert self.proc.stdin is not None
                self.proc.stdin.write((json.dumps({"ack": record["ack"]}) + "\n").encode())
                await self.proc.stdin.drain()
            else:
                self.waiting.pop(record["id"]).set_result(record)
        for future in self.waiting.values():
            future.set_exception(RuntimeError(f"process {self.name} ended"))

    async def request(self, **request: Any) -> dict[str, Any]:
        assert self.proc is not None and self.proc.stdin is not None
        ident = next(self.ids)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.waiting[ident] = future
        self.proc.stdin.write((json.dumps({"id": ident, **request}) + "\n").encode())
        await self.proc.stdin.drain()
        return await future

    async def handle(self, channel: int, user: int, name: str, command: str, args: str, *, refuse: bool) -> Told:
        """A person's command, run in the child; with `refuse`, its public post is held there."""
        answer = await self.request(channel=channel, user=user, name=name, command=command, args=args, refuse=refuse)
        if answer["held"]:
            self.run.tally.held += 1
        return Told.of(answer["reply"])

    async def busy(self, table: int) -> bool:
        """Is a bot of the child acting at `table`? (Read after every delivery written before.)"""
        return bool((await self.request(busy=table))["busy"])

    async def stop(self) -> None:
        """Stop the child's dispatcher and bots (counting their last deliveries), then end it."""
        if self.proc is None:
            return
        assert self.proc.stdin is not None
        if self.proc.returncode is None:
            await self.request(stop=True)
        self.proc.stdin.close()
        if self.reader is not None:
            await self.reader
        await self.proc.wait()


class Run:
    """The tables, the two processes (this one, and the child) and the tally."""

    def __init__(self, database: str, *, tables: int, target: int, delays: Delays, seed: int = 1) -> None:
        self.database = database
        self.tables = tables
        self.target = target
        self.delays = delays
        self.rnd = random.Random(seed)
        self.tally = Tally()
        self.one = Process(self, "one", database)
        self.two = ChildProcess(self, "two", database)
        self.channels: dict[int, int] = {}  # channel -> table id
        #: (table, process) -> the last step a post that process delivered told
        self.told_up_to: dict[tuple[int, str], int] = {}
        self.last_caller: dict[int, int] = {}  # table -> who made the last command there
        self.names: dict[int, str] = {}

    # ---- injected delays ----------------------------------------------------------------
    async def slow(self, what: str) -> None:
        await asyncio.sleep(self.rnd.uniform(0.0, getattr(self.delays, what)))

    def draw(self, game_id: str, view: Any, *, seat: Any = None, part: Any = None, highlight: Any = ()) -> Any:
        """A slow painter (it runs on a drawing thread): a tiny stand-in picture."""
        time.sleep(self.rnd.uniform(0.0, self.delays.draw))
        return _Picture(b"\x89PNG-stress", f"{game_id} board")

    async def decide(self, rec: Any, game: Any, state: Any, seat: int, level: str, seed: int) -> str:
        """A bot answering in 0 to `think` seconds, with any legal action."""
        await self.slow("think")
        return random.Random(seed).choice(game.legal_actions(state, seat))

    # ---- what reached the people -----------------------------------------------------------
    async def _current(self, table: int, user: int) -> int | None:
        """The version at which `user` was called to act at `table`, if they must act now."""
        rec = await self.one.storage.table(table)
        if rec is None or rec.status != "active":
            return None
        seat = rec.seat_of(user)
        called = (rec.meta or {}).get("called") or {}
        value = called.get(str(seat.seat)) if seat is not None and not seat.bot else None
        return None if value is None else int(value)

    async def _notify(self, reply: Reply | Told, user: int) -> None:
        table = reply.table_id
        assert table is not None
        key = reply.calls.get(user)
        if key is None and reply.standings:
            return  # the end of the game: every player's news, not a turn
        if key is None or await self._current(table, user) != key:
            self.tally.not_acting += 1
            self.tally.caller += user == self.last_caller.get(table)
            return
        handover = (table, user, key)
        if handover in self.tally.own:
            self.tally.caller += 1  # their own command went on into this turn: never pinged for it
            return
        self.tally.notified[handover] = self.tally.notified.get(handover, 0) + 1
        self.tally.handovers.add(handover)

    async def told(self, reply: Reply | Told, *, dms: bool, origin: str) -> None:
        """A public post went out from process `origin` ("one", "two"): its pings, and what it
        told; `dms`: its turn DMs with it."""
        if reply.table_id is None:
            return
        self.tally.posts += 1
        self.tally.late_lines += "Sent late" in reply.text
        for user in reply.mentions:
            await self._notify(reply, user)
        if dms:
            await self.dm(reply, [p.user for p in reply.private if p.dm])
        moves = [e for e in reply.story if e.kind == "move"]
        if moves and not reply.standings and all(e.via for e in moves) and not reply.calls:
            self.tally.bot_only += 1
        if moves:
            first, last = min(e.seq for e in moves), max(e.seq for e in moves)
            mine, other = (reply.table_id, origin), (reply.table_id, "two" if origin == "one" else "one")
            if first <= self.told_up_to.get(mine, 0):
                self.tally.out_of_order += 1
            elif first <= self.told_up_to.get(other, 0):
                self.tally.crossed += 1
            self.told_up_to[mine] = max(self.told_up_to.get(mine, 0), last)

    async def dm(self, reply: Reply | Told, users: list[int]) -> None:
        """Direct messages went out: those of a turn (the post's calls) notify."""
        for user in users:
            if user in reply.calls and reply.table_id is not None and user not in reply.mentions:
                await self._notify(reply, user)

    # ---- the people -----------------------------------------------------------------------
    @property
    def storage(self) -> Any:
        return self.one.storage

    async def open_tables(self) -> None:
        service = self.one.service
        assert service is not None
        for index in range(self.tables):
            game_id, people, bots = TABLES[index % len(TABLES)]
            channel = CHANNEL_BASE + index
            users = [USER_BASE + index * 10 + i for i in range(people)]
            for u in users:
                self.names[u] = f"p{u}"

            async def say(user: int, command: str, args: str = "", channel: int = channel) -> Reply:
                return await service.handle(channel, user, self.names[user], command, args, guild=1)

            await say(users[0], "game new", f"{game_id} seed={self.rnd.randrange(1000)}")
            for u in users[1:]:
                await say(u, "game join")
            for _ in range(bots):
                await say(users[0], "game bot", "easy")
            if people > 1 and index % 2:
                await say(users[-1], "settings", "dm on")  # told of their turn by DM
            async with self.one.order.command(channel):  # as the controller holds it
                start = await say(users[0], "game start")
                rec = await service.tables.storage.open_table(channel)
                assert rec is not None, start.text
                self.channels[channel] = rec.id
                self.last_caller[rec.id] = users[0]
                await self.own_panel(rec.id, users[0], start)
                await self.answer(channel, start, refuse=self.rnd.random() < self.delays.refuse)

    async def answer(self, channel: int, reply: Reply | Told, *, refuse: bool = False) -> None:
        """The command's reply goes out as the Discord controller sends it: the public post (or,
        refused, held in the outbox for either process's dispatcher), then the turn DMs. The
        child sends its own commands' posts, as a bot process does. Called while the channel
        is held (`ChannelOrder.command`); the post waits for the dispatcher's delivery in
        flight there, as `Controller._post_public` does."""
        if not reply.text or reply.panel or reply.error or reply.table_id is None:
            return
        if isinstance(reply, Told):
            return  # the child posted it, or held it, itself (and it was counted as it went)
        if refuse:
            self.tally.held += 1
            assert self.one.service is not None
            await self.one.service.enqueue(channel, reply)
            return
        await self.one.order.settled(channel)
        await self.slow("send")
        await self.told(reply, dms=True, origin="one")

    async def quiet(self, channel: int, table: int) -> bool:
        """Nothing is under way at the table: no bot to act or thinking, nothing to deliver.
        The child is asked before and after the outbox is read: its second answer comes after
        every delivery it made before the outbox was read, so none is still on its way here."""
        assert self.one.service is not None
        if self.one.service.bots.thinking_at(table) or await self.two.busy(table):
            return False
        if any(n.channel == channel for n in await self.storage.notices()):
            return False
        if await self.two.busy(table):
            return False
        rec = await self.storage.table(table)
        return not any(s.bot for s in rec.seats if str(s.seat) in ((rec.meta or {}).get("called") or {}))

    async def acting_people(self, table: int) -> tuple[str, dict[int, int]]:
        """The table's status, and each person who must act with the version they were called at."""
        rec = await self.storage.table(table)
        called = (rec.meta or {}).get("called") or {}
        return rec.status, {s.user: int(called[str(s.seat)]) for s in rec.seats if not s.bot and str(s.seat) in called}

    async def drive(self, channel: int, table: int) -> None:
        """People at one table act once notified, until the game ends or the target is reached."""
        while len(self.tally.handovers) < self.target:
            status, acting = await self.acting_people(table)
            if status != "active":
                return
            for user, key in acting.items():
                if (table, user, key) not in self.tally.own:
                    self.tally.handovers.add((table, user, key))
            ready = [u for u, k in acting.items() if self.knows(table, u, k)]
            if not ready and acting and await self.quiet(channel, table):
                status, again = await self.acting_people(table)
                if again == acting and not any(self.knows(table, u, k) for u, k in acting.items()):
                    ready = list(acting)  # quiet, and never told: missed (counted at the end); they act anyway
            if not ready:
                await asyncio.sleep(0.02)
                continue
            await self.pick(channel, table, self.rnd.choice(ready))

    def knows(self, table: int, user: int, key: int) -> bool:
        """Has `user` been told of the turn they were called to at `key` (a notification, or their panel)?"""
        return (table, user, key) in self.tally.own or bool(self.tally.notified.get((table, user, key)))

    async def pick(self, channel: int, table: int, user: int) -> None:
        """`user` plays one of their legal actions, through either process at random."""
        service = self.one.service
        assert service is not None
        rec = await service.tables.storage.table(table)
        player = rec.seat_of(user) if rec is not None else None
        if rec is None or player is None or player.seat is None:
            return
        try:
            state = await service.tables.state(rec)
        except StaleWrite:
            return  # the other process moved the table on between two reads: look again
        game = service.tables.game(rec)
        seat = player.seat
        legal = game.legal_actions(state, seat) if seat in game.to_act(state) else []
        if not legal:
            return
        self.last_caller[table] = user
        action, refuse = self.rnd.choice(legal), self.rnd.random() < self.delays.refuse
        if self.rnd.random() < 0.5:
            async with self.one.order.command(channel):  # held across the command and its post, as the controller does
                reply = await service.handle(channel, user, self.names[user], "play", action, guild=1)
                await self.answered(channel, table, user, reply, refuse=refuse)
        else:
            told = await self.two.handle(channel, user, self.names[user], "play", action, refuse=refuse)
            self.tally.child_picks += not told.error
            await self.answered(channel, table, user, told, refuse=refuse)

    async def answered(self, channel: int, table: int, user: int, reply: Reply | Told, *, refuse: bool) -> None:
        """A pick's reply: counted, the caller's own panel noted, its post sent (`answer`)."""
        if not reply.error:
            self.tally.picks += 1
            await self.own_panel(table, user, reply)
            await self.answer(channel, reply, refuse=refuse)

    async def own_panel(self, table: int, user: int, reply: Reply | Told) -> None:
        """A turn that starts within the caller's own command (the start, a turn coming back to
        them) is told by their panel: the player who just acted is never pinged."""
        key = await self._current(table, user)
        if key is not None and user in reply.choices and reply.version == key:
            self.tally.own.add((table, user, key))

    async def main(self) -> Tally:
        await self.one.start()
        await self.two.start()
        try:
            await self.open_tables()
            await asyncio.gather(*(self.drive(c, t) for c, t in self.channels.items()))
            for _ in range(400):  # let what is under way finish, so every count is complete
                if all([await self.quiet(c, t) for c, t in self.channels.items()]):
                    break
                await asyncio.sleep(0.05)
            for table in self.channels.values():
                rows = await self.storage.actions(table)
                self.tally.bot_steps += sum(r.via == "bot" for r in rows)
            for table in self.channels.values():  # those waiting at the end count too
                _, acting = await self.acting_people(table)
                self.tally.handovers |= {
                    (table, u, k) for u, k in acting.items() if (table, u, k) not in self.tally.own
                }
            self.tally.missed = {k for k in self.tally.handovers if not self.tally.notified.get(k)}
        finally:
            await self.two.stop()
            await self.one.stop()
        return self.tally


@dataclass
class _Picture:
    png: bytes
    alt: str


async def run(database: str, *, tables: int, target: int, delays: Delays, seed: int = 1) -> tuple[Tally, float]:
    started = time.perf_counter()
    tally = await Run(database, tables=tables, target=target, delays=delays, seed=seed).main()
    return tally, time.perf_counter() - started
