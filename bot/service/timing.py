"""The service's timers: clocks, reminders and who has been waiting since when (issue 27).

A collaborator of the service, not a command family: `Timers` is made from what it reads
(the storage, for times away; the settings; the players' preferences) and is given
everything else — the table, its game and position, the moment — with each call. Every
command that changes who must act (a move, a vote, `resume`, `game back`, an undo, a
resignation, the start) ends its bookkeeping with `Timers.settle`, which, in the table's
`meta` written by that same commit:
- records since when each seat to act has been acting (`meta["acting"]`: `games mine`
  and `game status` tell how long someone has waited);
- settles the clocks (clocks.py): the time each running clock used is taken from its
  bank (its player's times away left out), a seat whose move ended gets the bonus, the
  clocks of the seats to act now run, and a checkpoint before a chosen action lets an
  undo set them back;
- and returns the reminder rows: each person to act gets one, due at the earlier of
  their next reminder and their clock's next moment (a warning, running out), so the
  storage's one durable timer serves both; `tick` works out which is due (absence.py).

The arithmetic itself is clocks.py's (pure); this module reads what it needs for it.

A table without a clock keeps its reminders exactly as before. Options of `game new`
(`clock=3d clock_bonus=1d clock_cap=3d stand_in=strong`) are read here too.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Set
from typing import Any

from engine.core import Game

from ..durations import parse_duration
from ..storage.base import ActionRecord, AwayRecord, PlayerPrefs, ReminderRecord, Storage, TableRecord
from . import clocks
from .clocks import Checkpoint, TableClock, TimeControl
from .meta import TableMeta
from .refusal import Refusal
from .settings import Settings
from .text import lettered, quote

#: The levels a table's stand-in may have (bots.py's LEVELS; kept here to avoid a cycle).
STAND_IN_LEVELS = ("easy", "normal", "strong")
#: The options of `game new` that set the table's clock and stand-in (not the game's).
TIME_OPTIONS = ("clock", "clock_bonus", "clock_cap", "stand_in")


class Timers:
    """Clock and reminder bookkeeping for every command that moves the game. `storage`: where
    the players' times away are read; `settings`: the server's default clock and stand-in;
    `prefs_of(user)`: a player's quiet hours (warnings keep out of them)."""

    def __init__(self, storage: Storage, settings: Settings, prefs_of: Callable[[int], Awaitable[PlayerPrefs]]) -> None:
        self.storage = storage
        self.settings = settings
        self.prefs_of = prefs_of

    # ---- options of `game new` ----------------------------------------------------------
    def time_options(self, options: dict[str, Any], meta: TableMeta) -> None:
        """Take the clock's and the stand-in's options out of `options` (the game never sees
        them) and keep them in the new table's `meta`. A table without `clock=` has the
        server's default clock (`[clocks] default`), a practice game (`meta.practice`) none."""
        words = {key: options.pop(key) for key in TIME_OPTIONS if key in options}
        practice = meta.practice is not None
        level = words.get("stand_in")
        if level is not None:
            if str(level).lower() not in STAND_IN_LEVELS:
                raise Refusal(
                    f"`stand_in=` is the level of the bot that takes a seat whose clock ran out (or whose player "
                    f"resigned or was voted out): easy, normal or strong, not {quote(str(level), 20)}."
                )
            meta.stand_in = str(level).lower()
        bank = self.settings.clock_bank if not practice else 0.0
        if "clock" in words:
            bank = 0.0 if words["clock"] in (False, 0, "none") else _duration("clock", words["clock"], low=clocks.HOUR)
        if not bank:
            given = [key for key in ("clock_bonus", "clock_cap") if key in words]
            if given:
                raise Refusal(f"`{given[0]}=` sets up a clock: give it one as well, e.g. `clock=3d {given[0]}=...`.")
            return
        bonus = self.settings.clock_bonus
        if "clock_bonus" in words:
            bonus = 0.0 if words["clock_bonus"] in (False, 0) else _duration("clock_bonus", words["clock_bonus"])
        cap = _duration("clock_cap", words["clock_cap"]) if "clock_cap" in words else self.settings.clock_cap or bank
        if cap < bank:
            raise Refusal(
                f"`clock_cap=` is the most a bank can hold, so at least the starting bank ({clocks.short(bank)})."
            )
        meta.clock = TableClock(TimeControl(bank, bonus, cap), {}).to_json()

    @staticmethod
    def clock_words(rec: TableRecord) -> str:
        """ "\nClock: 3d, +1d a move, at most 3d ..." for the opening of a table with one ("" without)."""
        clock = TableMeta.of(rec).table_clock()
        if clock is None:
            return ""
        return (
            f"\nClock: {clock.control.words()}. A seat's clock runs while it must act; when a bank runs out, "
            "a bot plays that seat until its player says `game back`."
        )

    def stand_in(self, rec: TableRecord) -> str:
        """The level of the bot that takes a seat at this table for someone (a run-out clock,
        a resignation, a vote): the table's own choice, else the server's."""
        return str(TableMeta.of(rec).stand_in or self.settings.stand_in_level)

    # ---- reading ---------------------------------------------------------------------------
    async def away_of(self, user: int | None, since: float) -> list[AwayRecord]:
        """A person's times away that end after `since` (a bot is never away)."""
        if user is None or user < 0:
            return []
        return await self.storage.away(user, since)

    async def clock_of(
        self, rec: TableRecord, seat: int, user: int | None, now: float, *, away: bool = True
    ) -> tuple[float | None, AwayRecord | None]:
        """(time left on the seat's clock — None without one, or run out —, the time away its
        player is in now — looked up only with `away` or a clock to run —)."""
        clock = TableMeta.of(rec).table_clock()
        mine = clock.seats.get(seat) if clock is not None else None
        if mine is not None and mine.out is not None:
            mine = None
        if mine is None and not away:
            return None, None
        periods = await self.away_of(user, min(now, mine.at) if mine is not None else now)
        left = None if mine is None else max(0.0, clocks.left_now(mine, now, periods))
        return left, clocks.away_now(periods, now)

    async def clock_lines(self, rec: TableRecord, now: float) -> list[str]:
        """`game status`'s lines on time (issue 27): every seat's clock, and who is away until when."""
        clock = TableMeta.of(rec).table_clock()
        banks, away = [], []
        for player in rec.players:
            if player.seat is None or player.user < 0:
                continue
            left, here = await self.clock_of(rec, player.seat, player.user, now)
            mine = clock.seats.get(player.seat) if clock is not None else None
            who = lettered(player.name, player.seat)
            if mine is not None and mine.out is not None:
                banks.append(f"{who} ran out ({clocks.moment(mine.out, now)}): a bot plays until `game back`")
            elif mine is not None and left is not None:
                state = " (stands still: away)" if here is not None else " (running)" if mine.running else ""
                banks.append(f"{who} {clocks.short(left)}{state}")
            if here is not None:
                away.append(
                    f"{player.name} until {clocks.moment(here.ends, now)}" + (f" ({here.note})" if here.note else "")
                )
        lines = [f"Clock ({clock.control.words()}): " + ", ".join(banks) + "."] if clock is not None else []
        if away:
            lines.append("Away (their clocks stand still): " + "; ".join(away) + ".")
        return lines

    @staticmethod
    def acting_since(rec: TableRecord, seat: int) -> float | None:
        """Since when `seat` has been acting (None: not known, a table from before issue 27)."""
        since = (TableMeta.of(rec).acting or {}).get(str(seat))
        return None if since is None else float(since)

    # ---- settling --------------------------------------------------------------------------
    async def settle(
        self,
        rec: TableRecord,
        meta: TableMeta,
        game: Game,
        state: Any,
        now: float,
        *,
        old: Iterable[ReminderRecord] = (),
        actor: int | None = None,
        acted: Set[int] = frozenset(),
        moved: Set[int] = frozenset(),
        ended: Set[int] | None = None,
        chosen: ActionRecord | None = None,
        restore: Checkpoint | None = None,
    ) -> list[ReminderRecord]:
        """Settle `meta`'s timers for the position `state` at `now` and return the reminder rows.

        `rec` holds the seats and status after the command. `moved`: the seats that chose an
        action in this command; `ended`: the seats whose spell of acting ended in it (a move's
        `Turn.ended`; default: those acting before and not now); `chosen`: the command's chosen
        action (its checkpoint is kept for an undo); `restore`: an undo's checkpoint, the banks
        to set back. `old`, `actor`, `acted`: as `reminders` takes them."""
        over = game.is_over(state)
        acting_now = game.to_act(state) if rec.status == "active" and not over else []
        before = {int(s): float(t) for s, t in (meta.acting or {}).items()}
        if ended is None:
            ended = set(before) - set(acting_now)
        meta.acting = {str(s): (before[s] if s in before and s not in ended else now) for s in acting_now}
        called = meta.called or {}
        # the key of each seat's notification: a spell that goes on keeps it; one that starts, or
        # whose player just moved in it (they know: a late post must not ping them), gets this commit's
        kept = {s for s in acting_now if s in before and s not in ended and s not in moved and str(s) in called}
        meta.called = {str(s): int(called[str(s)]) if s in kept else rec.version + 1 for s in acting_now} or None
        clock = meta.table_clock()
        moments: dict[int, float] = {}
        if clock is not None:
            await self._charge(rec, clock, now, acting_now, moved=moved, ended=ended, chosen=chosen, restore=restore)
            for seat, mine in clock.seats.items():
                player = rec.user_at(seat)
                if mine.running and player is not None:
                    prefs = await self.prefs_of(player.user)
                    moment = clocks.next_moment(mine, now, await self.away_of(player.user, now), prefs)
                    if moment is not None:
                        moments[player.user] = moment
        rows = self.reminders(
            rec, game, state, list(old), now, actor=actor, acted=set(acted), clock=clock, moments=moments
        )
        if clock is not None:
            meta.clock = clock.to_json()
        return rows

    async def _charge(
        self,
        rec: TableRecord,
        clock: TableClock,
        now: float,
        acting_now: list[int],
        *,
        moved: Set[int],
        ended: Set[int],
        chosen: ActionRecord | None,
        restore: Checkpoint | None,
    ) -> None:
        """The clocks at `now`: the running ones charged (never below zero: a move that came
        before the hand-over counts), the checkpoint or the undo's banks, the bonus of each
        seat whose move ended, and the clocks of the people to act now running."""
        control = clock.control
        for seat, mine in clock.seats.items():
            if mine.running:
                player = rec.user_at(seat)
                away = await self.away_of(player.user if player else None, mine.at)
                mine.left = max(0.0, mine.left - clocks.used(mine.at, now, away))
            mine.at = now
        if chosen is not None:
            clock.checkpoints[chosen.seq] = Checkpoint(chosen.seat, {s: c.left for s, c in clock.seats.items()})
        if restore is not None:
            for seat, left in restore.banks.items():
                if seat in clock.seats and clock.seats[seat].out is None:
                    clock.seats[seat].left = left
        for seat in set(moved) & set(ended) & set(clock.seats):  # the move is over: its bonus
            if clock.seats[seat].out is None:
                clock.seats[seat].left = min(control.cap, clock.seats[seat].left + control.bonus)
        for seat, mine in clock.seats.items():
            player = rec.user_at(seat)
            runs = seat in acting_now and mine.out is None
            runs = runs and player is not None and not player.bot and not player.resigned
            if runs and not (mine.running and seat not in ended):  # a new spell of acting
                mine.warn = clocks.warnings_for(mine.left)
            if not runs:
                mine.warn = []
            mine.running = runs
        clock.keep_checkpoints(p.seat for p in rec.players if p.seat is not None and not p.resigned and not p.bot)

    def reminders(
        self,
        rec: TableRecord,
        game: Game,
        state: Any,
        old: list[ReminderRecord],
        now: float,
        *,
        actor: int | None,
        acted: set[int] | None = None,
        clock: TableClock | None = None,
        moments: dict[int, float] | None = None,
    ) -> list[ReminderRecord]:
        """Who must act now gets a reminder `remind_every` from now; one who still
        must act and did not act keeps their running reminder and its count. With a
        clock, the row is due at the earlier of that and the clock's next moment, and
        the reminder's own time is kept on the seat's clock (`SeatClock.remind`). A bot to
        act always gets its row (reminders off for a table stop people's reminders only)."""
        if game.is_over(state) or rec.status != "active":
            return []
        acted = acted or set()
        moments = moments or {}
        kept = {r.user: r for r in old}
        # a bot to act is "reminded" at once: `tick` hands its reminder to the bot (bots.py)
        out = [
            ReminderRecord(rec.id, p.user, now, 0)
            for s in game.to_act(state)
            if (p := rec.user_at(s)) is not None and p.bot
        ]
        for user, seat in _people_to_act(rec, game.to_act(state)):
            previous = kept.get(user)
            keep = previous is not None and user != actor and seat not in acted
            mine = clock.seats.get(seat) if clock is not None else None
            if mine is None:  # no clock: the reminder alone
                if rec.remind_every > 0:
                    out.append(
                        previous if keep and previous else ReminderRecord(rec.id, user, now + rec.remind_every, 0)
                    )
                continue
            remind = None
            if rec.remind_every > 0:
                ongoing = mine.remind if mine.remind is not None else previous.due if previous else None
                remind = ongoing if keep and ongoing is not None else now + rec.remind_every
            mine.remind = remind
            due = min((t for t in (remind, moments.get(user)) if t is not None), default=None)
            if due is not None:
                out.append(ReminderRecord(rec.id, user, due, previous.count if keep and previous else 0))
        return out


def _people_to_act(rec: TableRecord, seats: Iterable[int]) -> list[tuple[int, int]]:
    """(user, seat) of each person who must act in `seats`, once each: never a bot (it is not
    reminded) nor a resigned player (Tables.acting_users, with the seat)."""
    out: dict[int, int] = {}
    for seat in seats:
        player = rec.user_at(seat)
        if player is not None and not player.resigned and not player.bot and player.user not in out:
            out[player.user] = seat
    return list(out.items())


def _duration(option: str, value: Any, *, low: float = 0.0) -> float:
    """A duration option (`clock=3d`, `clock_bonus=12h`), checked: a number with its unit,
    from `low` to 60 days."""
    seconds = parse_duration(str(value)) if not isinstance(value, bool) else None
    if seconds is None or not low <= seconds <= clocks.LONGEST:
        least = f"{clocks.short(low)} " if low else "0 "
        raise Refusal(
            f"`{option}=` is a time with its unit, from {least}to 60 days: `3d`, `12h`, `90m` or `1d12h` "
            f"(not {quote(str(value), 20)})."
        )
    return seconds
