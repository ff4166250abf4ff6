"""Absent players: reminders (interval, quiet hours), votes to skip or pause, resume."""

from __future__ import annotations

import dataclasses
import logging
from typing import Any

from engine.core import Game

from ..storage.base import ActionRecord, AwayRecord, Change, PlayerPrefs, ReminderRecord, SeatRecord, TableRecord
from . import clocks
from .bots import Bots
from .clocks import SeatClock
from .core import Ctx, Tables
from .meta import TableMeta
from .moves import Moves
from .reading import Reading
from .refusal import Refusal
from .reminders import in_quiet_hours, quiet_ends
from .reply import Private, Reply
from .steps import Steps

log = logging.getLogger(__name__)


class Absence:
    """Reminders for whoever must act, and `vote skip|pause` / `resume` when they stay away."""

    def __init__(self, tables: Tables, moves: Moves, bots: Bots, reading: Reading) -> None:
        self.tables = tables
        self.moves = moves
        self.bots = bots
        self.reading = reading
        self.storage = tables.storage

    async def remind(self, reminder: ReminderRecord, now: float) -> None:
        """A person's reminder row is due: whatever fell due for them at this table.

        With a clock (issue 27): a bank that ran out hands the seat to a bot (`_run_out`); a
        warning due goes (by DM or a ping). Then the ordinary reminder, when its own time came
        (`SeatClock.remind`; without a clock the row's time is the reminder's): moved to the end
        of the player's time away or quiet hours, else sent. The row is written again for the
        next of these moments, in one commit guarded by the table's revision, so two processes
        reading the same row send it once."""
        rec = await self.storage.table(reminder.table)
        if rec is None:
            return
        others = await self.storage.reminders(rec.id)
        current = next((r for r in others if r.user == reminder.user), None)
        if current is None or current.due > now:
            return  # sent meanwhile (another process's tick read it due too), or rewritten by a move
        rest = [r for r in others if r.user != reminder.user]
        player = rec.seat_of(reminder.user)
        if rec.status != "active" or player is None or player.seat is None:
            await self.tables.commit(rec, Change(reminders=rest, bump=False), now)
            return
        prefs = await self.tables.prefs_of(reminder.user)
        meta = TableMeta.of(rec)
        clock = meta.table_clock()
        mine = clock.seats.get(player.seat) if clock is not None else None
        if mine is not None and not mine.running:
            mine = None
        away = await self.tables.timers.away_of(reminder.user, min(now, mine.at) if mine is not None else now)
        if clock is not None and mine is not None and clocks.left_now(mine, now, away) <= 0:
            await self.run_out(rec, player, now, others)
            return
        notices: list[Reply] = []
        if mine is not None:
            moments = {t: clocks.warning_due(mine, t, now, away, prefs) for t in mine.warn}
            due = [t for t, moment in moments.items() if moment is not None and moment <= now]
            if due:
                notices.append(self._warning(rec, player.name, mine, now, away, prefs))
                mine.warn = [t for t in mine.warn if t < min(due)]  # this one and any larger are told
        count = current.count
        remind = mine.remind if mine is not None else current.due
        if remind is not None and remind <= now and rec.remind_every > 0:
            here = clocks.away_now(away, now)
            if here is not None:  # reminders wait while the player is away (issue 27 §2)
                remind = here.ends
            elif in_quiet_hours(prefs, now):  # moved to the end of the quiet hours, not counted
                remind = quiet_ends(prefs, now)
            else:
                count += 1
                notices.append(self._reminder(rec, player.name, count, prefs))
                remind = now + rec.remind_every
        stored, due_at = None, remind
        if clock is not None and mine is not None:
            mine.remind = remind
            upcoming = [t for t in (remind, clocks.next_moment(mine, now, away, prefs)) if t is not None]
            due_at = min(upcoming, default=None)
            meta.clock = clock.to_json()
            stored = meta.to_json()
        rows = rest + ([ReminderRecord(rec.id, reminder.user, due_at, count)] if due_at is not None else [])
        change = Change(reminders=rows, meta=stored, bump=False, notices=[(rec.channel, n.to_json()) for n in notices])
        await self.tables.commit(rec, change, now)

    def _reminder(self, rec: TableRecord, name: str, count: int, prefs: PlayerPrefs) -> Reply:
        """ "Reminder 2: ann, it is your turn ...", and after `absent_after` of them the others' votes."""
        text = f"Reminder {count}: {name}, it is your turn in the {self.tables.title(rec)} game here."
        mentions = [prefs.user]
        if count >= self.tables.settings.absent_after:
            voters = self.tables.people(rec, besides=prefs.user)
            text += (
                f" {name} has not answered {count} reminders: the other players may "
                "`vote skip` (play their simplest legal action), `vote replace` (a bot plays for them) "
                "or `vote pause`."
            )
            if count == self.tables.settings.absent_after:
                mentions += voters
        reply = Reply(text, mentions=mentions, **self.tables.ids(rec))
        if prefs.dm:
            reply.private.append(Private(prefs.user, text, None, True, name))
        return reply

    def _warning(
        self, rec: TableRecord, name: str, mine: SeatClock, now: float, away: list[AwayRecord], prefs: PlayerPrefs
    ) -> Reply:
        """ "⏳ ann, 23h 59m left on your clock ...": by direct message for a player who takes
        their turns there, else a ping in the channel."""
        end = clocks.runs_out(mine, now, away) or now
        text = (
            f"⏳ {name}, {clocks.short(clocks.left_now(mine, now, away))} left on your clock in the "
            f"{self.tables.title(rec)} game here: it runs out {clocks.moment(end, now, prefs.utc_offset)}; then a bot "
            "plays your seat until you say `game back`."
        )
        if prefs.dm:
            return Reply("", private=[Private(prefs.user, text, None, True, name)], **self.tables.ids(rec))
        return Reply(text, mentions=[prefs.user], **self.tables.ids(rec))

    async def run_out(self, rec: TableRecord, player: SeatRecord, now: float, rows: list[ReminderRecord]) -> None:
        """A bank ran out: a bot of the table's level plays the seat until its player says `game
        back` (issue 27 §1), announced. One commit guarded by the table's revision: of two
        processes that find it run out, one hands the seat over and the other's write is stale."""
        game = self.tables.game(rec)
        state = await self.tables.state(rec)
        level = self.tables.timers.stand_in(rec)
        meta = TableMeta.of(rec)
        clock = meta.table_clock()
        assert clock is not None and player.seat is not None
        clock.seats[player.seat].out = now
        meta.clock = clock.to_json()
        rec.seats = [dataclasses.replace(s, bot=level) if s.user == player.user else s for s in rec.seats]
        if not self.tables.people(rec):  # the last person's clock: the bots would finish the game alone
            await self._pause_unplayed(rec, meta, player, now)
            return
        reminders = await self.tables.timers.settle(
            rec, meta, game, state, now, old=rows
        )  # (its bank is charged to zero)
        text = (
            f"⌛ {player.name}'s clock ran out in the {self.tables.title(rec)} game here: a bot ({level}) plays their "
            f"seat from now on, until {player.name} says `game back`."
        )
        reply = Reply(text, mentions=[player.user], **self.tables.ids(rec))
        if (await self.tables.prefs_of(player.user)).dm:
            reply.private.append(Private(player.user, text, None, True, player.name))
        change = Change(
            seats=rec.seats, meta=meta.to_json(), reminders=reminders, notices=[(rec.channel, reply.to_json())]
        )
        await self.tables.commit(rec, change, now)
        log.info("table %s: %s's clock ran out; a bot (%s) plays their seat", rec.id, player.name, level)
        self.bots.wake_bots(ReminderRecord(rec.id, player.user, now, 0))

    async def _pause_unplayed(self, rec: TableRecord, meta: TableMeta, player: SeatRecord, now: float) -> None:
        """The last person's clock ran out: no person is left playing (README, "Clocks"), so
        the table pauses instead of letting the bots finish the game alone. The seat is the
        stand-in's, as after any run-out; every clock stands still, no reminder comes; `game
        back` from any of its players takes their seat back and the game runs again."""
        rec.status = "paused"
        await self.tables.timers.settle(rec, meta, self.tables.game(rec), await self.tables.state(rec), now)
        text = (
            f"⌛ {player.name}'s clock ran out in the {self.tables.title(rec)} game here, and no person is left "
            "playing it (bots play every seat), so the game is paused rather than finished by bots alone. "
            "`game back` takes your seat back, and the game goes on."
        )
        persons = [s.user for s in rec.seats if s.user > 0 and not s.resigned]
        reply = Reply(text, mentions=persons, **self.tables.ids(rec))
        if (await self.tables.prefs_of(player.user)).dm:
            reply.private.append(Private(player.user, text, None, True, player.name))
        change = Change(
            status="paused",
            seats=rec.seats,
            meta=meta.to_json(),
            reminders=[],
            notices=[(rec.channel, reply.to_json())],
        )
        await self.tables.commit(rec, change, now)
        log.info("table %s: %s's clock ran out, no person is left playing: paused", rec.id, player.name)

    async def vote(self, ctx: Ctx, args: list[str]) -> Reply:
        """`vote skip|pause|replace`: a seated player's vote on the absent player's turn; a
        majority of the others carries it out at once."""
        rec = await self.tables.table(ctx)
        self.tables.player(ctx, rec)  # only seated players vote
        kind = args[0].lower() if args else ""
        if kind not in ("skip", "pause", "replace"):
            raise Refusal(
                "`vote skip` (play the absent player's simplest action), `vote replace` (a bot plays "
                "their seat until they say `game back`) or `vote pause`.",
                **self.tables.ids(rec),
            )
        if kind == "replace" and not self.bots.bots_available(rec.game):
            raise Refusal(
                f"There is no bot for {self.tables.title(rec)} yet: `vote skip` or `vote pause`.",
                **self.tables.ids(rec),
            )
        game = self.tables.game(rec)
        state = await self.tables.state(rec)
        target = await self._absent(ctx, rec, game, state)
        voters = self.tables.people(rec, besides=target)
        meta = TableMeta.of(rec)
        votes = dict(meta.votes or {})
        if votes.get("target") != target:
            votes = {"target": target, "skip": [], "pause": [], "replace": []}
        for k in ("skip", "pause", "replace"):
            votes[k] = [u for u in votes.get(k, []) if u != ctx.user]
        votes[kind] = votes[kind] + [ctx.user]
        need = len(voters) // 2 + 1
        target_name = self.reading.name(rec, target)
        if len(votes[kind]) < need:
            meta.votes = votes
            version = await self.tables.commit(rec, Change(meta=meta.to_json(), bump=False), ctx.now)
            what = {
                "skip": f"skip {target_name}'s turn",
                "pause": "pause the game",
                "replace": f"let a bot play {target_name}'s seat",
            }[kind]
            return Reply(
                f"{ctx.name} votes to {what}: {len(votes[kind])} of {need} needed.",
                **self.tables.ids(rec, version),
            )
        if kind == "pause":
            return await self._pause(ctx, rec, game, state, target_name)
        if kind == "replace":
            return await self._replace(ctx, rec, game, state, target, target_name)
        return await self._skip(ctx, rec, game, state, target, target_name)

    async def _absent(self, ctx: Ctx, rec: TableRecord, game: Game, state: Any) -> int:
        """The player a vote is about: the first one to act who left `absent_after` reminders
        unanswered and is not away (a Refusal naming who is away, or that nobody is absent)."""
        unanswered = {r.user: r.count for r in await self.storage.reminders(rec.id)}
        absent = [
            u
            for u in self.tables.acting_users(rec, game.to_act(state))
            if u in unanswered and unanswered[u] >= self.tables.settings.absent_after and u != ctx.user
        ]
        away = {
            u: here for u in absent if (here := clocks.away_now(await self.tables.timers.away_of(u, ctx.now), ctx.now))
        }
        absent = [u for u in absent if u not in away]  # a player away is not voted out (issue 27 §2)
        if not absent and away:
            raise Refusal(
                "; ".join(
                    f"{self.reading.name(rec, u)} is away until {clocks.moment(a.ends, ctx.now)}"
                    for u, a in away.items()
                )
                + ": votes wait until they are back.",
                **self.tables.ids(rec),
            )
        if not absent:
            raise Refusal(
                f"Nobody is absent: a vote opens after {self.tables.settings.absent_after} unanswered "
                "reminders to a player who must act.",
                **self.tables.ids(rec),
            )
        return absent[0]

    async def _pause(self, ctx: Ctx, rec: TableRecord, game: Game, state: Any, target_name: str) -> Reply:
        """The vote to pause carried: every clock stops, no reminders until `resume`."""
        meta = TableMeta.of(rec)
        meta.votes = None
        rec.status = "paused"
        await self.tables.timers.settle(rec, meta, game, state, ctx.now)  # every clock stops
        version = await self.tables.commit(rec, Change(status="paused", meta=meta.to_json(), reminders=[]), ctx.now)
        return Reply(
            f"The players voted to pause the game while {target_name} is away. Any player can `resume` it.",
            **self.tables.ids(rec, version),
        )

    async def _replace(
        self, ctx: Ctx, rec: TableRecord, game: Game, state: Any, target: int, target_name: str
    ) -> Reply:
        """The vote to replace carried: a bot plays the absent player's seat until `game back`."""
        meta = TableMeta.of(rec)
        meta.votes = None
        rec.seats = [
            SeatRecord(
                s.user,
                s.name,
                s.seat,
                s.resigned,
                s.joined,
                self.tables.timers.stand_in(rec) if s.user == target else s.bot,
            )
            for s in rec.seats
        ]
        reminders = await self.tables.timers.settle(rec, meta, game, state, ctx.now)
        await self.tables.commit(
            rec, Change(seats=rec.seats, meta=meta.to_json(), reminders=reminders), ctx.now, state=state
        )
        return await self.moves.position_reply(
            rec,
            state,
            f"The players voted: a bot ({self.tables.timers.stand_in(rec)}) plays {target_name}'s seat until "
            f"{target_name} says `game back`.",
            ctx,
        )

    async def _skip(self, ctx: Ctx, rec: TableRecord, game: Game, state: Any, target: int, target_name: str) -> Reply:
        """The vote to skip carried: the absent player's simplest legal actions are played until
        others must act (their turn is over)."""
        seat = self.tables.seat_number(rec, target)
        records: list[ActionRecord] = []
        before = state
        for _ in range(200):
            if seat not in game.to_act(state):
                break
            legal = game.legal_actions(state, seat)
            if not legal:
                break
            step = game.apply(state, seat, legal[0])
            records.append(self.moves.record(rec, step, seat, legal[0], "skip", None, ctx.now))
            state = step.state
            if game.to_act(state) != [seat]:
                break  # others act now: the absent player's turn is over
        state = self.moves.autoplay(rec, game, state, records, ctx.now)
        head = f"The players voted to skip {target_name}'s turn."
        return await self.moves.commit_moves(ctx, rec, game, Steps(before, state, records), head)

    async def resume(self, ctx: Ctx, args: list[str]) -> Reply:
        rec = await self.tables.table(ctx, need=("paused",))
        self.tables.player(ctx, rec)
        if not self.tables.people(rec):  # the bots would finish it alone (README, "Clocks")
            raise Refusal(
                "No person is left playing this game (bots play every seat), so it stays paused rather than "
                "being finished by bots alone. `game back` takes your seat back, and the game goes on.",
                **self.tables.ids(rec),
            )
        state = await self.tables.state(rec)
        rec.status = "active"
        meta = TableMeta.of(rec)
        reminders = await self.tables.timers.settle(
            rec, meta, self.tables.game(rec), state, ctx.now
        )  # the clocks run again
        await self.tables.commit(
            rec, Change(status="active", meta=meta.to_json(), reminders=reminders), ctx.now, state=state
        )
        return await self.moves.position_reply(rec, state, f"{ctx.name} resumed the game.", ctx)
