"""Planned moves (issue 51): moves a player queues for their coming decisions, played for them
the moment their decision comes, in the commit that hands it to them.

A game played by message costs a round trip of hours per decision; much of a turn is known in
advance ("next turn I take the tax card"). `plan <move>[; <move> ...]` queues such moves, `plan`
shows the queue, `plan clear` empties it; all three are answered privately.

When a commit hands a seat its decision (`play_due`, called by `Moves.commit_moves` before it
stores anything), the seat's first planned move is played if it is legal now and, when it was
picked from a described choice, the same move still has the same label; it is logged with the
mark `[planned]` (turns.py). Otherwise nothing is played, the whole queue is dropped and the
player is told which move no longer fits and the engine's own reason. The queues are written in
that same version-checked commit (`Change.plans`), so two processes never play a plan twice.

What is refused at once: a text that can never be a move of this game (the game's own parser:
none of its verbs), and a typed move that picks by position in a list whose order can change
(`draft 1`, `take progress 1`): such a move is planned only from a described choice (panel, web),
whose label is kept with it. A plan is private: it is read only here and in its owner's replies.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from engine.core import Choice, Game, IllegalAction, canonical, match, refers_of, resolve

from ..storage.base import Change, PlanRecord, TableRecord
from .core import Ctx, Tables
from .meta import TableMeta
from .refusal import Refusal
from .reply import Private, Reply
from .reveal import reveals
from .steps import Steps
from .text import clip, neutral, quote

if TYPE_CHECKING:
    from ..storage.base import ActionRecord
    from .turns import Turn


class Mover(Protocol):
    """What a planned move needs of the moves part (moves.py's `Moves`) to join a commit:
    its log line, and the automatic steps after it."""

    def record(
        self, rec: TableRecord, step: Any, seat: int, action: str, via: str, user: int | None, now: float
    ) -> ActionRecord: ...

    def autoplay(
        self,
        rec: TableRecord,
        game: Game,
        state: Any,
        records: list[ActionRecord],
        now: float,
        turn: Turn | None = None,
        places: dict[int, tuple[str, ...]] | None = None,
    ) -> Any: ...


#: The most moves a player's queue at one table holds.
MAX_PLANNED = 20

#: The most legal actions tried to learn whether the next decision is known (`next_choices`).
NEXT_LIMIT = 40

#: How a planned move's log line is marked (turns.VIA_MARKS: `[planned]`).
PLANNED = "planned"

#: Moves that pick by a position in a list whose order can change, per game: typed, they could
#: come to mean another thing, so they are planned only from a described choice (with its label).
POSITIONAL: dict[str, tuple[str, ...]] = {"mosaic": ("draft",), "rise-of-empires": ("take progress",)}


@dataclass
class Planned:
    """What `play_due` did to a commit's planned moves: each changed queue by user (for
    `Change.plans`) and the notices of queues dropped (private to their owners)."""

    queues: dict[int, list[PlanRecord]] = field(default_factory=dict)
    dropped: list[Private] = field(default_factory=list)


def positional(game_id: str, action: str) -> bool:
    """Does `action` pick by a number in a list (`draft 1`), not by a name?"""
    for prefix in POSITIONAL.get(game_id, ()):
        rest = action[len(prefix) :].strip() if action.startswith(prefix + " ") else ""
        if rest.isdigit():
            return True
    return False


def split_moves(text: str) -> list[str]:
    """`a; b ;c` -> [`a`, `b`, `c`]; empty parts are dropped."""
    return [part.strip() for part in text.split(";") if part.strip()]


class Plans:
    """The plan commands, and the planned moves played (or dropped) at a handover."""

    def __init__(self, tables: Tables) -> None:
        self.tables = tables
        self.storage = tables.storage

    # ------------------------------------------------------------- commands
    async def command(self, ctx: Ctx, args: list[str]) -> Reply:
        """`plan` (the queue), `plan clear`, `plan <move>[; <move> ...]` (typed: no labels)."""
        text = neutral(" ".join(args)).strip()
        if not text:
            return await self.show(ctx)
        if text.lower() == "clear":
            return await self.replace(ctx, [], said="Your plan here is empty now.")
        moves = split_moves(text)
        if not moves:
            raise Refusal("An empty plan: write the moves after `plan`, separated by `;` (`plan take 1; draw`).")
        return await self.plan(ctx, [(move, None) for move in moves])

    async def plan(self, ctx: Ctx, moves: list[tuple[str, str | None]]) -> Reply:
        """Queue `moves` (each `(action, label)`: the label of the described choice it was
        picked from, None when typed) after the caller's planned moves at the table. The front
        door for the panel's "Plan my next move" and the web page's sandbox."""
        rec, seat, game, state = await self._seat(ctx)
        queue = (await self.storage.plans(rec.id)).get(ctx.user, [])
        if not moves:
            raise Refusal("An empty plan: give at least one move to plan.", **self.tables.ids(rec))
        if len(queue) + len(moves) > MAX_PLANNED:
            raise Refusal(
                f"A plan holds at most {MAX_PLANNED} moves; you have {len(queue)} planned and gave {len(moves)}. "
                "Nothing was planned.",
                **self.tables.ids(rec),
            )
        added = [PlanRecord(self.readable(rec, game, state, seat, m, label), label, ctx.now) for m, label in moves]
        words = "Planned" if not queue else "Added to your plan"
        return await self.replace(ctx, queue + added, said=f"{words}: " + ", ".join(f"`{p.action}`" for p in added))

    async def show(self, ctx: Ctx) -> Reply:
        rec, *_ = await self._seat(ctx)
        queue = (await self.storage.plans(rec.id)).get(ctx.user, [])
        return self._private(ctx, rec, queue, "Your plan here:" if queue else "")

    async def queue_of(self, rec: TableRecord, user: int) -> list[str]:
        """`user`'s planned moves at the table, for their own panel alone."""
        if TableMeta.of(rec).planned is False:
            return []  # nobody has planned since the last handover found no plan: no read
        return [p.action for p in (await self.storage.plans(rec.id)).get(user, [])]

    async def replace(self, ctx: Ctx, queue: list[PlanRecord], *, said: str) -> Reply:
        """Store the caller's queue (guarded by the table's revision: a handover committing at
        the same moment makes this run again on what it left) and answer privately."""
        rec, *_ = await self._seat(ctx)
        ctx.based_on = rec.version
        meta = TableMeta.of(rec)
        if queue:
            meta.planned = True  # the handovers read the plans again
        change = Change(bump=False, plans={ctx.user: queue}, meta=meta.to_json() if queue else None)
        await self.tables.commit(rec, change, ctx.now)
        return self._private(ctx, rec, queue, said)

    def _private(self, ctx: Ctx, rec: TableRecord, queue: list[PlanRecord], said: str) -> Reply:
        lines = [said] if said else []
        if queue:
            lines.append(plan_text(queue))
        else:
            lines.append("You have no moves planned here. `plan <move>; <move>` plans your coming decisions.")
        player = rec.seat_of(ctx.user)
        reply = Reply("", **self.tables.ids(rec))
        reply.private.append(Private(ctx.user, clip("\n".join(lines)), None, False, player.name if player else ""))
        return reply

    async def _seat(self, ctx: Ctx) -> tuple[TableRecord, int, Game, Any]:
        """The caller's running table, seat, game and position (a refusal otherwise)."""
        rec = await self.tables.table(ctx, need=("active", "paused"))
        player = self.tables.player(ctx, rec)
        if player.bot:
            raise Refusal(
                f"A bot plays your seat now ({player.bot}); it plans nothing. Say `game back` to take it back.",
                **self.tables.ids(rec),
            )
        assert player.seat is not None
        game = self.tables.game(rec)
        return rec, player.seat, game, await self.tables.state(rec)

    def readable(self, rec: TableRecord, game: Game, state: Any, seat: int, move: str, label: str | None) -> str:
        """`move` as the log will write it, or a refusal saying why it can never be played."""
        text = canonical(neutral(move))
        legal = game.legal_actions(state, seat) if seat in game.to_act(state) else []
        known = resolve(text, legal) or resolve(f"play {text}", legal)
        if known:
            text = known
        try:
            text = match(text, legal, known_verbs=getattr(game, "verbs", ()))
        except IllegalAction as err:
            if err.kind == "unreadable":
                verbs = ", ".join(f"`{v}`" for v in getattr(game, "verbs", ()))
                raise Refusal(
                    f"{quote(move, 60)} is no move of {game.title}: its moves begin with {verbs}. Nothing was planned.",
                    **self.tables.ids(rec),
                ) from None
        if label is None and positional(rec.game, text):
            raise Refusal(
                f"{quote(move, 60)} picks by a number in a list whose order can change, so it could come to mean "
                "another thing. Plan it from your turn panel or your seat's page, where the choice is named. "
                "Nothing was planned.",
                **self.tables.ids(rec),
            )
        return text

    # -------------------------------------------------------------- handover
    async def play_due(self, ctx: Ctx, rec: TableRecord, game: Game, steps: Steps, moves: Mover) -> Planned:
        """Play the planned moves of every person whose decision `steps` brings (a seat acting
        after them that was not acting before, or that moved in them), one per decision, with
        the automatic steps after each; drop a queue whose first move no longer fits. Changes
        `steps` in place; the queues go into the commit (`Planned.queues`)."""
        done = Planned()
        if not steps.records or rec.status != "active" or game.is_over(steps.after):
            return done
        people = {s.seat: s for s in rec.players if s.seat is not None and not s.bot and not s.resigned}
        before, movers = set(game.to_act(steps.before)), {r.seat for r in steps.records}
        if not any(s in people and (s not in before or s in movers) for s in game.to_act(steps.after)):
            return done  # no person's decision comes: the plans are not even read
        if TableMeta.of(rec).planned is False:
            return done  # nobody has planned since a handover found no plan here: not read either
        queues = await self.storage.plans(rec.id)
        if not any(queues.get(p.user) for p in people.values()):
            self._planned(rec, any(queues.values()))
            return done
        for _ in range(MAX_PLANNED * len(people) + 1):
            state = steps.after
            if game.is_over(state):
                break
            acting = game.to_act(state)
            due = [s for s in acting if s in people and queues.get(people[s].user) and (s not in before or s in movers)]
            if not due:
                break
            player = people[due[0]]
            queue = queues[player.user]
            queues[player.user] = done.queues[player.user] = queue[1:]
            why = self.unfit(game, state, due[0], queue[0])
            if why:
                queues[player.user] = done.queues[player.user] = []
                done.dropped.append(self._dropped(ctx, player.user, player.name, queue, why))
                continue
            count = len(steps.records)
            self._play(ctx, rec, game, steps, moves, due[0], player.user, queue[0])
            before, movers = set(acting), {r.seat for r in steps.records[count:]}
        self._planned(rec, any(queues.values()))
        return done

    @staticmethod
    def _planned(rec: TableRecord, left: bool) -> None:
        """Mark in the table's meta, committed with the handover, whether any plan is left: a
        table without one (nearly every table, nearly always) reads no plans at its next
        handovers or panels, until someone plans (`replace`)."""
        meta = TableMeta.of(rec)
        meta.planned = left
        rec.meta = meta.to_json()

    def _play(
        self, ctx: Ctx, rec: TableRecord, game: Game, steps: Steps, moves: Mover, seat: int, user: int, plan: PlanRecord
    ) -> None:
        """Apply one planned move (known to fit) and the automatic steps after it to `steps`."""
        state = steps.after
        legal = game.legal_actions(state, seat)
        action = match(plan.action, legal, known_verbs=getattr(game, "verbs", ()))
        step = game.apply(state, seat, action)
        steps.records.append(moves.record(rec, step, seat, action, PLANNED, user, ctx.now))
        if steps.places is not None:
            steps.places[steps.records[-1].seq] = refers_of(game, state, seat, action)
        if steps.turn is not None:
            steps.turn.step(game.to_act(step.state))
        steps.after = moves.autoplay(rec, game, step.state, steps.records, ctx.now, steps.turn, steps.places)

    @staticmethod
    def unfit(game: Game, state: Any, seat: int, plan: PlanRecord) -> str | None:
        """Why `plan` cannot be played now (the engine's own refusal, or its label changed), or None."""
        legal = game.legal_actions(state, seat)
        try:
            action = match(plan.action, legal, known_verbs=getattr(game, "verbs", ()))
            game.apply(state, seat, action)
        except IllegalAction as err:
            return str(err)
        if plan.label is not None:
            now = next((c.label for c in game.choices(state, seat) if c.action == action), None)
            if now != plan.label:
                was = quote(plan.label, 60)
                return f"`{action}` is now {quote(now or 'unnamed', 60)}, not {was} as when you planned it."
        return None

    @staticmethod
    def _dropped(ctx: Ctx, user: int, name: str, queue: list[PlanRecord], why: str) -> Private:
        """The notice of a dropped queue: only its owner reads it (by direct message when it
        is someone else's commit: their notification)."""
        text = (
            f"Your planned move `{queue[0].action}` no longer fits, so nothing was played for you and your plan "
            f"({len(queue)} move{'s' if len(queue) != 1 else ''}) was dropped: {why}"
        )
        return Private(user, clip(text, 1500), None, user != ctx.user, name)


