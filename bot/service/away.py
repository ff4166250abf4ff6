"""A player's own time across servers (issue 27 §2, §3): `away`, `games mine`, and the posts
`games mine` links to.

Both speak of the caller wherever they play, so neither needs a table in the channel:
they work the same in a server's channel, in a direct message and at the terminal.
"""

from __future__ import annotations

import dataclasses
import logging

from ..durations import parse_duration
from ..storage.base import AwayRecord, Change, StaleWrite, TableRecord
from . import clocks
from .core import Ctx, Tables
from .meta import TableMeta
from .reading import Reading
from .refusal import Refusal
from .reply import MyTurn, Reply
from .text import clip, duration, quote, user_text

log = logging.getLogger(__name__)

#: Times away are kept this long (every clock they could reach ran out or was settled long before).
KEEP_AWAY = 400 * clocks.DAY
#: The longest note a time away carries.
NOTE_LIMIT = 100


class Away:
    """`away 5d [note]` / `away off` / `away`, `games mine`, and `posted` (a transport's post ids)."""

    def __init__(self, tables: Tables, reading: Reading) -> None:
        self.tables = tables
        self.reading = reading
        self.storage = tables.storage

    async def away(self, ctx: Ctx, args: list[str]) -> Reply:
        """Every clock of the caller, in every server, stands still for up to the time given;
        their reminders wait and nobody can vote them out meanwhile. At most `away_days` in any
        365 days; `away off` ends it at once."""
        budget = self.tables.settings.away_days * clocks.DAY
        periods = await self.storage.away(ctx.user, ctx.now - 365 * clocks.DAY)
        current = clocks.away_now(periods, ctx.now)
        used = clocks.away_used(periods, ctx.now)
        if not args:
            here = (
                f"You are away until {clocks.moment(current.ends, ctx.now)}"
                + (f" ({current.note})" if current.note else "")
                + "; `away off` when you are back."
                if current
                else "You are not away."
            )
            return Reply(f"{here} {self._budget_words(used, budget)}")
        word = args[0].lower()
        if word in ("off", "back", "end"):
            if current is None:
                raise Refusal("You are not away. `away 5d [note]` stops your clocks for five days.")
            await self.storage.set_away(
                AwayRecord(ctx.user, current.begins, ctx.now, current.note), forget_before=ctx.now - KEEP_AWAY
            )
            waiting = await self._retouch(ctx.user, ctx.now)
            tables = f"{waiting} table{'s' if waiting != 1 else ''}"
            told = f"; it is your turn at {tables} (`games mine`)." if waiting else "."
            return Reply("Welcome back: your clocks run again" + told)
        length = parse_duration(word)
        if length is None or length < clocks.MINUTE:
            raise Refusal(
                "`away` takes how long you are away, with its unit — `away 5d`, `away 12h`, `away 2d12h` — and then "
                f"a note for the others if you like (`away 5d holiday`); `away off` ends it. Not {quote(word, 20)}."
            )
        if current is not None:  # a new time away replaces the one running (counted so far): it ends now
            await self.storage.set_away(
                AwayRecord(ctx.user, current.begins, ctx.now, current.note), forget_before=ctx.now - KEEP_AWAY
            )
        left, days = budget - used, self.tables.settings.away_days
        if length > left + 1e-6:
            raise Refusal(
                f"You may be away at most {days:g} days in any 365; {clocks.short(left)} are "
                f"left (`away {_whole(left)}` at most). Nothing was changed."
                if left >= clocks.MINUTE
                else f"You have used your {days:g} days away of these 365 days. Nothing was changed."
            )
        note = user_text(" ".join(args[1:]), NOTE_LIMIT)
        await self.storage.set_away(
            AwayRecord(ctx.user, ctx.now, ctx.now + length, note), forget_before=ctx.now - KEEP_AWAY
        )
        await self._retouch(ctx.user, ctx.now)
        return Reply(
            f"You are away until {clocks.moment(ctx.now + length, ctx.now)}"
            + (f" ({note})" if note else "")
            + ": your clocks stand still in every game, your reminders wait, and the other players see when "
            f"you are back. `away off` ends it sooner. {self._budget_words(used + length, budget)}"
        )

    def _budget_words(self, used: float, budget: float) -> str:
        return (
            f"Away in the last 365 days: {clocks.short(used) if used >= clocks.MINUTE else 'none'} "
            f"of {self.tables.settings.away_days:g} days."
        )

    async def _retouch(self, user: int, now: float) -> int:
        """After `user`'s time away began or ended: every table of theirs with a clock settles
        it and writes its reminder rows again (their clock's moments move), and a reminder that
        waited for the end of their time away comes at the usual interval instead. Returns at how
        many tables it is their turn. Each table in its own guarded commit, run again when
        another write came first."""
        waiting = 0
        for table in await self.storage.seated_tables(user):
            for _ in range(3):
                rec = await self.storage.table(table.id)
                if rec is None or rec.status != "active" or rec.damaged or rec.game not in self.tables.games:
                    break
                try:
                    waiting += await self._retouch_table(rec, user, now)
                    break
                except StaleWrite:
                    continue  # a move or a reminder came first: settle on the table as it is now
        return waiting

    async def _retouch_table(self, rec: TableRecord, user: int, now: float) -> int:
        game = self.tables.game(rec)
        state = await self.tables.state(rec)
        player = rec.seat_of(user)
        acting = player is not None and player.seat in game.to_act(state) and not player.bot
        old = await self.storage.reminders(rec.id)
        meta = TableMeta.of(rec)
        if meta.table_clock() is not None:
            rows = await self.tables.timers.settle(rec, meta, game, state, now, old=old)
            await self.tables.commit(rec, Change(meta=meta.to_json(), reminders=rows, bump=False), now)
        elif any(r.user == user and r.due > now + rec.remind_every for r in old):
            soon = [r if r.user != user else dataclasses.replace(r, due=now + rec.remind_every) for r in old]
            await self.tables.commit(rec, Change(reminders=soon, bump=False), now)
        return int(acting)

    async def mine(self, ctx: Ctx, args: list[str]) -> Reply:
        """`games mine`: every table in every server where the caller must act — the game, where,
        how long they have waited, their time left, a link to the table's last post — and those
        where a bot plays their seat. Most pressing first: the least time left, then the longest
        wait."""
        turns: list[MyTurn] = []
        for rec in await self.storage.seated_tables(ctx.user):
            turn = await self._my_turn(rec, ctx.user, ctx.now)
            if turn is not None:
                turns.append(turn)
        posts = await self.storage.posts([t.table_id for t in turns])
        for turn in turns:
            turn.post = posts.get(turn.table_id)
        turns.sort(key=lambda t: (t.bot is not None, t.time_left is None, t.time_left or 0.0, -t.waited))
        return Reply(_mine_text(turns), turns=turns)

    async def _my_turn(self, rec: TableRecord, user: int, now: float) -> MyTurn | None:
        """The caller's turn at `rec` (or the bot playing their seat there); None when neither."""
        player = rec.seat_of(user)
        if rec.status != "active" or rec.damaged or rec.game not in self.tables.games or player is None:
            return None
        if player.seat is None or player.resigned:
            return None
        game = self.tables.game(rec)
        try:
            state = await self.tables.state(rec)
        except (StaleWrite, Refusal):
            return None  # moving this instant, or damaged: its own commands say so
        if not player.bot and player.seat not in game.to_act(state):
            return None
        since = self.tables.timers.acting_since(rec, player.seat)
        if since is None:  # a table from before issue 27: its last step's time
            meta = TableMeta.of(rec)
            last = await self.storage.actions(rec.id, after=max(0, int(meta.seq or 0) - 1))
            since = last[-1].time if last else float(rec.created if meta.started is None else meta.started)
        left, _ = await self.tables.timers.clock_of(rec, player.seat, user, now, away=False)
        return MyTurn(
            rec.id,
            rec.game,
            game.title,
            self.reading.stage(rec, game, state)[2],
            rec.guild,
            rec.channel,
            max(0.0, now - since),
            None if player.bot else left,
            table_url=self.tables.links.table_url(rec.id) if self.tables.links is not None else "",
            bot=player.bot,
        )

    async def posted(self, table_id: int, message: int) -> None:
        """A transport posted a table's public message with this id (Discord's message id):
        `games mine` links to the latest. Not part of the game: a lost one costs a link."""
        await self.storage.set_post(table_id, message, self.tables.clock())


