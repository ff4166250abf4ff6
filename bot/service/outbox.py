"""The outbox (issue 47): what the service has to say beyond a command's own reply.

Reminders and warnings falling due (`tick`), a bot's turn posted, moves made on the web
table, and posts a transport could not deliver wait here, in the database, until a
transport delivers them (`delivered`); `prepare` draws a post's board as it goes out.
"""

from __future__ import annotations

import logging
from typing import Any

from ..storage.base import Claim, StaleWrite, Storage, TableRecord
from .absence import Absence
from .bots import Bots
from .core import Tables
from .meta import TableMeta
from .records import Records
from .refusal import Refusal
from .reply import Notice, Reply
from .text import clip

log = logging.getLogger(__name__)


class Outbox:
    """Notices kept until delivered: reminders sent by `tick`, posts held for later."""

    def __init__(self, tables: Tables, records: Records, bots: Bots, absence: Absence) -> None:
        self.tables = tables
        self.records = records
        self.bots = bots
        self.absence = absence
        self.storage: Storage = tables.storage

    async def tick(self, claim: Claim | None = None) -> list[Notice]:
        """Send due reminders (into the outbox) and return every undelivered notice.

        Call it periodically (the Discord adapter's background task, the terminal
        loop); deliver each notice, then call `delivered(notice.id)`. Notices stay
        in the database until then, across restarts.

        With several processes, each passes its `claim` (its owner name, lease and
        shards): only its shards' reminders are sent, and only the notices it
        claimed are returned, so no other process delivers them meanwhile.
        """
        now = self.tables.clock()
        for reminder in await self.storage.due_reminders(now, claim.shards if claim else None):
            if reminder.user < 0 or await self.bots.bot_reminder(reminder):
                self.bots.wake_bots(reminder)  # a bot to act: it plays (a task of its own), nobody is reminded
                continue
            try:
                await self.absence.remind(reminder, now)
            except StaleWrite:
                continue  # the table moved on; its reminders were rewritten
            except Exception:  # one broken table must not stop everyone's reminders
                log.exception("reminder for table %s failed", reminder.table)
        return await self.pending_notices(claim)

    async def pending_notices(self, claim: Claim | None = None) -> list[Notice]:
        rows = await (
            self.storage.notices() if claim is None else self.storage.claim_notices(claim, self.tables.clock())
        )
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
        return await self.storage.add_notice(reply.table_id, channel, payload, self.tables.clock())

    async def prepare(self, notice: Notice) -> Reply:
        """The reply of `notice` as it should go out now.

        A board kept as "draw at send time" is drawn from the stored state while the
        table is still at the notice's version (then it is the very picture the
        message had). If the game moved on meanwhile, the message still goes — it is
        the record of a move — without the outdated picture, pinging those it called who
        still must act (`_late`). Held private parts (DMs) go as they are: a summary stays
        true of its moment."""
        reply = notice.reply
        if not (notice.board or notice.held) or reply.table_id is None or reply.version is None:
            return reply
        if not notice.board and not reply.text:
            return reply  # nothing public: a held direct message
        rec = await self.storage.table(reply.table_id)
        if notice.chart and rec is not None and rec.version == reply.version and rec.game in self.tables.games:
            chart = await self.records.chart(rec, await self.storage.actions(rec.id))
            if chart is not None:
                reply.files.append(chart)
        if rec is not None and rec.version == reply.version:
            if (
                not notice.board
                or reply.image is not None
                or not self.tables.settings.images
                or rec.game not in self.tables.games
            ):
                return reply
            try:
                state = await self.tables.state(rec)
            except Refusal:
                return reply  # no stored position: the text goes alone
            except StaleWrite:
                state = None  # moved on between the two reads
            if state is not None:
                view = self.tables.games[rec.game].view(state, None)
                reply.image = await self.tables.image(rec.game, view, None, "map", self.tables.highlight(rec))
                return reply
        return self._late(reply, rec)

    @staticmethod
    def _late(reply: Reply, rec: TableRecord | None) -> Reply:
        """A post going out after its table moved on: it is the record of its moves, so it
        goes, without the outdated picture. Its notifications are decided from the stored
        position (issue 50): whoever it called to act and is still called in that same spell
        (`TableMeta.called`: the version they were called at) is still pinged — this post is
        their one notification, no later post names them —, everyone else it named is not
        (they acted since, or a later post called them anew). It says it is late only when
        someone it called is no longer called (else it reads true as it is)."""
        called = (TableMeta.of(rec).called or {}) if rec is not None and rec.status == "active" else {}
        seats = {s.user: s.seat for s in rec.seats} if rec is not None else {}
        still = {u for u, v in reply.calls.items() if called.get(str(seats.get(u))) == v}
        gone = set(reply.calls) - still
        reply.image = None
        reply.files = [f for f in reply.files if f.kind != "tables"]  # outdated like the map
        reply.mentions = [u for u in reply.mentions if u in still]
        reply.calls = {u: v for u, v in reply.calls.items() if u in still}
        reply.choices = {u: c for u, c in reply.choices.items() if u in still}
        reply.keys = {u: k for u, k in reply.keys.items() if u in still}
        reply.decisions = {u: d for u, d in reply.decisions.items() if u in still}
        reply.private = [p for p in reply.private if p.user not in gone]  # their turn's news: told since
        reply.heads_up = [h for h in reply.heads_up if h.user in reply.mentions]
        if gone:  # it names as to act someone who has acted since: the reader is told
            reply.text = clip(reply.text + "\n(Sent late: the game has moved on since; `board` shows where it stands.)")
        if not still:
            reply.headline = None  # whoever it named must act no more: the text is the record, as it is
        return reply

    async def delivered(self, notice_id: int) -> None:
        """Mark an outbox notice as sent (it will not be returned again)."""
        await self.storage.mark_sent(notice_id, self.tables.clock())

    async def release(self, claim: Claim) -> None:
        """Give back the notices `claim.owner` holds and did not deliver (a clean stop), so
        the next process takes them at once rather than after the lease."""
        await self.storage.release_notices(claim.owner)
