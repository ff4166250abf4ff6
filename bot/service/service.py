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

import asyncio
import logging
import secrets
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Callable, Mapping

import engine
from engine.core import IllegalAction, Rng, canonical

from ..storage.base import (ActionRecord, Change, ChannelBusy, PlayerPrefs, ReminderRecord, SeatRecord,
                            StaleWrite, Storage, TableRecord)
from . import rules as rulebook
from .reminders import in_quiet_hours, quiet_ends, parse_quiet
from .reply import Image, Notice, Private, Reply
from .reveal import reveals
from .text import choices_text, clip, names, sentences, view_text

log = logging.getLogger(__name__)

HOUR = 3600.0
DAY = 24 * HOUR


@dataclass
class Settings:
    """Service defaults (config.toml [reminders] and [service])."""

    remind_every: float = 12 * HOUR
    #: Unanswered reminders after which the others may vote to skip or pause.
    absent_after: int = 3
    undo_expiry: float = DAY
    #: Render board images into replies (off: text-only, or render later via
    #: `Service.render_board`).
    images: bool = True
    log_default: int = 10


#: Lobby subcommands, also accepted without the leading `game`.
LOBBY = ("new", "join", "leave", "start", "cancel", "status", "list")

HELP = """Commands:
`game new <game> [option=value ...]` open a table here (games: {games})
`game join` / `game leave` / `game start [fixed]` / `game cancel` / `game status` / `games`
`play <action>` take your turn; `board`; `hand` (private); `log [n]`; `rules [topic]`
`undo` (then others: `undo approve` / `undo reject`); `resign`
`vote skip` / `vote pause` (after {absent} unanswered reminders); `resume`
`settings` / `settings remind <hours|off>` / `settings quiet <22-7> [utc+2]` / `settings quiet off`
`settings dm on|off`"""


def safe(name: str) -> str:
    """A display name that can never act as a mention (`@everyone`, `<@&role>`)."""
    return str(name).replace("@", "@\u200b").replace("<", "\u2039").replace("`", "'")[:64] or "?"


@dataclass
class Ctx:
    """Who is asking, where, and when."""

    channel: int
    user: int
    name: str
    guild: int | None
    admin: bool
    expected_version: int | None
    now: float
    #: The game version the command read (set when it loads its table).
    based_on: int | None = None


class Refusal(Exception):
    """Raised inside a command to answer with an error reply."""

    def __init__(self, text: str, **extra: Any) -> None:
        super().__init__(text)
        self.text = text
        self.extra = extra


Renderer = Callable[[str, dict, "int | None"], Any]


def shown(game: Any, action: str) -> str:
    """The action as everyone may see it: the game hides a hidden card it names."""
    public = getattr(game, "public_action", None)
    return public(action) if public else action


