"""Absent players: reminders (interval, quiet hours), votes to skip or pause, resume."""

from __future__ import annotations

import logging

from ..storage.base import ActionRecord, Change, ReminderRecord, SeatRecord
from .bots import BotCommands
from .core import Ctx, Refusal
from .reminders import in_quiet_hours, quiet_ends
from .reply import Private, Reply

log = logging.getLogger(__name__)


class AbsenceCommands(BotCommands):
    """Reminders for whoever must act, and `vote skip|pause` / `resume` when they stay away."""

    async def _remind(self, reminder: ReminderRecord, now: float) -> None:
        rec = await self.storage.table(reminder.table)
        if rec is None:
            return
        others = await self.storage.reminders(rec.id)
        current = next((r for r in others if r.user == reminder.user), None)
        if current is None or current.due > now:
            return  # sent meanwhile (another process's tick read it due too), or rewritten by a move
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
            voters = self._people(rec, besides=reminder.user)
            text += (
                f" {name} has not answered {count} reminders: the other players may "
                "`vote skip` (play their simplest legal action), `vote replace` (a bot plays for them) "
                "or `vote pause`."
            )
            if count == self.settings.absent_after:
                mentions += voters
        reply = Reply(text, mentions=mentions, **self._ids(rec))
        if prefs.dm:
            reply.private.append(Private(reminder.user, text, None, True, name))
        updated = ReminderRecord(rec.id, reminder.user, now + rec.remind_every, count)
        await self.storage.commit(
            rec, Change(reminders=rest + [updated], bump=False, notices=[(rec.channel, reply.to_json())]), now
        )

    async def _cmd_vote(self, ctx: Ctx, args: list[str]) -> Reply:
        rec = await self._table(ctx)
        self._player(ctx, rec)  # only seated players vote
        kind = args[0].lower() if args else ""
        if kind not in ("skip", "pause", "replace"):
            raise Refusal(
                "`vote skip` (play the absent player's simplest action), `vote replace` (a bot plays "
                "their seat until they say `game back`) or `vote pause`.",
                **self._ids(rec),
            )
        if kind == "replace" and not self._bots_available(rec.game):
            raise Refusal(f"There is no bot for {self._title(rec)} yet: `vote skip` or `vote pause`.", **self._ids(rec))
        game = self._game(rec)
        state = await self._state(rec)
        unanswered = {r.user: r.count for r in await self.storage.reminders(rec.id)}
        absent = [
            u
            for u in self._acting_users(rec, game.to_act(state))
            if u in unanswered and unanswered[u] >= self.settings.absent_after and u != ctx.user
        ]
        if not absent:
            raise Refusal(
                f"Nobody is absent: a vote opens after {self.settings.absent_after} unanswered "
                "reminders to a player who must act.",
                **self._ids(rec),
            )
        target = absent[0]
        voters = self._people(rec, besides=target)
        votes = dict(rec.meta.get("votes") or {})
        if votes.get("target") != target:
            votes = {"target": target, "skip": [], "pause": [], "replace": []}
        for k in ("skip", "pause", "replace"):
            votes[k] = [u for u in votes.get(k, []) if u != ctx.user]
        votes[kind] = votes[kind] + [ctx.user]
        need = len(voters) // 2 + 1
        target_name = self._name(rec, target)
        if len(votes[kind]) < need:
            meta = {**rec.meta, "votes": votes}
            version = await self.storage.commit(rec, Change(meta=meta, bump=False), ctx.now)
            what = {
                "skip": f"skip {target_name}'s turn",
                "pause": "pause the game",
                "replace": f"let a bot play {target_name}'s seat",
            }[kind]
            return Reply(
                f"{ctx.name} votes to {what}: {len(votes[kind])} of {need} needed.",
                **self._ids(rec, version),
            )
        if kind == "pause":
            meta = {k: v for k, v in rec.meta.items() if k != "votes"}
            version = await self.storage.commit(rec, Change(status="paused", meta=meta, reminders=[]), ctx.now)
            return Reply(
                f"The players voted to pause the game while {target_name} is away. Any player can `resume` it.",
                **self._ids(rec, version),
            )
        if kind == "replace":
            meta = {k: v for k, v in rec.meta.items() if k != "votes"}
            rec.seats = [
                SeatRecord(
                    s.user,
                    s.name,
                    s.seat,
                    s.resigned,
                    s.joined,
                    self.settings.stand_in_level if s.user == target else s.bot,
                )
                for s in rec.seats
            ]
            reminders = self._reminders(rec, state, [], ctx.now, actor=None)
            version = await self.storage.commit(rec, Change(seats=rec.seats, meta=meta, reminders=reminders), ctx.now)
            rec.version, rec.meta = version, meta
            self._remember(rec.id, version, state)
            return await self._position_reply(
                rec,
                state,
                f"The players voted: a bot ({self.settings.stand_in_level}) plays {target_name}'s seat until "
                f"{target_name} says `game back`.",
                ctx,
            )
        seat = self._seat_number(rec, target)
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
        return await self._commit_moves(
            ctx, rec, game, state, records, f"The players voted to skip {target_name}'s turn.", before=before
        )

    async def _cmd_resume(self, ctx: Ctx, args: list[str]) -> Reply:
        rec = await self._table(ctx, need=("paused",))
        self._player(ctx, rec)
        state = await self._state(rec)
        rec.status = "active"
        reminders = self._reminders(rec, state, [], ctx.now, actor=None)
        version = await self.storage.commit(rec, Change(status="active", reminders=reminders), ctx.now)
        rec.version = version
        self._remember(rec.id, version, state)
        return await self._position_reply(rec, state, f"{ctx.name} resumed the game.", ctx)
