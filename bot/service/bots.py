"""Fill-in bots at the table (issue 14 §3; bot/DECISIONS.md, "Fill-in bots").

A seat is played by a bot when its `SeatRecord.bot` names a level: a bot seated in
the lobby (`game bot [easy|normal|strong]`), a resigned player's seat, or an absent
player's seat the others voted to replace (`vote replace`; the player takes it back
with `game back`).

A bot to act is found the way a person to act is: it has a reminder, due at once.
`tick` hands such reminders here instead of sending them; the bot's moves are made
by a background task per table, so a bot thinking never holds up anyone's command
or the delivery of notices. Each move is decided in a worker process
(`engine.ai:decide`, bot/workers.py) from the seat's information state alone
(`engine.ai.infostate`, computed here beside the true state: the hidden parts
redrawn), bounded by the level's iteration budget and a timeout, then stored like
any move (`via = "bot"`) and announced as part of its turn: when the turn passes,
the post goes into the outbox in its own transaction. Nothing of the thinking is
kept: after a restart the reminder is still due, and the bot simply decides again.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from engine.core import Game, refers_of

from ..storage.base import ActionRecord, Change, ReminderRecord, SeatRecord, StaleWrite, TableRecord
from .core import Ctx, Tables
from .meta import TableMeta
from .moves import Moves
from .refusal import Refusal
from .reply import Reply
from .steps import Steps
from .turns import Turn

if TYPE_CHECKING:  # the pool module is imported only when a table has bots
    from ..workers import WorkerPool

log = logging.getLogger(__name__)

LEVELS = ("easy", "normal", "strong")
DEFAULT_LEVEL = "normal"

#: Bots take the names of rulers of the games' own ages, by game (then numbered).
BOT_NAMES = {
    "rising-cultures": ("Cyrus", "Hatshepsut", "Augustus", "Harun"),
    "rise-of-empires": ("Charlemagne", "Isabella", "Suleiman", "Akbar", "Elizabeth"),
    "cradle": ("Sargon", "Hammurabi", "Nebuchadnezzar", "Ramesses", "Ashurbanipal", "Darius"),
    "mosaic": ("Ashoka", "Cleopatra", "Qin Shi Huang", "Pericles", "Hannibal", "Boudica"),
}
FALLBACK_NAMES = ("Ada", "Grace", "Alan", "Edsger", "Barbara", "Donald")


def bot_name(game_id: str, taken: set[str], level: str) -> str:
    """`Bot Sargon (normal)`: a clear name that nobody at the table has (bot or person)."""
    for base in BOT_NAMES.get(game_id, FALLBACK_NAMES) + FALLBACK_NAMES:
        if not any(t == base.lower() or t.startswith(f"bot {base.lower()} ") for t in taken):
            return f"Bot {base} ({level})"
    return f"Bot {len(taken) + 1} ({level})"


def bot_seed(table_seed: int, seq: int, seat: int) -> int:
    """A bot's seed for one decision: fixed by the table, the move and the seat, so the
    same position gives the same decision on any machine (the log replays it anyway)."""
    digest = hashlib.sha256(f"{table_seed}:{seq}:{seat}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


class Bots:
    """`game bot`, `game back`, and the bots' own moves."""

    def __init__(self, tables: Tables, moves: Moves) -> None:
        self.tables = tables
        self.moves = moves
        self.storage = tables.storage
        #: The worker processes the bots think in (made on first use; tests may set one).
        self.thinkers: WorkerPool | None = None
        #: Called after a bot's move put its post into the outbox (the Discord dispatcher
        #: delivers it at once instead of at its next round).
        self.on_notice: Callable[[], None] | None = None
        #: Per table: the task its bots play in, while they have moves to make.
        self._bot_tasks: dict[int, asyncio.Task[None]] = {}

    def bots_available(self, game_id: str) -> bool:
        try:
            import engine.ai  # noqa: PLC0415 - the bots are optional for a game
        except ImportError:
            return False
        return game_id in engine.ai.GAMES

    # ------------------------------------------------------------------ commands
    async def bot(self, ctx: Ctx, args: list[str]) -> Reply:
        """`game bot [easy|normal|strong]` seats a bot in the lobby; `game bot remove` unseats
        the last one. Any seated player may, so two friends can fill a table of four."""
        rec = await self.tables.table(ctx, need=("lobby",))
        game = self.tables.game(rec)
        if rec.seat_of(ctx.user) is None:
            raise Refusal(
                "Join the table first (`game join`); then you can seat bots beside you.", **self.tables.ids(rec)
            )
        word = args[0].lower() if args else DEFAULT_LEVEL
        if word in ("remove", "off", "kick"):
            bots = [s for s in rec.seats if s.bot]
            if not bots:
                raise Refusal("There is no bot at this table.", **self.tables.ids(rec))
            seats = [s for s in rec.seats if s is not bots[-1]]
            version = await self.tables.commit(rec, Change(seats=seats), ctx.now)
            return Reply(
                f"{bots[-1].name} left the table. Players: {self._player_list(seats)}.",
                **self.tables.ids(rec, version),
            )
        if word not in LEVELS:
            raise Refusal(
                "`game bot easy`, `game bot normal` (the default) or `game bot strong`; "
                "`game bot remove` takes the last bot away.",
                **self.tables.ids(rec),
            )
        if not self.bots_available(rec.game):
            raise Refusal(f"There is no bot for {game.title} yet.", **self.tables.ids(rec))
        if len(rec.seats) >= game.max_players:
            raise Refusal(
                f"The table is full: {game.title} takes at most {game.max_players} players.", **self.tables.ids(rec)
            )
        ids = [s.user for s in rec.seats if s.user < 0]
        name = bot_name(rec.game, {s.name.lower() for s in rec.seats}, word)
        seats = rec.seats + [SeatRecord(min(ids, default=0) - 1, name, None, False, ctx.now, word)]
        version = await self.tables.commit(rec, Change(seats=seats), ctx.now)
        return Reply(
            f"{ctx.name} seated {name}. Players: {self._player_list(seats)}.",
            **self.tables.ids(rec, version),
        )

    async def back(self, ctx: Ctx, args: list[str]) -> Reply:
        """`game back`: a player whose seat the others gave to a bot takes it back."""
        rec = await self.tables.table(ctx, need=("active", "paused"))
        seat = rec.seat_of(ctx.user)
        if seat is None:
            raise Refusal("You are not a player in this game.", **self.tables.ids(rec))
        if seat.resigned:
            raise Refusal("You resigned from this game; a bot plays your seat to the end.", **self.tables.ids(rec))
        if not seat.bot:
            raise Refusal("Your seat is yours: nobody plays it for you.", **self.tables.ids(rec))
        unplayed = rec.status == "paused" and not self.tables.people(rec)  # paused as nobody was left
        rec.seats = [
            SeatRecord(s.user, s.name, s.seat, s.resigned, s.joined, None if s is seat else s.bot) for s in rec.seats
        ]
        if unplayed:  # a person plays again: the game goes on (README, "Clocks")
            rec.status = "active"
        state = await self.tables.state(rec)
        meta = TableMeta.of(rec)
        clock = meta.table_clock()
        mine = clock.seats.get(seat.seat) if clock is not None and seat.seat is not None else None
        if clock is not None and mine is not None:  # a bank run out restarts with the minimum (issue 27 §1)
            mine.left, mine.out = max(mine.left, clock.control.minimum), None
            meta.clock = clock.to_json()
        reminders = await self.tables.timers.settle(rec, meta, self.tables.game(rec), state, ctx.now)
        change = Change(
            status="active" if unplayed else None, seats=rec.seats, meta=meta.to_json(), reminders=reminders
        )
        await self.tables.commit(rec, change, ctx.now, state=state)
        again = " The game goes on." if unplayed else ""
        return await self.moves.position_reply(
            rec, state, f"{ctx.name} is back and plays their own seat again.{again}", ctx
        )

    def _player_list(self, seats: list[SeatRecord]) -> str:
        from .text import names  # noqa: PLC0415 - small helper, kept local to this reply

        return names([s.name for s in seats]) + f" ({len(seats)})"

    # ------------------------------------------------------------------ the bots' moves
    async def bot_reminder(self, reminder: ReminderRecord) -> bool:
        """Is this due reminder a bot's (a seat given to a bot keeps its person's id)?"""
        rec = await self.storage.table(reminder.table)
        seat = rec.seat_of(reminder.user) if rec is not None else None
        return bool(seat is not None and seat.bot)

    def wake_bots(self, reminder: ReminderRecord) -> None:
        """A bot's reminder is due: let it play its table (one task per table at a time)."""
        tasks = self._bot_tasks
        task = tasks.get(reminder.table)
        if task is not None and not task.done():
            return
        tasks[reminder.table] = asyncio.get_running_loop().create_task(
            self._play_bots(reminder.table), name=f"epochs-bots-{reminder.table}"
        )

    def thinking(self) -> int:
        """How many tables' bots are still thinking."""
        return sum(not task.done() for task in self._bot_tasks.values())

    def thinking_at(self, table: int) -> bool:
        """Whether a bot of `table` is still thinking (a test waits for a quiet table)."""
        task = self._bot_tasks.get(table)
        return task is not None and not task.done()

    async def settle_bots(self) -> None:
        """Wait until no bot is thinking (the terminal, scripts and tests wait before printing)."""
        for _ in range(10_000):
            tasks = [t for t in self._bot_tasks.values() if not t.done()]
            if not tasks:
                return
            await asyncio.gather(*tasks, return_exceptions=True)

    async def close_bots(self) -> None:
        for task in self._bot_tasks.values():
            task.cancel()
        await asyncio.gather(*self._bot_tasks.values(), return_exceptions=True)
        if self.thinkers is not None:
            await self.thinkers.close()

    async def _play_bots(self, table_id: int) -> None:
        """Play every bot step of this table, one stored move after another, until a person
        must act (or the game ends)."""
        for _ in range(5000):
            try:
                moved = await self._bot_step(table_id)
            except StaleWrite:
                continue  # a person's command came first: look again
            except Exception:  # noqa: BLE001 - a bot's failure must never stop the table for good
                log.exception("the bot of table %s failed; it tries again at the next tick", table_id)
                return
            if not moved:
                return
            if self.on_notice is not None:
                self.on_notice()

    async def _bot_step(self, table_id: int) -> bool:
        rec = await self.storage.table(table_id)
        if rec is None or rec.status != "active" or rec.damaged:
            return False
        game = self.tables.game(rec)
        state = await self.tables.state(rec)
        acting = game.to_act(state)
        seats = [s for s in acting if self.moves.is_bot(rec, s)]
        if not seats or game.is_over(state):
            return False
        seat = seats[0]
        player = rec.user_at(seat)
        assert player is not None and player.bot
        seq = int(TableMeta.of(rec).seq or 0) + 1
        action = await self.bot_decision(rec, game, state, seat, player.bot, bot_seed(rec.seed, seq, seat))
        now = self.tables.clock()
        ctx = Ctx(rec.channel, player.user, player.name, rec.guild, False, None, now)
        ctx.based_on = rec.version
        step = game.apply(state, seat, action)
        turn = Turn(acting)
        turn.step(game.to_act(step.state))
        records = [self.moves.record(rec, step, seat, action, "bot", None, now)]
        places = {records[0].seq: refers_of(game, state, seat, action)}
        after = self.moves.autoplay(rec, game, step.state, records, now, turn, places)
        reply = await self.moves.commit_moves(
            ctx, rec, game, Steps(state, after, records, turn, places), "", announce=True
        )
        if reply.text and not reply.panel:
            await self._announce(rec, reply, records)
        return True

    async def bot_decision(self, rec: TableRecord, game: Game, state: Any, seat: int, level: str, seed: int) -> str:
        """The bot's action: decided in a worker process from the seat's information state.

        A game without a bot, a worker that fails or runs past the timeout: the seat's
        first legal action (logged), so a table never stops for a bot."""
        legal = game.legal_actions(state, seat)
        if len(legal) == 1 or not self.bots_available(rec.game):
            return legal[0]
        import engine.ai  # noqa: PLC0415 - see _bots_available

        text = engine.ai.infostate(game, state, seat, seed)  # the hidden parts redrawn: all the bot gets
        try:
            if self.thinkers is None:
                from ..workers import WorkerPool  # noqa: PLC0415 - only a table with bots needs processes

                self.thinkers = WorkerPool(self.tables.settings.bot_workers, name="epochs-bots")
            action = await self.thinkers.run(
                "engine.ai:decide", rec.game, text, seat, level, seed, timeout=self.tables.settings.bot_timeout
            )
        except Exception:  # noqa: BLE001 - any failure: the simplest legal action, logged
            log.exception(
                "table %s: the %s bot of seat %s could not decide; it plays its first legal action", rec.id, level, seat
            )
            return legal[0]
        if action not in legal:
            log.error(
                "table %s: the bot of seat %s chose %r, which is not legal; it plays %r", rec.id, seat, action, legal[0]
            )
            return legal[0]
        return action

    async def _announce(self, rec: TableRecord, reply: Reply, records: list[ActionRecord]) -> None:
        """The post of a turn a bot ended: into the outbox (the dispatcher delivers it, after a
        restart too), and the turn marked as told in the same transaction."""
        payload = reply.to_json()
        payload["board"] = reply.table_id is not None and reply.version is not None and self.tables.settings.images
        payload["image"] = None  # drawn when it goes out, like any held post
        meta = TableMeta.of(rec)
        meta.posted = records[-1].seq
        for _ in range(3):
            try:
                await self.tables.commit(
                    rec, Change(meta=meta.to_json(), notices=[(rec.channel, payload)], bump=False), self.tables.clock()
                )
                return
            except StaleWrite:
                fresh = await self.storage.table(rec.id)
                if fresh is None:
                    return
                if fresh.version != rec.version and int(TableMeta.of(fresh).posted or 0) >= records[-1].seq:
                    if not reply.calls:
                        return  # someone moved meanwhile and their post told this turn
                    # it told the moves but not the turns they started (those were acting by then):
                    # this post still goes, late, for whoever it called and is still called (issue 50)
                rec = fresh
                meta = TableMeta.of(rec)
                meta.posted = max(int(meta.posted or 0), records[-1].seq)
