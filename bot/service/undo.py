"""Resigning and taking moves back (bot/DECISIONS.md, "Undo" and "Resigning")."""

from __future__ import annotations

import dataclasses
import logging
from typing import Any

from ..storage.base import ActionRecord, Change, SeatRecord, TableRecord
from .bots import Bots
from .core import Ctx, Tables, shown
from .meta import TableMeta
from .moves import Moves
from .reading import Reading
from .records import CHOSEN, Records
from .refusal import Refusal
from .reply import Reply
from .reveal import reveals
from .settings import HOUR
from .steps import Steps
from .text import clip, names

log = logging.getLogger(__name__)


class Undo:
    """`resign` and `undo` (alone for your own last move, else with everyone's approval)."""

    def __init__(self, tables: Tables, moves: Moves, bots: Bots, reading: Reading, records: Records) -> None:
        self.tables = tables
        self.moves = moves
        self.bots = bots
        self.reading = reading
        self.records = records
        self.storage = tables.storage

    async def resign(self, ctx: Ctx, args: list[str]) -> Reply:
        rec = await self.tables.table(ctx, need=("active", "paused"))
        self.tables.player(ctx, rec)  # only a seated player resigns
        game = self.tables.game(rec)
        state = await self.tables.state(rec)
        # a bot plays the resigned seat from now on, where the game has bots (bot/DECISIONS.md)
        stand_in = self.tables.timers.stand_in(rec) if self.bots.bots_available(rec.game) else None
        rec.seats = [
            dataclasses.replace(s, resigned=True, bot=s.bot or stand_in) if s.user == ctx.user else s for s in rec.seats
        ]
        remaining = [s.seat for s in rec.seats if not s.resigned and s.seat is not None]  # (all seated now)
        meta = TableMeta.of(rec)
        if len(remaining) <= 1 or not self.tables.people(rec):
            # one seat left wins; with only bots left the game ends, the best of them winning
            scores = game.scores(state)
            top = max((scores[s] for s in remaining), default=0)
            winners = [s for s in remaining if len(remaining) == 1 or scores[s] == top]
            meta.result = {"scores": scores, "winners": winners, "reason": "resign"}
            meta.undo = None
            rows = await self.storage.actions(rec.id)
            record = self.records.game_record(rec, "resign", rows, ctx.now, scores=scores, winners=winners)
            version = await self.tables.commit(
                rec,
                Change(status="finished", meta=meta.to_json(), seats=rec.seats, reminders=[], record=record),
                ctx.now,
            )
            won = [self.reading.seat_name(rec, w) for w in winners]
            reply = Reply(
                f"{ctx.name} resigned. {names(won)} win{'s' if len(won) == 1 else ''} the game.",
                **self.tables.ids(rec, version),
            )
            if self.tables.settings.images:  # the final post: the board and how the game went
                reply.image = await self.tables.image(rec.game, game.view(state, None), None)
                chart = await self.records.chart(rec, rows)
                if chart is not None:
                    reply.files.append(chart)
            return reply
        records: list[ActionRecord] = []
        before = state
        if rec.status == "active":
            state = self.moves.autoplay(rec, game, state, records, ctx.now)
        head = (
            f"{ctx.name} resigned; a bot ({stand_in}) plays their seat from now on."
            if stand_in
            else f"{ctx.name} resigned; their turns are played automatically (first legal action)."
        )
        if records:
            return await self.moves.commit_moves(ctx, rec, game, Steps(before, state, records), head, seats=rec.seats)
        reminders = await self.tables.timers.settle(
            rec, meta, game, state, ctx.now, old=await self.storage.reminders(rec.id)
        )
        version = await self.tables.commit(
            rec, Change(seats=rec.seats, meta=meta.to_json(), reminders=reminders), ctx.now, state=state
        )
        return await self.moves.position_reply(rec, state, head, ctx)

    def undo_request(self, rec: TableRecord, now: float) -> dict[str, Any] | None:
        request = TableMeta.of(rec).undo
        if request and request["expires"] > now:
            return request
        return None

    async def undo(self, ctx: Ctx, args: list[str]) -> Reply:
        rec = await self.tables.table(ctx)
        player = self.tables.player(ctx, rec)
        word = args[0].lower() if args else ""
        request = self.undo_request(rec, ctx.now)
        if word in ("approve", "yes", "ok", "accept"):
            return await self._undo_approve(ctx, rec, player, request)
        if word in ("reject", "no", "deny", "refuse"):
            if request is None:
                raise Refusal("There is no undo request to reject.", **self.tables.ids(rec))
            meta = TableMeta.of(rec)
            meta.undo = None
            version = await self.tables.commit(rec, Change(meta=meta.to_json()), ctx.now)
            return Reply(f"{ctx.name} rejected the undo; the game goes on.", **self.tables.ids(rec, version))
        if word:
            raise Refusal(
                "`undo` takes back your last action; `undo approve` / `undo reject` answer a request.",
                **self.tables.ids(rec),
            )
        if request is not None:
            raise Refusal(
                f"{self.reading.name(rec, request['by'])} already asked to undo; "
                "answer with `undo approve` or `undo reject`.",
                **self.tables.ids(rec),
            )
        rows = [r for r in await self.storage.actions(rec.id) if not r.undone]
        mine = [r for r in rows if r.seat == player.seat and r.via in CHOSEN]  # a planned move too (issue 51)
        if not mine:
            raise Refusal("You have no action to take back.", **self.tables.ids(rec))
        target = mine[-1]
        later = [r for r in rows if r.seq > target.seq]
        # steps nobody chose (forced, a resigned seat's) are consequences of the action: they go with it
        chosen_since = [r for r in later if r.via not in ("forced", "auto")]
        others = self.tables.people(rec, besides=ctx.user)
        head = f"{ctx.name} took back `{shown(self.tables.game(rec), target.action)}`."
        if not others:
            return await self._rewind(ctx, rec, target.seq, head)
        if chosen_since:
            why = "others have acted since"
        else:
            game = self.tables.game(rec)
            before = self.tables.replay(rec, rows, before=target.seq)
            if not reveals(game, before, await self.tables.state(rec), target.seat, [p.name for p in rec.players]):
                return await self._rewind(ctx, rec, target.seq, head, state=before)
            why = "something hidden or random was revealed"
        meta = TableMeta.of(rec)
        meta.undo = {
            "by": ctx.user,
            "seq": target.seq,
            "approvals": [ctx.user],
            "created": ctx.now,
            "expires": ctx.now + self.tables.settings.undo_expiry,
        }
        version = await self.tables.commit(rec, Change(meta=meta.to_json(), bump=False), ctx.now)
        undone = len(later) + 1
        more = f"the {len(later)} later action{'s' if len(later) != 1 else ''}"
        text = (
            f"{ctx.name} asks to take back `{shown(self.tables.game(rec), target.action)}`"
            + (f" and {more}" if later else "")
            + f" ({why}). {names([self.reading.name(rec, u) for u in others])}: `undo approve` or `undo reject` "
            f"within {self.tables.settings.undo_expiry / HOUR:g} h. {undone} action(s) would be undone."
        )
        return Reply(text, mentions=others, **self.tables.ids(rec, version))

    async def _undo_approve(
        self, ctx: Ctx, rec: TableRecord, player: SeatRecord, request: dict[str, Any] | None
    ) -> Reply:
        if request is None:
            raise Refusal(
                "There is no undo request to approve (it may have expired after "
                f"{self.tables.settings.undo_expiry / HOUR:g} h).",
                **self.tables.ids(rec),
            )
        if ctx.user in request["approvals"]:
            raise Refusal("You have already approved this undo.", **self.tables.ids(rec))
        approvals = request["approvals"] + [ctx.user]
        needed = [u for u in self.tables.people(rec) if u not in approvals]
        if needed:
            meta = TableMeta.of(rec)
            meta.undo = {**request, "approvals": approvals}
            version = await self.tables.commit(rec, Change(meta=meta.to_json(), bump=False), ctx.now)
            return Reply(
                f"{ctx.name} approved the undo; waiting for {names([self.reading.name(rec, u) for u in needed])}.",
                mentions=needed,
                **self.tables.ids(rec, version),
            )
        return await self._rewind(
            ctx, rec, int(request["seq"]), f"Everyone approved: {self.reading.name(rec, request['by'])}'s undo is done."
        )

    async def _rewind(self, ctx: Ctx, rec: TableRecord, seq: int, head: str, state: Any = None) -> Reply:
        """Undo every action from `seq` on: replay the log before it (unless the
        caller has that `state` already); the undone lines stay in the log, marked."""
        game = self.tables.game(rec)
        rows = await self.storage.actions(rec.id)
        if state is None:
            state = self.tables.replay(rec, rows, before=seq)
        undone = [r for r in rows if r.seq >= seq and not r.undone]
        meta = TableMeta.of(rec)
        meta.undo = meta.votes = None
        last: dict[str, int] = {}
        for r in rows:
            if not r.undone and r.seq < seq:
                last[str(r.seat)] = r.seq
        meta.last_seq = last
        # a step nobody else heard of yet (the caller's turn goes on) is taken back in their
        # panel alone; one already posted is taken back in the channel as well
        posted = int(meta.posted or 0)
        told = seq <= posted
        meta.posted = min(posted, seq - 1)
        places = {k: v for k, v in (meta.places or {}).items() if int(k) < seq}  # the undone steps' go
        meta.places = places or None
        # the clocks go back to where they stood before the undone action (issue 27 §1), and
        # every spell of acting starts afresh from the undo
        clock = meta.table_clock()
        restore = clock.checkpoints.get(seq) if clock is not None else None
        if clock is not None:
            clock.checkpoints = {q: c for q, c in clock.checkpoints.items() if q < seq}
            meta.clock = clock.to_json()
        reminders = await self.tables.timers.settle(
            rec, meta, game, state, ctx.now, ended={p.seat for p in rec.players if p.seat is not None}, restore=restore
        )
        change = Change(meta=meta.to_json(), undo_from=seq, snapshot=game.dumps(state), reminders=reminders)
        await self.tables.commit(rec, change, ctx.now, state=state)
        text = head + " Undone: " + ", ".join(f"`{shown(self.tables.game(rec), r.action)}`" for r in undone) + "."
        seat = rec.seat_of(ctx.user)
        if not told and seat is not None and seat.seat in game.to_act(state):
            panel = await self.moves.panel(ctx, rec, game, state, seat.seat)
            panel.private[0].text = clip(text + "\n" + panel.private[0].text)
            return panel
        return await self.moves.position_reply(rec, state, text, ctx)
