"""What every part of the service shares: the command context and the table access
every command starts with (load, authorise, cache, render).

The commands themselves live beside it, one module per family (lobby, moves,
undo, absence, prefs), and `Service` (service.py) puts them together.
"""

from __future__ import annotations

import asyncio
import importlib
import logging
import zlib
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

import engine
from engine.core import Game

from ..storage.base import ActionRecord, Change, PlayerPrefs, SeatRecord, StaleWrite, Storage, TableRecord
from .meta import TableMeta
from .refusal import Refusal
from .reply import Image, Reply
from .settings import HOUR, Settings
from .text import choices_text, lettered, names, user_text
from .timing import Timers

if TYPE_CHECKING:  # the pool module is loaded only where boards are drawn in processes
    from ..workers import WorkerPool

log = logging.getLogger(__name__)

#: Lobby subcommands, also accepted without the leading `game`.
LOBBY = ("new", "join", "leave", "start", "cancel", "status", "list")


def safe(name: str) -> str:
    """A display name that can never act as a mention (`@everyone`, `<@&role>`).

    Broken characters (lone surrogates) are replaced rather than refused: a
    player cannot fix a display name by typing a command again."""
    return user_text(name, 64) or "?"


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
    #: The decision a panel's pick was made for (`choice_key`): with it, a pick from a
    #: panel the game outgrew still counts when the presser's own choice is unchanged.
    expected_choice: str | None = None
    #: Set by `_table` when the version moved on and only `expected_choice` can decide.
    version_moved: bool = False
    #: Files that came with the command, by name (an export for `game new from=<name>`);
    #: the transport read them (a Discord attachment, a file named at the terminal).
    files: Mapping[str, bytes] = field(default_factory=dict)
    #: The table a command was made for (a web page acts on the table of its link): a
    #: channel whose game ended and opened another refuses it instead of acting there.
    table: int | None = None


class Drawing(Protocol):
    """A drawn board as the service uses it (`renderers.Image` is one): its PNG and alt text."""

    @property
    def png(self) -> bytes: ...

    @property
    def alt(self) -> str: ...


class Renderer(Protocol):
    """How the service draws a view in this process: `renderers.render(game_id, view, seat=,
    part=, highlight=)`, or a test's stand-in. None: the game has no picture. `part`: "map"
    (the public default: the handover's picture, the places in `highlight` framed), "tables"
    (player tables, offers, legend) or None (a seat's image for a seat)."""

    def __call__(
        self,
        game_id: str,
        view: dict[str, Any],
        /,
        *,
        seat: int | None,
        part: str | None = None,
        highlight: Sequence[str] = (),
    ) -> Drawing | None: ...


def shown(game: Game, action: str) -> str:
    """The action as everyone may see it: the game hides a hidden card it names."""
    public = getattr(game, "public_action", None)
    return public(action) if public else action


class Links(Protocol):
    """The web table's addresses (bot/web, issue 28): a table's public page and a seat's own
    page, signed. `generation` counts the seat's `game link reset`s. None: the web is off."""

    def table_url(self, table_id: int) -> str: ...

    def seat_url(self, table_id: int, seat: int, user: int, generation: int) -> str: ...


