"""Moves and what players read: play, the stored move and its announcement, board, hand, log, rules."""

from __future__ import annotations

import logging
import re
from typing import Any

from engine.core import Game, IllegalAction, match, refers_of, resolve

from ..storage.base import ActionRecord, Change, SeatRecord, StaleWrite, TableRecord
from ..storage.ratings import by_bots_alone
from . import rules as rulebook
from .core import Ctx, Tables, shown
from .meta import TableMeta
from .plans import Plans, next_choices, panel_line
from .reading import Reading
from .records import CHOSEN, Records
from .refusal import Refusal
from .reply import PERIOD, Attachment, Decision, Entry, HeadsUp, Private, Reply
from .steps import Steps
from .telling import (
    clock_line,
    headline_line,
    heads_up_line,
    log_pages,
    news_text,
    panel_text,
    period_line,
    squeeze,
    standings_lines,
    story_lines,
)
from .text import clip, letter, names, neutral, quote, sentences, view_text
from .turns import VIA_MARKS, Turn

log = logging.getLogger(__name__)

#: Characters of log lines on one page of `log` (a Discord message holds 2,000).
LOG_BUDGET = 1500


class Moves:
    """`play` and what follows a move (store, announce, remind), and the read-only commands."""

    def __init__(self, tables: Tables, reading: Reading, records: Records, plans: Plans) -> None:
        self.tables = tables
        self.reading = reading
        self.records = records
        self.plans = plans
        self.storage = tables.storage

    async def play(self, ctx: Ctx, args: list[str]) -> Reply:
        rec = await self.tables.table(ctx)
        player = self.tables.player(ctx, rec)
        game = self.tables.game(rec)
        state = await self.tables.state(rec)
        seat = player.seat
        assert seat is not None
        if player.bot:
            raise Refusal(
                f"A bot plays your seat now ({player.bot}). Say `game back` to take it back.", **self.tables.ids(rec)
            )
        acting = game.to_act(state)
        legal = game.legal_actions(state, seat) if seat in acting else []
        if ctx.version_moved and (
            seat not in acting or ctx.expected_choice != self.tables.choice_key(rec, seat, legal)
        ):
            raise StaleWrite(rec.id, ctx.expected_version or 0, rec.version)  # the decision itself changed
        if seat not in acting:
            why = getattr(game, "why_waiting", lambda *_: None)(state, seat)  # the game's reason, if it has one
            raise Refusal(
                f"It is not your turn; waiting for {names(self.tables.acting_names(rec, acting))}."
                + (f" {why}" if why else ""),
                **self.tables.ids(rec),
            )
        if not args:
            return await self.panel(ctx, rec, game, state, seat, ask=True)
        text = neutral(" ".join(args))  # the engine quotes it back in refusals
        if resolve(text, legal) is None and resolve(f"play {text}", legal):
            # `play forum build` typed as the command `play` + `forum build`: one `play` is enough
            # (also with names as printed: `play julius caesar build`).
            text = f"play {text}"
        try:
            # The game itself matches the text, so its refusal says why (not only what is legal).
            step = game.apply(state, seat, text)
        except IllegalAction as err:
            raise Refusal(str(err), choices={ctx.user: legal}, **self.tables.ids(rec)) from None
        action = match(text, legal, known_verbs=getattr(game, "verbs", ()))  # the canonical form, for the log
        turn = Turn(acting)
        turn.step(game.to_act(step.state))
        records = [self.record(rec, step, seat, action, "", ctx.user, ctx.now)]
        places = {records[0].seq: refers_of(game, state, seat, action)}
        after = self.autoplay(rec, game, step.state, records, ctx.now, turn, places)
        return await self.commit_moves(ctx, rec, game, Steps(state, after, records, turn, places), "")

    @staticmethod
    def record(
        rec: TableRecord, step: Any, seat: int, action: str, via: str, user: int | None, now: float
    ) -> ActionRecord:
        """The log line for one applied action, with the table's next sequence number."""
        seq = int(TableMeta.of(rec).seq or 0) + 1
        meta = TableMeta.of(rec)
        meta.seq = seq
        rec.meta = meta.to_json()
        return ActionRecord(seq, seat, action, now, False, via, user, list(step.events))

    def autoplay(
        self,
        rec: TableRecord,
        game: Game,
        state: Any,
        records: list[ActionRecord],
        now: float,
        turn: Turn | None = None,
        places: dict[int, tuple[str, ...]] | None = None,
    ) -> Any:
        """Play every step nobody needs to decide (bot/DECISIONS.md, "Turns"): a step whose
        seat has exactly one legal action (`via = "forced"`, shown as automatic), and a
        resigned seat's turns with its first legal action (`via = "auto"`). `places`: each
        step's board places (by sequence number) are added to it."""
        resigned = {s.seat for s in rec.seats if s.resigned and not s.bot}  # a bot plays the others
        for _ in range(2000):
            if game.is_over(state):
                break
            chosen = None
            for seat in game.to_act(state):
                legal = game.legal_actions(state, seat)
                if len(legal) == 1:
                    chosen = (seat, legal[0], "forced")
                elif legal and seat in resigned and len(resigned) < len(rec.seats):
                    chosen = (seat, legal[0], "auto")
                if chosen:
                    break
            if chosen is None:
                break
            seat, action, via = chosen
            step = game.apply(state, seat, action)
            records.append(self.record(rec, step, seat, action, via, None, now))
            if places is not None:
                places[records[-1].seq] = refers_of(game, state, seat, action)
            state = step.state
            if turn is not None:
                turn.step(game.to_act(state))
        return state

    async def commit_moves(
        self,
        ctx: Ctx,
        rec: TableRecord,
        game: Game,
        steps: Steps,
        head: str,
        *,
        seats: list[SeatRecord] | None = None,
        announce: bool = False,
    ) -> Reply:
        """Store the new actions and position in one transaction, then build the reply.

        `steps.turn` follows the seats to act through the steps: while the caller's turn
        lasts they alone are answered (their panel); when it passes (or `turn` is
        None: an announcement such as a resignation) the channel gets one post with
        every step since the last post. `steps.before` is the state the command started
        from: a player who had to act then, still must and did not act keeps their
        running reminder. `announce`: a bot's move; its post goes into the outbox
        (bots.py marks the turn told there), so it is neither marked here nor drawn.
        `seats`: the seats as they are now, when the command changed them (a resignation).
        The planned moves of a seat whose decision comes are played first (plans.py, issue 51)."""
        planned = await self.plans.play_due(ctx, rec, game, steps, self)
        steps.plans = planned.queues or None
        state, turn = steps.after, steps.turn
        over = game.is_over(state)
        # a turn passing to bots is not told yet: the bots move first, and one post tells
        # everything up to the next person (bots.py), pinging them once (issue 26 §2)
        bots_next = turn is not None and self._only_bots_act(rec, game, state)
        # a bot's move that calls no person (another bot comes in while a person still acts)
        # is not told alone either: it folds into the post that next calls a person (issue 50)
        unheard = announce and turn is not None and not over and not self.tables.acting_users(rec, turn.to_ping())
        public = (turn is None or turn.passed or over) and not bots_next and not unheard
        meta, posted = self._bookkeeping(rec, game, steps, public=public, announce=announce)
        whole = await self._store(ctx, rec, game, steps, meta, seats)
        seat = rec.seat_of(ctx.user)
        if not public:
            if announce:  # a bot has no panel: its turn goes on
                return Reply(panel=True, private=planned.dropped, **self.tables.ids(rec))
            reply = await self.panel(ctx, rec, game, state, seat.seat if seat else None, bots_next=bots_next)
            reply.private.extend(planned.dropped)
            return reply
        rows = await self.tables.live_log(rec, posted)
        told = await self.reading.story(rec, game, rows)
        ping = None if turn is None else self.tables.acting_users(rec, turn.to_ping())
        reply = await self.position_reply(
            rec, state, head, ctx, ping=ping, draw=not announce, story=told, highlight=self.tables.highlight(rec)
        )
        if over and self.tables.settings.images:  # the final post: the board and how the game went (issue 17 §3)
            chart = await self.records.chart(rec, whole)
            if chart is not None:
                reply.files.append(chart)
        if turn is not None and not over:
            await self._heads_up(rec, game, state, turn.to_ping(), reply, ctx.user)
        reply.private.extend(planned.dropped)  # a dropped plan's notice, to its owner alone
        return reply

    def _bookkeeping(
        self, rec: TableRecord, game: Game, steps: Steps, *, public: bool, announce: bool
    ) -> tuple[TableMeta, int]:
        """The table's meta after `steps` and the last step posted before them: each seat's
        last move, the pending undo request and votes voided, what the post (when the steps
        are told now, `public`) frames on the map or the places kept for the next post, and
        the step marks the stories read."""
        records, places = steps.records, steps.places
        meta = TableMeta.of(rec)
        last = dict(meta.last_seq or {})
        for r in records:
            last[str(r.seat)] = r.seq
        meta.last_seq = last
        meta.undo = meta.votes = None  # a new move voids a pending undo request and the votes
        posted = int(meta.posted or 0)
        if public and records and not announce:
            meta.posted = records[-1].seq
        unposted = {**(meta.places or {}), **{str(seq): list(p) for seq, p in (places or {}).items() if p}}
        meta.places = None
        if public and records:
            framed = [p for seq in sorted(unposted, key=int) for p in unposted[seq]]
            meta.highlight = {"posted": records[-1].seq, "places": list(dict.fromkeys(framed))}
        elif unposted:
            meta.places = unposted
        self.reading.mark(meta, rec, game, steps.before, records, after=steps.after, told=posted)
        return meta, posted

    async def _store(
        self,
        ctx: Ctx,
        rec: TableRecord,
        game: Game,
        steps: Steps,
        meta: TableMeta,
        seats: list[SeatRecord] | None,
    ) -> list[ActionRecord]:
        """Commit `steps` with `meta`: the new log lines and position, the clocks and
        reminders settled, and when the game is over its result and record. Returns the whole
        log when the game ended (for the chart), else []."""
        state, records, turn = steps.after, steps.records, steps.turn
        over = game.is_over(state)
        record, whole, status = None, [], None
        if over:
            status = "finished"
            scores, winners = game.scores(state), game.winners(state)
            meta.result = {"scores": scores, "winners": winners, "reason": "end"}
            whole = await self.storage.actions(rec.id) + records  # the whole log, for the record and the chart
            record = self.records.game_record(rec, "end", whole, ctx.now, scores=scores, winners=winners)
        acting_seats = {r.seat for r in records}
        actor = ctx.user if records and records[0].user == ctx.user else None
        waiting = set(game.to_act(steps.before)) & set(game.to_act(state)) - acting_seats
        reminders = await self.tables.timers.settle(
            rec,
            meta,
            game,
            state,
            ctx.now,
            old=await self.storage.reminders(rec.id) if waiting and not over else [],
            actor=actor,
            acted=acting_seats,
            moved={r.seat for r in records if r.via in CHOSEN},  # a planned move earns the bonus too
            ended=turn.ended if turn is not None else None,
            chosen=next((r for r in records if r.via in CHOSEN), None),
        )
        change = Change(
            status=status,
            meta=meta.to_json(),
            actions=records,
            snapshot=game.dumps(state),
            reminders=reminders,
            seats=seats,
            record=record,
            plans=steps.plans,
        )
        await self.tables.commit(rec, change, ctx.now, state=state)
        return whole

    async def _heads_up(
        self, rec: TableRecord, game: Game, state: Any, starting: list[int], reply: Reply, caller: int
    ) -> None:
        """`settings heads-up on`: the next person after each seat whose turn starts now is
        pinged once, in this post (issue 12 §3). Turn order is the game's (`turn_order(state)`,
        e.g. Rise of Empires' turn order track) or the seat order. Bots in between are passed
        over and named ("you play after ann, then Bot Sargon"): a bot's turn takes seconds, so
        a heads-up at its start would come moments before the real ping (issue 26 §2)."""
        turn_order = getattr(game, "turn_order", None)  # beyond the contract: `BaseGame` has it
        order = (turn_order(state) if turn_order else []) or [s.seat for s in rec.players]
        acting = set(game.to_act(state))
        for seat in starting:
            if seat not in order:
                continue
            between: list[str] = []
            for step in range(1, len(order)):
                after = order[(order.index(seat) + step) % len(order)]
                player = rec.user_at(after)
                if player is None or player.resigned or not player.bot:
                    break
                between.append(player.name)
            if player is None or player.resigned or player.bot or after in acting:
                continue
            if player.user in (caller, *reply.mentions):
                continue
            prefs = await self.tables.prefs_of(player.user)
            if not prefs.heads_up:
                continue
            warned = HeadsUp(player.user, player.name, [self.reading.seat_name(rec, seat), *between])
            if prefs.dm:  # told by direct message instead of a ping (issue 26 §3)
                reply.private.append(Private(player.user, heads_up_line(warned), None, True, player.name))
                continue
            reply.mentions.append(player.user)
            reply.heads_up.append(warned)
            reply.text = clip(reply.text + "\n" + heads_up_line(warned))

    def _only_bots_act(self, rec: TableRecord, game: Game, state: Any) -> bool:
        """Bots, and no person, must act now (the game goes on)."""
        if game.is_over(state) or rec.status != "active":
            return False
        acting = game.to_act(state)
        return bool(acting) and not self.tables.acting_users(rec, acting) and any(self.is_bot(rec, s) for s in acting)

    def is_bot(self, rec: TableRecord, seat: int) -> bool:
        player = rec.user_at(seat)
        return player is not None and bool(player.bot)

    async def panel(
        self,
        ctx: Ctx,
        rec: TableRecord,
        game: Game,
        state: Any,
        seat: int | None,
        *,
        ask: bool = False,
        bots_next: bool = False,
    ) -> Reply:
        """The caller's answer while their turn lasts: only to them, edited in place on
        Discord — this turn so far, what is being decided now, and their decision as data
        (with their private view's picture when the decision depends on it). `bots_next`:
        the caller's turn passed to bots, whose moves one post tells later (`bots_moving`)."""
        posted = int(TableMeta.of(rec).posted or 0)
        rows = await self.tables.live_log(rec, posted)
        reply = Reply(
            "",
            panel=True,
            turn_steps=sum(1 for r in rows if r.seat == seat and not r.via),
            headline=await self.reading.headline(rec, game, state),
            **self.tables.ids(rec),
        )
        if seat is not None and seat in game.to_act(state):
            [decision] = await self.reading.decisions(rec, game, state, [ctx.user])
            reply.offer(decision)
            reply.private.append(await self._panel_part(rec, game, state, decision))
            return reply
        lines = []
        turn = await self.reading.story(rec, game, rows, reader=seat)
        if turn:
            lines = ["This turn so far:", *story_lines(turn, [p.name for p in rec.players])]
        if bots_next:
            reply.bots_moving = self.tables.acting_names(rec, game.to_act(state))
            lines.append(
                f"Your turn is over. {names(reply.bots_moving)} move{'s' if len(reply.bots_moving) == 1 else ''} "
                "now; one post will tell it all and ping whoever is next."
            )
        elif not ask:
            lines.append("Waiting for " + names(self.tables.acting_names(rec, game.to_act(state))) + ".")
        # never by DM: the player is at the table right now, and the panel is their answer
        reply.private.append(Private(ctx.user, clip("\n".join(lines)), None, False, self.reading.name(rec, ctx.user)))
        return reply

    async def _panel_part(self, rec: TableRecord, game: Game, state: Any, decision: Decision) -> Private:
        """A turn panel as the private part of its user: the text, and the picture of their
        private view when the decision depends on it (issue 25 §2)."""
        image = None
        if decision.private_view and self.tables.settings.images:
            image = await self.tables.image(rec.game, game.view(state, decision.seat), decision.seat)
        decision.plannable = bool(next_choices(game, state, decision.seat, [p.name for p in rec.players]))
        decision.planned = await self.plans.queue_of(rec, decision.user)
        text = "\n".join(
            t for t in (panel_text(decision, [p.name for p in rec.players]), panel_line(decision.planned)) if t
        )
        return Private(decision.user, clip(text), image, False, decision.name)

    async def position_reply(
        self,
        rec: TableRecord,
        state: Any,
        head: str,
        ctx: Ctx,
        *,
        ping: list[int] | None = None,
        draw: bool = True,
        story: list[Entry] | None = None,
        highlight: list[str] | None = None,
    ) -> Reply:
        """The post about a position: the headline (who must act, in which game, at which
        stage), `head` (what the command did), the `story` it tells, the result or the
        board, and each acting user's decision; their story since their last turn goes
        privately to those pinged, and a caller who must act gets their panel.

        `ping`: the users to mention (default: everyone who must act). A turn's post
        pings only those who were not acting already. The board is the map image, the
        places in `highlight` framed (the moves the post tells)."""
        game = self.tables.game(rec)
        public = self.reading.public_view(rec, game, state)
        headline = await self.reading.headline(rec, game, state)
        players = [p.name for p in rec.players]
        told = story or []
        lines = [headline_line(headline), clock_line(headline), head, *story_lines(told, players)]
        mentions: list[int] = []
        by_dm: list[int] = []  # people told of their turn by direct message instead of a ping
        decisions: list[Decision] = []
        standings = []
        if game.is_over(state):
            standings = self.reading.final_standings(rec, game, state, game.scores(state), game.winners(state))
            lines.extend(standings_lines(standings))
            if by_bots_alone(rec.seats):  # (issue 53; README, "Clocks")
                lines.append("Not rated: bots finished this game alone (no person played their own seat at the end).")
            # the end of a game is every player's news (issue 26 §2); the caller reads its answer
            mentions = [s.user for s in rec.seats if not s.bot and not s.resigned and s.user != ctx.user]
        elif rec.status == "active":
            users = self.tables.acting_users(rec, game.to_act(state))
            for user in users:
                if user == ctx.user or (ping is not None and user not in ping):
                    continue
                (by_dm if (await self.tables.prefs_of(user)).dm else mentions).append(user)
            decisions = await self.reading.decisions(
                rec, game, state, users, told=max((e.seq for e in told), default=0)
            )
        note = self.records.practice_line(rec, why=False)
        lines.append(note)
        text = clip("\n".join(line for line in lines if line))
        drawn = self.tables.settings.images and draw
        image = await self.tables.image(rec.game, public, None, "map", highlight or []) if drawn else None
        reply = Reply(
            text,
            image=image,
            mentions=mentions,
            headline=headline,
            story=told,
            head=head,
            note=note,
            standings=standings,
            **self.tables.ids(rec),
        )
        reply.calls = (
            self._calls(rec, [*mentions, *by_dm]) if rec.status == "active" and not game.is_over(state) else {}
        )
        for decision in decisions:
            reply.offer(decision)
            if decision.user == ctx.user:  # the caller must act (next, or again): their panel
                reply.private.append(await self._panel_part(rec, game, state, decision))
            elif decision.user in mentions or decision.user in by_dm:
                # their turn starts: their part tells only what the post does not (all of it by
                # direct message, read away from the post, which is also their notification)
                dm = decision.user in by_dm
                summary = news_text(decision, players, besides=set() if dm else {e.seq for e in told})
                reply.private.append(Private(decision.user, clip(summary, 1500), None, dm, decision.name))
        return reply

    @staticmethod
    def _calls(rec: TableRecord, users: list[int]) -> dict[int, int]:
        """Each of `users` (told by this post that their turn starts) with the version at which
        they were called to act: the key of that notification (issue 50)."""
        called = TableMeta.of(rec).called or {}
        seats = {s.user: s.seat for s in rec.seats}
        return {u: int(called[str(seats[u])]) for u in users if str(seats.get(u)) in called}

    async def since_last_turn(self, rec: TableRecord, seat: int) -> str:
        """What happened since `seat`'s last turn, for its user's panel ("" when nothing)."""
        player = rec.user_at(seat)
        if player is None:
            return ""
        state = await self.tables.state(rec)
        [decision] = await self.reading.decisions(rec, self.tables.game(rec), state, [player.user])
        return clip(news_text(decision, [p.name for p in rec.players], prompt=False), 1500)

    # ----------------------------------------------------------- read-only
    async def board(self, ctx: Ctx, args: list[str]) -> Reply:
        rec = await self.tables.table(ctx, need=("active", "paused", "finished"))
        game = self.tables.game(rec)
        state = await self.tables.state(rec)
        view = self.reading.public_view(rec, game, state)
        image = (
            await self.tables.image(rec.game, view, None, "map", self.tables.highlight(rec))
            if self.tables.settings.images
            else None
        )
        tables = await self.tables.image(rec.game, view, None, "tables") if self.tables.settings.images else None
        head = f"{game.title}, move {TableMeta.of(rec).seq or 0}"
        decisions: list[Decision] = []
        if rec.status == "active":
            acting = game.to_act(state)
            head += "; waiting for " + names(self.tables.acting_names(rec, acting))
            decisions = await self.reading.decisions(rec, game, state, self.tables.acting_users(rec, acting))
        text = head + ".\n" + (image.alt if image else view_text(view))
        files = [Attachment(tables.png, tables.filename, tables.alt, "tables")] if tables else []
        reply = Reply(
            clip(text),
            image=image,
            headline=await self.reading.headline(rec, game, state),
            files=files,
            **self.tables.ids(rec),
        )
        for decision in decisions:
            reply.offer(decision)
        return reply

    async def hand(self, ctx: Ctx, args: list[str]) -> Reply:
        rec = await self.tables.table(ctx, need=("active", "paused"))
        player = self.tables.player(ctx, rec)
        game = self.tables.game(rec)
        state = await self.tables.state(rec)
        view = game.view(state, player.seat)
        # The renderer's text of the private image reads like a hand (cards and their uses),
        # so it is drawn even when images are off; the raw view is the fallback for a game
        # without a renderer.
        drawn = await self.tables.image(rec.game, view, player.seat)
        image = drawn if self.tables.settings.images else None
        described = drawn.alt if drawn is not None and drawn.alt else view_text(view, 1500)
        lines = [f"Your private view ({game.title}; you are {letter(player.seat or 0)} on the board):"]
        reply = Reply("", **self.tables.ids(rec))
        if rec.status == "active" and player.seat in game.to_act(state):
            [decision] = await self.reading.decisions(rec, game, state, [ctx.user])
            reply.offer(decision)
            # first, so a long description cut to Discord's length never hides what is decided
            lines.append(f"Now: {decision.prompt}")
        lines.append(described)
        prefs = await self.tables.prefs_of(ctx.user)
        reply.private.append(Private(ctx.user, clip("\n".join(lines)), image, prefs.dm, player.name))
        return reply

    async def log(self, ctx: Ctx, args: list[str]) -> Reply:
        """`log`: the newest steps that fit one message, oldest of them first, a line closing
        each round, epoch or game turn; `log page 2` goes back a page; `log n`: the last n."""
        rec = await self.tables.table(ctx, need=("active", "paused", "finished"))
        game = self.tables.game(rec)
        words = [a.lower() for a in args]
        page, count = 1, None
        if words[:1] == ["page"] and len(words) == 2 and re.fullmatch(r"[0-9]{1,6}", words[1]) and int(words[1]):
            page = int(words[1])
        elif len(words) == 1 and re.fullmatch(r"[0-9]{1,6}", words[0]) and int(words[0]) >= 1:
            count = min(int(words[0]), 50)
        elif words:
            raise Refusal(
                "`log` shows the newest steps; `log page 2` the page before them; `log n` the last n steps "
                f"(1 to 50, in digits 0-9), not {quote(' '.join(args), 20)}.",
                **self.tables.ids(rec),
            )
        rows = await self.storage.actions(rec.id)
        if not rows:
            return Reply("No moves yet.", **self.tables.ids(rec))
        lines = [self._log_line(rec, game, r) for r in rows]
        if count is not None:
            pages, start, end = 1, max(0, len(rows) - count), len(rows)
        else:
            bounds = log_pages([len(line) + 1 for line in lines], LOG_BUDGET)
            pages = len(bounds)
            if page > pages:
                raise Refusal(f"The log has {pages} page{'s' if pages != 1 else ''}; `log page {pages}` is the oldest.")
            start, end = bounds[page - 1]
        shown = rows[start:end]
        ends = await self._period_ends(rec, game, [r for r in shown if not r.undone])
        out = [
            f"Steps {shown[0].seq}-{shown[-1].seq} of {rows[-1].seq}"
            + (
                f" (page {page} of {pages}; `log page {page + 1}` goes back)"
                if page < pages
                else f" (page {page} of {pages})"
                if pages > 1
                else ""
            )
            + ":"
        ]
        for r, line in zip(shown, lines[start:end], strict=True):
            out.append(line)
            if r.seq in ends:
                out.append(ends[r.seq])
        return Reply(clip("\n".join(out)), page=page, pages=pages, **self.tables.ids(rec))

    def _log_line(self, rec: TableRecord, game: Game, r: ActionRecord) -> str:
        """ "#12 ann: `take 2` [automatic] — ann took 2; 4 left." (an action code stays in the log)."""
        mark = " (undone)" if r.undone else ""
        via = f" [{VIA_MARKS[r.via]}]" if r.via in VIA_MARKS else ""
        events = (" — " + sentences(r.events)) if r.events else ""
        if r.damaged:
            events = " — (log line damaged: what happened cannot be read; the move itself is kept)"
        return squeeze(
            f"#{r.seq} {self.reading.seat_name(rec, r.seat)}: `{shown(game, r.action)}`{via}{mark}{events}", 300
        )

    async def _period_ends(self, rec: TableRecord, game: Game, rows: list[ActionRecord]) -> dict[int, str]:
        """The log lines among `rows` that closed a round, epoch or game turn, and the line that
        says so with the scores after it ("— Round 3 ends: ann 14, bob 9")."""
        players = [p.name for p in rec.players]
        return {e.seq: period_line(e, players) for e in await self.reading.story(rec, game, rows) if e.kind == PERIOD}

    async def rules(self, ctx: Ctx, args: list[str]) -> Reply:
        game_id = None
        if args and args[0].lower() in rulebook.RULEBOOKS:
            game_id, args = args[0].lower(), args[1:]
        if game_id is None:
            rec = await self.storage.open_table(ctx.channel)
            if rec is None:
                raise Refusal("Which game? `rules <game> [topic]`; games: " + ", ".join(rulebook.RULEBOOKS) + ".")
            game_id = rec.game
        return Reply(rulebook.answer(game_id, " ".join(args)), game_id=game_id)
