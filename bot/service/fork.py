"""A new table from a position of an exported game: `game new from=<export> at=<step>`.

"What if we had...": the export (a finished game's whole record) is checked by
replaying it to step `at`; the table opens as a lobby with the export's game, seed
and options, and players join as usual — the same ones or others. At `game start`
the copied steps become the first lines of the new table's own log (`via = "fork"`,
their original sequence numbers and times, events written again with the new
players' names), so the log stays the source of truth: replay from the setup,
undo (a copied line is never anyone's to take back) and the repair of a damaged
snapshot work unchanged. A fork is an open practice game: its seed is in the export.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any

from engine.core import Game

from ..storage.base import ActionRecord, ChannelBusy, SeatRecord, TableRecord
from . import export
from .core import Ctx, Tables, _hours, _option_value
from .meta import TableMeta
from .records import Records
from .refusal import Refusal
from .reply import Reply
from .text import lettered, names, quote, user_text
from .timing import TIME_OPTIONS


class Forks:
    """Opening and starting a table forked from an export."""

    def __init__(self, tables: Tables, records: Records) -> None:
        self.tables = tables
        self.records = records
        self.storage = tables.storage

    async def new_fork(self, ctx: Ctx, args: list[str]) -> Reply:
        """`game new from=<export> at=<step>`: a new table whose log starts with the export's
        lines up to `at` (copied, in the lobby until its players join and it starts)."""
        wanted, source, at, remind, timing = self._fork_words(args)
        if not source or source not in ctx.files:
            raise Refusal(
                "`game new from=<export> at=<step>` needs the exported game as a file: on Discord, "
                "attach it to `/game new` (the `export` option); at the terminal, name its path."
            )
        try:
            record = export.parse(ctx.files[source])
        except export.ExportError as err:
            raise Refusal(f"That file cannot be forked: {err}") from None
        game = self.tables.games.get(record.game)
        if game is None:
            raise Refusal(f"The export is of {quote(record.game, 30)}, which this bot does not offer.")
        if wanted is not None and wanted != record.game:
            raise Refusal(f"The export is of {game.title}, not {self.tables.games[wanted].title}.")
        if record.seed is None:
            raise Refusal(
                "That export was made while its game was running: it holds no seed (it would reveal "
                "hidden cards), so no position of it can be rebuilt. Fork the export of an ended game."
            )
        self._replayed_to(game, record, at)
        # a step whose time the file does not know (null) is dated by the fork that copies it
        copied = [[ln.seq, ln.seat, ln.action, ctx.now if ln.time is None else ln.time] for ln in record.live(at)]
        meta = TableMeta(
            practice={"seed": record.seed, "fork": record.table},
            fork={"from": record.table, "at": at, "names": record.names, "lines": copied},
        )
        self.tables.timers.time_options(timing, meta)
        remind_every = self.tables.settings.remind_every if remind is None else _hours(_option_value(remind))
        try:
            rec = await self.storage.create_table(
                guild=ctx.guild,
                channel=ctx.channel,
                game=game.id,
                creator=ctx.user,
                options=record.options,
                seed=record.seed,
                seats=[SeatRecord(ctx.user, ctx.name, None, False, ctx.now)],
                remind_every=remind_every,
                now=ctx.now,
                meta=meta.to_json(),
            )
        except ChannelBusy:
            raise Refusal(
                "This channel already has a game. Finish it or `game cancel` it first; one game per channel or thread."
            ) from None
        seats = ", ".join(lettered(user_text(name, 64), i) for i, name in enumerate(record.names))  # names from a file
        data = (
            ""
            if record.data_version in ("", export.data_version(game))
            else (" (The export was made with other component data; it replays all the same.)")
        )
        return Reply(
            f"{ctx.name} opened a {game.title} table forked from game #{record.table} at step {at} "
            f"({len(copied)} steps copied). Its seats: {seats}. A player whose name matches a seat "
            f"takes it, the others fill the free seats in joining order. Others: `game join`; "
            f"{ctx.name}: `game start` when all {len(record.names)} are in.{data}\n"
            f"{self.records.practice_line(rec)}" + self.tables.timers.clock_words(rec),
            **self.tables.ids(rec),
        )

    def _fork_words(self, args: list[str]) -> tuple[str | None, str | None, int | None, str | None, dict[str, Any]]:
        """The words of `game new from=...`: the game named (if any), the export's name, the
        step, the reminder interval and the clock's options (a fork has no clock unless asked)."""
        wanted, source, at, remind = None, None, None, None
        timing: dict[str, Any] = {}  # clock=, clock_bonus=, clock_cap=, stand_in=
        for word in args:
            key, eq, value = word.partition("=")
            low = key.lower()
            if not eq and low in self.tables.games and wanted is None:
                wanted = low
            elif eq and low == "from":
                source = value
            elif eq and low == "at":
                if not re.fullmatch(r"[0-9]{1,9}", value):
                    raise Refusal(
                        f"`at=` is a step number from the game's log (`at=0` is the start), not {quote(value, 20)}."
                    )
                at = int(value)
            elif eq and low == "remind":
                remind = value
            elif eq and low in TIME_OPTIONS:
                timing[low] = _option_value(value)
            elif low == "thread" and not eq:
                continue
            else:
                raise Refusal(
                    f"A fork takes `from=<export>`, `at=<step>`, `remind=<hours>` and a clock (`clock=3d` ...); "
                    f"the seed and the options come from the export, so {quote(word, 30)} cannot be set."
                )
        return wanted, source, at, remind, timing

    def _replayed_to(self, game: Game, record: export.Export, at: int | None) -> None:
        """Refuse a step the export's log does not reach, an export this game does not
        replay, and a position where the game is over."""
        last = record.live()[-1].seq if record.live() else 0
        if at is None or at > last:
            raise Refusal(
                f"From which step? `at=<step>`: the position after that log line, from `at=0` (the "
                f"start) to `at={last}`, where the export's log ends."
            )
        reached = None
        try:
            for position in export.replay(game, record, to=at):
                reached = position
        except export.ReplayError as err:
            raise Refusal(
                f"That export does not replay with this bot's {game.title}, so it cannot be forked: {err}."
            ) from None
        assert reached is not None
        if game.is_over(reached.state):
            raise Refusal(f"At step {at} the game is over; choose an earlier step, where someone still acts.")

    def fork_seats(self, rec: TableRecord, fork: dict[str, Any]) -> list[SeatRecord]:
        """The joined players on the fork's seats: by name where a name matches a seat
        of the original game, the others on the free seats in joining order."""
        originals = [str(n).lower() for n in fork["names"]]
        if len(rec.seats) != len(originals):
            raise Refusal(
                f"This position has {len(originals)} seats ({names([user_text(str(n), 64) for n in fork['names']])}); "
                f"{len(rec.seats)} joined.",
                **self.tables.ids(rec),
            )
        placed: dict[int, SeatRecord] = {}
        rest = []
        for player in rec.seats:
            seat = next((i for i, n in enumerate(originals) if n == player.name.lower() and i not in placed), None)
            if seat is None:
                rest.append(player)
            else:
                placed[seat] = player
        free = [i for i in range(len(originals)) if i not in placed]
        placed.update(zip(free, rest, strict=True))  # as many free seats as unplaced players
        return [dataclasses.replace(placed[i], seat=i, resigned=False) for i in range(len(originals))]

    def fork_lines(
        self, rec: TableRecord, game: Game, seats: list[SeatRecord], fork: dict[str, Any]
    ) -> tuple[Any, list[ActionRecord]]:
        """The copied steps replayed with the new players' names: the position reached
        and the log lines to store (their events told again with the new names)."""
        lines = [
            export.Line(int(seq), int(seat), str(action), float(time)) for seq, seat, action, time in fork["lines"]
        ]
        source = export.Export(game.id, [str(n) for n in fork["names"]], dict(rec.options), rec.seed, lines)
        records: list[ActionRecord] = []
        position = None
        try:
            for position in export.replay(game, source, names=[s.name for s in seats]):
                if position.line is not None:
                    ln = position.line
                    assert ln.time is not None  # dated when the fork was opened
                    records.append(
                        ActionRecord(ln.seq, ln.seat, position.action, ln.time, False, "fork", None, position.events)
                    )
        except export.ReplayError as err:
            raise Refusal(
                f"The copied steps do not replay with these players: {err}.", **self.tables.ids(rec)
            ) from None
        assert position is not None
        return position.state, records