def next_choices(game: Game, state: Any, seat: int, players: list[str]) -> list[Choice]:
    """`seat`'s next decision of its own turn, when it is the same whatever the seat picks now
    and no pick reveals anything (reveal.py: no card drawn, no die rolled): then it is known
    from what the seat knows, and may be planned ("Plan my next move"). [] otherwise."""
    if seat not in game.to_act(state):
        return []
    legal = game.legal_actions(state, seat)
    if not legal or len(legal) > NEXT_LIMIT:
        return []
    known: list[Choice] | None = None
    afters: list[Any] = []
    for action in legal:  # the cheap tests first: most decisions fail them at the second action
        after = game.apply(state, seat, action).state
        if game.is_over(after) or game.to_act(after) != [seat]:
            return []
        choices = game.choices(after, seat)
        if len(choices) < 2 or (known is not None and choices != known):
            return []
        known, afters = choices, [*afters, after]
    if any(reveals(game, state, after, seat, players) for after in afters):
        return []
    return known or []


def panel_line(planned: list[str]) -> str:
    """The line of a turn panel about its user's plan ("" with none)."""
    if not planned:
        return ""
    moves = ", ".join(f"`{a}`" for a in planned)
    return f"Planned for your coming decisions: {moves} (`plan clear` empties it)."


def plan_text(queue: list[PlanRecord]) -> str:
    """The queue as its owner reads it: one numbered line per move, its label beside it."""
    return "\n".join(
        f"{i}. `{p.action}`" + (f" ({p.label})" if p.label else "") + (" (next)" if i == 1 else "")
        for i, p in enumerate(queue, 1)
    )