class Service:
    """The game service. Construct with a `Storage` (opened) and optional clock.

    `games` defaults to `engine.GAMES`; `renderer(game_id, view, seat)` defaults
    to `renderers.render` imported lazily (a game without a renderer gets a
    text-only board).
    """

    def __init__(self, storage: Storage, *, clock: Callable[[], float] = time.time,
                 settings: Settings | None = None, games: Mapping[str, Any] | None = None,
                 renderer: Renderer | None = None, cache_size: int = 512) -> None:
        self.storage = storage
        self.clock = clock
        self.settings = settings or Settings()
        self._games = games
        self._renderer = renderer
        self._cache: OrderedDict[int, tuple[int, Any]] = OrderedDict()
        self._cache_size = cache_size
        self._prefs: dict[int, PlayerPrefs] = {}

    # ------------------------------------------------------------------ API
    @property
    def games(self) -> Mapping[str, Any]:
        return self._games if self._games is not None else engine.GAMES

    async def handle(self, channel: int, user: int, name: str, command: str, args: str = "", *,
                     guild: int | None = None, admin: bool = False,
                     expected_version: int | None = None) -> Reply:
        """Run one command and answer it.

        `command` is the first word (`game`, `play`, `board`, ...) and `args` the
        rest (`new rising-cultures`, `play brewery build`); `handle(c, u, n,
        "game new rising-cultures")` works as well. `admin`: the transport vouches
        that the caller may cancel any game here. `expected_version`: the version
        a button was made for; a press on an older version is refused as stale.
        """
        words = f"{command} {args}".split()
        ctx = Ctx(channel, user, safe(name), guild, admin, expected_version, self.clock())
        if not words:
            return self._help()
        verb, rest = words[0].lower().lstrip("/"), words[1:]
        if verb == "game":
            if not rest:
                verb, rest = "status", []
            else:
                verb, rest = rest[0].lower(), rest[1:]
        if verb == "games":
            verb = "list"
        handler = getattr(self, f"_cmd_{verb}", None)
        if handler is None:
            return Reply(f"Unknown command `{verb[:30]}`.\n" + self._help().text, error=True)
        for attempt in range(3):
            ctx.based_on = None
            try:
                return await handler(ctx, rest)
            except Refusal as r:
                return Reply(r.text, error=True, **r.extra)
            except StaleWrite:
                # Lost a race. If only bookkeeping changed (a vote, an approval, a sent
                # reminder) the game is where the command saw it: simply run it again.
                # If the game itself moved on, say so and change nothing.
                if ctx.based_on is None or attempt == 2:
                    break
                rec = await self.storage.open_table(ctx.channel)
                if rec is None or rec.version != ctx.based_on:
                    break
            except Exception:  # a bug must cost one command, never the bot
                log.exception("command %r in channel %s failed", " ".join(words)[:200], channel)
                return Reply("Something went wrong inside the bot; nothing was changed. "
                             "The error is logged.", error=True)
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

    async def render_board(self, table_id: int, seat: int | None = None) -> Image | None:
        """The board image of a table (public, or `seat`'s private picture), rendered
        off the event loop; None when this game has no renderer."""
        for _ in range(3):
            rec = await self.storage.table(table_id)
            if rec is None or rec.status in ("lobby", "cancelled") or rec.game not in self.games:
                return None
            try:
                state = await self._state(rec)
            except StaleWrite:
                continue  # moved on while reading: read again
            return await self._image(rec.game, self.games[rec.game].view(state, seat), seat)
        return None

    async def tick(self) -> list[Notice]:
        """Send due reminders (into the outbox) and return every undelivered notice.

        Call it periodically (the Discord adapter's background task, the terminal
        loop); deliver each notice, then call `delivered(notice.id)`. Notices stay
        in the database until then, across restarts.
        """
        now = self.clock()
        for reminder in await self.storage.due_reminders(now):
            try:
                await self._remind(reminder, now)
            except StaleWrite:
                continue  # the table moved on; its reminders were rewritten
            except Exception:  # one broken table must not stop everyone's reminders
                log.exception("reminder for table %s failed", reminder.table)
        return await self.pending_notices()

    async def pending_notices(self) -> list[Notice]:
        rows = await self.storage.notices()
        return [Notice(r.id, r.channel, Reply.from_json(r.payload), r.created, bool(r.payload.get("board")),
                       bool(r.payload.get("held")), dict(r.payload.get("tags") or {})) for r in rows]

    async def enqueue(self, channel: int, reply: Reply, *, tags: dict[str, Any] | None = None) -> int:
        """Keep a message the transport could not deliver (a public post refused by a
        5xx, a rate limit, the network) in the outbox, in its own transaction, so the
        outbox dispatcher (`tick` / `delivered`) delivers it — after a restart too.

        Everything of `reply` is stored but the public board image: PNG bytes would
        bloat the outbox (rows are kept after delivery), and the board can be drawn
        again from the stored state when the message finally goes (`prepare`).
        Private parts' images (rare: a hand asked for by DM) are stored as they are.
        `tags` are the transport's own (which buttons go under the message).
        Returns the notice id."""
        payload = reply.to_json()
        payload["board"] = reply.image is not None and reply.table_id is not None and reply.version is not None
        if payload["board"]:
            payload["image"] = None
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
        if rec is not None and rec.version == reply.version:
            if not notice.board or reply.image is not None or not self.settings.images \
                    or rec.game not in self.games:
                return reply
            try:
                state = await self._state(rec)
            except Refusal:
                return reply  # no stored position: the text goes alone
            except StaleWrite:
                state = None  # moved on between the two reads
            if state is not None:
                reply.image = await self._image(rec.game, self.games[rec.game].view(state, None), None)
                return reply
        reply.image = None
        reply.mentions, reply.choices = [], {}
        reply.text = clip(reply.text + "\n(Sent late: the game has moved on since; `board` shows where it stands.)")
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
            return await self._since_last_turn(rec, seat.seat, [])
        except StaleWrite:
            return ""

    async def delivered(self, notice_id: int) -> None:
        """Mark an outbox notice as sent (it will not be returned again)."""
        await self.storage.mark_sent(notice_id, self.clock())

    async def close(self) -> None:
        """Close the storage (the service is done)."""
        await self.storage.close()

    async def replay(self, table_id: int) -> Any:
        """The state obtained by replaying the table's log from its setup (audit)."""
        rec = await self.storage.table(table_id)
        if rec is None:
            raise KeyError(table_id)
        return self._replay(rec, await self.storage.actions(rec.id))

    # ------------------------------------------------------------ internals
    def _help(self) -> Reply:
        return Reply(HELP.format(games=", ".join(self.games) or "none",
                                 absent=self.settings.absent_after))

    async def _cmd_help(self, ctx: Ctx, args: list[str]) -> Reply:
        return self._help()

    def _game(self, rec: TableRecord) -> Any:
        try:
            return self.games[rec.game]
        except KeyError:
            raise Refusal(f"This table plays {rec.game!r}, which this bot no longer offers.") from None

    async def _table(self, ctx: Ctx, *, need: tuple[str, ...] = ("active",)) -> TableRecord:
        rec = await self.storage.open_table(ctx.channel)
        if rec is None:
            rec = await self.storage.latest_table(ctx.channel)
        if rec is None or (rec.status == "cancelled" and "cancelled" not in need):
            raise Refusal("There is no game in this channel. Open one with `game new <game>` "
                          f"(games: {', '.join(self.games) or 'none'}).")
        if rec.status == "finished" and "finished" not in need:
            raise Refusal("The game here is finished. Open a new one with `game new <game>`.", **self._ids(rec))
        if rec.status not in need:
            if rec.status == "lobby":
                raise Refusal(f"The {self._title(rec)} game has not started yet: "
                              "`game join`, then the creator says `game start`.", **self._ids(rec))
            if rec.status == "paused":
                raise Refusal("The game is paused. Any player can `resume` it.", **self._ids(rec))
            raise Refusal(f"The game is {rec.status}.", **self._ids(rec))
        if ctx.expected_version is not None and ctx.expected_version != rec.version:
            raise StaleWrite(rec.id, ctx.expected_version, rec.version)
        ctx.based_on = rec.version
        return rec

    def _player(self, ctx: Ctx, rec: TableRecord) -> SeatRecord:
        seat = rec.seat_of(ctx.user)
        if seat is None:
            raise Refusal(f"You are not a player in this game ({names([s.name for s in rec.players])} are).",
                          **self._ids(rec))
        if seat.resigned:
            raise Refusal("You resigned from this game.", **self._ids(rec))
        return seat

    def _title(self, rec: TableRecord) -> str:
        game = self.games.get(rec.game)
        return game.title if game is not None else rec.game

    @staticmethod
    def _ids(rec: TableRecord) -> dict[str, Any]:
        return {"game_id": rec.game, "table_id": rec.id, "version": rec.version}

    async def _state(self, rec: TableRecord) -> Any:
        hit = self._cache.get(rec.id)
        if hit is not None and hit[0] == rec.version:
            self._cache.move_to_end(rec.id)
            return hit[1]
        snap = await self.storage.snapshot(rec.id)
        if snap is None:
            raise Refusal("This game has no stored position yet.")
        version, text = snap
        if version > rec.version:
            # the table was read before a move, its snapshot after: the game moved on
            raise StaleWrite(rec.id, rec.version, version)
        state = self._game(rec).loads(text)
        self._remember(rec.id, rec.version, state)
        return state

    def _remember(self, table_id: int, version: int, state: Any) -> None:
        self._cache[table_id] = (version, state)
        self._cache.move_to_end(table_id)
        while len(self._cache) > self._cache_size:
            self._cache.popitem(last=False)

    async def _position(self, channel: int) -> tuple[TableRecord | None, Any]:
        """The channel's open table and its state, read consistently (state None
        before the start or for a game this bot no longer offers)."""
        for _ in range(5):
            rec = await self.storage.open_table(channel)
            if rec is None or rec.status == "lobby" or rec.game not in self.games:
                return rec, None
            try:
                return rec, await self._state(rec)
            except StaleWrite:
                continue  # a move landed between the two reads: read again
        return rec, None

    async def _stale(self, ctx: Ctx) -> Reply:
        rec, state = await self._position(ctx.channel)
        text = "The game moved on before your command arrived (another move came first); nothing was changed."
        if rec is None:
            return Reply(text, error=True, stale=True)
        extra = ""
        if rec.status == "active" and state is not None:
            game = self._game(rec)
            seat = rec.seat_of(ctx.user)
            if seat is not None and seat.seat is not None and seat.seat in game.to_act(state):
                extra = "\nYour legal actions now: " + choices_text(game.legal_actions(state, seat.seat))
            else:
                extra = "\nNow waiting for " + names(self._acting_names(rec, game.to_act(state))) + "."
        return Reply(text + extra, error=True, stale=True, **self._ids(rec))

    def _acting_users(self, rec: TableRecord, seats: list[int]) -> list[int]:
        out = []
        for s in seats:
            player = rec.user_at(s)
            if player is not None and not player.resigned and player.user not in out:
                out.append(player.user)
        return out

    def _acting_names(self, rec: TableRecord, seats: list[int]) -> list[str]:
        return [p.name for s in seats if (p := rec.user_at(s)) is not None]

    async def _image(self, game_id: str, view: dict, seat: int | None) -> Image | None:
        render = self._renderer
        if render is None:
            try:
                import renderers  # noqa: PLC0415 - optional, may not exist for a game
                render = renderers.render  # type: ignore[attr-defined]
            except (ImportError, AttributeError):
                return None
        try:
            out = await asyncio.to_thread(render, game_id, view, seat=seat)
        except (KeyError, ImportError, NotImplementedError):
            return None
        except Exception:  # a drawing bug must never lose a move's reply
            log.exception("rendering %s failed", game_id)
            return None
        if out is None:
            return None
        return Image(out.png, out.alt, f"{game_id}-{'board' if seat is None else 'seat' + str(seat)}.png")

    # --------------------------------------------------------------- lobby
    async def _cmd_new(self, ctx: Ctx, args: list[str]) -> Reply:
        if not args:
            raise Refusal(f"Which game? `game new <game>`; games: {', '.join(self.games) or 'none'}.")
        game_id = args[0].lower()
        game = self.games.get(game_id)
        if game is None:
            raise Refusal(f"There is no game {args[0][:40]!r}. Games: {', '.join(self.games) or 'none'}.")
        options: dict[str, Any] = {}
        for word in args[1:]:
            if "=" not in word:
                raise Refusal(f"Options are written `name=value`, not {word[:40]!r}.")
            key, value = word.split("=", 1)
            options[key.lower()] = _option_value(value)
        seed = options.pop("seed", None)
        if seed is None:
            seed = secrets.randbits(48)
        elif not isinstance(seed, int):
            raise Refusal("`seed` must be a whole number.")
        remind = options.pop("remind", None)
        remind_every = self.settings.remind_every if remind is None else _hours(remind)
        try:
            rec = await self.storage.create_table(
                guild=ctx.guild, channel=ctx.channel, game=game_id, creator=ctx.user, options=options,
                seed=seed, seats=[SeatRecord(ctx.user, ctx.name, None, False, ctx.now)],
                remind_every=remind_every, now=ctx.now)
        except ChannelBusy:
            rec = await self.storage.open_table(ctx.channel)
            what = f"a {self._title(rec)} game ({rec.status})" if rec else "a game"
            raise Refusal(f"This channel already has {what}. Finish it or `game cancel` it first; "
                          "one game per channel or thread.") from None
        return Reply(f"{ctx.name} opened a {game.title} table ({_players_range(game)}). "
                     f"Others: `game join`. {ctx.name}: `game start` when everyone is in.", **self._ids(rec))

    async def _cmd_join(self, ctx: Ctx, args: list[str]) -> Reply:
        rec = await self._table(ctx, need=("lobby",))
        game = self._game(rec)
        if rec.seat_of(ctx.user) is not None:
            raise Refusal("You have already joined this table.", **self._ids(rec))
        if len(rec.seats) >= game.max_players:
            raise Refusal(f"The table is full: {game.title} takes at most {game.max_players} players.",
                          **self._ids(rec))
        seats = rec.seats + [SeatRecord(ctx.user, ctx.name, None, False, ctx.now)]
        version = await self.storage.commit(rec, Change(seats=seats), ctx.now)
        return Reply(f"{ctx.name} joined. Players: {names([s.name for s in seats])} "
                     f"({len(seats)}/{_players_range(game)}).", game_id=rec.game, table_id=rec.id,
                     version=version)

    async def _cmd_leave(self, ctx: Ctx, args: list[str]) -> Reply:
        rec = await self.storage.open_table(ctx.channel)
        if rec is not None and rec.status in ("active", "paused") and rec.seat_of(ctx.user) is not None:
            raise Refusal("The game has started: to stop playing, `resign`.", **self._ids(rec))
        rec = await self._table(ctx, need=("lobby",))
        if rec.seat_of(ctx.user) is None:
            raise Refusal("You have not joined this table.", **self._ids(rec))
        seats = [s for s in rec.seats if s.user != ctx.user]
        if not seats:
            version = await self.storage.commit(rec, Change(status="cancelled", seats=[]), ctx.now)
            return Reply(f"{ctx.name} left; the table is empty and closed.", game_id=rec.game, table_id=rec.id,
                         version=version)
        meta = dict(rec.meta)
        was_creator = self._creator(rec) == ctx.user
        if was_creator:
            meta["creator"] = seats[0].user
        version = await self.storage.commit(rec, Change(seats=seats, meta=meta), ctx.now)
        text = f"{ctx.name} left. Players: {names([s.name for s in seats])}."
        if was_creator:
            text += f" {seats[0].name} now starts the game."
        return Reply(text, game_id=rec.game, table_id=rec.id, version=version)

    def _creator(self, rec: TableRecord) -> int:
        return int(rec.meta.get("creator", rec.creator))

    async def _cmd_start(self, ctx: Ctx, args: list[str]) -> Reply:
        rec = await self._table(ctx, need=("lobby",))
        game = self._game(rec)
        if ctx.user != self._creator(rec):
            creator = rec.seat_of(self._creator(rec))
            raise Refusal(f"Only the table's creator ({creator.name if creator else 'its creator'}) can start it.",
                          **self._ids(rec))
        count = len(rec.seats)
        if not game.min_players <= count <= game.max_players:
            raise Refusal(f"{game.title} needs {_players_range(game)} players; {count} joined.", **self._ids(rec))
        order = list(rec.seats)
        fixed = bool(args) and args[0].lower() in ("fixed", "ordered", "as-joined")
        if args and not fixed:
            raise Refusal("`game start` shuffles the seats; `game start fixed` keeps the joining order.",
                          **self._ids(rec))
        if not fixed:
            Rng.from_seed(rec.seed, "seats").shuffle(order)
        seats = [SeatRecord(s.user, s.name, i, False, s.joined) for i, s in enumerate(order)]
        try:
            state = game.setup([s.name for s in seats], rec.seed, rec.options or None)
        except (IllegalAction, ValueError, KeyError, TypeError) as err:
            raise Refusal(f"{game.title} cannot start with these options: {err}", **self._ids(rec)) from None
        rec.seats = seats
        meta = dict(rec.meta)
        meta.update({"last_seq": {}, "seq": 0})
        change = Change(status="active", seats=seats, meta=meta, snapshot=game.dumps(state),
                        reminders=self._reminders(rec, state, [], ctx.now, actor=None))
        version = await self.storage.commit(rec, change, ctx.now)
        rec.version, rec.status, rec.meta = version, "active", meta
        self._remember(rec.id, version, state)
        seating = ", ".join(f"{s.name} (seat {s.seat})" for s in seats)
        head = f"{game.title} begins. Seats: {seating}."
        return await self._position_reply(rec, state, head, ctx, [])

    async def _cmd_cancel(self, ctx: Ctx, args: list[str]) -> Reply:
        rec = await self._table(ctx, need=("lobby", "active", "paused"))
        if ctx.user != self._creator(rec) and not ctx.admin:
            raise Refusal("Only the table's creator or a server admin can cancel this game.", **self._ids(rec))
        version = await self.storage.commit(rec, Change(status="cancelled", reminders=[]), ctx.now)
        return Reply(f"{ctx.name} cancelled the {self._title(rec)} game.", game_id=rec.game, table_id=rec.id,
                     version=version)

    async def _cmd_status(self, ctx: Ctx, args: list[str]) -> Reply:
        rec = await self.storage.open_table(ctx.channel) or await self.storage.latest_table(ctx.channel)
        if rec is None or rec.status == "cancelled":
            return Reply("There is no game in this channel. Open one with `game new <game>` "
                         f"(games: {', '.join(self.games) or 'none'}).")
        game = self._game(rec)
        if rec.status == "finished":
            result = rec.meta.get("result", {})
            scores = result.get("scores", [])
            lines = [f"The {game.title} game here is finished"
                     + (" (by resignation)." if result.get("reason") == "resign" else ".")]
            if scores:
                lines.append("Scores: " + ", ".join(f"{p.name} {scores[p.seat]}" for p in rec.players) + ".")
            lines.append("Winner: " + names([self._seat_name(rec, w) for w in result.get("winners", [])]) + ".")
            lines.append("Open a new one with `game new <game>`.")
            return Reply("\n".join(lines), **self._ids(rec))
        who = names([s.name for s in rec.players])
        if rec.status == "lobby":
            return Reply(f"{game.title} table, waiting to start: {who} ({len(rec.seats)}/{_players_range(game)}).",
                         **self._ids(rec))
        state = await self._state(rec)
        lines = [f"{game.title}, {rec.status}, move {rec.meta.get('seq', 0)} (version {rec.version})."]
        scores = game.scores(state)
        lines.append("Scores: " + ", ".join(f"{p.name} {scores[p.seat]}" for p in rec.players))
        if rec.status == "active":
            lines.append("Waiting for " + names(self._acting_names(rec, game.to_act(state))) + ".")
        resigned = [s.name for s in rec.seats if s.resigned]
        if resigned:
            lines.append("Resigned: " + names(resigned) + ".")
        request = self._undo_request(rec, ctx.now)
        if request:
            lines.append(f"Undo asked by {self._name(rec, request['by'])}; approved by "
                         f"{names([self._name(rec, u) for u in request['approvals']])}.")
        lines.append(f"Reminders every {rec.remind_every / HOUR:g} h.")
        return Reply("\n".join(lines), **self._ids(rec))

    async def _cmd_list(self, ctx: Ctx, args: list[str]) -> Reply:
        if ctx.guild is None:
            rec = await self.storage.open_table(ctx.channel)
            tables = [rec] if rec else []
        else:
            tables = await self.storage.tables(ctx.guild)
        if not tables:
            return Reply("No open games on this server. Open one with `game new <game>`.")
        lines = [f"Open games ({len(tables)}):"]
        for t in tables[:25]:
            lines.append(f"- {self._title(t)} in channel {t.channel}: {t.status}, "
                         f"{names([s.name for s in t.players])}")
        return Reply(clip("\n".join(lines)))

    # ---------------------------------------------------------------- play
    async def _cmd_play(self, ctx: Ctx, args: list[str]) -> Reply:
        rec = await self._table(ctx)
        player = self._player(ctx, rec)
        game = self._game(rec)
        state = await self._state(rec)
        seat = player.seat
        assert seat is not None
        acting = game.to_act(state)
        if seat not in acting:
            raise Refusal(f"It is not your turn; waiting for {names(self._acting_names(rec, acting))}.",
                          **self._ids(rec))
        legal = game.legal_actions(state, seat)
        if not args:
            raise Refusal("Say which action: `play <action>`. Your legal actions: " + choices_text(legal),
                          choices={ctx.user: legal}, **self._ids(rec))
        text = " ".join(args)
        try:
            # The game itself matches the text, so its refusal says why (not only what is legal).
            step = game.apply(state, seat, text)
            action = canonical(text)
        except IllegalAction as err:
            raise Refusal(str(err), choices={ctx.user: legal}, **self._ids(rec)) from None
        records = [self._record(rec, step, seat, action, "", ctx.user, ctx.now)]
        after = self._autoplay(rec, game, step.state, records, ctx.now)
        return await self._commit_moves(ctx, rec, game, after, records, f"{ctx.name} played `{shown(game, action)}`.",
                                        before=state)

    @staticmethod
    def _record(rec: TableRecord, step: Any, seat: int, action: str, via: str, user: int | None,
                now: float) -> ActionRecord:
        """The log line for one applied action, with the table's next sequence number."""
        seq = int(rec.meta.get("seq", 0)) + 1
        rec.meta = {**rec.meta, "seq": seq}
        return ActionRecord(seq, seat, action, now, False, via, user, list(step.events))

    def _autoplay(self, rec: TableRecord, game: Any, state: Any, records: list[ActionRecord], now: float) -> Any:
        """Play resigned seats' turns with their first legal action (bot/DECISIONS.md, "Resigning")."""
        resigned = {s.seat for s in rec.seats if s.resigned}
        for _ in range(500):
            acting = game.to_act(state)
            auto = [s for s in acting if s in resigned]
            if not auto or len(resigned) >= len(rec.seats):
                break
            seat = auto[0]
            legal = game.legal_actions(state, seat)
            if not legal:
                break
            step = game.apply(state, seat, legal[0])
            records.append(self._record(rec, step, seat, legal[0], "auto", None, now))
            state = step.state
        return state

    async def _commit_moves(self, ctx: Ctx, rec: TableRecord, game: Any, state: Any,
                            records: list[ActionRecord], head: str, *, before: Any,
                            seats: list[SeatRecord] | None = None) -> Reply:
        """Store the new actions and position in one transaction, then build the reply.

        `before` is the state the command started from: a player who had to act
        then, still must and did not act keeps their running reminder."""
        meta = dict(rec.meta)
        last = dict(meta.get("last_seq", {}))
        for r in records:
            last[str(r.seat)] = r.seq
        meta["last_seq"] = last
        meta.pop("undo", None)   # a new move voids a pending undo request
        meta.pop("votes", None)
        status = None
        over = game.is_over(state)
        if over:
            status = "finished"
            meta["result"] = {"scores": game.scores(state), "winners": game.winners(state), "reason": "end"}
        acting_seats = {r.seat for r in records}
        actor = ctx.user if records and records[0].user == ctx.user else None
        reminders: list[ReminderRecord] = []
        if not over:
            waiting = set(game.to_act(before)) & set(game.to_act(state)) - acting_seats
            old = await self.storage.reminders(rec.id) if waiting else []
            reminders = self._reminders(rec, state, old, ctx.now, actor=actor, acted=acting_seats)
        change = Change(status=status, meta=meta, actions=records, snapshot=game.dumps(state), reminders=reminders,
                        seats=seats)
        version = await self.storage.commit(rec, change, ctx.now)
        rec.version, rec.meta = version, meta
        if status:
            rec.status = status
        self._remember(rec.id, version, state)
        lines = [head]
        for r in records:
            if r.via:
                who = self._seat_name(rec, r.seat)
                lines.append(f"{who} ({'skipped by vote' if r.via == 'skip' else 'resigned'}) played `{shown(self._game(rec), r.action)}`.")
            lines.extend(f"• {e}" for e in r.events)
        return await self._position_reply(rec, state, "\n".join(lines), ctx, records)

    async def _position_reply(self, rec: TableRecord, state: Any, head: str, ctx: Ctx,
                              records: list[ActionRecord]) -> Reply:
        """Events, then the result or who acts next, the board and private summaries."""
        game = self._game(rec)
        lines = [head]
        mentions: list[int] = []
        choices: dict[int, list[str]] = {}
        private: list[Private] = []
        if game.is_over(state):
            scores = game.scores(state)
            winners = game.winners(state)
            lines.append("Game over. Scores: " + ", ".join(f"{p.name} {scores[p.seat]}" for p in rec.players) + ".")
            lines.append("Winner: " + names([self._seat_name(rec, w) for w in winners]) + ".")
        elif rec.status == "active":
            acting = game.to_act(state)
            users = self._acting_users(rec, acting)
            mentions = users
            lines.append("Next: " + names(self._acting_names(rec, acting)) + ".")
            prefs = {u: await self._prefs_of(u) for u in users}
            for u in users:
                seat = rec.seat_of(u).seat  # type: ignore[union-attr]
                legal = game.legal_actions(state, seat)
                choices[u] = legal
                if u != ctx.user:
                    summary = await self._since_last_turn(rec, seat, records)
                    if summary:
                        private.append(Private(u, summary, None, prefs[u].dm))
        text = clip("\n".join(lines))
        image = await self._image(rec.game, game.view(state, None), None) if self.settings.images else None
        return Reply(text, image=image, mentions=mentions, private=private, choices=choices,
                     game_id=rec.game, table_id=rec.id, version=rec.version)

    async def _since_last_turn(self, rec: TableRecord, seat: int, fresh: list[ActionRecord]) -> str:
        last = int(rec.meta.get("last_seq", {}).get(str(seat), 0))
        rows = [r for r in await self.storage.actions(rec.id, after=last) if not r.undone and r.seat != seat]
        if not rows:
            return ""
        lines = ["Since your last turn:"]
        for r in rows[-20:]:
            lines.append(f"- {self._seat_name(rec, r.seat)}: `{shown(self._game(rec), r.action)}`" +
                         (" — " + sentences(r.events) if r.events else ""))
        game = self._game(rec)
        state = await self._state(rec)
        lines.append("Your legal actions: " + choices_text(game.legal_actions(state, seat), 25))
        return clip("\n".join(lines), 1500)

    def _reminders(self, rec: TableRecord, state: Any, old: list[ReminderRecord], now: float, *,
                   actor: int | None, acted: set[int] | None = None) -> list[ReminderRecord]:
        """Who must act now gets a reminder `remind_every` from now; one who still
        must act and did not act keeps their running reminder and its count."""
        game = self._game(rec)
        if game.is_over(state) or rec.remind_every <= 0:
            return []
        acted = acted or set()
        kept = {r.user: r for r in old}
        out = []
        for user in self._acting_users(rec, game.to_act(state)):
            seat = rec.seat_of(user).seat  # type: ignore[union-attr]
            previous = kept.get(user)
            if previous is not None and user != actor and seat not in acted:
                out.append(previous)
            else:
                out.append(ReminderRecord(rec.id, user, now + rec.remind_every, 0))
        return out

    def _seat_name(self, rec: TableRecord, seat: int) -> str:
        player = rec.user_at(seat)
        return player.name if player else f"seat {seat}"

    def _name(self, rec: TableRecord, user: int) -> str:
        player = rec.seat_of(user)
        return player.name if player else str(user)

    # ----------------------------------------------------------- read-only
    async def _cmd_board(self, ctx: Ctx, args: list[str]) -> Reply:
        rec = await self._table(ctx, need=("active", "paused", "finished"))
        game = self._game(rec)
        state = await self._state(rec)
        view = game.view(state, None)
        image = await self._image(rec.game, view, None) if self.settings.images else None
        head = f"{game.title}, move {rec.meta.get('seq', 0)}"
        choices: dict[int, list[str]] = {}
        if rec.status == "active":
            acting = game.to_act(state)
            head += "; waiting for " + names(self._acting_names(rec, acting))
            for user in self._acting_users(rec, acting):
                choices[user] = game.legal_actions(state, rec.seat_of(user).seat)  # type: ignore[union-attr]
        text = head + ".\n" + (image.alt if image else view_text(view))
        return Reply(clip(text), image=image, choices=choices, **self._ids(rec))

    async def _cmd_hand(self, ctx: Ctx, args: list[str]) -> Reply:
        rec = await self._table(ctx, need=("active", "paused"))
        player = self._player(ctx, rec)
        game = self._game(rec)
        state = await self._state(rec)
        view = game.view(state, player.seat)
        # The renderer's text of the private image reads like a hand (cards and their uses),
        # so it is drawn even when images are off; the raw view is the fallback for a game
        # without a renderer.
        drawn = await self._image(rec.game, view, player.seat)
        image = drawn if self.settings.images else None
        described = drawn.alt if drawn is not None and drawn.alt else view_text(view, 1500)
        lines = [f"Your private view ({game.title}, seat {player.seat}):", described]
        if rec.status == "active" and player.seat in game.to_act(state):
            lines.append("Your legal actions: " + choices_text(game.legal_actions(state, player.seat), 25))
        prefs = await self._prefs_of(ctx.user)
        return Reply("", private=[Private(ctx.user, clip("\n".join(lines)), image, prefs.dm)], **self._ids(rec))

    async def _cmd_log(self, ctx: Ctx, args: list[str]) -> Reply:
        rec = await self._table(ctx, need=("active", "paused", "finished"))
        count = self.settings.log_default
        if args:
            if not args[0].isdigit() or int(args[0]) < 1:
                raise Refusal("`log [n]` takes a positive number of moves.", **self._ids(rec))
            count = min(int(args[0]), 50)
        rows = await self.storage.actions(rec.id)
        if not rows:
            return Reply("No moves yet.", **self._ids(rec))
        lines = [f"Last {min(count, len(rows))} of {len(rows)} log lines:"]
        for r in rows[-count:]:
            mark = " (undone)" if r.undone else ""
            via = {"skip": " [skipped by vote]", "auto": " [resigned]"}.get(r.via, "")
            events = (" — " + sentences(r.events)) if r.events else ""
            lines.append(f"#{r.seq} {self._seat_name(rec, r.seat)}: `{shown(self._game(rec), r.action)}`{via}{mark}{events}")
        return Reply(clip("\n".join(lines)), **self._ids(rec))

    async def _cmd_rules(self, ctx: Ctx, args: list[str]) -> Reply:
        game_id = None
        if args and args[0].lower() in rulebook.RULEBOOKS:
            game_id, args = args[0].lower(), args[1:]
        if game_id is None:
            rec = await self.storage.open_table(ctx.channel)
            if rec is None:
                raise Refusal("Which game? `rules <game> [topic]`; games: " + ", ".join(rulebook.RULEBOOKS) + ".")
            game_id = rec.game
        return Reply(rulebook.answer(game_id, " ".join(args)), game_id=game_id)

    # ------------------------------------------------------ resign / undo
    async def _cmd_resign(self, ctx: Ctx, args: list[str]) -> Reply:
        rec = await self._table(ctx, need=("active", "paused"))
        player = self._player(ctx, rec)
        game = self._game(rec)
        state = await self._state(rec)
        rec.seats = [SeatRecord(s.user, s.name, s.seat, s.resigned or s.user == ctx.user, s.joined)
                     for s in rec.seats]
        remaining = [s for s in rec.seats if not s.resigned]
        meta = dict(rec.meta)
        if len(remaining) <= 1:
            meta["result"] = {"scores": game.scores(state), "winners": [s.seat for s in remaining],
                              "reason": "resign"}
            meta.pop("undo", None)
            version = await self.storage.commit(rec, Change(status="finished", meta=meta,
                                                seats=rec.seats, reminders=[]), ctx.now)
            return Reply(f"{ctx.name} resigned. {names([s.name for s in remaining])} wins the game.",
                         game_id=rec.game, table_id=rec.id, version=version)
        records: list[ActionRecord] = []
        before = state
        if rec.status == "active":
            state = self._autoplay(rec, game, state, records, ctx.now)
        head = f"{ctx.name} resigned; their turns are played automatically (first legal action)."
        if records:
            return await self._commit_moves(ctx, rec, game, state, records, head, before=before, seats=rec.seats)
        reminders = self._reminders(rec, state, await self.storage.reminders(rec.id), ctx.now, actor=None)
        version = await self.storage.commit(rec, Change(seats=rec.seats, meta=meta,
                                            reminders=reminders), ctx.now)
        rec.version = version
        self._remember(rec.id, version, state)
        return await self._position_reply(rec, state, head, ctx, [])

    def _undo_request(self, rec: TableRecord, now: float) -> dict | None:
        request = rec.meta.get("undo")
        if request and request["expires"] > now:
            return request
        return None

    async def _cmd_undo(self, ctx: Ctx, args: list[str]) -> Reply:
        rec = await self._table(ctx)
        player = self._player(ctx, rec)
        word = args[0].lower() if args else ""
        request = self._undo_request(rec, ctx.now)
        if word in ("approve", "yes", "ok", "accept"):
            return await self._undo_approve(ctx, rec, player, request)
        if word in ("reject", "no", "deny", "refuse"):
            if request is None:
                raise Refusal("There is no undo request to reject.", **self._ids(rec))
            meta = {k: v for k, v in rec.meta.items() if k != "undo"}
            version = await self.storage.commit(rec, Change(meta=meta), ctx.now)
            return Reply(f"{ctx.name} rejected the undo; the game goes on.", game_id=rec.game, table_id=rec.id,
                         version=version)
        if word:
            raise Refusal("`undo` takes back your last action; `undo approve` / `undo reject` answer a request.",
                          **self._ids(rec))
        if request is not None:
            raise Refusal(f"{self._name(rec, request['by'])} already asked to undo; answer with `undo approve` "
                          "or `undo reject`.", **self._ids(rec))
        rows = [r for r in await self.storage.actions(rec.id) if not r.undone]
        mine = [r for r in rows if r.seat == player.seat and r.via == ""]
        if not mine:
            raise Refusal("You have no action to take back.", **self._ids(rec))
        target = mine[-1]
        later = [r for r in rows if r.seq > target.seq]
        others = [s.user for s in rec.seats if not s.resigned and s.user != ctx.user]
        head = f"{ctx.name} took back `{shown(self._game(rec), target.action)}`."
        if not others:
            return await self._rewind(ctx, rec, target.seq, head)
        if later:
            why = "others have acted since"
        else:
            game = self._game(rec)
            before = self._replay(rec, rows, before=target.seq)
            if not reveals(game, before, await self._state(rec), target.seat, [p.name for p in rec.players]):
                return await self._rewind(ctx, rec, target.seq, head, state=before)
            why = "something hidden or random was revealed"
        meta = dict(rec.meta)
        meta["undo"] = {"by": ctx.user, "seq": target.seq, "approvals": [ctx.user],
                        "created": ctx.now, "expires": ctx.now + self.settings.undo_expiry}
        version = await self.storage.commit(rec, Change(meta=meta, bump=False), ctx.now)
        undone = len(later) + 1
        text = (f"{ctx.name} asks to take back `{shown(self._game(rec), target.action)}`"
                + (f" and the {len(later)} later action(s)" if later else "")
                + f" ({why}). {names([self._name(rec, u) for u in others])}: `undo approve` or `undo reject` "
                f"within {self.settings.undo_expiry / HOUR:g} h. {undone} action(s) would be undone.")
        return Reply(text, mentions=others, game_id=rec.game, table_id=rec.id, version=version)

    async def _undo_approve(self, ctx: Ctx, rec: TableRecord, player: SeatRecord, request: dict | None) -> Reply:
        if request is None:
            raise Refusal("There is no undo request to approve (it may have expired after "
                          f"{self.settings.undo_expiry / HOUR:g} h).", **self._ids(rec))
        if ctx.user in request["approvals"]:
            raise Refusal("You have already approved this undo.", **self._ids(rec))
        approvals = request["approvals"] + [ctx.user]
        needed = [s.user for s in rec.seats if not s.resigned and s.user not in approvals]
        if needed:
            meta = dict(rec.meta)
            meta["undo"] = {**request, "approvals": approvals}
            version = await self.storage.commit(rec, Change(meta=meta, bump=False), ctx.now)
            return Reply(f"{ctx.name} approved the undo; waiting for {names([self._name(rec, u) for u in needed])}.",
                         mentions=needed, game_id=rec.game, table_id=rec.id, version=version)
        return await self._rewind(ctx, rec, int(request["seq"]),
                                  f"Everyone approved: {self._name(rec, request['by'])}'s undo is done.")

    def _replay(self, rec: TableRecord, rows: list[ActionRecord], before: int | None = None) -> Any:
        game = self._game(rec)
        state = game.setup([s.name for s in rec.players], rec.seed, rec.options or None)
        for r in rows:
            if r.undone or (before is not None and r.seq >= before):
                continue
            state = game.apply(state, r.seat, r.action).state
        return state

    async def _rewind(self, ctx: Ctx, rec: TableRecord, seq: int, head: str, state: Any = None) -> Reply:
        """Undo every action from `seq` on: replay the log before it (unless the
        caller has that `state` already); the undone lines stay in the log, marked."""
        game = self._game(rec)
        rows = await self.storage.actions(rec.id)
        if state is None:
            state = self._replay(rec, rows, before=seq)
        undone = [r for r in rows if r.seq >= seq and not r.undone]
        meta = {k: v for k, v in rec.meta.items() if k not in ("undo", "votes")}
        last: dict[str, int] = {}
        for r in rows:
            if not r.undone and r.seq < seq:
                last[str(r.seat)] = r.seq
        meta["last_seq"] = last
        reminders = self._reminders(rec, state, [], ctx.now, actor=None)
        change = Change(meta=meta, undo_from=seq, snapshot=game.dumps(state), reminders=reminders)
        version = await self.storage.commit(rec, change, ctx.now)
        rec.version, rec.meta = version, meta
        self._remember(rec.id, version, state)
        text = head + " Undone: " + ", ".join(f"`{shown(self._game(rec), r.action)}`" for r in undone) + "."
        return await self._position_reply(rec, state, text, ctx, [])

    # ------------------------------------------------- reminders and votes
    async def _remind(self, reminder: ReminderRecord, now: float) -> None:
        rec = await self.storage.table(reminder.table)
        if rec is None:
            return
        others = await self.storage.reminders(rec.id)
        rest = [r for r in others if r.user != reminder.user]
        if rec.status != "active" or rec.seat_of(reminder.user) is None:
            await self.storage.commit(rec, Change(reminders=rest, bump=False), now)
            return
        prefs = await self._prefs_of(reminder.user)
        if in_quiet_hours(prefs, now):
            moved = ReminderRecord(rec.id, reminder.user, quiet_ends(prefs, now), reminder.count)
            await self.storage.commit(rec, Change(reminders=rest + [moved], bump=False), now)
            return
        count = reminder.count + 1
        player = rec.seat_of(reminder.user)
        name = player.name if player else str(reminder.user)
        text = f"Reminder {count}: {name}, it is your turn in the {self._title(rec)} game here."
        mentions = [reminder.user]
        if count >= self.settings.absent_after:
            voters = [s.user for s in rec.seats if not s.resigned and s.user != reminder.user]
            text += (f" {name} has not answered {count} reminders: the other players may "
                     "`vote skip` (play their simplest legal action) or `vote pause`.")
            if count == self.settings.absent_after:
                mentions += voters
        reply = Reply(text, mentions=mentions, game_id=rec.game, table_id=rec.id, version=rec.version)
        if prefs.dm:
            reply.private.append(Private(reminder.user, text, None, True))
        updated = ReminderRecord(rec.id, reminder.user, now + rec.remind_every, count)
        await self.storage.commit(rec, Change(reminders=rest + [updated], bump=False,
                                                              notices=[(rec.channel, reply.to_json())]), now)

    async def _cmd_vote(self, ctx: Ctx, args: list[str]) -> Reply:
        rec = await self._table(ctx)
        player = self._player(ctx, rec)
        kind = args[0].lower() if args else ""
        if kind not in ("skip", "pause"):
            raise Refusal("`vote skip` (play the absent player's simplest action) or `vote pause`.",
                          **self._ids(rec))
        game = self._game(rec)
        state = await self._state(rec)
        reminders = {r.user: r for r in await self.storage.reminders(rec.id)}
        absent = [u for u in self._acting_users(rec, game.to_act(state))
                  if reminders.get(u) and reminders[u].count >= self.settings.absent_after and u != ctx.user]
        if not absent:
            raise Refusal(f"Nobody is absent: a vote opens after {self.settings.absent_after} unanswered "
                          "reminders to a player who must act.", **self._ids(rec))
        target = absent[0]
        voters = [s.user for s in rec.seats if not s.resigned and s.user != target]
        votes = dict(rec.meta.get("votes") or {})
        if votes.get("target") != target:
            votes = {"target": target, "skip": [], "pause": []}
        for k in ("skip", "pause"):
            votes[k] = [u for u in votes[k] if u != ctx.user]
        votes[kind] = votes[kind] + [ctx.user]
        need = len(voters) // 2 + 1
        target_name = self._name(rec, target)
        if len(votes[kind]) < need:
            meta = {**rec.meta, "votes": votes}
            version = await self.storage.commit(rec, Change(meta=meta, bump=False), ctx.now)
            what = f"skip {target_name}'s turn" if kind == "skip" else "pause the game"
            return Reply(f"{ctx.name} votes to {what}: {len(votes[kind])} of {need} needed.",
                         game_id=rec.game, table_id=rec.id, version=version)
        if kind == "pause":
            meta = {k: v for k, v in rec.meta.items() if k != "votes"}
            version = await self.storage.commit(rec,
                                                Change(status="paused", meta=meta, reminders=[]), ctx.now)
            return Reply(f"The players voted to pause the game while {target_name} is away. "
                         "Any player can `resume` it.", game_id=rec.game, table_id=rec.id, version=version)
        seat = rec.seat_of(target).seat  # type: ignore[union-attr]
        records: list[ActionRecord] = []
        before = state
        for _ in range(200):
            if seat not in game.to_act(state):
                break
            legal = game.legal_actions(state, seat)
            if not legal:
                break
            step = game.apply(state, seat, legal[0])
            records.append(self._record(rec, step, seat, legal[0], "skip", None, ctx.now))
            state = step.state
            if game.to_act(state) != [seat]:
                break  # others act now: the absent player's turn is over
        state = self._autoplay(rec, game, state, records, ctx.now)
        return await self._commit_moves(ctx, rec, game, state, records,
                                        f"The players voted to skip {target_name}'s turn.", before=before)

    async def _cmd_resume(self, ctx: Ctx, args: list[str]) -> Reply:
        rec = await self._table(ctx, need=("paused",))
        self._player(ctx, rec)
        state = await self._state(rec)
        rec.status = "active"
        reminders = self._reminders(rec, state, [], ctx.now, actor=None)
        version = await self.storage.commit(rec, Change(status="active", reminders=reminders),
                                            ctx.now)
        rec.version = version
        self._remember(rec.id, version, state)
        return await self._position_reply(rec, state, f"{ctx.name} resumed the game.", ctx, [])

    # ------------------------------------------------------------ settings
    async def _prefs_of(self, user: int) -> PlayerPrefs:
        """A player's settings (kept in memory: they change only through `settings`)."""
        prefs = self._prefs.get(user)
        if prefs is None:
            prefs = self._prefs[user] = await self.storage.prefs(user)
            if len(self._prefs) > 10_000:
                self._prefs.clear()
        return prefs

    async def _cmd_settings(self, ctx: Ctx, args: list[str]) -> Reply:
        self._prefs.pop(ctx.user, None)  # re-read: another process may have changed them
        prefs = await self._prefs_of(ctx.user)
        if not args:
            rec = await self.storage.open_table(ctx.channel)
            quiet = (f"{prefs.quiet_start:02d}:00-{prefs.quiet_end:02d}:00 (UTC{prefs.utc_offset / 60:+g})"
                     if prefs.quiet_start is not None else "none")
            lines = [f"Your quiet hours: {quiet}. Private messages by DM: {'on' if prefs.dm else 'off'}."]
            if rec is not None:
                lines.append(f"This game reminds every {rec.remind_every / HOUR:g} h."
                             if rec.remind_every > 0 else "This game sends no reminders.")
            return Reply("\n".join(lines))
        what = args[0].lower()
        if what == "quiet":
            try:
                start, end, offset = parse_quiet(args[1:])
            except ValueError as err:
                raise Refusal(str(err)) from None
            prefs.quiet_start, prefs.quiet_end = start, end
            if offset is not None:
                prefs.utc_offset = offset
            await self.storage.set_prefs(prefs)
            if start is None:
                return Reply("Quiet hours off: reminders may come at any hour.")
            return Reply(f"Quiet hours set: no reminders from {start:02d}:00 to {end:02d}:00 "
                         f"(UTC{prefs.utc_offset / 60:+g}).")
        if what == "dm":
            if len(args) < 2 or args[1].lower() not in ("on", "off"):
                raise Refusal("`settings dm on` or `settings dm off`.")
            prefs.dm = args[1].lower() == "on"
            await self.storage.set_prefs(prefs)
            return Reply(f"Private messages by DM: {'on' if prefs.dm else 'off'}.")
        if what == "remind":
            rec = await self._table(ctx, need=("lobby", "active", "paused"))
            if ctx.user != self._creator(rec) and not ctx.admin:
                raise Refusal("Only the table's creator or an admin sets the reminder interval.", **self._ids(rec))
            if len(args) < 2:
                raise Refusal("`settings remind <hours>` or `settings remind off`.", **self._ids(rec))
            try:
                every = 0.0 if args[1].lower() == "off" else _hours(_option_value(args[1]))
            except Refusal as r:
                raise Refusal(r.text, **self._ids(rec)) from None
            rec.remind_every = every
            reminders = None
            if rec.status == "active":
                state = await self._state(rec)
                reminders = self._reminders(rec, state, [], ctx.now, actor=None)
            version = await self.storage.commit(rec, Change(remind_every=every,
                                                reminders=reminders, bump=False), ctx.now)
            text = f"Reminders every {every / HOUR:g} h." if every else "Reminders off for this game."
            return Reply(text, game_id=rec.game, table_id=rec.id, version=version)
        raise Refusal("`settings`, `settings remind <hours|off>`, `settings quiet <22-7> [utc+2]`, "
                      "`settings quiet off`, `settings dm on|off`.")


def _option_value(text: str) -> Any:
    low = text.lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    try:
        return int(text)
    except ValueError:
        pass
    try:
        return float(text)
    except ValueError:
        return low


def _hours(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value <= 24 * 30:
        raise Refusal("The reminder interval is a number of hours between 0 and 720, e.g. `remind=12`.")
    return float(value) * HOUR


def _players_range(game: Any) -> str:
    if game.min_players == game.max_players:
        return f"{game.min_players} players"
    return f"{game.min_players}-{game.max_players} players"