class Tables:
    """The tables and their positions, shared by every other part: the stored table of a
    channel or a command, its state (cached by version, rebuilt from the log when its stored
    snapshot is damaged), the players' preferences, and the pictures of a position.

    It also holds what the service runs with and the transports plug in later: the clock, the
    settings (tests change them on a running service: `timers` follows), the drawing workers
    and the web table's links."""

    def __init__(
        self,
        storage: Storage,
        *,
        clock: Callable[[], float],
        settings: Settings,
        games: Mapping[str, Game] | None,
        renderer: Renderer | None,
        cache_size: int,
    ) -> None:
        self.storage = storage
        self.clock = clock
        self._games = games
        self.renderer = renderer
        self._cache: OrderedDict[int, tuple[int, Any]] = OrderedDict()
        self.cache_size = cache_size
        self._prefs: dict[int, PlayerPrefs] = {}
        #: The clocks' and reminders' bookkeeping (timing.py, issue 27).
        self.timers = Timers(storage, settings, self.prefs_of)
        self._settings = settings
        #: The worker processes to draw boards in (the Discord bot sets them); None: draw in
        #: this process on a thread (the terminal, scripts, tests).
        self.workers: WorkerPool | None = None
        #: The web table's links, filled into headlines and decisions (None: the web is off).
        self.links: Links | None = None

    @property
    def settings(self) -> Settings:
        return self._settings

    @settings.setter
    def settings(self, settings: Settings) -> None:
        self._settings = self.timers.settings = settings

    @property
    def games(self) -> Mapping[str, Game]:
        return self._games if self._games is not None else engine.GAMES

    def game(self, rec: TableRecord) -> Game:
        try:
            return self.games[rec.game]
        except KeyError:
            raise Refusal(f"This table plays {rec.game!r}, which this bot no longer offers.") from None

    async def table(self, ctx: Ctx, *, need: tuple[str, ...] = ("active",), damaged_ok: bool = False) -> TableRecord:
        rec = await self.storage.open_table(ctx.channel)
        if rec is None:
            rec = await self.storage.latest_table(ctx.channel)
        if rec is None or (rec.status == "cancelled" and "cancelled" not in need):
            raise Refusal(
                "There is no game in this channel. Open one with `game new <game>` "
                f"(games: {', '.join(self.games) or 'none'})."
            )
        if rec.status == "finished" and "finished" not in need:
            raise Refusal("The game here is finished. Open a new one with `game new <game>`.", **self.ids(rec))
        if rec.status not in need:
            if rec.status == "lobby":
                raise Refusal(
                    f"The {self.title(rec)} game has not started yet: `game join`, then the creator says `game start`.",
                    **self.ids(rec),
                )
            if rec.status == "paused":
                raise Refusal(f"The game is paused. {self.resume_words(rec)}", **self.ids(rec))
            raise Refusal(f"The game is {rec.status}.", **self.ids(rec))
        if ctx.table is not None and rec.id != ctx.table:
            raise Refusal(
                "The game of this link has ended; nothing was changed. The channel's new game has links of its own."
            )
        if rec.damaged:
            rec = await self.mended(rec, ctx.now, cancelling=damaged_ok)
        if ctx.expected_version is not None and ctx.expected_version != rec.version:
            if ctx.expected_choice is None:
                raise StaleWrite(rec.id, ctx.expected_version, rec.version)
            ctx.version_moved = True  # the command compares the presser's decision (`choice_key`)
        ctx.based_on = rec.version
        return rec

    @staticmethod
    def choice_key(rec: TableRecord, seat: int, legal: list[str]) -> str:
        """What one seat's decision is made on: its own last move and its legal actions now.

        Another seat's step in a simultaneous round moves the table's version but
        leaves this key alone, so a panel opened before it still plays; the seat's own
        step (a double press, a second window) changes it, so nothing is played twice."""
        own = int((TableMeta.of(rec).last_seq or {}).get(str(seat), 0))
        return f"{own}.{zlib.crc32(chr(10).join(legal).encode('utf-8')):08x}"

    # ---- damaged records: the log is the source of truth --------------------------
    async def mended(self, rec: TableRecord, now: float, *, cancelling: bool = False) -> TableRecord:
        """A table whose stored row could not be read whole (`rec.damaged`).

        Its bookkeeping (meta: move counter, whose last move was which, the result)
        is rebuilt from the log and stored again. Seats and options cannot be
        rebuilt (the log does not say who sat where): the table then refuses every
        command but `game cancel`, so its channel can host a new game."""
        unrecoverable = [part for part in rec.damaged if part != "meta"]
        if unrecoverable:
            if cancelling:
                return rec
            log.error(
                "table %s: stored %s cannot be read; it refuses commands until cancelled",
                rec.id,
                " and ".join(unrecoverable),
            )
            raise Refusal(
                f"This game's stored record is damaged (its {' and '.join(unrecoverable)} cannot be "
                "read), so it cannot go on; nothing was changed. Its creator or a server admin can "
                "`game cancel` it to free this channel.",
                **self.ids(rec),
            )
        rows = await self.storage.actions(rec.id)
        meta = _meta_from_log(rows)
        if rec.status == "finished":
            try:
                state = self.replay(rec, rows)
                game = self.game(rec)
                meta.result = {"scores": game.scores(state), "winners": game.winners(state), "reason": "end"}
            except Exception:  # noqa: BLE001 - the result line is lost, the table still reads
                log.warning("table %s: the result of the finished game could not be rebuilt", rec.id)
        await self.commit(rec, Change(meta=meta.to_json(), bump=False), now)
        rec.damaged = []
        log.warning(
            "table %s: stored bookkeeping (meta) was damaged; rebuilt from its log of %d lines "
            "(pending undo requests and votes are dropped)",
            rec.id,
            len(rows),
        )
        return rec

    async def _rebuilt(self, rec: TableRecord, why: str) -> Any:
        """The position replayed from the log when the stored snapshot is damaged or missing,
        stored again; a Refusal when the log itself cannot rebuild it."""
        rows = await self.storage.actions(rec.id)
        try:
            state = self.replay(rec, rows)
        except Exception as err:  # noqa: BLE001 - any failure means the record is beyond repair
            log.error("table %s: snapshot %s and the log does not replay (%s)", rec.id, why, err)
            raise Refusal(
                "This game's stored record is damaged and its log cannot rebuild it, so it cannot go "
                "on; nothing was changed. Its creator or a server admin can `game cancel` it.",
                **self.ids(rec),
            ) from None
        await self.commit(rec, Change(snapshot=self.game(rec).dumps(state), bump=False), self.clock())
        log.warning("table %s: snapshot %s; rebuilt from its log of %d lines", rec.id, why, len(rows))
        return state

    def replay(self, rec: TableRecord, rows: list[ActionRecord], before: int | None = None) -> Any:
        """The state the log gives: the setup from the seed, then every line not undone
        (before sequence number `before`, when given)."""
        state = None
        for position in self.positions(rec, rows, before):
            state = position
        return state

    def positions(self, rec: TableRecord, rows: list[ActionRecord], before: int | None = None) -> Iterator[Any]:
        """Every position of the log in turn: the setup, then one after each line not undone."""
        game = self.game(rec)
        state = game.setup([s.name for s in rec.players], rec.seed, rec.options or None)
        yield state
        for r in rows:
            if r.undone or (before is not None and r.seq >= before):
                continue
            state = game.apply(state, r.seat, r.action).state
            yield state

    @staticmethod
    def seat_number(rec: TableRecord, user: int) -> int:
        """The engine seat of `user`, who sits at the started table `rec` (a person to act,
        found through `_acting_users`); LookupError for anyone else."""
        player = rec.seat_of(user)
        if player is None or player.seat is None:
            raise LookupError(f"table {rec.id}: user {user} has no seat")
        return player.seat

    def creator(self, rec: TableRecord) -> int:
        """Who opened the table, or took it over when they left the lobby: they start it,
        cancel it and set its reminders."""
        creator = TableMeta.of(rec).creator
        return int(rec.creator if creator is None else creator)

    def forget_prefs(self, user: int) -> None:
        """Drop a player's kept settings: they are read again (another process may have changed them)."""
        self._prefs.pop(user, None)

    async def prefs_of(self, user: int) -> PlayerPrefs:
        """A player's settings (kept in memory: they change only through `settings`)."""
        prefs = self._prefs.get(user)
        if prefs is None:
            prefs = self._prefs[user] = await self.storage.prefs(user)
            if len(self._prefs) > 10_000:
                self._prefs.clear()
        return prefs

    def player(self, ctx: Ctx, rec: TableRecord) -> SeatRecord:
        seat = rec.seat_of(ctx.user)
        if seat is None:
            raise Refusal(
                f"You are not a player in this game ({names([s.name for s in rec.players])} are).", **self.ids(rec)
            )
        if seat.resigned:
            raise Refusal("You resigned from this game.", **self.ids(rec))
        return seat

    @staticmethod
    def scores_text(rec: TableRecord, scores: Sequence[int]) -> str:
        """`ann (A) 12, bob (B) 9`: every seated player's score, in seat order, named as the boards name them."""
        return ", ".join(f"{lettered(p.name, p.seat)} {scores[p.seat]}" for p in rec.players if p.seat is not None)

    def title(self, rec: TableRecord) -> str:
        game = self.games.get(rec.game)
        return game.title if game is not None else rec.game

    @staticmethod
    def ids(rec: TableRecord, version: int | None = None) -> dict[str, Any]:
        """A reply's table fields; `version` when the reply answers a change just committed."""
        return {"game_id": rec.game, "table_id": rec.id, "version": rec.version if version is None else version}

    async def state(self, rec: TableRecord) -> Any:
        hit = self._cache.get(rec.id)
        if hit is not None and hit[0] == rec.version:
            self._cache.move_to_end(rec.id)
            return hit[1]
        snap = await self.storage.snapshot(rec.id)
        if snap is None:
            if rec.status == "lobby":
                raise Refusal("This game has no stored position yet.")
            state = await self._rebuilt(rec, "missing")
        else:
            version, text = snap
            if version > rec.version:
                # the table was read before a move, its snapshot after: the game moved on
                raise StaleWrite(rec.id, rec.version, version)
            game = self.game(rec)
            try:
                state = game.loads(text)
            except Exception as err:  # noqa: BLE001 - unreadable text of any kind: the log decides
                state = await self._rebuilt(rec, f"damaged ({type(err).__name__}: {str(err)[:80]})")
        self.remember(rec.id, rec.version, state)
        return state

    async def live_log(self, rec: TableRecord, after: int) -> list[ActionRecord]:
        """The live log lines after step `after`, as far as the table read in `rec` goes.

        A bot of this or another process may store its move between this command's commit and
        this read; its lines are not this post's to tell (its own post tells them), so a post
        never tells a step twice nor ahead of the post that should (issue 50)."""
        last = int(TableMeta.of(rec).seq or 0)
        return [r for r in await self.storage.actions(rec.id, after=after) if not r.undone and r.seq <= last]

    async def commit(self, rec: TableRecord, change: Change, now: float, *, state: Any = None) -> int:
        """Store `change` on the table as read in `rec` (StaleWrite when it moved on since) and
        return the new version. The one place a commit's bookkeeping is done: `rec` then reads
        as stored (the storage sets its version; here its meta, status and seats), and `state`,
        the position the change leads to, is kept for that version."""
        version = await self.storage.commit(rec, change, now)
        if change.meta is not None:
            rec.meta = change.meta
        if change.status is not None:
            rec.status = change.status
        if change.seats is not None:
            rec.seats = change.seats
        if state is not None:
            self.remember(rec.id, version, state)
        return version

    def forget(self, table_id: int) -> None:
        """Drop the kept position of a table: its stored snapshot is read again next time."""
        self._cache.pop(table_id, None)

    def remember(self, table_id: int, version: int, state: Any) -> None:
        self._cache[table_id] = (version, state)
        self._cache.move_to_end(table_id)
        while len(self._cache) > self.cache_size:
            self._cache.popitem(last=False)

    async def position(self, channel: int) -> tuple[TableRecord | None, Any]:
        """The channel's open table and its state, read consistently (state None
        before the start or for a game this bot no longer offers)."""
        for _ in range(5):
            rec = await self.storage.open_table(channel)
            if rec is None or rec.status == "lobby" or rec.game not in self.games or rec.damaged:
                return rec, None  # (a damaged table answers its commands itself)
            try:
                return rec, await self.state(rec)
            except StaleWrite:
                continue  # a move landed between the two reads: read again
            except Refusal:
                return rec, None  # damaged beyond repair: its commands say so
        return rec, None

    async def stale(self, ctx: Ctx) -> Reply:
        rec, state = await self.position(ctx.channel)
        text = "The game moved on before your command arrived (another move came first); nothing was changed."
        if rec is None:
            return Reply(text, error=True, stale=True)
        extra = ""
        if rec.status == "active" and state is not None:
            game = self.game(rec)
            seat = rec.seat_of(ctx.user)
            if seat is not None and seat.seat is not None and seat.seat in game.to_act(state):
                extra = "\nYour legal actions now: " + choices_text(game.legal_actions(state, seat.seat))
            else:
                extra = "\nNow waiting for " + names(self.acting_names(rec, game.to_act(state))) + "."
        return Reply(text + extra, error=True, stale=True, **self.ids(rec))

    def acting_users(self, rec: TableRecord, seats: list[int]) -> list[int]:
        """The people who must act in `seats`: never a bot (it is not pinged, reminded or
        offered choices), nor a resigned player."""
        out = []
        for s in seats:
            player = rec.user_at(s)
            if player is not None and not player.resigned and not player.bot and player.user not in out:
                out.append(player.user)
        return out

    @staticmethod
    def people(rec: TableRecord, *, besides: int | None = None) -> list[int]:
        """The seated people who still play (they vote and approve undos): no bots, nobody resigned."""
        return [s.user for s in rec.seats if not s.resigned and not s.bot and s.user != besides]

    def resume_words(self, rec: TableRecord) -> str:
        """How a paused table goes on: `resume`, or `game back` when no person is left playing
        it (a bot on every seat: README, "Clocks"), which `resume` would hand to the bots."""
        if not self.people(rec):
            return "No person is left playing it: `game back` takes your seat back, and the game goes on."
        return "Any player can `resume` it."

    def acting_names(self, rec: TableRecord, seats: list[int]) -> list[str]:
        return [p.name for s in seats if (p := rec.user_at(s)) is not None]

    async def draw(self, job: str, *args: Any) -> Any:
        """Run a drawing job (`"package.module:function"`, plain arguments) in the worker
        processes when the service has them, so this process never loads Pillow; else on
        a thread (the terminal, scripts and tests). At most `render_timeout` seconds:
        past it `TimeoutError` (a stuck worker is killed and replaced by the pool; a
        thread cannot be stopped, it is only no longer waited for)."""
        limit = self.settings.render_timeout
        if self.workers is not None:
            from ..workers import JobTimeout  # noqa: PLC0415 - loaded already: the pool is running

            try:
                return await self.workers.run(job, *args, timeout=limit, limit=limit)
            except JobTimeout as err:
                raise TimeoutError(str(err)) from None
        module, _, name = job.partition(":")
        return await asyncio.wait_for(asyncio.to_thread(getattr(importlib.import_module(module), name), *args), limit)

    async def image(
        self,
        game_id: str,
        view: dict[str, Any],
        seat: int | None,
        part: str | None = None,
        highlight: Sequence[str] = (),
    ) -> Image | None:
        """The picture `part` of `view` (renderers.render): drawn in the worker processes when
        the service has them (named by string, so this process never loads Pillow), else on a
        thread. The public view's default is the map, with the places in `highlight` framed."""
        try:
            if self.renderer is not None:
                drawing = asyncio.to_thread(
                    self.renderer, game_id, view, seat=seat, part=part, highlight=tuple(highlight)
                )
                out = await asyncio.wait_for(drawing, self.settings.render_timeout)
            else:
                out = await self.draw("renderers:render", game_id, view, seat, part, list(highlight))
        except (KeyError, ImportError, NotImplementedError):
            return None
        except TimeoutError:  # a stuck drawing must not hold the reply (issue 23)
            log.warning(
                "drawing %s took longer than %g s; the reply goes without its picture",
                game_id,
                self.settings.render_timeout,
            )
            return None
        except Exception:  # a drawing bug must never lose a move's reply
            log.exception("rendering %s failed", game_id)
            return None
        if out is None:
            return None
        name = part if part == "tables" else "board" if seat is None else f"seat{seat}"
        places = dict(getattr(out, "places", None) or {})  # a stand-in renderer may give none
        return Image(
            out.png, out.alt, f"{game_id}-{name}.png", getattr(out, "width", 0), getattr(out, "height", 0), places
        )

    @staticmethod
    def highlight(rec: TableRecord) -> list[str]:
        """The places of the last post's moves (moves.py keeps them with the post), while that
        post still tells the latest moves (an undo of a posted move voids them)."""
        meta = TableMeta.of(rec)
        last = meta.highlight or {}
        return list(last.get("places", [])) if last.get("posted") == meta.posted else []


def _meta_from_log(rows: list[ActionRecord]) -> TableMeta:
    """The service's bookkeeping as far as the log holds it: the last sequence number
    used (never reused, undone lines included), each seat's last live action, and the
    practice mark of a fork (a chosen seed's mark is not in the log: it is lost)."""
    last: dict[str, int] = {}
    for r in rows:
        if not r.undone:
            last[str(r.seat)] = r.seq
    meta = TableMeta(seq=max((r.seq for r in rows), default=0), last_seq=last)
    if any(r.via == "fork" for r in rows):  # a fork's copied lines: still an open practice game
        meta.practice = {"fork": True}
    return meta


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


#: Reminder intervals allowed, in hours: at most hourly (a reminder is a ping), at least monthly.
REMIND_HOURS = (1, 720)


def _hours(value: Any) -> float:
    low, high = REMIND_HOURS
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not low <= value <= high:
        raise Refusal(
            f"The reminder interval is a number of hours from {low} to {high}, e.g. `remind=12` "
            "(or `settings remind off`)."
        )
    return float(value) * HOUR
