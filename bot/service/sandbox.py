"""The sandbox (issue 52 point 4): a private "try it out" copy of a position for one seat.

The seat plays its own coming decisions; where others decide, it picks their move (when
that decision rests on public facts) or lets an `easy` bot pick. Everything the seat cannot
see is drawn afresh by the bots' own resampling (`engine.ai.resample`), so the sandbox holds
nothing the seat does not know. The draw is seeded from the seat's own view of the position
(`game.view(state, seat)`), never from the hidden state: two positions that differ only in
what the seat cannot see give the same sandbox.

Nothing is stored: a sandbox is its position (table, version, seat) and the moves played in
it, which the page carries; each request draws the same world and replays the moves (each
checked by the engine). "Plan these moves" hands the seat's own moves, with their labels, to
the planned moves (plans.py).

Its pictures (`Sandboxes.image`) are drawn as the table's are (`Tables.image`: the worker
processes, or a thread), from the only views the seat may see of the sandbox's world: the
public view (the map, the last move's places framed) and the seat's own (its private
picture). Never another seat's: in a resampled world another seat's hand is invented, and a
picture of it would still pass for knowledge.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from engine import ai
from engine.core import Choice, Game, IllegalAction, Rng, refers_of

from .described import choices, needs_private_view, prompt, public_label

if TYPE_CHECKING:
    from bot.storage import TableRecord

    from .core import Tables
    from .reply import Image

#: The most moves one sandbox holds (the page carries them back and forth).
MAX_MOVES = 60

#: The bot level that picks for others: a fraction of a second a move.
BOT_LEVEL = "easy"


class SandboxRefusal(Exception):
    """A sandbox request that cannot be played (its words are for the player)."""


@dataclass(frozen=True)
class Move:
    """One move of the sandbox: who, what (the action), how it reads to the seat, and the
    board places it concerns (its choice's `refers`: what the map frames after it)."""

    seat: int
    action: str
    label: str
    places: tuple[str, ...] = ()


@dataclass
class Other:
    """Another seat to act in the sandbox: its choices when they rest on public facts only
    (else [] and only "let a bot pick")."""

    seat: int
    name: str
    choices: list[Choice] = field(default_factory=list)


@dataclass
class SandboxView:
    """What a sandbox page shows: only the seat's own knowledge and the moves tried."""

    table_id: int
    version: int
    seat: int
    game_id: str
    names: list[str]
    moves: list[Move]
    prompt: str = ""
    choices: list[Choice] = field(default_factory=list)
    others: list[Other] = field(default_factory=list)
    over: bool = False
    #: The seat decides in the position itself: its first moves here, until another seat
    #: moves, are that decision, played on the table's page, not planned.
    deciding: bool = False

    def own_moves(self) -> list[tuple[str, str | None]]:
        """The seat's own coming moves, `(action, label)`, as `Service.plan_moves` takes them."""
        moves = list(self.moves)
        while self.deciding and moves and moves[0].seat == self.seat:
            moves.pop(0)
        return [(m.action, m.label) for m in moves if m.seat == self.seat]


def seed_of(game: Game, state: Any, seat: int) -> int:
    """The world's seed, from what `seat` itself sees of `state` (its view) and nothing else."""
    seen = json.dumps(game.view(state, seat), sort_keys=True, default=str)
    return int.from_bytes(hashlib.sha256(f"{game.id}\n{seat}\n{seen}".encode()).digest()[:8], "big")


def world(game: Game, state: Any, seat: int) -> Any:
    """A position `seat` cannot tell from `state`, all it does not know drawn afresh."""
    return ai.resample(game.id, state, seat, Rng.from_seed(seed_of(game, state, seat), "sandbox"))


def replay(game: Game, start: Any, seat: int, moves: list[tuple[int, str]]) -> tuple[Any, list[Move]]:
    """The sandbox's position after `moves` from `start`, each checked by the engine and
    labelled as the seat reads it (its own: its choice's label; others': the public label)."""
    if len(moves) > MAX_MOVES:
        raise SandboxRefusal(f"A sandbox holds at most {MAX_MOVES} moves: go back to the table and start again.")
    state, played = start, []
    for who, action in moves:
        if game.is_over(state) or who not in game.to_act(state):
            raise SandboxRefusal("That move is not one of this sandbox's: start the sandbox again.")
        if who == seat:
            own = {c.action: c for c in choices(game, state, seat)}
            label, places = (own[action].label, own[action].refers) if action in own else (action, ())
        else:
            label, places = public_label(game, state, who, action), refers_of(game, state, who, action)
        try:
            state = game.apply(state, who, action).state
        except IllegalAction as err:
            raise SandboxRefusal(f"That move cannot be played here: {err}") from None
        played.append(Move(who, action, label, tuple(places)))
    return state, played


def bot_move(game: Game, state: Any, who: int, moves_so_far: int) -> str:
    """An `easy` bot's move for `who` in the sandbox, from `who`'s own resampling of it."""
    seed = moves_so_far + 1
    return ai.decide(game.id, ai.infostate(game, state, who, seed), who, BOT_LEVEL, seed)


def view(
    game: Game, table_id: int, version: int, seat: int, names: list[str], state: Any, played: list[Move]
) -> SandboxView:
    """The sandbox page's data at `state` (the world after `played`)."""
    page = SandboxView(table_id, version, seat, game.id, names, played, over=game.is_over(state))
    if page.over:
        return page
    for who in game.to_act(state):
        if who == seat:
            page.prompt, page.choices = prompt(game, state, seat), choices(game, state, seat)
        else:
            public = not needs_private_view(game, state, who)
            listed = [
                Choice(c.action, c.group, public_label(game, state, who, c.action)) for c in choices(game, state, who)
            ]
            page.others.append(Other(who, names[who], listed if public else []))
    return page


def offered(game_id: str) -> bool:
    """A game has a sandbox where a bot plays it: the other seats' hidden parts are drawn
    afresh by the bots' resampling, and "let a bot pick" needs a bot."""
    return game_id in ai.GAMES


class Sandboxes:
    """The sandbox's one read: the table's position now, for a seat of it (nothing written)."""

    def __init__(self, tables: Tables) -> None:
        self.tables = tables

    async def _position(
        self, table_id: int, seat: int, moves: list[tuple[int, str]]
    ) -> tuple[TableRecord, Game, Any, Any, list[Move]]:
        """The table, its game, its state now, and the sandbox's world after `moves`."""
        rec = await self.tables.storage.table(table_id)
        if rec is None or rec.status != "active" or rec.game not in self.tables.games or rec.damaged:
            raise SandboxRefusal("This table has no game in play to try moves in.")
        game = self.tables.game(rec)
        if not offered(game.id):
            raise SandboxRefusal("This game has no sandbox (no bot plays it).")
        state = await self.tables.state(rec)
        now, played = replay(game, world(game, state, seat), seat, moves)
        return rec, game, state, now, played

    async def sandbox(self, table_id: int, seat: int, moves: list[tuple[int, str]], bot: int | None) -> SandboxView:
        """The sandbox of `seat` at table `table_id` after `moves`, and then, when `bot` is a
        seat to act other than `seat`, an `easy` bot's move for it."""
        rec, game, state, now, played = await self._position(table_id, seat, moves)
        names = [p.name for p in sorted(rec.players, key=lambda p: p.seat or 0) if p.seat is not None]
        if bot is not None:
            if bot == seat or game.is_over(now) or bot not in game.to_act(now):
                raise SandboxRefusal("That seat has nothing to decide in the sandbox now.")
            action = await asyncio.to_thread(bot_move, game, now, bot, len(played))
            now, [move] = replay(game, now, seat, [(bot, action)])
            played = [*played, move]
        page = view(game, rec.id, rec.version, seat, names, now, played)
        page.deciding = not game.is_over(state) and seat in game.to_act(state)
        return page

    async def image(
        self, table_id: int, seat: int, moves: list[tuple[int, str]], *, version: int, own: bool = False
    ) -> Image | None:
        """A picture of `seat`'s sandbox after `moves`: the public map, the last move's places
        framed (before any move, the table's own last post's, as the seat page's map), or,
        when `own`, the seat's private picture. Only these two views of the world are drawn.
        None when pictures are off, the game has none, or the table moved on from `version`
        (the moves were tried on that position)."""
        if not self.tables.settings.images:
            return None
        rec, game, _, now, played = await self._position(table_id, seat, moves)
        if rec.version != version:
            return None
        if own:
            return await self.tables.image(game.id, game.view(now, seat), seat)
        framed = list(played[-1].places) if played else self.tables.highlight(rec)
        return await self.tables.image(game.id, game.view(now, None), None, None, framed)
