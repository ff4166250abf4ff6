"""The application layer: (channel, user, command) in, a plain `Reply` out.

One `Service` serves Discord, the terminal and the tests alike (DESIGN.md, "The
house"). It knows the engine (always through `engine.GAMES`, so a new game is
playable as soon as it is registered), the storage interface and, lazily, the
renderers; it knows nothing of Discord.

Consistency: a command reads the table (version v), decides, and writes
everything it changes in one `Storage.commit(..., expected_version=v)`. If
another command committed first, the write is refused (`StaleWrite`) and the
caller is told the game moved on, with the current position — never merged.
An accepted action is committed before its reply is built, so nobody hears of
a move that is not stored.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from engine.core import Game, canonical

from ..storage.base import Claim, SeatRecord, StaleWrite, Storage, StorageUnavailable, TableRecord, counting_writes
from .absence import Absence
from .away import Away
from .bots import Bots
from .commands import HELP, command_table, parse, verb
from .core import Ctx, Links, Renderer, Tables, safe
from .fork import Forks
from .lobby import Lobby
from .moves import Moves
from .outbox import Outbox
from .pages import Pages, TableView
from .plans import Plans, next_choices
from .prefs import Prefs
from .reading import Reading
from .records import Records
from .refusal import Refusal
from .reply import Decision, Image, Notice, Reply
from .sandbox import Sandboxes, SandboxView
from .settings import Settings
from .text import quote, unreadable
from .undo import Undo

if TYPE_CHECKING:
    from ..workers import WorkerPool

log = logging.getLogger(__name__)

#: Commands whose changes commute with each other's (two players joining at once both
#: sit down): on a lost race they are simply run again on the table as it is now.
#: Moves never are: a move decided on an old position is refused (DECISIONS.md).
COMMUTING = frozenset({"join", "leave", "plan"})  # a plan is run again on the table as it is now
#: Enough for a full table of six arriving in the same moment.
COMMUTING_ATTEMPTS = 8


def unavailable_text(err: StorageUnavailable, writes: int) -> str:
    """What a player is told when the database could not be used for their command: what
    is known of its fate, and what to do (issue 23). `writes`: the command's writes that
    committed before the failure."""
    if err.stored is None:
        return (
            "The connection to the database broke while your command was being stored, and whether it was "
            "stored cannot be told yet. In a moment, `log` shows whether it is in the game's log "
            "(and `board` where the game stands); if it is not, try again."
        )
    if writes:
        return (
            "The database could not be reached partway through your command: part of it was stored, the rest "
            "was not. `log` shows what was; try again in a moment."
        )
    return "The database cannot be reached; nothing was stored, try again in a moment."


def verb_of(command: str, args: str) -> str:
    words = f"{command} {args}".split()
    return words[0].lower().lstrip("/") if words else ""


class Service:
    """The front door: one object the transports hold, over the parts that do the work.

    Construct with a `Storage` (opened) and optional clock. Every part is a plain object made
    here from what it needs (see bot/service/README.md for which owns what); every command is
    found in the table of commands.py.

    `games` defaults to `engine.GAMES`; `renderer(game_id, view, seat)` defaults
    to `renderers.render` imported lazily (a game without a renderer gets a
    text-only board).
    """

    def __init__(
        self,
        storage: Storage,
        *,
        clock: Callable[[], float] = time.time,
        settings: Settings | None = None,
        games: Mapping[str, Game] | None = None,
        renderer: Renderer | None = None,
        cache_size: int = 128,
    ) -> None:
        self.storage = storage
        tables = Tables(
            storage, clock=clock, settings=settings or Settings(), games=games, renderer=renderer, cache_size=cache_size
        )
        self.tables = tables
        self.records = Records(tables)
        self.reading = Reading(tables, views_kept=cache_size)
        self.plans = Plans(tables)
        self.moves = Moves(tables, self.reading, self.records, self.plans)
        self.bots = Bots(tables, self.moves)
        self.undo = Undo(tables, self.moves, self.bots, self.reading, self.records)
        self.absence = Absence(tables, self.moves, self.bots, self.reading)
        self.pages = Pages(tables, self.reading)
        self.sandboxes = Sandboxes(tables)
        self.away = Away(tables, self.reading)
        self.forks = Forks(tables, self.records)
        self.prefs = Prefs(tables)
        self.lobby = Lobby(tables, self.moves, self.records, self.reading, self.undo, self.forks)
        self.outbox = Outbox(tables, self.records, self.bots, self.absence)
        self.commands = command_table(
            help=self._help,
            lobby=self.lobby,
            moves=self.moves,
            undo=self.undo,
            absence=self.absence,
            bots=self.bots,
            prefs=self.prefs,
            records=self.records,
            pages=self.pages,
            away=self.away,
            plans=self.plans,
        )
        self._by_verb = {verb(phrase): handler for phrase, handler in self.commands.items()}
        #: What runs beside the service and must stop before its storage closes (the web table).
        self.on_close: list[Callable[[], Awaitable[None]]] = []

    # ---------------------------------------------- what the service runs with
    @property
    def games(self) -> Mapping[str, Game]:
        return self.tables.games

    @property
    def clock(self) -> Callable[[], float]:
        return self.tables.clock

    @clock.setter
    def clock(self, clock: Callable[[], float]) -> None:
        self.tables.clock = clock

    @property
    def settings(self) -> Settings:
        return self.tables.settings

    @settings.setter
    def settings(self, settings: Settings) -> None:
        self.tables.settings = settings

    @property
    def links(self) -> Links | None:
        """The web table's links (bot/web sets them when it opens); None: the web is off."""
        return self.tables.links

    @links.setter
    def links(self, links: Links | None) -> None:
        self.tables.links = links

    @property
    def workers(self) -> WorkerPool | None:
        """The worker processes boards are drawn in (the Discord bot sets them); None: a thread."""
        return self.tables.workers

    @workers.setter
    def workers(self, workers: WorkerPool | None) -> None:
        self.tables.workers = workers

    @property
    def thinkers(self) -> WorkerPool | None:
        """The worker processes the bots think in (made on first use; tests set their own)."""
        return self.bots.thinkers

    @thinkers.setter
    def thinkers(self, thinkers: WorkerPool | None) -> None:
        self.bots.thinkers = thinkers

    @property
    def on_notice(self) -> Callable[[], None] | None:
        """Called when a bot's move put a post into the outbox (the dispatcher delivers it at once)."""
        return self.bots.on_notice

    @on_notice.setter
    def on_notice(self, wake: Callable[[], None] | None) -> None:
        self.bots.on_notice = wake

    def _help_reply(self) -> Reply:
        """The list of commands (`help`, an empty command, and after an unknown one)."""
        return Reply(HELP.format(games=", ".join(self.games) or "none", absent=self.settings.absent_after))

    async def _help(self, ctx: Ctx, args: list[str]) -> Reply:
        return self._help_reply()

    # ------------------------------------------------------------------ API
    async def handle(
        self,
        channel: int,
        user: int,
        name: str,
        command: str,
        args: str = "",
        *,
        guild: int | None = None,
        admin: bool = False,
        expected_version: int | None = None,
        expected_choice: str | None = None,
        files: Mapping[str, bytes] | None = None,
        table: int | None = None,
    ) -> Reply:
        """Run one command and answer it.

        `command` is the first word (`game`, `play`, `board`, ...) and `args` the
        rest (`new rising-cultures`, `play brewery build`); `handle(c, u, n,
        "game new rising-cultures")` works as well. `admin`: the transport vouches
        that the caller may cancel any game here. `expected_version`: the version
        a button was made for; a press on an older version is refused as stale.
        `expected_choice`: with it (a pick from a turn panel, `Reply.keys`), a `play`
        made on an older version still counts when the presser's own decision is
        unchanged (`Tables.choice_key`): in a simultaneous step another player's
        pick does not spoil an open panel, while a double press is still refused.
        `files`: files that came with the command, by name (`game new from=<name>`
        forks the export so named); the service never opens a path itself.
        `table`: the table the command was made for (a web page's); when the channel's open
        or latest game is another, the command is refused and changes nothing.
        """
        if unreadable(command) or unreadable(args):
            return Reply(
                "That command holds broken characters (lone UTF-16 surrogates, not valid Unicode), "
                "so nothing could store or show it. Type it again with ordinary characters.",
                error=True,
            )
        words = f"{command} {args}".split()
        ctx = Ctx(
            channel,
            user,
            safe(name),
            guild,
            admin,
            expected_version,
            self.tables.clock(),
            expected_choice=expected_choice if verb_of(command, args) == "play" else None,
            files=dict(files or {}),
            table=table,
        )
        if not words:
            return self._help_reply()
        verb, rest = parse(words)
        handler = self._by_verb.get(verb)
        if handler is None:
            return Reply(f"Unknown command {quote(verb, 30)}.\n" + self._help_reply().text, error=True)
        with counting_writes() as writes:
            try:
                return await self._attempts(handler, ctx, rest, commutes=verb in COMMUTING and expected_version is None)
            except StorageUnavailable as err:
                log.warning("command %r in channel %s: %s", " ".join(words)[:200], channel, err.reason)
                return Reply(unavailable_text(err, writes.count), error=True)
            except Exception:  # a bug must cost one command, never the bot
                log.exception("command %r in channel %s failed", " ".join(words)[:200], channel)
                if writes.count:  # "nothing was changed" would not be true
                    return Reply(
                        "Something went wrong inside the bot after part of your command was stored; `log` shows "
                        "what was, `board` where the game stands. The error is logged.",
                        error=True,
                    )
                return Reply(
                    "Something went wrong inside the bot; nothing was changed. The error is logged.", error=True
                )

    async def _attempts(self, handler: Any, ctx: Ctx, rest: list[str], *, commutes: bool) -> Reply:
        """Run the command, again after a lost race where that is safe (see the comments)."""
        attempts = COMMUTING_ATTEMPTS if commutes else 3
        for attempt in range(attempts):
            ctx.based_on, ctx.version_moved = None, False
            try:
                return await handler(ctx, rest)
            except Refusal as r:
                return Reply(r.text, error=True, **r.extra)
            except StaleWrite:
                # Lost a race. If only bookkeeping changed (a vote, an approval, a sent
                # reminder) the game is where the command saw it: simply run it again.
                # A lobby change that commutes with others (a join, a leave) is run
                # again on the table as it is now: it re-reads and re-checks everything.
                # If the game itself moved on, say so and change nothing.
                if ctx.based_on is None or attempt == attempts - 1:
                    break
                if commutes:
                    continue
                rec = await self.storage.open_table(ctx.channel)
                if rec is None or rec.version != ctx.based_on:
                    break
        return await self.tables.stale(ctx)

    async def plan_moves(
        self, channel: int, user: int, name: str, moves: list[tuple[str, str | None]], *, table: int | None = None
    ) -> Reply:
        """Queue planned moves picked from described choices, each `(action, label)` (issue 51:
        the turn panel's "Plan my next move", the web page's sandbox); the label is kept, so
        the move is played only while it reads the same. Answered privately, like `plan`."""
        ctx = Ctx(channel, user, safe(name), None, False, None, self.tables.clock(), table=table)
        with counting_writes():
            try:
                return await self._attempts(lambda c, _: self.plans.plan(c, moves), ctx, [], commutes=True)
            except StorageUnavailable as err:
                return Reply(unavailable_text(err, 0), error=True)

    async def next_choices_for(self, channel: int, user: int) -> list[tuple[str, str]]:
        """The caller's next decision of this turn as `(action, label)`, when it is known
        whatever they pick now (plans.next_choices); [] otherwise. For "Plan my next move"."""
        rec, state = await self.tables.position(channel)
        player = rec.seat_of(user) if rec is not None else None
        if rec is None or state is None or player is None or player.seat is None or rec.status != "active":
            return []
        game = self.tables.game(rec)
        return [(c.action, c.label) for c in next_choices(game, state, player.seat, [p.name for p in rec.players])]

    async def legal_actions_for(self, channel: int, user: int, prefix: str = "") -> list[str]:
        """The caller's legal actions now, those starting with `prefix` first, then
        those containing it (for autocomplete). [] when it is not their turn."""
        rec, state = await self.tables.position(channel)
        if rec is None or rec.status != "active" or state is None:
            return []
        seat = rec.seat_of(user)
        if seat is None or seat.seat is None or seat.resigned:
            return []
        game = self.tables.games[rec.game]
        if seat.seat not in game.to_act(state):
            return []
        legal = game.legal_actions(state, seat.seat)
        want = canonical(prefix)
        if not want:
            return list(legal)
        starts = [a for a in legal if a.startswith(want)]
        words = want.split()
        contains = [a for a in legal if a not in starts and all(w in a for w in words)]
        return starts + contains

    async def render_board(self, table_id: int, seat: int | None = None, part: str | None = None) -> Image | None:
        """The board image of a table — the public map (the last post's moves framed), its
        tables (`part="tables"`), or `seat`'s private picture — rendered off the event loop;
        None when this game has no renderer."""
        for _ in range(3):
            rec = await self.storage.table(table_id)
            if rec is None or rec.status in ("lobby", "cancelled") or rec.game not in self.tables.games:
                return None
            try:
                state = await self.tables.state(rec)
            except StaleWrite:
                continue  # moved on while reading: read again
            except Refusal:
                return None  # a damaged record: no picture of it
            view = self.tables.games[rec.game].view(state, seat)
            return await self.tables.image(
                rec.game, view, seat, part, self.tables.highlight(rec) if seat is None else ()
            )
        return None

    async def tick(self, claim: Claim | None = None) -> list[Notice]:
        """Send due reminders (into the outbox) and return every undelivered notice (outbox.py)."""
        return await self.outbox.tick(claim)

    async def pending_notices(self, claim: Claim | None = None) -> list[Notice]:
        """Every undelivered notice (of `claim`'s shards, claimed for it, when given)."""
        return await self.outbox.pending_notices(claim)

    async def enqueue(self, channel: int, reply: Reply, *, tags: dict[str, Any] | None = None) -> int:
        """Keep a message the transport could not deliver in the outbox (outbox.py)."""
        return await self.outbox.enqueue(channel, reply, tags=tags)

    async def prepare(self, notice: Notice) -> Reply:
        """The reply of `notice` as it should go out now (outbox.py)."""
        return await self.outbox.prepare(notice)

    async def since_last_turn(self, channel: int, user: int) -> str:
        """The private "since your last turn" summary for `user` in the channel's game,
        worked out from the stored log (so it needs no memory and survives restarts);
        "" when they are not to act or nothing happened since their last turn."""
        rec, state = await self.tables.position(channel)
        if rec is None or state is None or rec.status != "active":
            return ""
        seat = rec.seat_of(user)
        if seat is None or seat.seat is None or seat.resigned:
            return ""
        if seat.seat not in self.tables.games[rec.game].to_act(state):
            return ""
        try:
            return await self.moves.since_last_turn(rec, seat.seat)
        except StaleWrite:
            return ""

    async def decision_for(self, channel: int, user: int) -> Decision | None:
        """What `user` decides now in the channel's game, as data (`Reply.decisions`);
        None when they are not to act."""
        rec, state = await self.tables.position(channel)
        if rec is None or state is None or rec.status != "active":
            return None
        player = rec.seat_of(user)
        game = self.tables.games[rec.game]
        if player is None or player.seat is None or player.resigned or player.bot:
            return None
        if player.seat not in game.to_act(state):
            return None
        [decision] = await self.reading.decisions(rec, game, state, [user])
        return decision

    async def delivered(self, notice_id: int) -> None:
        """Mark an outbox notice as sent (it will not be returned again)."""
        await self.outbox.delivered(notice_id)

    async def release(self, claim: Claim) -> None:
        """Give back the notices `claim.owner` holds and did not deliver (a clean stop)."""
        await self.outbox.release(claim)

    async def close(self) -> None:
        """Stop what runs beside the service (`on_close`, newest first) and the bots'
        thinking, and close the storage (the service is done)."""
        while self.on_close:
            await self.on_close.pop()()
        await self.bots.close_bots()
        await self.storage.close()

    async def replay(self, table_id: int) -> Any:
        """The state obtained by replaying the table's log from its setup (audit)."""
        rec = await self.storage.table(table_id)
        if rec is None:
            raise KeyError(table_id)
        return self.tables.replay(rec, await self.storage.actions(rec.id))

    # ------------------------------------------------ the parts' public answers
    async def table_view(self, table_id: int, seat: int | None = None) -> TableView | None:
        """The web table's page of a table (pages.py)."""
        return await self.pages.table_view(table_id, seat)

    async def sandbox(
        self, table_id: int, seat: int, moves: list[tuple[int, str]], *, bot: int | None = None
    ) -> SandboxView:
        """A seat's private sandbox of its table's position after `moves` (and, for `bot`, an
        easy bot's move for that seat): nothing hidden from the seat, nothing stored (sandbox.py).
        Raises SandboxRefusal with the player's words."""
        return await self.sandboxes.sandbox(table_id, seat, moves, bot)

    async def sandbox_image(
        self, table_id: int, seat: int, moves: list[tuple[int, str]], *, version: int, own: bool = False
    ) -> Image | None:
        """A picture of the seat's sandbox after `moves`: its public map, or (`own`) the seat's
        own private picture; never another seat's (sandbox.py). None when pictures are off or
        the table moved on from `version`; SandboxRefusal for moves that are not the sandbox's."""
        return await self.sandboxes.image(table_id, seat, moves, version=version, own=own)

    async def private_image(self, table_id: int, seat: int, version: int) -> Image | None:
        """A seat's own picture at `version` (pages.py)."""
        return await self.pages.private_image(table_id, seat, version)

    async def board_after(self, table_id: int, seq: int, part: str | None = None) -> Image | None:
        """The board after the log's line `seq` (pages.py)."""
        return await self.pages.board_after(table_id, seq, part)

    async def posted(self, table_id: int, message: int) -> None:
        """A transport's post id of a table's latest post (away.py: `games mine` links to it)."""
        await self.away.posted(table_id, message)

    async def settle_bots(self) -> None:
        """Wait until the bots that are thinking have moved (bots.py)."""
        await self.bots.settle_bots()

    async def close_bots(self) -> None:
        """Stop the bots' thinking (bots.py)."""
        await self.bots.close_bots()

    @staticmethod
    def choice_key(rec: TableRecord, seat: int, legal: list[str]) -> str:
        """What one seat's decision is made on (core.py, `Tables.choice_key`)."""
        return Tables.choice_key(rec, seat, legal)

    # Public queries for front ends (issue 47)
    async def table_record(self, table_id: int) -> TableRecord | None:
        """The stored record of table `table_id` (its channel, seats, version), None when it is
        not kept: what a press from a direct message or a web link asks of its table."""
        return await self.storage.table(table_id)

    async def open_table(self, channel: int) -> TableRecord | None:
        """The channel's open table (lobby, active or paused), None when there is none: what a
        panel asks before it offers a move, and the terminal before it resumes a game."""
        return await self.storage.open_table(channel)

    async def table_versions(self, table_ids: Sequence[int]) -> dict[int, int]:
        """The game version of each of `table_ids` still kept (one cheap read): what the web
        table's watcher asks a few times a second for the tables whose pages are open."""
        return await self.storage.versions(table_ids)

    async def link_generation(self, table_id: int, user: int) -> int:
        """How often `user`'s seat links at the table were reset: a web seat link made for an
        older generation is refused."""
        return await self.storage.link_generation(table_id, user)

    async def secret(self, name: str, make: Callable[[], str], now: float) -> str:
        """The secret kept under `name` in the database, `make()` stored by the first to ask:
        the web table's signing key when none is configured."""
        return await self.storage.secret(name, make, now)

    async def due_times(self, until: float) -> list[float]:
        """When each reminder due by `until` falls due, soonest first: a script's `wait` moves
        its clock on to each in turn."""
        return [r.due for r in await self.storage.due_reminders(until)]

    def bots_thinking(self) -> int:
        """How many tables' bots are still thinking: the terminal prints nothing until none is."""
        return self.bots.thinking()

    async def people_to_act(self, channel: int) -> tuple[TableRecord, list[SeatRecord]] | None:
        """The channel's running game and the people who must act in it now (bots and resigned
        seats left out), None when no game is being played there: the terminal's prompt."""
        rec, state = await self.tables.position(channel)
        if rec is None or rec.status != "active" or state is None:
            return None
        seats = [rec.user_at(seat) for seat in self.games[rec.game].to_act(state)]
        return rec, [p for p in seats if p is not None and not p.resigned and not p.bot]
