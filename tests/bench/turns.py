"""Turn-level play, counted: `python -m tests.bench turns <game-id> [--players N] [--games N]`.

Plays complete random games through the service (a temporary SQLite file, every
reply built as for Discord, boards counted by a renderer that draws nothing) and
prints per game: steps in the log, decisions (steps a player chose: with more than
one legal action), automatic steps (exactly one legal action, played by the
service), handovers (commands after which a seat that was not acting must act, or
the game ended), channel posts, boards drawn, pings, and pings of a player who was
already acting. Targets (issue 12): posts and boards = handovers + the start;
pings of a player already acting = 0; decisions per handover at least 25% fewer
than the steps per handover measured before turn-level play (Rise of Empires 2.6,
Cradle 3.7; `--before` prints today's engine without the service's automatic steps
for comparison: `python -m tests.bench steps`).

Text lengths (issue 25 §3), median and p95 in characters:
- the acting player's panel: what they read before each decision, as the service
  writes it for the terminal and scripts — within a turn the private text of the panel
  their last step answered, at the start of a turn the "since your last turn" summary and
  the panel that `play` without an action opens (Discord lays its panel out from the
  decision itself: `python -m tests.bench discord turns` measures that one, issue 26);
- the handover post: the public text of every channel post (the start and each turn);
- the panel as the terminal and scripts print it: with the decision's choices written
  out (`telling.choice_lines`), since they have no menu.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.storage import TableRecord

#: Steps per handover before issue 12 (random play through /play, from the issue).
BEFORE = {"rising-cultures": 1.9, "rise-of-empires": 2.6, "cradle": 3.7, "mosaic": 1.8}
#: The games the issue sets the decisions target for.
TARGETED = ("rise-of-empires", "cradle")


@dataclass
class Picture:
    png: bytes = b"\x89PNG"
    alt: str = "board"


def user_in(rec: TableRecord, seat: int) -> int:
    """The user in `seat` of a game under way (every seat is taken)."""
    player = rec.user_at(seat)
    assert player is not None, f"no player in seat {seat}"
    return player.user


@dataclass
class Counts:
    games: int = 0
    steps: int = 0
    decisions: int = 0
    automatic: int = 0
    handovers: int = 0
    posts: int = 0
    boards: int = 0
    pings: int = 0
    pings_acting: int = 0
    commands: int = 0
    #: Characters of each panel an acting player read before a decision, and of each post.
    panel_lengths: list[int] = field(default_factory=list)
    post_lengths: list[int] = field(default_factory=list)
    terminal_lengths: list[int] = field(default_factory=list)


def spread(lengths: list[int]) -> str:
    """`median 412, p95 1,180 (n = 312)`: the middle and the 95th percentile of `lengths`."""
    if not lengths:
        return "none"
    ordered = sorted(lengths)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return f"median {statistics.median(ordered):,.0f}, p95 {p95:,} (n = {len(ordered)})"


def private_text(reply, user: int) -> str:
    return "\n".join(p.text for p in reply.private_for(user))


def with_choices(reply, user: int) -> str:
    """The panel of `reply` as the terminal prints it: its text, then the choices."""
    from bot.service.telling import choice_lines

    decision = reply.decisions.get(user)
    return "\n".join([private_text(reply, user), *(choice_lines(decision) if decision else [])])


async def play_one(game_id: str, players: int, seed: int, counts: Counts, folder: Path) -> None:
    import engine
    from bot.service import Service, Settings
    from bot.storage import SQLiteStorage

    game = engine.get(game_id)

    def renderer(gid: str, view: dict, seat: int | None = None, part: str | None = None, highlight=()) -> Picture:
        if seat is None and part != "tables":
            counts.boards += 1
        return Picture()

    storage = SQLiteStorage(folder / f"{game_id}-{players}-{seed}.sqlite", durable=False)
    await storage.open()
    service = Service(storage, settings=Settings(images=True), renderer=renderer)
    channel = seed + 1
    names = {u: f"p{u}" for u in range(1, players + 1)}

    async def say(user: int, line: str):
        return await service.handle(channel, user, names[user], line)

    await say(1, f"game new {game_id} seed={seed}")
    for user in range(2, players + 1):
        await say(user, "game join")
    start = await say(1, "game start")
    counts.posts += 1
    counts.post_lengths.append(len(start.text))
    panel_of: dict[int, tuple[str, str]] = {}  # the panel a user's last step left open, and with its choices
    counts.pings += len(start.mentions)
    rng = random.Random(seed)
    for _ in range(20_000):
        rec = await storage.open_table(channel)
        if rec is None:
            break
        state = await service.tables.state(rec)
        acting = game.to_act(state)
        seat = rng.choice(acting)
        user = user_in(rec, seat)
        acting_users = {user_in(rec, s) for s in acting}
        seen = len(await storage.actions(rec.id))
        panel, listed = panel_of.pop(user, ("", ""))
        if not panel:  # a turn starts: the news and the panel "Take your turn" opens
            news = await service.since_last_turn(channel, user)
            opened = await say(user, "play")
            panel = "\n".join(t for t in (news, private_text(opened, user)) if t)
            listed = "\n".join(t for t in (news, with_choices(opened, user)) if t)
        counts.panel_lengths.append(len(panel))
        counts.terminal_lengths.append(len(listed))
        reply = await say(user, "play " + rng.choice(game.legal_actions(state, seat)))
        assert not reply.error, reply.text
        panel_of.clear()
        if reply.panel:
            panel_of[user] = (private_text(reply, user), with_choices(reply, user))
        counts.commands += 1
        rows = (await storage.actions(rec.id))[seen:]
        after = await service.replay(rec.id)
        now = set(game.to_act(after))
        if (now - set(acting)) or any(r.seat not in acting for r in rows) or game.is_over(after):
            counts.handovers += 1
        if reply.text and not reply.panel:
            counts.posts += 1
            counts.post_lengths.append(len(reply.text))
        counts.pings += len(reply.mentions)
        counts.pings_acting += len(set(reply.mentions) & acting_users)
        if game.is_over(after):
            break
    last = await storage.latest_table(channel)
    assert last is not None, "the game just played is stored"
    rows = await storage.actions(last.id)
    counts.steps += len(rows)
    counts.decisions += sum(1 for r in rows if not r.via)
    counts.automatic += sum(1 for r in rows if r.via == "forced")
    counts.games += 1
    await storage.close()


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m tests.bench turns", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("game", help="game id, e.g. rise-of-empires")
    ap.add_argument("--players", type=int, default=None, help="player count (default: the game's minimum)")
    ap.add_argument("--games", type=int, default=10, help="complete random games to play")
    ap.add_argument("--seed", type=int, default=0, help="first seed")
    args = ap.parse_args(argv)

    import engine

    game = engine.get(args.game)
    players = args.players or game.min_players
    counts = Counts()

    async def run() -> None:
        with tempfile.TemporaryDirectory(prefix="epochs-turns-") as tmp:
            for i in range(args.games):
                await play_one(args.game, players, args.seed + i, counts, Path(tmp))

    asyncio.run(run())
    g, per = max(counts.games, 1), max(counts.handovers, 1)
    print(f"{args.game}, {players} players, {counts.games} complete random games through the service")
    for label, value in (
        ("steps", counts.steps),
        ("decisions", counts.decisions),
        ("automatic", counts.automatic),
        ("handovers", counts.handovers),
        ("channel posts", counts.posts),
        ("boards drawn", counts.boards),
        ("pings", counts.pings),
        ("pings of a player already acting", counts.pings_acting),
    ):
        print(f"  {label + ':':<34}{value / g:9.1f} a game")
    before = BEFORE.get(args.game)
    print(
        f"  steps per handover:               {counts.steps / per:9.2f}"
        + (f"   (before turn-level play: {before})" if before else "")
    )
    target = (
        f"   (target <= {before * 0.75:.2f}: 25% fewer than {before} steps per handover before)"
        if args.game in TARGETED and before
        else ""
    )
    print(f"  decisions per handover:           {counts.decisions / per:9.2f}{target}")
    print(
        f"  posts - handovers - 1 (start):    {(counts.posts - counts.handovers - counts.games) / g:9.1f} a game"
        "   (target 0)"
    )
    print(f"  boards - posts:                   {(counts.boards - counts.posts) / g:9.1f} a game   (target 0)")
    print(f"  panel text, characters:           {spread(counts.panel_lengths)}")
    print(f"  handover post text, characters:   {spread(counts.post_lengths)}")
    print(f"  panel with its choices (terminal): {spread(counts.terminal_lengths)}")
    return 0
