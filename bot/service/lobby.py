"""The lobby: open a table, join, leave, start, cancel, status, and the server's list of games."""

from __future__ import annotations

import dataclasses
import logging
import re
import secrets
from typing import Any

from engine.core import Game, IllegalAction, Rng

from ..storage.base import ActionRecord, Change, ChannelBusy, SeatRecord
from .clocks import TableClock
from .core import Ctx, Tables, _hours, _option_value
from .fork import Forks
from .meta import TableMeta
from .moves import Moves
from .reading import Reading
from .records import Records
from .refusal import Refusal
from .reply import Reply
from .settings import HOUR
from .text import clip, duration, lettered, names, quote
from .undo import Undo

log = logging.getLogger(__name__)

#: The largest seed a table can keep (a signed 64-bit integer in every backend).
MAX_SEED = 2**63 - 1
#: What `game new` options look like: they are stored and handed to the game as they are.
_OPTION_KEY = re.compile(r"[a-z][a-z0-9_-]{0,39}", re.ASCII | re.IGNORECASE)
_OPTION_VALUE = re.compile(r"[a-z0-9._+-]{1,40}", re.ASCII | re.IGNORECASE)


class Lobby:
    """`game new|join|leave|start|cancel|status` and `games`: tables before and around play."""

    def __init__(
        self, tables: Tables, moves: Moves, records: Records, reading: Reading, undo: Undo, forks: Forks
    ) -> None:
        self.tables = tables
        self.moves = moves
        self.records = records
        self.reading = reading
        self.undo = undo
        self.forks = forks
        self.storage = tables.storage

    async def new(self, ctx: Ctx, args: list[str]) -> Reply:
        if not args:
            raise Refusal(f"Which game? `game new <game>`; games: {', '.join(self.tables.games) or 'none'}.")
        if any(w.lower().startswith("from=") for w in args):
            return await self.forks.new_fork(ctx, args)  # fork.py: a table from an exported position
        game_id = args[0].lower()
        game = self.tables.games.get(game_id)
        if game is None:
            raise Refusal(f"There is no game {quote(args[0])}. Games: {', '.join(self.tables.games) or 'none'}.")
        options: dict[str, Any] = {}
        words = [w for w in args[1:] if w.lower() != "thread"]
        # `thread`: the Discord adapter opens a thread and sends the command from there; one
        # that reaches the service came from a front end without threads (the terminal)
        no_thread = len(words) < len(args) - 1
        for word in words:
            if "=" not in word:
                raise Refusal(f"Options are written `name=value`, not {quote(word)}.")
            key, value = word.split("=", 1)
            if not _OPTION_KEY.fullmatch(key) or not _OPTION_VALUE.fullmatch(value):
                raise Refusal(
                    f"{quote(word)} is not an option: a name of letters, digits, `_` or `-`, then `=`, "
                    "then a value of letters, digits and `._+-` (e.g. `seed=42`, `non_player=true`)."
                )
            options[key.lower()] = _option_value(value)
        seed = options.pop("seed", None)
        meta = TableMeta()
        if seed is None:
            seed = secrets.randbits(48)
        elif isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
            raise Refusal(f"`seed` is a whole number from 0 to {MAX_SEED} (the storage keeps 64-bit numbers).")
        else:
            meta.practice = {"seed": seed}  # anyone who saw the command can replay it (DECISIONS, "Records")
        self.tables.timers.time_options(options, meta)  # timing.py: clock=, stand_in=
        remind = options.pop("remind", None)
        remind_every = self.tables.settings.remind_every if remind is None else _hours(remind)
        try:
            rec = await self.storage.create_table(
                guild=ctx.guild,
                channel=ctx.channel,
                game=game_id,
                creator=ctx.user,
                options=options,
                seed=seed,
                seats=[SeatRecord(ctx.user, ctx.name, None, False, ctx.now)],
                remind_every=remind_every,
                now=ctx.now,
                meta=meta.to_json(),
            )
        except ChannelBusy:
            busy = await self.storage.open_table(ctx.channel)
            what = f"a {self.tables.title(busy)} game ({busy.status})" if busy else "a game"
            raise Refusal(
                f"This channel already has {what}. Finish it or `game cancel` it first; one game per channel or thread."
            ) from None
        note = " (Threads are a Discord feature: this table opens here.)" if no_thread else ""
        practice = f"\n{self.records.practice_line(rec)}" if meta.practice is not None else ""
        return Reply(
            f"{ctx.name} opened a {game.title} table ({_players_range(game)}). "
            f"Others: `game join`. {ctx.name}: `game start` when everyone is in.{note}{practice}"
            + self.tables.timers.clock_words(rec),
            **self.tables.ids(rec),
        )

    async def join(self, ctx: Ctx, args: list[str]) -> Reply:
        rec = await self.tables.table(ctx, need=("lobby",))
        game = self.tables.game(rec)
        if rec.seat_of(ctx.user) is not None:
            raise Refusal("You have already joined this table.", **self.tables.ids(rec))
        if len(rec.seats) >= game.max_players:
            raise Refusal(
                f"The table is full: {game.title} takes at most {game.max_players} players.", **self.tables.ids(rec)
            )
        seats = rec.seats + [SeatRecord(ctx.user, ctx.name, None, False, ctx.now)]
        version = await self.tables.commit(rec, Change(seats=seats), ctx.now)
        return Reply(
            f"{ctx.name} joined. Players: {names([s.name for s in seats])} ({len(seats)}/{_players_range(game)}).",
            **self.tables.ids(rec, version),
        )

    async def leave(self, ctx: Ctx, args: list[str]) -> Reply:
        rec = await self.storage.open_table(ctx.channel)
        if rec is not None and rec.status in ("active", "paused") and rec.seat_of(ctx.user) is not None:
            raise Refusal("The game has started: to stop playing, `resign`.", **self.tables.ids(rec))
        rec = await self.tables.table(ctx, need=("lobby",))
        if rec.seat_of(ctx.user) is None:
            raise Refusal("You have not joined this table.", **self.tables.ids(rec))
        seats = [s for s in rec.seats if s.user != ctx.user]
        if not seats:
            version = await self.tables.commit(rec, Change(status="cancelled", seats=[]), ctx.now)
            return Reply(f"{ctx.name} left; the table is empty and closed.", **self.tables.ids(rec, version))
        meta = TableMeta.of(rec)
        was_creator = self.tables.creator(rec) == ctx.user
        if was_creator:
            meta.creator = seats[0].user
        version = await self.tables.commit(rec, Change(seats=seats, meta=meta.to_json()), ctx.now)
        text = f"{ctx.name} left. Players: {names([s.name for s in seats])}."
        if was_creator:
            text += f" {seats[0].name} now starts the game."
        return Reply(text, **self.tables.ids(rec, version))

    async def start(self, ctx: Ctx, args: list[str]) -> Reply:
        rec = await self.tables.table(ctx, need=("lobby",))
        game = self.tables.game(rec)
        if ctx.user != self.tables.creator(rec):
            creator = rec.seat_of(self.tables.creator(rec))
            raise Refusal(
                f"Only the table's creator ({creator.name if creator else 'its creator'}) can start it.",
                **self.tables.ids(rec),
            )
        count = len(rec.seats)
        if not game.min_players <= count <= game.max_players:
            raise Refusal(f"{game.title} needs {_players_range(game)}; {count} joined.", **self.tables.ids(rec))
        order = list(rec.seats)
        fixed = bool(args) and args[0].lower() in ("fixed", "ordered", "as-joined")
        if args and not fixed:
            raise Refusal(
                "`game start` shuffles the seats; `game start fixed` keeps the joining order.", **self.tables.ids(rec)
            )
        fork = TableMeta.of(rec).fork
        if fork:
            seats = self.forks.fork_seats(rec, fork)  # fork.py: seats by the original players' names
        else:
            if not fixed:
                Rng.from_seed(rec.seed, "seats").shuffle(order)
            seats = [dataclasses.replace(s, seat=i, resigned=False) for i, s in enumerate(order)]
        try:
            state = game.setup([s.name for s in seats], rec.seed, rec.options or None)
        except (IllegalAction, ValueError, KeyError, TypeError) as err:
            raise Refusal(f"{game.title} cannot start with these options: {err}", **self.tables.ids(rec)) from None
        rec.seats = seats
        meta = TableMeta.of(rec)
        meta.last_seq, meta.seq, meta.started = {}, 0, ctx.now
        rec.meta = meta.to_json()
        records: list[ActionRecord] = []
        if fork:
            state, records = self.forks.fork_lines(rec, game, seats, fork)
            meta = TableMeta.of(rec)
            meta.seq = records[-1].seq if records else 0
            meta.fork = {"from": fork["from"], "at": fork["at"], "copied": len(records)}
            rec.meta = meta.to_json()
        opening, copied = state, len(records)
        state = self.moves.autoplay(rec, game, state, records, ctx.now)  # an opening step without a choice
        meta = TableMeta.of(rec)
        meta.last_seq = {str(r.seat): r.seq for r in records}
        meta.posted = records[-1].seq if records else 0
        self.reading.mark(meta, rec, game, opening, records[copied:], after=state, told=0)
        clock = meta.table_clock()
        if clock is not None:  # every person's bank, full (a bot has no clock)
            people = [s.seat for s in seats if s.seat is not None and not s.bot]
            meta.clock = TableClock.start(clock.control, people, ctx.now).to_json()
        rec.status = "active"
        reminders = await self.tables.timers.settle(rec, meta, game, state, ctx.now)  # (settles meta's clocks)
        change = Change(
            status="active",
            seats=seats,
            meta=meta.to_json(),
            snapshot=game.dumps(state),
            actions=records,
            reminders=reminders,
        )
        await self.tables.commit(rec, change, ctx.now, state=state)
        seating = ", ".join(lettered(s.name, s.seat) for s in seats if s.seat is not None)
        lines = [f"{game.title} begins. Seats: {seating}."]
        if fork:
            lines.append(
                f"Forked from game #{fork['from']} at step {fork['at']}: its {copied} steps up to there "
                "are the first lines of this game's log."
            )
        opening = await self.reading.story(rec, game, [r for r in records if r.via != "fork"])
        return await self.moves.position_reply(rec, state, "\n".join(lines), ctx, story=opening)

    async def cancel(self, ctx: Ctx, args: list[str]) -> Reply:
        rec = await self.tables.table(ctx, need=("lobby", "active", "paused"), damaged_ok=True)
        if ctx.user != self.tables.creator(rec) and not ctx.admin:
            raise Refusal("Only the table's creator or a server admin can cancel this game.", **self.tables.ids(rec))
        record = None
        if rec.status != "lobby" and "seats" not in rec.damaged:  # a started game is remembered as cancelled
            record = self.records.game_record(rec, "cancelled", await self.storage.actions(rec.id), ctx.now)
        version = await self.tables.commit(rec, Change(status="cancelled", reminders=[], record=record), ctx.now)
        return Reply(f"{ctx.name} cancelled the {self.tables.title(rec)} game.", **self.tables.ids(rec, version))

    async def status(self, ctx: Ctx, args: list[str]) -> Reply:
        rec = await self.storage.open_table(ctx.channel) or await self.storage.latest_table(ctx.channel)
        if rec is None or rec.status == "cancelled":
            return Reply(
                "There is no game in this channel. Open one with `game new <game>` "
                f"(games: {', '.join(self.tables.games) or 'none'})."
            )
        if rec.damaged:
            rec = await self.tables.mended(rec, ctx.now)
        game = self.tables.game(rec)
        if rec.status == "finished":
            result = TableMeta.of(rec).result or {}
            scores = result.get("scores", [])
            lines = [
                f"The {game.title} game here is finished"
                + (" (by resignation)." if result.get("reason") == "resign" else ".")
            ]
            if scores:
                lines.append("Scores: " + self.tables.scores_text(rec, scores) + ".")
            lines.append("Winner: " + names([self.reading.seat_name(rec, w) for w in result.get("winners", [])]) + ".")
            lines.append(self.records.practice_line(rec))
            lines.append("Open a new one with `game new <game>`.")
            return Reply("\n".join(line for line in lines if line), **self.tables.ids(rec))
        who = names([s.name for s in rec.players])
        practice = self.records.practice_line(rec)
        if rec.status == "lobby":
            return Reply(
                f"{game.title} table, waiting to start: {who} ({len(rec.seats)}/{_players_range(game)})."
                + (f"\n{practice}" if practice else ""),
                **self.tables.ids(rec),
            )
        state = await self.tables.state(rec)
        headline = await self.reading.headline(rec, game, state)
        where = " · ".join(part for part in (game.title, headline.stage) if part)
        if rec.status == "active":
            rows = await self.storage.actions(rec.id)
            meta = TableMeta.of(rec)
            since = rows[-1].time if rows else float(rec.created if meta.started is None else meta.started)
            waiting = names([lettered(a.name, a.seat) for a in headline.acting])
            steps = int(meta.seq or 0)
            so_far = f"{steps} step{'s' if steps != 1 else ''} so far"
            lines = [f"{where}: waiting for {waiting}, for {duration(ctx.now - since)} ({so_far})."]
        else:
            lines = [f"{where}: {rec.status}. {self.tables.resume_words(rec)}"]
        lines.append("Scores: " + self.tables.scores_text(rec, game.scores(state)) + ".")
        lines.extend(await self.tables.timers.clock_lines(rec, ctx.now))
        bots = [lettered(s.name, s.seat) for s in rec.players if s.bot and s.user < 0 and s.seat is not None]
        if bots:
            lines.append("Bots: " + names(bots) + ".")
        resigned = [s.name for s in rec.seats if s.resigned]
        if resigned:
            lines.append("Resigned (a bot plays on for them): " + names(resigned) + ".")
        request = self.undo.undo_request(rec, ctx.now)
        if request:
            lines.append(
                f"Undo asked by {self.reading.name(rec, request['by'])}; approved by "
                f"{names([self.reading.name(rec, u) for u in request['approvals']])}."
            )
        lines.append(f"Reminders every {rec.remind_every / HOUR:g} h." if rec.remind_every > 0 else "No reminders.")
        if practice:
            lines.append(practice)
        return Reply("\n".join(lines), **self.tables.ids(rec))

    async def games(self, ctx: Ctx, args: list[str]) -> Reply:
        if ctx.guild is None:
            rec = await self.storage.open_table(ctx.channel)
            tables = [rec] if rec else []
        else:
            tables = await self.storage.tables(ctx.guild)
        if not tables:
            return Reply("No open games on this server. Open one with `game new <game>`.")
        lines = [f"Open games ({len(tables)}):"]
        for t in tables[:25]:
            players = names([s.name for s in t.players]) if "seats" not in t.damaged else "players unreadable"
            lines.append(
                f"- {self.tables.title(t)} in channel {t.channel}: {t.status}, {players}"
                + (" (stored record damaged)" if t.damaged else "")
            )
        return Reply(clip("\n".join(lines)))


def _players_range(game: Game) -> str:
    if game.min_players == game.max_players:
        return f"{game.min_players} players"
    return f"{game.min_players}-{game.max_players} players"
