"""What every part of the service shares: settings, the command context, refusals,
and the table access every command starts with (load, authorise, cache, render).

The commands themselves live beside it, one module per family (lobby, moves,
undo, absence, prefs), and `Service` (service.py) puts them together.
"""
from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Callable, Mapping

import engine

from ..storage.base import PlayerPrefs, SeatRecord, StaleWrite, Storage, TableRecord
from .reply import Image, Reply
from .text import choices_text, names

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



class ServiceBase:
    """Table access shared by every command family; `Service.__init__` sets the fields."""

    storage: Storage
    clock: Callable[[], float]
    settings: Settings
    _games: Mapping[str, Any] | None
    _renderer: Renderer | None
    _cache: OrderedDict[int, tuple[int, Any]]
    _cache_size: int
    _prefs: dict[int, PlayerPrefs]
    #: A `bot.workers.WorkerPool` to draw boards in (the Discord bot sets one); None:
    #: draw in this process on a thread (the terminal, scripts, tests).
    workers: Any = None

    @property
    def games(self) -> Mapping[str, Any]:
        return self._games if self._games is not None else engine.GAMES

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
        """The picture of `view`: drawn in the worker processes when the service has
        them (named by string, so this process never loads Pillow), else on a thread."""
        render = self._renderer
        try:
            if render is None and self.workers is not None:
                out = await self.workers.run("renderers:render", game_id, view, seat)
            else:
                if render is None:
                    import renderers  # noqa: PLC0415 - optional, may not exist for a game
                    render = renderers.render
                out = await asyncio.to_thread(render, game_id, view, seat=seat)
        except (KeyError, ImportError, NotImplementedError):
            return None
        except Exception:  # a drawing bug must never lose a move's reply
            log.exception("rendering %s failed", game_id)
            return None
        if out is None:
            return None
        return Image(out.png, out.alt, f"{game_id}-{'board' if seat is None else 'seat' + str(seat)}.png")


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
