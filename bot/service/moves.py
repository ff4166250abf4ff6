"""Moves and what players read: play, the stored move and its announcement, board, hand, log, rules."""
from __future__ import annotations

import logging
import re
from typing import Any

from engine.core import IllegalAction, canonical

from ..storage.base import ActionRecord, Change, ReminderRecord, SeatRecord, TableRecord
from . import rules as rulebook
from .core import Ctx, Refusal, ServiceBase, shown
from .reply import Private, Reply
from .text import choices_text, clip, names, neutral, quote, sentences, view_text

log = logging.getLogger(__name__)


class MoveCommands(ServiceBase):
    """`play` and what follows a move (store, announce, remind), and the read-only commands."""

    async def _cmd_play(self, ctx: Ctx, args: list[str]) -> Reply:
        rec = await self._table(ctx)
        player = self._player(ctx, rec)
        game = self._game(rec)
        state = await self._state(rec)
        seat = player.seat
        assert seat is not None
        acting = game.to_act(state)
        if seat not in acting:
            raise Refusal(f"It is not your turn; waiting for {names(self._acting_names(rec, acting))}.",
                          **self._ids(rec))
        legal = game.legal_actions(state, seat)
        if not args:
            raise Refusal("Say which action: `play <action>`. Your legal actions: " + choices_text(legal),
                          choices={ctx.user: legal}, **self._ids(rec))
        text = neutral(" ".join(args))  # the engine quotes it back in refusals
        if canonical(text) not in legal and f"play {canonical(text)}" in legal:
            # `play forum build` typed as the command `play` + `forum build`: one `play` is enough.
            text = f"play {text}"
        try:
            # The game itself matches the text, so its refusal says why (not only what is legal).
            step = game.apply(state, seat, text)
            action = canonical(text)
        except IllegalAction as err:
            raise Refusal(str(err), choices={ctx.user: legal}, **self._ids(rec)) from None
        records = [self._record(rec, step, seat, action, "", ctx.user, ctx.now)]
        after = self._autoplay(rec, game, step.state, records, ctx.now)
        return await self._commit_moves(ctx, rec, game, after, records, f"{ctx.name} played `{shown(game, action)}`.",
                                        before=state)

    @staticmethod
    def _record(rec: TableRecord, step: Any, seat: int, action: str, via: str, user: int | None,
                now: float) -> ActionRecord:
        """The log line for one applied action, with the table's next sequence number."""
        seq = int(rec.meta.get("seq", 0)) + 1
        rec.meta = {**rec.meta, "seq": seq}
        return ActionRecord(seq, seat, action, now, False, via, user, list(step.events))

    def _autoplay(self, rec: TableRecord, game: Any, state: Any, records: list[ActionRecord], now: float) -> Any:
        """Play resigned seats' turns with their first legal action (bot/DECISIONS.md, "Resigning")."""
        resigned = {s.seat for s in rec.seats if s.resigned}
        for _ in range(500):
            acting = game.to_act(state)
            auto = [s for s in acting if s in resigned]
            if not auto or len(resigned) >= len(rec.seats):
                break
            seat = auto[0]
            legal = game.legal_actions(state, seat)
            if not legal:
                break
            step = game.apply(state, seat, legal[0])
            records.append(self._record(rec, step, seat, legal[0], "auto", None, now))
            state = step.state
        return state

    async def _commit_moves(self, ctx: Ctx, rec: TableRecord, game: Any, state: Any,
                            records: list[ActionRecord], head: str, *, before: Any,
                            seats: list[SeatRecord] | None = None) -> Reply:
        """Store the new actions and position in one transaction, then build the reply.

        `before` is the state the command started from: a player who had to act
        then, still must and did not act keeps their running reminder."""
        meta = dict(rec.meta)
        last = dict(meta.get("last_seq", {}))
        for r in records:
            last[str(r.seat)] = r.seq
        meta["last_seq"] = last
        meta.pop("undo", None)   # a new move voids a pending undo request
        meta.pop("votes", None)
        status = None
        over = game.is_over(state)
        if over:
            status = "finished"
            meta["result"] = {"scores": game.scores(state), "winners": game.winners(state), "reason": "end"}
        acting_seats = {r.seat for r in records}
        actor = ctx.user if records and records[0].user == ctx.user else None
        reminders: list[ReminderRecord] = []
        if not over:
            waiting = set(game.to_act(before)) & set(game.to_act(state)) - acting_seats
            old = await self.storage.reminders(rec.id) if waiting else []
            reminders = self._reminders(rec, state, old, ctx.now, actor=actor, acted=acting_seats)
        change = Change(status=status, meta=meta, actions=records, snapshot=game.dumps(state), reminders=reminders,
                        seats=seats)
        version = await self.storage.commit(rec, change, ctx.now)
        rec.version, rec.meta = version, meta
        if status:
            rec.status = status
        self._remember(rec.id, version, state)
        lines = [head]
        for r in records:
            if r.via:
                who = self._seat_name(rec, r.seat)
                lines.append(f"{who} ({'skipped by vote' if r.via == 'skip' else 'resigned'}) played `{shown(self._game(rec), r.action)}`.")
            lines.extend(f"• {e}" for e in r.events)
        return await self._position_reply(rec, state, "\n".join(lines), ctx, records)

    async def _position_reply(self, rec: TableRecord, state: Any, head: str, ctx: Ctx,
                              records: list[ActionRecord]) -> Reply:
        """Events, then the result or who acts next, the board and private summaries."""
        game = self._game(rec)
        public = game.view(state, None)
        lines = [head]
        mentions: list[int] = []
        choices: dict[int, list[str]] = {}
        private: list[Private] = []
        if game.is_over(state):
            scores = game.scores(state)
            winners = game.winners(state)
            lines.append("Game over. Scores: " + ", ".join(f"{p.name} {scores[p.seat]}" for p in rec.players) + ".")
            lines.append("Winner: " + names([self._seat_name(rec, w) for w in winners]) + ".")
        elif rec.status == "active":
            acting = game.to_act(state)
            users = self._acting_users(rec, acting)
            mentions = users
            lines.append("Next: " + names(self._acting_names(rec, acting)) + ".")
            prompt = public.get("prompt")
            if isinstance(prompt, str) and prompt:
                lines.append(f"Now: {prompt}")  # what is being decided, when the game says (public view)
            prefs = {u: await self._prefs_of(u) for u in users}
            for u in users:
                seat = rec.seat_of(u).seat  # type: ignore[union-attr]
                legal = game.legal_actions(state, seat)
                choices[u] = legal
                if u != ctx.user:
                    summary = await self._since_last_turn(rec, seat, records)
                    if summary:
                        private.append(Private(u, summary, None, prefs[u].dm))
        text = clip("\n".join(lines))
        image = await self._image(rec.game, public, None) if self.settings.images else None
        return Reply(text, image=image, mentions=mentions, private=private, choices=choices,
                     game_id=rec.game, table_id=rec.id, version=rec.version)

    async def _since_last_turn(self, rec: TableRecord, seat: int, fresh: list[ActionRecord]) -> str:
        last = int(rec.meta.get("last_seq", {}).get(str(seat), 0))
        rows = [r for r in await self.storage.actions(rec.id, after=last) if not r.undone and r.seat != seat]
        if not rows:
            return ""
        lines = ["Since your last turn:"]
        for r in rows[-20:]:
            lines.append(f"- {self._seat_name(rec, r.seat)}: `{shown(self._game(rec), r.action)}`" +
                         (" — " + sentences(r.events) if r.events else ""))
        game = self._game(rec)
        state = await self._state(rec)
        lines.append("Your legal actions: " + choices_text(game.legal_actions(state, seat), 25))
        return clip("\n".join(lines), 1500)

    def _reminders(self, rec: TableRecord, state: Any, old: list[ReminderRecord], now: float, *,
                   actor: int | None, acted: set[int] | None = None) -> list[ReminderRecord]:
        """Who must act now gets a reminder `remind_every` from now; one who still
        must act and did not act keeps their running reminder and its count."""
        game = self._game(rec)
        if game.is_over(state) or rec.remind_every <= 0:
            return []
        acted = acted or set()
        kept = {r.user: r for r in old}
        out = []
        for user in self._acting_users(rec, game.to_act(state)):
            seat = rec.seat_of(user).seat  # type: ignore[union-attr]
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
        image = await self._image(rec.game, view, None) if self.settings.images else None
        head = f"{game.title}, move {rec.meta.get('seq', 0)}"
        choices: dict[int, list[str]] = {}
        if rec.status == "active":
            acting = game.to_act(state)
            head += "; waiting for " + names(self._acting_names(rec, acting))
            for user in self._acting_users(rec, acting):
                choices[user] = game.legal_actions(state, rec.seat_of(user).seat)  # type: ignore[union-attr]
        text = head + ".\n" + (image.alt if image else view_text(view))
        return Reply(clip(text), image=image, choices=choices, **self._ids(rec))

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
                raise Refusal(f"`log [n]` takes a number of moves, 1 or more, written in digits 0-9 (at most 50 are shown), "
                              f"not {quote(args[0], 20)}.", **self._ids(rec))
            count = min(int(args[0]), 50)
        rows = await self.storage.actions(rec.id)
        if not rows:
            return Reply("No moves yet.", **self._ids(rec))
        lines = [f"Last {min(count, len(rows))} of {len(rows)} log lines:"]
        for r in rows[-count:]:
            mark = " (undone)" if r.undone else ""
            via = {"skip": " [skipped by vote]", "auto": " [resigned]"}.get(r.via, "")
            events = (" — " + sentences(r.events)) if r.events else ""
            if r.damaged:
                events = " — (log line damaged: what happened cannot be read; the move itself is kept)"
            lines.append(f"#{r.seq} {self._seat_name(rec, r.seat)}: `{shown(self._game(rec), r.action)}`{via}{mark}{events}")
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
