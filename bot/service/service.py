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
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any

from engine.core import Game, canonical

from ..storage.base import (
    Claim,
    PlayerPrefs,
    SeatRecord,
    StaleWrite,
    Storage,
    StorageUnavailable,
    TableRecord,
    counting_writes,
)
from .absence import AbsenceCommands
from .away import AwayCommands
from .core import Ctx, Renderer, safe
from .lobby import LobbyCommands
from .pages import TablePages
from .prefs import SettingsCommands
from .refusal import Refusal
from .reply import Decision, Image, Notice, Reply
from .settings import Settings
from .text import clip, quote, unreadable

log = logging.getLogger(__name__)

#: Commands whose changes commute with each other's (two players joining at once both
#: sit down): on a lost race they are simply run again on the table as it is now.
#: Moves never are: a move decided on an old position is refused (DECISIONS.md).
COMMUTING = frozenset({"join", "leave"})
#: Enough for a full table of six arriving in the same moment.
COMMUTING_ATTEMPTS = 8
#: `games <word>`: the server-wide commands beside the list of open games.
GAMES_COMMANDS = frozenset({"history", "forget", "mine"})


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


class Service(LobbyCommands, AbsenceCommands, SettingsCommands, TablePages, AwayCommands):
    """The game service. Construct with a `Storage` (opened) and optional clock.

    Each command family is built on the families it calls (records <- turn data <- moves
    <- bots <- undo, absence; moves <- settings, pages, away; records <- fork; undo,
    fork <- lobby), all on `ServiceBase`: these five bases bring in every family.

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
        self.clock = clock
        self.settings = settings or Settings()
        self._games = games
        self._renderer = renderer
        self._cache: OrderedDict[int, tuple[int, Any]] = OrderedDict()
        self._cache_size = cache_size
        self._prefs: dict[int, PlayerPrefs] = {}
        self._views: dict[int, tuple[Any, dict[str, Any]]] = {}
        self._page_marks: OrderedDict[int, dict[int, Any]] = OrderedDict()
        #: What runs beside the service and must stop before its storage closes (the web table).
        self.on_close: list[Callable[[], Awaitable[None]]] = []

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
        unchanged (`ServiceBase.choice_key`): in a simultaneous step another player's
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
            self.clock(),
            expected_choice=expected_choice if verb_of(command, args) == "play" else None,
            files=dict(files or {}),
            table=table,
        )
        if not words:
            return self._help()
        verb, rest = words[0].lower().lstrip("/"), words[1:]
        if verb == "game":
            if not rest:
                verb, rest = "status", []
            else:
                verb, rest = rest[0].lower(), rest[1:]
        if verb == "games":
            verb, rest = (rest[0].lower(), rest[1:]) if rest and rest[0].lower() in GAMES_COMMANDS else ("list", rest)
        handler = getattr(self, f"_cmd_{verb}", None)
        if handler is None:
            return Reply(f"Unknown command {quote(verb, 30)}.\n" + self._help().text, error=True)
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
        return await self._stale(ctx)

    async def legal_actions_for(self, channel: int, user: int, prefix: str = "") -> list[str]:
        """The caller's legal actions now, those starting with `prefix` first, then
        those containing it (for autocomplete). [] when it is not their turn."""
        rec, state = await self._position(channel)
        if rec is None or rec.status != "active" or state is None:
            return []
        seat = rec.seat_of(user)
        if seat is None or seat.seat is None or seat.resigned:
            return []
        game = self.games[rec.game]
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
            if rec is None or rec.status in ("lobby", "cancelled") or rec.game not in self.games:
                return None
            try:
                state = await self._state(rec)
            except StaleWrite:
                continue  # moved on while reading: read again
            except Refusal:
                return None  # a damaged record: no picture of it
            view = self.games[rec.game].view(state, seat)
            return await self._image(rec.game, view, seat, part, self._highlight(rec) if seat is None else ())
        return None

    async def tick(self, claim: Claim | None = None) -> list[Notice]:
        """Send due reminders (into the outbox) and return every undelivered notice.

        Call it periodically (the Discord adapter's background task, the terminal
        loop); deliver each notice, then call `delivered(notice.id)`. Notices stay
        in the database until then, across restarts.

        With several processes, each passes its `claim` (its owner name, lease and
        shards): only its shards' reminders are sent, and only the notices it
        claimed are returned, so no other process delivers them meanwhile.
        """
        now = self.clock()
        for reminder in await self.storage.due_reminders(now, claim.shards if claim else None):
            if reminder.user < 0 or await self._bot_reminder(reminder):
                self._wake_bots(reminder)  # a bot to act: it plays (a task of its own), nobody is reminded
                continue
            try:
                await self._remind(reminder, now)
            except StaleWrite:
                continue  # the table moved on; its reminders were rewritten
            except Exception:  # one broken table must not stop everyone's reminders
                log.exception("reminder for table %s failed", reminder.table)
        return await self.pending_notices(claim)

    async def pending_notices(self, claim: Claim | None = None) -> list[Notice]:
        rows = await (self.storage.notices() if claim is None else self.storage.claim_notices(claim, self.clock()))
        return [
            Notice(
                r.id,
                r.channel,
                Reply.from_json(r.payload),
                r.created,
                bool(r.payload.get("board")),
                bool(r.payload.get("held")),
                dict(r.payload.get("tags") or {}),
                bool(r.payload.get("chart")),
            )
            for r in rows
        ]

    async def enqueue(self, channel: int, reply: Reply, *, tags: dict[str, Any] | None = None) -> int:
        """Keep a message the transport could not deliver (a public post refused by a
        5xx, a rate limit, the network) in the outbox, in its own transaction, so the
        outbox dispatcher (`tick` / `delivered`) delivers it — after a restart too.

        Everything of `reply` is stored but the public board image: PNG bytes would
        bloat the outbox (rows are kept after delivery), and the board can be drawn
        again from the stored state when the message finally goes (`prepare`).
        Private parts' images (rare: a hand asked for by DM) are stored as they are; a
        score chart is left out like the board and drawn again at send time.
        `tags` are the transport's own (which buttons go under the message).
        Returns the notice id."""
        payload = reply.to_json()
        payload["board"] = reply.image is not None and reply.table_id is not None and reply.version is not None
        if payload["board"]:
            payload["image"] = None
        # a score chart is drawn again at send time too (an ended game's log does not change)
        payload["chart"] = reply.table_id is not None and any(f.kind == "chart" for f in reply.files)
        payload["files"] = [f for f in payload["files"] if f["kind"] != "chart" or not payload["chart"]]
        payload["tags"] = dict(tags or {})
        payload["held"] = True
        return await self.storage.add_notice(reply.table_id, channel, payload, self.clock())

    async def prepare(self, notice: Notice) -> Reply:
        """The reply of `notice` as it should go out now.

        A board kept as "draw at send time" is drawn from the stored state while the
        table is still at the notice's version (then it is the very picture the
        message had). If the game moved on meanwhile, the message still goes — it is
        the record of a move — but without the outdated picture, without pings or
        choices (the later message already named who must act now) and saying so.
        Held private parts (DMs) go as they are: a summary stays true of its moment."""
        reply = notice.reply
        if not (notice.board or notice.held) or reply.table_id is None or reply.version is None:
            return reply
        if not notice.board and not reply.text:
            return reply  # nothing public: a held direct message
        rec = await self.storage.table(reply.table_id)
        if notice.chart and rec is not None and rec.version == reply.version and rec.game in self.games:
            chart = await self._chart(rec, await self.storage.actions(rec.id))
            if chart is not None:
                reply.files.append(chart)
        if rec is not None and rec.version == reply.version:
            if not notice.board or reply.image is not None or not self.settings.images or rec.game not in self.games:
                return reply
            try:
                state = await self._state(rec)
            except Refusal:
                return reply  # no stored position: the text goes alone
            except StaleWrite:
                state = None  # moved on between the two reads
            if state is not None:
                view = self.games[rec.game].view(state, None)
                reply.image = await self._image(rec.game, view, None, "map", self._highlight(rec))
                return reply
        reply.image = None
        reply.files = [f for f in reply.files if f.kind != "tables"]  # outdated like the map
        reply.mentions, reply.choices, reply.keys, reply.decisions = [], {}, {}, {}
        reply.text = clip(reply.text + "\n(Sent late: the game has moved on since; `board` shows where it stands.)")
        reply.headline = None  # whoever it named must act no more: the text is the record, as it is
        return reply

    async def since_last_turn(self, channel: int, user: int) -> str:
        """The private "since your last turn" summary for `user` in the channel's game,
        worked out from the stored log (so it needs no memory and survives restarts);
        "" when they are not to act or nothing happened since their last turn."""
        rec, state = await self._position(channel)
        if rec is None or state is None or rec.status != "active":
            return ""
        seat = rec.seat_of(user)
        if seat is None or seat.seat is None or seat.resigned:
            return ""
        if seat.seat not in self.games[rec.game].to_act(state):
            return ""
        try:
            return await self._since_last_turn(rec, seat.seat)
        except StaleWrite:
            return ""

    async def decision_for(self, channel: int, user: int) -> Decision | None:
        """What `user` decides now in the channel's game, as data (`Reply.decisions`);
        None when they are not to act."""
        rec, state = await self._position(channel)
        if rec is None or state is None or rec.status != "active":
            return None
        player = rec.seat_of(user)
        game = self.games[rec.game]
        if player is None or player.seat is None or player.resigned or player.bot:
            return None
        if player.seat not in game.to_act(state):
            return None
        [decision] = await self._decisions(rec, game, state, [user])
        return decision

    async def delivered(self, notice_id: int) -> None:
        """Mark an outbox notice as sent (it will not be returned again)."""
        await self.storage.mark_sent(notice_id, self.clock())

    async def release(self, claim: Claim) -> None:
        """Give back the notices `claim.owner` holds and did not deliver (a clean stop), so
        the next process takes them at once rather than after the lease."""
        await self.storage.release_notices(claim.owner)

    async def close(self) -> None:
        """Stop what runs beside the service (`on_close`, newest first) and the bots'
        thinking, and close the storage (the service is done)."""
        while self.on_close:
            await self.on_close.pop()()
        await self.close_bots()
        await self.storage.close()

    async def replay(self, table_id: int) -> Any:
        """The state obtained by replaying the table's log from its setup (audit)."""
        rec = await self.storage.table(table_id)
        if rec is None:
            raise KeyError(table_id)
        return self._replay(rec, await self.storage.actions(rec.id))

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
        return sum(not task.done() for task in self.__dict__.get("_bot_tasks", {}).values())

    async def people_to_act(self, channel: int) -> tuple[TableRecord, list[SeatRecord]] | None:
        """The channel's running game and the people who must act in it now (bots and resigned
        seats left out), None when no game is being played there: the terminal's prompt."""
        rec, state = await self._position(channel)
        if rec is None or rec.status != "active" or state is None:
            return None
        seats = [rec.user_at(seat) for seat in self.games[rec.game].to_act(state)]
        return rec, [p for p in seats if p is not None and not p.resigned and not p.bot]