def _whole(seconds: float) -> str:
    """The longest time away a command can still ask for, as typed: "5d", "2d12h", "45m"."""
    minutes = int(seconds // clocks.MINUTE)
    days, rest = divmod(minutes, 24 * 60)
    hours, minutes = divmod(rest, 60)
    return "".join(f"{n}{unit}" for n, unit in ((days, "d"), (hours, "h"), (minutes, "m")) if n) or "0m"


def _where(turn: MyTurn) -> str:
    return f"channel {turn.channel}" + (f" on server {turn.guild}" if turn.guild is not None else "")


def _mine_text(turns: list[MyTurn]) -> str:
    """The answer of `games mine` in words (a front end with links lays `Reply.turns` out itself)."""
    mine = [t for t in turns if t.bot is None]
    bots = [t for t in turns if t.bot is not None]
    lines = [f"Your turn at {len(mine)} table{'s' if len(mine) != 1 else ''}:" if mine else "It is nowhere your turn."]
    for t in mine:
        what = " · ".join(part for part in (t.title, t.stage) if part)
        clock = f", {clocks.short(t.time_left)} left on your clock" if t.time_left is not None else ""
        web = f" — {t.table_url}" if t.table_url else ""
        lines.append(f"• {what} — {_where(t)}: waiting {duration(t.waited)}{clock}{web}")
    if bots:
        tables = f"{len(bots)} table{'s' if len(bots) != 1 else ''}"
        lines.append(f"A bot plays your seat at {tables} (`game back` there takes it back):")
        lines.extend(f"• {t.title} — {_where(t)} (a bot, {t.bot})" for t in bots)
    return clip("\n".join(lines))
