"""Moves and what players read: play, the stored move and its announcement, board, hand, log, rules."""

from __future__ import annotations

import logging
import re
from typing import Any

from engine.core import Game, IllegalAction, match, refers_of, resolve

from ..storage.base import ActionRecord, Change, ReminderRecord, SeatRecord, StaleWrite, TableRecord
from . import rules as rulebook
from .core import Ctx, Refusal, shown
from .records import RecordCommands
from .reply import Attachment, Private, Reply
from .text import choices_text, clip, names, neutral, quote, sentences, view_text
from .turns import VIA_MARKS, Turn, action_line, fit

log = logging.getLogger(__name__)


class MoveCommands(RecordCommands):
    """`play` and what follows a move (store, announce, remind), and the read-only commands."""

    async def _cmd_play(self, ctx: Ctx, args: list[str]) -> Reply:
        rec = await self._table(ctx)
        player = self._player(ctx, rec)
        game = self._game(rec)
        state = await self._state(rec)
        seat = player.seat
        assert seat is not None
        if player.bot:
            raise Refusal(
                f"A bot plays your seat now ({player.bot}). Say `game back` to take it back.", **self._ids(rec)
            )
        acting = game.to_act(state)
        legal = game.legal_actions(state, seat) if seat in acting else []
        if ctx.version_moved and (seat not in acting or ctx.expected_choice != self.choice_key(rec, seat, legal)):
            raise StaleWrite(rec.id, ctx.expected_version or 0, rec.version)  # the decision itself changed
        if seat not in acting:
            why = getattr(game, "why_waiting", lambda *_: None)(state, seat)  # the game's reason, if it has one
            raise Refusal(
                f"It is not your turn; waiting for {names(self._acting_names(rec, acting))}."
                + (f" {why}" if why else ""),
                **self._ids(rec),
            )
        if not args:
            return await self._panel(ctx, rec, game, state, seat, ask=True)
        text = neutral(" ".join(args))  # the engine quotes it back in refusals
        if resolve(text, legal) is None and resolve(f"play {text}", legal):
            # `play forum build` typed as the command `play` + `forum build`: one `play` is enough
            # (also with names as printed: `play julius caesar build`).
            text = f"play {text}"
        try:
            # The game itself matches the text, so its refusal says why (not only what is legal).
            step = game.apply(state, seat, text)
        except IllegalAction as err:
            raise Refusal(str(err), choices={ctx.user: legal}, **self._ids(rec)) from None
        action = match(text, legal, known_verbs=getattr(game, "verbs", ()))  # the canonical form, for the log
        turn = Turn(acting)
        turn.step(game.to_act(step.state))
        records = [self._record(rec, step, seat, action, "", ctx.user, ctx.now)]
        places = {records[0].seq: refers_of(game, state, seat, action)}
        after = self._autoplay(rec, game, step.state, records, ctx.now, turn, places)
        return await self._commit_moves(ctx, rec, game, after, records, "", before=state, turn=turn, places=places)

    @staticmethod
    def _record(
        rec: TableRecord, step: Any, seat: int, action: str, via: str, user: int | None, now: float
    ) -> ActionRecord:
        """The log line for one applied action, with the table's next sequence number."""
        seq = int(rec.meta.get("seq", 0)) + 1
        rec.meta = {**rec.meta, "seq": seq}
        return ActionRecord(seq, seat, action, now, False, via, user, list(step.events))

    def _autoplay(
        self,
        rec: TableRecord,
        game: Game,
        state: Any,
        records: list[ActionRecord],
        now: float,
        turn: Turn | None = None,
        places: dict[int, tuple[str, ...]] | None = None,
    ) -> Any:
        """Play every step nobody needs to decide (bot/DECISIONS.md, "Turns"): a step whose
        seat has exactly one legal action (`via = "forced"`, shown as automatic), and a
        resigned seat's turns with its first legal action (`via = "auto"`). `places`: each
        step's board places (by sequence number) are added to it."""
        resigned = {s.seat for s in rec.seats if s.resigned and not s.bot}  # a bot plays the others
        for _ in range(2000):
            if game.is_over(state):
                break
            chosen = None
            for seat in game.to_act(state):
                legal = game.legal_actions(state, seat)
                if len(legal) == 1:
                    chosen = (seat, legal[0], "forced")
                elif legal and seat in resigned and len(resigned) < len(rec.seats):
                    chosen = (seat, legal[0], "auto")
                if chosen:
                    break
            if chosen is None:
                break
            seat, action, via = chosen
            step = game.apply(state, seat, action)
            records.append(self._record(rec, step, seat, action, via, None, now))
            if places is not None:
                places[records[-1].seq] = refers_of(game, state, seat, action)
            state = step.state
            if turn is not None:
                turn.step(game.to_act(state))
        return state

    async def _commit_moves(
        self,
        ctx: Ctx,
        rec: TableRecord,
        game: Game,
        state: Any,
        records: list[ActionRecord],
        head: str,
        *,
        before: Any,
        turn: Turn | None = None,
        seats: list[SeatRecord] | None = None,
        announce: bool = False,
        places: dict[int, tuple[str, ...]] | None = None,
    ) -> Reply:
        """Store the new actions and position in one transaction, then build the reply.

        `turn` follows the seats to act through the steps: while the caller's turn
        lasts they alone are answered (their panel); when it passes (or `turn` is
        None: an announcement such as a resignation) the channel gets one post with
        every step since the last post. `before` is the state the command started
        from: a player who had to act then, still must and did not act keeps their
        running reminder. `announce`: a bot's move; its post goes into the outbox
        (bots.py marks the turn told there), so it is neither marked here nor drawn.
        `places`: the board places of the new actions (by sequence number), kept until the
        post that tells them, whose map frames them all (issue 26: the last move highlighted)."""
        meta = dict(rec.meta)
        last = dict(meta.get("last_seq", {}))
        for r in records:
            last[str(r.seat)] = r.seq
        meta["last_seq"] = last
        meta.pop("undo", None)  # a new move voids a pending undo request
        meta.pop("votes", None)
        status = None
        over = game.is_over(state)
        public = turn is None or turn.passed or over
        posted = int(meta.get("posted", 0))
        if public and records and not announce:
            meta["posted"] = records[-1].seq
        unposted = {**meta.pop("places", {}), **{str(seq): list(p) for seq, p in (places or {}).items() if p}}
        if public and records:
            told = [p for seq in sorted(unposted, key=int) for p in unposted[seq]]
            meta["highlight"] = {"posted": records[-1].seq, "places": list(dict.fromkeys(told))}
        elif unposted:
            meta["places"] = unposted
        record, whole = None, []
        if over:
            status = "finished"
            meta["result"] = {"scores": game.scores(state), "winners": game.winners(state), "reason": "end"}
            whole = await self.storage.actions(rec.id) + records  # the whole log, for the record and the chart
            record = self._game_record(
                rec, "end", whole, ctx.now, scores=meta["result"]["scores"], winners=meta["result"]["winners"]
            )
        acting_seats = {r.seat for r in records}
        actor = ctx.user if records and records[0].user == ctx.user else None
        reminders: list[ReminderRecord] = []
        if not over:
            waiting = set(game.to_act(before)) & set(game.to_act(state)) - acting_seats
            old = await self.storage.reminders(rec.id) if waiting else []
            reminders = self._reminders(rec, state, old, ctx.now, actor=actor, acted=acting_seats)
        change = Change(
            status=status,
            meta=meta,
            actions=records,
            snapshot=game.dumps(state),
            reminders=reminders,
            seats=seats,
            record=record,
        )
        version = await self.storage.commit(rec, change, ctx.now)
        rec.version, rec.meta = version, meta
        if status:
            rec.status = status
        self._remember(rec.id, version, state)
        seat = rec.seat_of(ctx.user)
        if not public:
            if announce:
                return Reply(panel=True, **self._ids(rec))  # a bot has no panel: its turn goes on
            return await self._panel(ctx, rec, game, state, seat.seat if seat else None)
        rows = [r for r in await self.storage.actions(rec.id, after=posted) if not r.undone]
        lines = [head] if head else []
        lines.extend(self._turn_lines(rec, rows, budget=1300 - len(head)))
        ping = None if turn is None else self._acting_users(rec, turn.to_ping())
        reply = await self._position_reply(
            rec, state, "\n".join(lines), ctx, records, ping=ping, draw=not announce, highlight=self._highlight(rec)
        )
        if over and self.settings.images:  # the final post: the board and how the game went (issue 17 §3)
            chart = await self._chart(rec, whole)
            if chart is not None:
                reply.files.append(chart)
        if turn is not None and not over:
            await self._heads_up(rec, game, state, turn.to_ping(), reply, ctx.user)
        if (
            seat is not None
            and seat.seat is not None
            and not seat.resigned
            and not seat.bot
            and seat.seat in game.to_act(state)
        ):
            # the turn came back to the caller (other seats' steps were automatic): their panel goes on
            reply.private.append(
                Private(ctx.user, "Your turn again:\n" + await self._panel_text(rec, game, state, seat.seat, []))
            )
        return reply

    async def _heads_up(
        self, rec: TableRecord, game: Game, state: Any, starting: list[int], reply: Reply, caller: int
    ) -> None:
        """`settings heads-up on`: the player after each seat whose turn starts now is
        pinged once, in this post (issue 12 §3). Turn order is the game's
        (`turn_order(state)`, e.g. Rise of Empires' turn order track) or the seat order."""
        turn_order = getattr(game, "turn_order", None)  # beyond the contract: `BaseGame` has it
        order = (turn_order(state) if turn_order else []) or [s.seat for s in rec.players]
        acting = set(game.to_act(state))
        lines = []
        for seat in starting:
            if seat not in order:
                continue
            after = order[(order.index(seat) + 1) % len(order)]
            player = rec.user_at(after)
            if player is None or player.resigned or after in acting or player.user in (caller, *reply.mentions):
                continue
            if (await self._prefs_of(player.user)).heads_up:
                reply.mentions.append(player.user)
                lines.append(f"Heads-up, {player.name}: you play after {self._seat_name(rec, seat)}.")
        if lines:
            reply.text = clip(reply.text + "\n" + "\n".join(lines))

    def _turn_lines(self, rec: TableRecord, rows: list[ActionRecord], *, budget: int) -> list[str]:
        """The steps since the last post, as everyone may read them, within `budget` characters."""
        if not rows:
            return []
        game = self._game(rec)
        if len(rows) == 1 and not rows[0].via:  # a one-step turn reads as it always did
            r = rows[0]
            return [
                f"{self._seat_name(rec, r.seat)} played `{shown(game, r.action)}`.",
                *fit([f"• {e}" for e in r.events], budget),
            ]
        chosen = [r for r in rows if r.via == ""]
        actors = list(dict.fromkeys(self._seat_name(rec, r.seat) for r in (chosen or rows)))
        count = len(rows)
        head = f"**{names(actors)}**, {count} step{'s' if count != 1 else ''}:"
        body = [
            action_line(self._seat_name(rec, r.seat), shown(game, r.action), r.via, r.events, sentences) for r in rows
        ]
        return [head, *fit(body, budget - len(head) - 1)]

    async def _panel(
        self, ctx: Ctx, rec: TableRecord, game: Game, state: Any, seat: int | None, *, ask: bool = False
    ) -> Reply:
        """The caller's answer while their turn lasts: only to them, edited in place on
        Discord — this turn so far, what is being decided now and their choices."""
        rows = [r for r in await self.storage.actions(rec.id, after=int(rec.meta.get("posted", 0))) if not r.undone]
        text = await self._panel_text(rec, game, state, seat, rows)
        choices, keys = {}, {}
        if seat is not None and seat in game.to_act(state):
            choices[ctx.user] = game.legal_actions(state, seat)
            keys[ctx.user] = self.choice_key(rec, seat, choices[ctx.user])
        elif not ask:
            text += "\nWaiting for " + names(self._acting_names(rec, game.to_act(state))) + "."
        # never by DM: the player is at the table right now, and the panel is their answer
        mine = sum(1 for r in rows if r.seat == seat and not r.via)
        return Reply(
            "",
            private=[Private(ctx.user, clip(text), None, False)],
            choices=choices,
            keys=keys,
            panel=True,
            turn_steps=mine,
            **self._ids(rec),
        )

    async def _panel_text(
        self, rec: TableRecord, game: Game, state: Any, seat: int | None, rows: list[ActionRecord]
    ) -> str:
        lines = []
        if rows:
            lines.append("This turn so far:")
            # the player's own steps as they chose them, everyone else's as everyone may see them
            lines.extend(
                fit(
                    [
                        action_line(
                            self._seat_name(rec, r.seat),
                            r.action if r.seat == seat else shown(game, r.action),
                            r.via,
                            r.events,
                            sentences,
                        )
                        for r in rows
                    ],
                    900,
                )
            )
        if seat is not None and seat in game.to_act(state):
            prompt = game.view(state, seat).get("prompt")
            if isinstance(prompt, str) and prompt:
                lines.append(f"Now: {prompt}")
            lines.append("Your choices: " + choices_text(game.legal_actions(state, seat), 25))
        return "\n".join(lines)

    async def _position_reply(
        self,
        rec: TableRecord,
        state: Any,
        head: str,
        ctx: Ctx,
        records: list[ActionRecord],
        *,
        ping: list[int] | None = None,
        draw: bool = True,
        highlight: list[str] | None = None,
    ) -> Reply:
        """Events, then the result or who acts next, the board and private summaries.

        `ping`: the users to mention (default: everyone who must act). A turn's post
        pings only those who were not acting already. The board is the map image, the
        places in `highlight` framed (the moves the post tells)."""
        game = self._game(rec)
        public = game.view(state, None)
        lines = [head]
        mentions: list[int] = []
        choices: dict[int, list[str]] = {}
        keys: dict[int, str] = {}
        private: list[Private] = []
        if game.is_over(state):
            scores = game.scores(state)
            winners = game.winners(state)
            lines.append("Game over. Scores: " + self._scores_text(rec, scores) + ".")
            lines.append("Winner: " + names([self._seat_name(rec, w) for w in winners]) + ".")
        elif rec.status == "active":
            acting = game.to_act(state)
            users = self._acting_users(rec, acting)
            mentions = [u for u in users if u != ctx.user and (ping is None or u in ping)]
            lines.append("Next: " + names(self._acting_names(rec, acting)) + ".")
            prompt = public.get("prompt")
            if isinstance(prompt, str) and prompt:
                lines.append(f"Now: {prompt}")  # what is being decided, when the game says (public view)
            prefs = {u: await self._prefs_of(u) for u in users}
            for u in users:
                seat = self._seat_number(rec, u)
                legal = game.legal_actions(state, seat)
                choices[u] = legal
                keys[u] = self.choice_key(rec, seat, legal)
                if u != ctx.user and u in mentions:
                    summary = await self._since_last_turn(rec, seat, records)
                    if summary:
                        private.append(Private(u, summary, None, prefs[u].dm))
        lines.append(self._practice_line(rec, why=False))
        text = clip("\n".join(line for line in lines if line))
        drawn = self.settings.images and draw
        image = await self._image(rec.game, public, None, "map", highlight or []) if drawn else None
        return Reply(
            text,
            image=image,
            mentions=mentions,
            private=private,
            choices=choices,
            keys=keys,
            **self._ids(rec),
        )

    async def _since_last_turn(self, rec: TableRecord, seat: int, fresh: list[ActionRecord]) -> str:
        last = int(rec.meta.get("last_seq", {}).get(str(seat), 0))
        rows = [r for r in await self.storage.actions(rec.id, after=last) if not r.undone and r.seat != seat]
        if not rows:
            return ""
        lines = ["Since your last turn:"]
        for r in rows[-20:]:
            lines.append(
                f"- {self._seat_name(rec, r.seat)}: `{shown(self._game(rec), r.action)}`"
                + (" — " + sentences(r.events) if r.events else "")
            )
        game = self._game(rec)
        state = await self._state(rec)
        lines.append("Your legal actions: " + choices_text(game.legal_actions(state, seat), 25))
        return clip("\n".join(lines), 1500)

    def _reminders(
        self,
        rec: TableRecord,
        state: Any,
        old: list[ReminderRecord],
        now: float,
        *,
        actor: int | None,
        acted: set[int] | None = None,
    ) -> list[ReminderRecord]:
        """Who must act now gets a reminder `remind_every` from now; one who still
        must act and did not act keeps their running reminder and its count."""
        game = self._game(rec)
        if game.is_over(state) or rec.remind_every <= 0:
            return []
        acted = acted or set()
        kept = {r.user: r for r in old}
        # a bot to act is "reminded" at once: `tick` hands its reminder to the bot (bots.py)
        out = [
            ReminderRecord(rec.id, p.user, now, 0)
            for s in game.to_act(state)
            if (p := rec.user_at(s)) is not None and p.bot
        ]
        for user in self._acting_users(rec, game.to_act(state)):
            seat = self._seat_number(rec, user)
            previous = kept.get(user)
            if previous is not None and user != actor and seat not in acted:
                out.append(previous)
            else:
                out.append(ReminderRecord(rec.id, user, now + rec.remind_every, 0))
        return out

    def _seat_name(self, rec: TableRecord, seat: int) -> str:
        player = rec.user_at(seat)
        return player.name if player else f"seat {seat}"

    def _name(self, rec: TableRecord, user: int) -> str:
        player = rec.seat_of(user)
        return player.name if player else str(user)

    # ----------------------------------------------------------- read-only
    async def _cmd_board(self, ctx: Ctx, args: list[str]) -> Reply:
        rec = await self._table(ctx, need=("active", "paused", "finished"))
        game = self._game(rec)
        state = await self._state(rec)
        view = game.view(state, None)
        image = await self._image(rec.game, view, None, "map", self._highlight(rec)) if self.settings.images else None
        tables = await self._image(rec.game, view, None, "tables") if self.settings.images else None
        head = f"{game.title}, move {rec.meta.get('seq', 0)}"
        choices: dict[int, list[str]] = {}
        if rec.status == "active":
            acting = game.to_act(state)
            head += "; waiting for " + names(self._acting_names(rec, acting))
            for user in self._acting_users(rec, acting):
                choices[user] = game.legal_actions(state, self._seat_number(rec, user))
        text = head + ".\n" + (image.alt if image else view_text(view))
        files = [Attachment(tables.png, tables.filename, tables.alt, "tables")] if tables else []
        return Reply(clip(text), image=image, choices=choices, files=files, **self._ids(rec))

    async def _cmd_hand(self, ctx: Ctx, args: list[str]) -> Reply:
        rec = await self._table(ctx, need=("active", "paused"))
        player = self._player(ctx, rec)
        game = self._game(rec)
        state = await self._state(rec)
        view = game.view(state, player.seat)
        # The renderer's text of the private image reads like a hand (cards and their uses),
        # so it is drawn even when images are off; the raw view is the fallback for a game
        # without a renderer.
        drawn = await self._image(rec.game, view, player.seat)
        image = drawn if self.settings.images else None
        described = drawn.alt if drawn is not None and drawn.alt else view_text(view, 1500)
        lines = [f"Your private view ({game.title}, seat {player.seat}):"]
        if rec.status == "active" and player.seat in game.to_act(state):
            # first, so a long description cut to Discord's length never hides what you may do
            lines.append("Your legal actions: " + choices_text(game.legal_actions(state, player.seat), 25))
        lines.append(described)
        prefs = await self._prefs_of(ctx.user)
        return Reply("", private=[Private(ctx.user, clip("\n".join(lines)), image, prefs.dm)], **self._ids(rec))

    async def _cmd_log(self, ctx: Ctx, args: list[str]) -> Reply:
        rec = await self._table(ctx, need=("active", "paused", "finished"))
        count = self.settings.log_default
        if args:
            if not re.fullmatch(r"[0-9]+", args[0]) or int(args[0]) < 1:
                raise Refusal(
                    f"`log [n]` takes a number of moves, 1 or more, written in digits 0-9 (at most 50 are shown), "
                    f"not {quote(args[0], 20)}.",
                    **self._ids(rec),
                )
            count = min(int(args[0]), 50)
        rows = await self.storage.actions(rec.id)
        if not rows:
            return Reply("No moves yet.", **self._ids(rec))
        lines = [f"Last {min(count, len(rows))} of {len(rows)} log lines:"]
        for r in rows[-count:]:
            mark = " (undone)" if r.undone else ""
            via = f" [{VIA_MARKS[r.via]}]" if r.via in VIA_MARKS else ""
            events = (" — " + sentences(r.events)) if r.events else ""
            if r.damaged:
                events = " — (log line damaged: what happened cannot be read; the move itself is kept)"
            lines.append(
                f"#{r.seq} {self._seat_name(rec, r.seat)}: `{shown(self._game(rec), r.action)}`{via}{mark}{events}"
            )
        return Reply(clip("\n".join(lines)), **self._ids(rec))

    async def _cmd_rules(self, ctx: Ctx, args: list[str]) -> Reply:
        game_id = None
        if args and args[0].lower() in rulebook.RULEBOOKS:
            game_id, args = args[0].lower(), args[1:]
        if game_id is None:
            rec = await self.storage.open_table(ctx.channel)
            if rec is None:
                raise Refusal("Which game? `rules <game> [topic]`; games: " + ", ".join(rulebook.RULEBOOKS) + ".")
            game_id = rec.game
        return Reply(rulebook.answer(game_id, " ".join(args)), game_id=game_id)
