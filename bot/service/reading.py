"""The turn as data for the replies (issue 25 §2; bot/DECISIONS.md, "The turn as data").

What a player reads about a position, built from the engine and the log: the
headline (who must act, in which game, at which stage), each acting user's decision
(prompt, described choices, key, rule, private view, their story since their last
turn) and the story of a stretch of the log as entries. The text written from them
is telling.py's; what the game says about a decision is read in described.py.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from functools import partial
from typing import Any

from engine.core import Game

from ..storage.base import ActionRecord, TableRecord
from . import described, news
from .core import Tables
from .meta import TableMeta
from .records import places
from .reply import Actor, Decision, Entry, FinalScore, Headline
from .story import PERIODS, stage

log = logging.getLogger(__name__)


class Reading:
    """Headlines, decisions and stories; the step marks behind the stories."""

    def __init__(self, tables: Tables, views_kept: int) -> None:
        self.tables = tables
        self.storage = tables.storage
        #: Per table: the position last asked about (by identity) and its public view; the
        #: latest `views_kept` tables.
        self._views: dict[int, tuple[Any, dict[str, Any]]] = {}
        self._views_kept = views_kept

    def seat_name(self, rec: TableRecord, seat: int) -> str:
        player = rec.user_at(seat)
        return player.name if player else f"seat {seat}"

    def name(self, rec: TableRecord, user: int) -> str:
        player = rec.seat_of(user)
        return player.name if player else str(user)

    def public_view(self, rec: TableRecord, game: Game, state: Any) -> dict[str, Any]:
        """The public view of `state`. The view of the position last asked about is kept per
        table: a view costs up to ~0.7 ms, and a command reads one position's view several
        times (its marks, its headline, the board), the next command starting from it."""
        kept = self._views.get(rec.id)
        if kept is not None and kept[0] is state:
            return kept[1]
        view = game.view(state, None)
        self._views[rec.id] = (state, view)
        while len(self._views) > self._views_kept:
            self._views.pop(next(iter(self._views)))
        return view

    async def headline(self, rec: TableRecord, game: Game, state: Any) -> Headline:
        """Who must act (people and bots, each person with their clock and time away), in
        which game, at which stage."""
        over = bool(game.is_over(state))
        now = self.tables.clock()
        acting = []
        if rec.status == "active" and not over:
            for seat in game.to_act(state):
                player = rec.user_at(seat)
                if player is not None and not (player.resigned and not player.bot):
                    actor = Actor(player.name, seat, None if player.bot else player.user)
                    if actor.user is not None:
                        actor.time_left, away = await self.tables.timers.clock_of(rec, seat, actor.user, now)
                        if away is not None:
                            actor.away_until, actor.away_note = away.ends, away.note
                    acting.append(actor)
        word, number, named = self.stage(rec, game, state)
        return Headline(
            game.id,
            game.title,
            acting,
            [p.name for p in rec.players],
            word,
            number,
            named,
            rec.status,
            over,
            self.tables.links.table_url(rec.id) if self.tables.links is not None else "",
            now,
        )

    def stage(self, rec: TableRecord, game: Game, state: Any) -> tuple[str, int | None, str]:
        """The stage the public view names: ("epoch", 3, "Epoch III"); ("", None, "") without one."""
        word, period = PERIODS.get(game.id, ("", None))
        number = period(self.public_view(rec, game, state), len(rec.players)) if period is not None else None
        return (word if number is not None else ""), number, stage(game.id, word, number)

    def final_standings(
        self, rec: TableRecord, game: Game, state: Any, scores: Sequence[int], winners: Sequence[int]
    ) -> list[FinalScore]:
        """Every seat at the end, best first, with how its score was made where the game says."""
        players = rec.players
        resigned = [False] * len(scores)
        for p in players:
            if p.seat is not None and p.seat < len(resigned):
                resigned[p.seat] = p.resigned
        ranks = places(scores, winners, resigned)
        parts = described.breakdown(game, state) if game.is_over(state) else None
        out = [
            FinalScore(
                p.seat,
                p.name,
                int(scores[p.seat]),
                ranks[p.seat],
                p.seat in winners,
                p.resigned,
                p.bot if p.user < 0 else None,
                parts[p.seat] if parts else [],
            )
            for p in players
            if p.seat is not None
        ]
        return sorted(out, key=lambda f: (f.place, f.seat))

    async def decisions(
        self, rec: TableRecord, game: Game, state: Any, users: Sequence[int], *, told: int = 0
    ) -> list[Decision]:
        """The decision of each user in `users` (people who must act), with their story
        since their last turn: the log read once for all of them. `told`: the last log line
        the post they come with tells, when that is later than the last post marked (a
        bot's post marks its turn told only once it is in the outbox, bots.py)."""
        if not users:
            return []
        seats = [self.tables.seat_number(rec, u) for u in users]
        meta = TableMeta.of(rec)
        posted = max(int(meta.posted or 0), told)
        last = meta.last_seq or {}
        since = min([posted] + [int(last.get(str(s), 0)) for s in seats])
        rows = await self.tables.live_log(rec, since)
        return [
            await self._decision(rec, game, state, seat, user, rows, posted)
            for user, seat in zip(users, seats, strict=True)
        ]

    async def _decision(
        self, rec: TableRecord, game: Game, state: Any, seat: int, user: int, rows: list[ActionRecord], posted: int
    ) -> Decision:
        """What `user` in `seat` decides now. `rows`: the live log lines from before their
        last turn on: those after it and told (up to `posted`) are their story, the later
        ones this turn's steps so far (their own in their words)."""
        legal = game.legal_actions(state, seat)
        last = int((TableMeta.of(rec).last_seq or {}).get(str(seat), 0))
        news_rows = [r for r in rows if last < r.seq <= posted and r.seat != seat]
        turn_rows = [r for r in rows if r.seq > posted]
        player = rec.user_at(seat)
        seat_url = ""
        if self.tables.links is not None:
            seat_url = self.tables.links.seat_url(rec.id, seat, user, await self.storage.link_generation(rec.id, user))
        time_left, _ = await self.tables.timers.clock_of(rec, seat, user, self.tables.clock(), away=False)
        return Decision(
            user,
            seat,
            player.name if player is not None else f"seat {seat}",
            described.prompt(game, state, seat),
            described.choices(game, state, seat, legal),
            self.tables.choice_key(rec, seat, legal),
            described.rule(game, state, seat),
            described.needs_private_view(game, state, seat),
            await self.story(rec, game, news_rows),
            await self.story(rec, game, turn_rows, reader=seat),
            seat_url,
            time_left,
        )

    async def story(
        self, rec: TableRecord, game: Game, rows: Sequence[ActionRecord], *, reader: int | None = None
    ) -> list[Entry]:
        """The entries of the log lines `rows`, told to `reader` (None: everyone)."""
        if not rows:
            return []
        known = await self.known_marks(rec, game, rows)
        return news.entries(game, rows, known, lambda seat: self.seat_name(rec, seat), reader=reader)

    def mark(
        self,
        meta: TableMeta,
        rec: TableRecord,
        game: Game,
        before: Any,
        records: Sequence[ActionRecord],
        *,
        after: Any,
        told: int,
    ) -> None:
        """Store in `meta` (the table's bookkeeping, committed with the steps) the marks of
        the steps `records`, played again from `before`, the position before the first of
        them, to `after`. A mark is kept while a story may still tell its step: after the
        post before this command (`told`: its post tells the steps since), the last post,
        or some seat's last move, whichever is earliest (`_decisions` reads from there)."""
        kept = dict(meta.marks or {})
        public = partial(self.public_view, rec, game)
        for seq, mark in news.marks(game, len(rec.players), before, records, public=public).items():
            kept[str(seq)] = mark.to_json()
        if records and rec.id in self._views:  # the steps played again reached `after`: the view is its
            self._views[rec.id] = (after, self._views[rec.id][1])
        last = meta.last_seq or {}
        since = min([told, int(meta.posted or 0)] + [int(last.get(str(p.seat), 0)) for p in rec.players])
        meta.marks = {seq: mark for seq, mark in kept.items() if int(seq) > since}

    async def known_marks(
        self, rec: TableRecord, game: Game, rows: Sequence[ActionRecord], log_rows: Sequence[ActionRecord] | None = None
    ) -> dict[int, news.Mark]:
        """The marks of `rows`: those stored with the table, and the missing ones from
        replaying the log (a fork's copied lines, bookkeeping rebuilt from the log, a
        table from before marks). A log that does not replay gives none: its story tells
        the moves alone. `log_rows`: the whole log of the table's version, when the caller
        has read it already (undone lines included)."""
        stored = TableMeta.of(rec).marks or {}
        known = {int(seq): news.Mark.from_json(mark) for seq, mark in stored.items()}
        missing = {r.seq for r in rows if not r.undone and r.seq not in known}
        if missing:
            if log_rows is None:
                log_rows = await self.storage.actions(rec.id)
            try:
                start = game.setup([p.name for p in rec.players], rec.seed, rec.options or None)
                known.update(news.marks(game, len(rec.players), start, log_rows, missing.__contains__))
            except Exception:  # noqa: BLE001 - a story without marks still tells every move
                log.warning("table %s: the log does not replay; stories tell moves only", rec.id)
        return known
