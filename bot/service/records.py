"""Game records (issue 17): what a game leaves behind once it ends, and what one reads of it.

- The record itself (`_game_record`): written with the move, resignation or cancel
  that ends a game, in the same transaction (`Change.record`), so history and
  statistics never disagree with the log.
- `games history [n] [game]`, `stats [player] [game]`, `stats top <game>`, with each
  person's rating (issue 27 §4: bot/service/ratings.py, bot/storage/ratings.py).
- `game export [id]`: the game as a JSON file (bot/service/export.py).
- `game chart [id]` and the chart on a game's final post: every player's score
  after each round, from public views only (bot/service/story.py).
- `games forget <id>`: a server admin deletes a closed game and its history.

Practice games (a chosen `seed=N`, or a fork of an export) are marked wherever
the game shows and never counted: anyone who saw the seed can replay their shuffles.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from typing import Any

from ..storage.base import ActionRecord, GameRecord, Rating, RecordSeat, Standing, TableRecord
from . import export
from .core import Ctx, Tables, shown
from .meta import TableMeta
from .ratings import EXPLAINED, ranked, rating_text
from .refusal import Refusal
from .reply import Attachment, Reply
from .settings import DAY
from .story import story
from .text import clip, letter, names, quote

log = logging.getLogger(__name__)

#: How many games `games history` shows by default, and at most.
HISTORY_DEFAULT, HISTORY_MAX = 10, 25
#: Moves that count: the ones a player chose (not automatic steps, skips, resigned
#: seats' turns or lines a fork copied).
CHOSEN = ("", "planned")  # a planned move is a chosen move (issue 51)
_MENTION = re.compile(r"<@!?(\d+)>")


def places(scores: Sequence[int], winners: Sequence[int], resigned: Sequence[bool]) -> list[int]:
    """Finishing places: every winner is 1st; the others follow by score, those who
    resigned after those who did not; equal standing shares a place (1, 2, 2, 4)."""

    def standing(seat: int) -> tuple[bool, int]:
        return resigned[seat], -scores[seat]

    out = []
    for seat in range(len(scores)):
        if seat in winners:
            out.append(1)
            continue
        ahead = sum(
            1
            for other in range(len(scores))
            if other in winners or (other not in winners and standing(other) < standing(seat))
        )
        out.append(1 + ahead)
    return out


def day(moment: float) -> str:
    return datetime.fromtimestamp(moment, UTC).strftime("%Y-%m-%d")


def percent(part: int, whole: int) -> str:
    return f"{round(100 * part / whole)}%" if whole else "-"


class Records:
    """History, statistics, export, the score chart; and the record a game leaves."""

    def __init__(self, tables: Tables) -> None:
        self.tables = tables
        self.storage = tables.storage

    # ---- the record -----------------------------------------------------------------
    def game_record(
        self,
        rec: TableRecord,
        reason: str,
        rows: Sequence[ActionRecord],
        now: float,
        *,
        scores: Sequence[int] | None = None,
        winners: Sequence[int] = (),
    ) -> GameRecord:
        """The record of `rec` ending now (`reason`: "end", "resign", "cancelled")."""
        players = rec.players
        resigned = [False] * len(players)
        for p in players:
            if p.seat is not None and p.seat < len(resigned):
                resigned[p.seat] = p.resigned
        ranks = places(scores, winners, resigned) if scores is not None else None
        seats = [
            RecordSeat(
                p.seat,
                p.user,
                p.name,
                p.bot,
                None if scores is None else int(scores[p.seat]),
                None if ranks is None else ranks[p.seat],
                p.seat in winners,
                p.resigned,
            )
            for p in players
            if p.seat is not None
        ]
        moves = sum(1 for r in rows if not r.undone and r.via in CHOSEN)
        meta = TableMeta.of(rec)
        started = float(rec.created if meta.started is None else meta.started)
        return GameRecord(rec.id, rec.guild, rec.game, reason, started, now, moves, bool(meta.practice), seats)

    def practice_line(self, rec: TableRecord, *, why: bool = True) -> str:
        """The mark of an open practice game: on its status and when it opens with the
        reason, on every post of it in short."""
        meta = TableMeta.of(rec)
        practice = meta.practice
        if not practice:
            return ""
        forked = meta.fork is not None or practice.get("fork") is not None
        if not why:
            return (
                f"Open practice game ({'a fork' if forked else 'seed ' + str(practice.get('seed'))}): "
                "not counted in statistics."
            )
        if forked:
            reason = "forked from an exported game, whose seed is in the export"
        else:
            reason = f"seed {practice.get('seed')} was chosen, so anyone who saw it can replay every shuffle and die"
        return f"Open practice game ({reason}): not counted in statistics."

    # ---- history ----------------------------------------------------------------------
    async def history(self, ctx: Ctx, args: list[str]) -> Reply:
        count, game_id = HISTORY_DEFAULT, None
        for word in args:
            low = word.lower()
            if re.fullmatch(r"[0-9]{1,3}", low) and int(low) >= 1:
                count = min(int(low), HISTORY_MAX)
            elif low in self.tables.games:
                game_id = low
            else:
                raise Refusal(
                    f"`games history [n] [game]` takes a number of games (1-{HISTORY_MAX}) and a game "
                    f"({', '.join(self.tables.games)}), not {quote(word, 30)}."
                )
        records = await self.storage.history(ctx.guild, game=game_id, limit=count)
        which = f"{self.tables.games[game_id].title} games" if game_id else "games"
        if not records:
            return Reply(f"No ended {which} on this server yet.")
        lines = [f"Ended {which} on this server, newest first:"]
        lines.extend(self._history_line(r) for r in records)
        return Reply(clip("\n".join(lines)))

    def _history_line(self, r: GameRecord) -> str:
        game = self.tables.games.get(r.game)
        title = game.title if game is not None else r.game
        days = (r.ended - r.started) / DAY
        when = f"{day(r.started)} to {day(r.ended)}, {days:.1f} days, {r.moves} move{'s' if r.moves != 1 else ''}"
        practice = " [open practice game]" if r.practice else ""
        if r.reason == "cancelled":
            return (
                f"- #{r.table} {title}{practice}: cancelled ({when}); {names([self._seat_label(s) for s in r.seats])}."
            )
        order = sorted(r.seats, key=lambda s: (s.place or 99, s.seat))
        ranking = ", ".join(
            f"{s.place}. {self._seat_label(s)} {s.score}" + (" (won)" if s.winner else "") for s in order
        )
        ending = "finished" if r.reason == "end" else "ended by resignation"
        winners = names([s.name for s in order if s.winner])
        return f"- #{r.table} {title}{practice}: {ending} ({when}). {ranking}. Winner: {winners}."

    @staticmethod
    def _seat_label(seat: RecordSeat) -> str:
        """ "ann (A)", "bob (B, resigned)", "Bot Sargon (easy) (C, bot)", "cy (D, a bot played
        for them)": a person who resigned is not a bot, though a bot played their seat on."""
        tags = [letter(seat.seat)]
        if seat.user < 0:
            tags.append("bot")
        elif seat.resigned:
            tags.append("resigned")
        elif seat.bot:
            tags.append("a bot played for them")
        return f"{seat.name} ({', '.join(tags)})"

    # ---- statistics ---------------------------------------------------------------------
    async def stats(self, ctx: Ctx, args: list[str]) -> Reply:
        words = list(args)
        if words and words[0].lower() == "top":
            return await self._leaderboard(ctx, words[1:])
        game_id = None
        rest = []
        for word in words:
            if word.lower() in self.tables.games and game_id is None:
                game_id = word.lower()
            else:
                rest.append(word)
        if not rest:
            user, label = ctx.user, ctx.name
        else:
            user, label = await self._stats_player(ctx, " ".join(rest))
        rows = await self.storage.standings(ctx.guild, game=game_id, user=user)
        rated = {r.game: r for r in await self.storage.ratings(ctx.guild, game=game_id, user=user)}
        which = f" in {self.tables.games[game_id].title}" if game_id else ""
        if not rows:
            return Reply(
                f"{label} has no counted games{which} on this server yet (practice and cancelled games do not count)."
            )
        lines = [f"Statistics of {label}{which} on this server (practice and cancelled games do not count):"]
        for game in sorted({s.game for s in rows}):
            person = [s for s in rows if s.game == game and s.bot is None]
            parts = [self._standing_text(s) for s in person]
            if game in rated:
                parts.append(rating_text(rated[game]))
            if parts:
                lines.append(f"- {self._title_of(game)}: " + "; ".join(parts))
            lines.extend(
                f"- {self._title_of(game)} as a bot ({s.bot}): " + self._standing_text(s)
                for s in rows
                if s.game == game and s.bot is not None
            )
        if rated:
            lines.append(EXPLAINED)
        return Reply(clip("\n".join(lines)))

    async def _stats_player(self, ctx: Ctx, who: str) -> tuple[int, str]:
        """The player `stats` was asked about: a mention (`<@id>`) or a name on a record."""
        mention = _MENTION.fullmatch(who.strip())
        everyone = await self.storage.standings(ctx.guild)
        if mention:
            user = int(mention.group(1))
            known = [s.name for s in everyone if s.user == user]
            return user, known[-1] if known else "That player"
        wanted = who.strip().lower().lstrip("@")
        found = {s.user: s.name for s in everyone if s.name.lower() == wanted}
        if not found:
            raise Refusal(
                f"Nobody called {quote(who, 40)} has a counted game on this server. "
                "`stats` alone shows yours; `stats top <game>` the leaderboard."
            )
        if len(found) > 1:
            raise Refusal(
                f"Several players called {quote(who, 40)} have played here; on Discord, choose the "
                "player in `/stats` instead of typing the name."
            )
        user, name = next(iter(found.items()))
        return user, name

    async def _leaderboard(self, ctx: Ctx, args: list[str]) -> Reply:
        if len(args) != 1 or args[0].lower() not in self.tables.games:
            raise Refusal(f"`stats top <game>`: the leaderboard of one game ({', '.join(self.tables.games)}).")
        game_id = args[0].lower()
        need = self.tables.settings.min_ranked
        rows = await self.storage.standings(ctx.guild, game=game_id)
        ratings = await self.storage.ratings(ctx.guild, game=game_id)
        people = {s.user: s for s in rows if s.bot is None}
        best = ranked(ratings, need)
        title = self.tables.games[game_id].title
        lines = [f"{title} leaderboard on this server (at least {need} rated games; by rating):"]
        if not best:
            lines.append(f"Nobody has played {need} rated games yet.")
        for rank, r in enumerate(best[:10], 1):
            person = people.get(r.user)
            lines.append(
                f"{rank}. {r.name} — {rating_text(r)}" + (f"; {self._standing_text(person)}" if person else "")
            )
        waiting = self._not_ranked(people.values(), ratings, need)
        if waiting:
            lines.append("Not ranked yet (fewer rated games): " + ", ".join(waiting) + ".")
        bots = [s for s in rows if s.bot is not None]
        if bots:
            lines.append("Bots (listed apart, never ranked with people):")
            lines.extend(f"- {s.name} ({s.bot}) — " + self._standing_text(s) for s in bots)
        if ratings:
            lines.append(EXPLAINED)
        return Reply(clip("\n".join(lines)))

    @staticmethod
    def _not_ranked(people: Iterable[Standing], ratings: Sequence[Rating], need: int) -> list[str]:
        """The people with a counted game who are not ranked yet, as "name (rated games)",
        most rated games first."""
        counts = {r.user: (r.name, r.games) for r in ratings}
        for s in people:
            counts.setdefault(s.user, (s.name, 0))
        waiting = sorted((-games, name.lower(), name) for name, games in counts.values() if games < need)
        return [f"{name} ({-games})" for games, _, name in waiting]

    @staticmethod
    def _standing_text(s: Standing) -> str:
        score = f"{s.score_total / s.scored:.1f}" if s.scored else "-"
        place = f"{s.place_total / s.placed:.1f}" if s.placed else "-"
        return (
            f"{s.games} game{'s' if s.games != 1 else ''}, {s.wins} win{'s' if s.wins != 1 else ''} "
            f"({percent(s.wins, s.games)}), average score {score}, average place {place}"
        )

    def _title_of(self, game_id: str) -> str:
        game = self.tables.games.get(game_id)
        return game.title if game is not None else game_id

    # ---- export -------------------------------------------------------------------------
    async def _record_table(self, ctx: Ctx, args: list[str], what: str) -> TableRecord:
        """The table a record command is about: `#id` (or `id`) of a game of this server,
        else the channel's game (the open one, or the last one played here)."""
        if args:
            found = re.fullmatch(r"#?([0-9]{1,18})", args[0])
            if not found or len(args) > 1:
                raise Refusal(
                    f"`{what} [id]`: the id of a game of this server, as `games history` shows it "
                    f"(`#12`), not {quote(' '.join(args), 30)}."
                )
            rec = await self.storage.table(int(found.group(1)))
            if rec is None or rec.guild != ctx.guild:
                raise Refusal(f"There is no game #{found.group(1)} on this server (`games history` lists them).")
        else:
            rec = await self.storage.open_table(ctx.channel) or await self.storage.latest_table(ctx.channel)
            if rec is None:
                raise Refusal(f"There is no game in this channel; `{what} #id` names one from `games history`.")
        if "seats" in rec.damaged:
            raise Refusal(
                f"Game #{rec.id}'s stored seats are damaged, so its record cannot be written out.",
                **self.tables.ids(rec),
            )
        if rec.status == "lobby" or not rec.seats or any(s.seat is None for s in rec.seats):
            raise Refusal(
                f"The {self.tables.title(rec)} game #{rec.id} never started: there is nothing to show.",
                **self.tables.ids(rec),
            )
        return rec

    async def export(self, ctx: Ctx, args: list[str]) -> Reply:
        rec = await self._record_table(ctx, args, "game export")
        game = self.tables.game(rec)
        rows = await self.storage.actions(rec.id)
        public = rec.status in ("active", "paused")
        meta = TableMeta.of(rec)
        result = meta.result
        if rec.status == "cancelled":
            result = {"reason": "cancelled"}
        seats = [{"seat": p.seat, "name": p.name, "bot": p.bot, "resigned": p.resigned} for p in rec.players]
        fork = meta.fork
        doc = export.build(
            table=rec.id,
            game=game,
            seed=rec.seed,
            options=rec.options,
            seats=seats,
            lines=[export.Line(r.seq, r.seat, r.action, r.time, r.via, r.undone, list(r.events)) for r in rows],
            public=public,
            status=rec.status,
            practice=bool(meta.practice),
            created=rec.created,
            started=meta.started,
            ended=None if public else rec.updated,
            result=result,
            fork={"from": fork.get("from"), "at": fork.get("at")} if isinstance(fork, dict) else None,
            now=ctx.now,
            shown=lambda action: shown(game, action),
        )
        name = f"epochs-{rec.game}-{rec.id}{'-public' if public else ''}.json"
        if public:
            text = (
                f"Game #{rec.id} ({game.title}) is still running, so this is its public log only: the seed and "
                "the hidden parts of actions are left out (they would reveal hidden cards and every future "
                "shuffle), and the file cannot be replayed. Export it again once the game has ended."
            )
        else:
            text = (
                f"The record of game #{rec.id} ({game.title}, {rec.status}): seed, options, seats and all "
                f"{len(rows)} log lines. `epochs replay {name}` plays it again; "
                f"`game new from={name} at=<step>` starts a table from any of its positions."
            )
        what = "public log (no seed, hidden parts left out)" if public else "whole record"
        return Reply(
            text,
            files=[Attachment(export.dumps(doc), name, f"Epochs export of game #{rec.id}: {what}", "export")],
            **self.tables.ids(rec),
        )

    # ---- the chart ----------------------------------------------------------------------
    async def chart_command(self, ctx: Ctx, args: list[str]) -> Reply:
        rec = await self._record_table(ctx, args, "game chart")
        chart = await self.chart(rec, await self.storage.actions(rec.id))
        if chart is None:
            raise Refusal(
                f"There is no chart of game #{rec.id} yet: its public view shows no scores "
                "round by round, or it has not reached a second point.",
                **self.tables.ids(rec),
            )
        state = "so far" if rec.status in ("active", "paused") else "over the whole game"
        return Reply(
            f"How game #{rec.id} ({self.tables.title(rec)}) went {state}: every player's score as the game "
            "went on, from what everyone could see.",
            files=[chart],
            **self.tables.ids(rec),
        )

    async def chart(self, rec: TableRecord, rows: Sequence[ActionRecord]) -> Attachment | None:
        """The score chart of `rec`'s log, drawn off the event loop; None when the game's
        public views give fewer than two points, or nothing can draw it."""
        game = self.tables.game(rec)
        players = rec.players
        result = TableMeta.of(rec).result or {}
        winners = set(result.get("winners") or ())

        def plot() -> Any:
            """The chart's numbers (replaying the log: CPU work, off the event loop)."""
            from renderers.scores import ChartLine, ScoreChart  # noqa: PLC0415 - plain data, no Pillow

            over = rec.status in ("finished", "cancelled")
            told = story(game, self.tables.positions(rec, list(rows)), len(players), ended=over)
            if len(told.labels) < 2:
                return None
            lines = [
                ChartLine(p.seat, p.name, [point[p.seat] for point in told.scores], p.seat in winners)
                for p in players
                if p.seat is not None
            ]
            note = "open practice game" if TableMeta.of(rec).practice else ""
            return ScoreChart(game.title, told.word, told.labels, lines, told.finished, note)

        try:
            chart = await asyncio.to_thread(plot)
            image = None if chart is None else await self.tables.draw("renderers.common.chart:score_chart", chart)
        except ImportError:
            return None
        except Exception:  # a chart must never cost a move its post
            log.exception("the score chart of table %s failed", rec.id)
            return None
        if image is None:
            return None
        return Attachment(image.png, f"{rec.game}-{rec.id}-scores.png", image.alt, "chart")

    # ---- forgetting ---------------------------------------------------------------------
    async def forget(self, ctx: Ctx, args: list[str]) -> Reply:
        if not ctx.admin:
            raise Refusal("Only a server admin can delete a game's history (`games forget <id>`).")
        found = re.fullmatch(r"#?([0-9]{1,18})", args[0]) if len(args) == 1 else None
        if found is None:
            raise Refusal("`games forget <id>`: the id of an ended game, as `games history` shows it (`#12`).")
        rec = await self.storage.table(int(found.group(1)))
        if rec is None or rec.guild != ctx.guild:
            raise Refusal(f"There is no game #{found.group(1)} on this server.")
        if rec.status not in ("finished", "cancelled"):
            raise Refusal(
                f"Game #{rec.id} is {rec.status}: `game cancel` it in its channel first, then forget it.",
                **self.tables.ids(rec),
            )
        await self.storage.forget(rec.id)
        self.tables.forget(rec.id)
        log.info("table %s forgotten by %s (admin) in guild %s", rec.id, ctx.user, ctx.guild)
        return Reply(
            f"{ctx.name} deleted game #{rec.id} ({self.tables.title(rec)}) with its whole history: its log, its "
            "record and its place in the statistics; the ratings of the games after it were worked out again "
            "without it."
        )
