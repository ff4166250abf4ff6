"""What the web table shows (issue 28), as data for one viewer of a table named by its id.

The web table (bot/web) renders this and holds no game logic: everything it shows about a
game is worked out here, from the same places the posts are (reading.py) — the headline,
the public scores, the story of the whole log, and for a seat its decision, its steps this
turn and the picture of its private view. A viewer is the public (`seat` None) or one seat;
nothing only another seat may see is in a view. Also `game link [reset]`, the command that
hands a player their seat's page.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.core import Game

from ..storage.base import ActionRecord, SeatRecord, StaleWrite, TableRecord
from . import news
from .core import Ctx, Tables
from .meta import TableMeta
from .reading import Reading
from .refusal import Refusal
from .reply import Decision, Entry, Headline, Image, Private, Reply
from .sandbox import offered
from .story import public_scores

#: What a bot's name says that the players' list tags: "Bot Cleopatra (normal)" -> "Cleopatra".
BOT_TAGS = re.compile(r"^Bot |\s*\([^()]*\)$")
#: Tables whose marks are kept for the whole log (a mark is ~100 bytes, a long game 500 steps).
KEPT_TABLES = 256


@dataclass
class Player:
    """One seat as everyone sees it: name, bot level (None for a person), resigned, and the
    public score (None while the game hides scores). `listed`: the name the list of players
    shows beside the tags "(bot, normal)", "(resigned)" — a bot seated as one by its ruler's
    name alone ("Cleopatra (bot, normal)"), the tag saying what "Bot Cleopatra (normal)", its
    name in every sentence, would say twice."""

    seat: int
    name: str
    bot: str | None = None
    resigned: bool = False
    score: int | None = None
    listed: str = ""


@dataclass
class TableView:
    """A table's position for one viewer (the public, or the seat `seat`).

    - `since`: when the newest live step was stored (those to act have been waiting since);
      the table's opening when nothing was played yet.
    - `story`: the whole log told to the viewer (a seat's own moves in its own words),
      period ends and scorings included; `steps` the live steps' numbers, for the step-through.
    - `decision`: the seat's decision when it must act (its user's: prompt, described
      choices, key, its story since its last turn, this turn's steps so far); `turn`: this
      turn's steps so far when it is not deciding; `turn_steps`: how many of them it chose
      (an undo is offered when there is one); `tryable`: the seat may try moves out in a
      private sandbox of the position (a game in play that has one, sandbox.py).
    """

    table_id: int
    channel: int
    guild: int | None
    game_id: str
    version: int
    status: str
    headline: Headline
    players: list[Player]
    since: float
    story: list[Entry] = field(default_factory=list)
    steps: list[int] = field(default_factory=list)
    seat: int | None = None
    user: int | None = None
    name: str = ""
    decision: Decision | None = None
    turn: list[Entry] = field(default_factory=list)
    turn_steps: int = 0
    tryable: bool = False


def listed_name(seat: SeatRecord) -> str:
    """ "Cleopatra" for the bot seated as "Bot Cleopatra (normal)" (a bot's seat has no
    user: its id is negative); a person's name as it is, whoever plays their seat now."""
    if seat.user >= 0 or not seat.bot:
        return seat.name
    return BOT_TAGS.sub("", seat.name)


class Pages:
    """The web table's reads by table id, and `game link [reset]`."""

    def __init__(self, tables: Tables, reading: Reading) -> None:
        self.tables = tables
        self.reading = reading
        self.storage = tables.storage
        #: Per table, the marks of its whole log worked out so far (by sequence number): a
        #: mark is a fact of an immutable log line (numbers are never reused, an undone line
        #: is only skipped), so once a page has told a table's log, the next position's page
        #: needs only the new steps' marks, which the commit stored in meta.
        self._page_marks: OrderedDict[int, dict[int, news.Mark]] = OrderedDict()

    async def table_view(self, table_id: int, seat: int | None = None) -> TableView | None:
        """The position of table `table_id` for the public (`seat` None) or one seat; None for
        a table that is not there, not started, or not readable (a damaged record)."""
        for _ in range(3):
            rec = await self.storage.table(table_id)
            if rec is None or rec.status in ("lobby", "cancelled") or rec.game not in self.tables.games or rec.damaged:
                return None
            try:
                state = await self.tables.state(rec)
                return await self._table_view(rec, state, seat)
            except StaleWrite:
                continue  # a move landed between the reads: read again
            except Refusal:
                return None
        return None

    async def _table_view(self, rec: TableRecord, state: Any, seat: int | None) -> TableView:
        game = self.tables.game(rec)
        scores = public_scores(self.reading.public_view(rec, game, state), len(rec.players))
        if scores is None and game.is_over(state):
            scores = [int(v) for v in game.scores(state)]  # nothing is hidden once the game is over
        players = [
            Player(p.seat, p.name, p.bot, p.resigned, scores[p.seat] if scores is not None else None, listed_name(p))
            for p in rec.players
            if p.seat is not None
        ]
        log_rows = await self.storage.actions(rec.id)
        rows = [r for r in log_rows if not r.undone]
        view = TableView(
            rec.id,
            rec.channel,
            rec.guild,
            rec.game,
            rec.version,
            rec.status,
            await self.reading.headline(rec, game, state),
            players,
            rows[-1].time if rows else rec.created,
            await self._whole_story(rec, game, rows, log_rows, reader=seat),
            [r.seq for r in rows],
        )
        player = rec.user_at(seat) if seat is not None else None
        if player is None:
            return view
        view.seat, view.user, view.name = seat, player.user, player.name
        view.tryable = rec.status == "active" and not game.is_over(state) and offered(rec.game)
        posted = int(TableMeta.of(rec).posted or 0)
        this_turn = [r for r in rows if r.seq > posted]
        view.turn_steps = sum(1 for r in this_turn if r.seat == seat and not r.via)
        acting = rec.status == "active" and seat in game.to_act(state) and not player.resigned and not player.bot
        if acting:
            [view.decision] = await self.reading.decisions(rec, game, state, [player.user])
        else:
            view.turn = await self.reading.story(rec, game, this_turn, reader=seat)
        return view

    async def _whole_story(
        self,
        rec: TableRecord,
        game: Game,
        rows: Sequence[ActionRecord],
        log_rows: Sequence[ActionRecord],
        *,
        reader: int | None,
    ) -> list[Entry]:
        """The story of the whole log (`_story`), with the marks of earlier pages kept: a
        table's first page replays its log once (~1 ms a step), later ones do not. `rows`:
        the live lines of `log_rows`, the whole log as read for this page (read once)."""
        kept = self._page_marks.pop(rec.id, {})
        self._page_marks[rec.id] = kept
        while len(self._page_marks) > KEPT_TABLES:
            self._page_marks.popitem(last=False)
        missing = [r for r in rows if r.seq not in kept]
        if missing:
            kept.update(await self.reading.known_marks(rec, game, missing, log_rows))
        return news.entries(game, rows, kept, lambda seat: self.reading.seat_name(rec, seat), reader=reader)

    async def private_image(self, table_id: int, seat: int, version: int) -> Image | None:
        """The picture of `seat`'s private view at `version` (its alt text is the view in
        words); None when the table moved on from that version or has no picture."""
        rec = await self.storage.table(table_id)
        if (
            rec is None
            or rec.version != version
            or rec.status in ("lobby", "cancelled")
            or rec.game not in self.tables.games
        ):
            return None
        try:
            state = await self.tables.state(rec)
        except (StaleWrite, Refusal):
            return None
        return await self.tables.image(rec.game, self.tables.game(rec).view(state, seat), seat)

    async def board_after(self, table_id: int, seq: int, part: str | None = None) -> Image | None:
        """The public board right after log line `seq` (0: the setup), replayed from the log:
        the step-through reads public views only, whoever asks. `part`: the map (None) or
        "tables". None for a line that is not a live step of a started table."""
        rec = await self.storage.table(table_id)
        if rec is None or rec.status in ("lobby", "cancelled") or rec.game not in self.tables.games or rec.damaged:
            return None
        rows = await self.storage.actions(rec.id)
        if seq != 0 and seq not in {r.seq for r in rows if not r.undone}:
            return None
        state = self.tables.replay(rec, rows, before=seq + 1)
        return await self.tables.image(rec.game, self.tables.game(rec).view(state, None), None, part)

    async def link(self, ctx: Ctx, args: list[str]) -> Reply:
        """`game link`: the caller's seat page, privately; `game link reset`: a fresh one,
        every older link to the seat stops working (issue 28 §3)."""
        links = self.tables.links
        if links is None:
            raise Refusal("The web table is off on this bot (its `[web] listen` is empty), so there are no links.")
        if args and [a.lower() for a in args] != ["reset"]:
            raise Refusal(
                "`game link` gives your seat's page on the web; `game link reset` gives a new one "
                "(every older link to your seat stops working)."
            )
        rec = await self.tables.table(ctx, need=("active", "paused", "finished"))
        player = self.tables.player(ctx, rec)
        assert player.seat is not None
        if args:
            generation = await self.storage.reset_link(rec.id, ctx.user)
            head = "Done: every older link to your seat stops working now. Your new seat page"
        else:
            generation = await self.storage.link_generation(rec.id, ctx.user)
            head = "Your seat page"
        text = (
            f"{head} (private: whoever has it sees your hand and acts for you; "
            f"`game link reset` replaces it):\n{links.seat_url(rec.id, player.seat, ctx.user, generation)}\n"
            f"The table for everyone: {links.table_url(rec.id)}"
        )
        # never by DM unasked: the player is here, and the link is the answer
        return Reply("", private=[Private(ctx.user, text, None, False, player.name)], **self.tables.ids(rec))
