"""Per-player settings: reminder interval, quiet hours, DMs."""

from __future__ import annotations

import logging

from ..storage.base import Change, PlayerPrefs
from .core import Ctx, Tables, _hours, _option_value
from .meta import TableMeta
from .refusal import Refusal
from .reminders import offset_text, parse_quiet
from .reply import Reply
from .settings import HOUR

log = logging.getLogger(__name__)


class Prefs:
    """`settings`: a player's reminder interval, quiet hours and DM choice."""

    def __init__(self, tables: Tables) -> None:
        self.tables = tables
        self.storage = tables.storage

    async def settings(self, ctx: Ctx, args: list[str]) -> Reply:
        """`settings ...`: a player's own settings (quiet hours, DMs, heads-up), and the
        reminder interval of the table here; alone, what they are."""
        self.tables.forget_prefs(ctx.user)  # re-read: another process may have changed them
        prefs = await self.tables.prefs_of(ctx.user)
        if not args:
            return await self._shown(ctx, prefs)
        what = args[0].lower()
        if what == "remind":
            return await self._remind_every(ctx, args)
        if what == "quiet":
            try:
                start, end, offset = parse_quiet(args[1:])
            except ValueError as err:
                raise Refusal(str(err)) from None
            prefs.quiet_start, prefs.quiet_end = start, end
            if offset is not None:
                prefs.utc_offset = offset
            await self.storage.set_prefs(prefs)
            if start is None:
                return Reply("Quiet hours off: reminders may come at any hour.")
            return Reply(
                f"Quiet hours set: no reminders from {start:02d}:00 to {end:02d}:00 ({offset_text(prefs.utc_offset)})."
            )
        if what == "dm":
            if len(args) < 2 or args[1].lower() not in ("on", "off"):
                raise Refusal("`settings dm on` or `settings dm off`.")
            prefs.dm = args[1].lower() == "on"
            await self.storage.set_prefs(prefs)
            return Reply(f"Private messages by DM: {'on' if prefs.dm else 'off'}.")
        if what in ("heads-up", "headsup", "heads_up"):
            if len(args) < 2 or args[1].lower() not in ("on", "off"):
                raise Refusal(
                    "`settings heads-up on` (a ping when the player before you starts their turn) "
                    "or `settings heads-up off`."
                )
            prefs.heads_up = args[1].lower() == "on"
            await self.storage.set_prefs(prefs)
            return Reply(
                "Heads-up: on. You are pinged once when the player before you starts a turn."
                if prefs.heads_up
                else "Heads-up: off."
            )
        raise Refusal(
            "`settings`, `settings remind <hours|off>`, `settings quiet <22-7> [utc+2]`, "
            "`settings quiet off`, `settings dm on|off`, `settings heads-up on|off`."
        )

    async def _remind_every(self, ctx: Ctx, args: list[str]) -> Reply:
        """`settings remind <hours|off>`: the table's reminder interval (its creator or an admin)."""
        rec = await self.tables.table(ctx, need=("lobby", "active", "paused"))
        if ctx.user != self.tables.creator(rec) and not ctx.admin:
            raise Refusal("Only the table's creator or an admin sets the reminder interval.", **self.tables.ids(rec))
        if len(args) < 2:
            raise Refusal("`settings remind <hours>` or `settings remind off`.", **self.tables.ids(rec))
        try:
            every = 0.0 if args[1].lower() == "off" else _hours(_option_value(args[1]))
        except Refusal as r:
            raise Refusal(r.text, **self.tables.ids(rec)) from None
        rec.remind_every = every
        reminders, stored = None, None
        if rec.status == "active":
            state = await self.tables.state(rec)
            meta = TableMeta.of(rec)
            reminders = await self.tables.timers.settle(rec, meta, self.tables.game(rec), state, ctx.now)
            stored = meta.to_json()
        version = await self.tables.commit(
            rec, Change(remind_every=every, reminders=reminders, meta=stored, bump=False), ctx.now
        )
        text = f"Reminders every {every / HOUR:g} h." if every else "Reminders off for this game."
        return Reply(text, **self.tables.ids(rec, version))

    async def _shown(self, ctx: Ctx, prefs: PlayerPrefs) -> Reply:
        """`settings` alone: the caller's settings, and the reminder interval of the table here."""
        rec = await self.storage.open_table(ctx.channel)
        quiet = (
            f"{prefs.quiet_start:02d}:00-{prefs.quiet_end:02d}:00 ({offset_text(prefs.utc_offset)})"
            if prefs.quiet_start is not None
            else "none"
        )
        lines = [
            f"Your quiet hours: {quiet}. Private messages by DM: {'on' if prefs.dm else 'off'}. "
            f"Heads-up before your turn: {'on' if prefs.heads_up else 'off'}."
        ]
        if rec is not None:
            lines.append(
                f"This game reminds every {rec.remind_every / HOUR:g} h."
                if rec.remind_every > 0
                else "This game sends no reminders."
            )
        return Reply("\n".join(lines))
