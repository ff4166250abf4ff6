"""Clocks with a time bank and time away (issue 27 §1, §2, §5), on SQLite and PostgreSQL.

The fake race's seats: ann (user 1) is A and acts first, bob (user 2) is B. Times are the
conftest clock's (2026-01-01 12:00 UTC at the start), moved by hand.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

import pytest

from bot.service import Service
from bot.service.clocks import TableClock
from bot.service.meta import TableMeta
from bot.storage import StaleWrite, Storage, open_storage
from tests.conftest import database_url

from .conftest import CHANNEL, GAMES, GUILD, Clock, Table

pytestmark = pytest.mark.both_backends  # clocks live in the stored game: run on SQLite and PostgreSQL

H = 3600.0
D = 24 * H
M = 60.0


async def start(table: Table, clock: str, *, channel: int = CHANNEL, guild: int = GUILD, users=(1, 2)):
    """A fake race with `clock` (the game's and the table's options), started in seat order."""
    await table.ok(users[0], f"game new fake-race seed=7 pile=20 {clock}", channel=channel, guild=guild)
    for user in users[1:]:
        await table.ok(user, "game join", channel=channel, guild=guild)
    return await table.ok(users[0], "game start fixed", channel=channel, guild=guild)


async def banks(table: Table, channel: int = CHANNEL) -> dict[int, float | None]:
    """Each seat's time left now (None once run out), as the players read it."""
    rec = await table.storage.open_table(channel)
    assert rec is not None
    out: dict[int, float | None] = {}
    for player in rec.players:
        assert player.seat is not None
        left, _ = await table.service.tables.timers.clock_of(rec, player.seat, player.user, table.clock.now, away=False)
        out[player.seat] = left
    return out


async def clock_meta(table: Table, channel: int = CHANNEL) -> TableClock:
    rec = await table.storage.open_table(channel)
    assert rec is not None
    found = TableMeta.of(rec).table_clock()
    assert found is not None
    return found


async def wait(table: Table, hours: float, step: float = 1.0) -> list[str]:
    """Move the clock on hour by hour (`step`), running what falls due on the way."""
    texts: list[str] = []
    for _ in range(round(hours / step)):
        table.clock.advance(step)
        texts.extend(await due(table))
    return texts


def simple_bots(table: Table) -> None:
    """Bots for the fake race (which has none): a bot plays the first legal action."""

    async def decide(rec, game, state, seat, level, seed):
        return game.legal_actions(state, seat)[0]

    table.service.bots.bots_available = lambda game_id: True  # type: ignore[method-assign]
    table.service.bots.bot_decision = decide  # type: ignore[method-assign]


async def due(table: Table) -> list[str]:
    """Run what fell due (`tick`), let the bots move, and return the texts of the new notices
    (each private part as `[dm to N] text`), marking them delivered."""
    texts: list[str] = []
    for _ in range(20):
        notices = await table.service.tick()
        for n in notices:
            texts.append(n.reply.text)
            texts.extend(f"[dm to {p.user}] {p.text}" for p in n.reply.private if p.dm)
            await table.service.delivered(n.id)
        await table.service.settle_bots()
        if not notices:
            break
    return texts


# ---- §1 the option ---------------------------------------------------------------------------
async def test_1_a_clock_is_an_option_of_game_new_with_its_bonus_and_cap(table):
    opened = await table.ok(1, "game new fake-race clock=3d")
    assert "Clock: 3d, +1d a move, at most 3d." in opened.text
    rec = await table.storage.open_table(CHANNEL)
    assert rec.options == {} and TableMeta.of(rec).table_clock().control.to_json() == {
        "bank": 3 * D,
        "bonus": D,
        "cap": 3 * D,
    }
    await table.ok(1, "game cancel")
    opened = await table.ok(1, "game new fake-race clock=2d clock_bonus=12h clock_cap=4d stand_in=strong")
    assert "Clock: 2d, +12h a move, at most 4d." in opened.text
    rec = await table.storage.open_table(CHANNEL)
    assert rec.meta["stand_in"] == "strong" and TableMeta.of(rec).table_clock().control.cap == 4 * D
    await table.ok(1, "game cancel")
    for line, says in (
        ("clock=3", "a time with its unit"),
        ("clock=61d", "to 60 days"),
        ("clock=30m", "from 1h"),
        ("clock=3d clock_cap=1d", "at least the starting bank (3d)"),
        ("clock_bonus=1d", "`clock_bonus=` sets up a clock"),
        ("clock=1d stand_in=wizard", "easy, normal or strong"),
    ):
        await table.refused(1, f"game new fake-race {line}", contains=says)
    assert await table.storage.open_table(CHANNEL) is None  # a refusal opens nothing
    opened = await table.ok(1, "game new fake-race clock=off")
    assert "Clock" not in opened.text and TableMeta.of(await table.storage.open_table(CHANNEL)).table_clock() is None


async def test_1_a_table_without_the_option_has_the_servers_default_and_a_practice_game_none(table):
    table.service.settings.clock_bank = 2 * D  # [clocks] default = "2d"
    assert "Clock: 2d, +1d a move, at most 2d." in (await table.ok(1, "game new fake-race")).text
    await table.ok(1, "game cancel")
    assert "Clock" not in (await table.ok(1, "game new fake-race seed=3")).text  # practice: no clock
    await table.ok(1, "game cancel")
    assert "Clock: 1d," in (await table.ok(1, "game new fake-race seed=3 clock=1d")).text  # unless asked
    await table.ok(1, "game cancel")
    assert "Clock" not in (await table.ok(1, "game new fake-race clock=off")).text


# ---- §1 running, the bonus and the cap ---------------------------------------------------------
async def test_1_a_seats_clock_runs_while_it_must_act_and_a_move_adds_the_bonus_up_to_the_cap(table, clock):
    started = await start(table, "clock=2d clock_bonus=12h clock_cap=3d")
    assert "⏳ ann, 2d left" in started.text and started.headline.acting[0].time_left == 2 * D
    clock.advance(5)
    assert await banks(table) == {0: 2 * D - 5 * H, 1: 2 * D}
    status = await table.ok(2, "game status")
    assert "Clock (2d, +12h a move, at most 3d): ann (A) 1d 19h (running), bob (B) 2d." in status.text
    moved = await table.ok(1, "play take 1")
    assert "⏳ bob, 2d left" in moved.text  # the handover post: "cy, 2d 4h left"
    assert await banks(table) == {0: 2 * D - 5 * H + 12 * H, 1: 2 * D}
    clock.advance(24)
    panel = await table.ok(2, "play")
    assert panel.decisions[2].time_left == D and "⏳ 1d left on your clock." in panel.private[0].text
    await table.ok(2, "play take 1")
    assert await banks(table) == {0: 2 * D + 7 * H, 1: D + 12 * H}  # ann's clock did not run meanwhile
    clock.advance(1)
    await table.ok(1, "play take 1")
    clock.advance(1)
    await table.ok(2, "play take 1")
    await table.ok(1, "play take 1")  # 2d 18h, then + 12h: capped at 3d
    assert (await banks(table))[0] == 3 * D


async def test_1_in_simultaneous_steps_every_acting_seats_clock_runs(table, clock):
    await start(table, "clock=1d bids=true")
    clock.advance(3)
    assert await banks(table) == {0: 21 * H, 1: 21 * H}
    await table.ok(1, "play bid 1")  # ann's part is done: her bonus; bob's clock runs on
    clock.advance(2)
    assert await banks(table) == {0: D, 1: 19 * H}
    await table.ok(2, "play bid 2")
    clock.advance(1)
    assert await banks(table) == {0: 23 * H, 1: D}


async def test_1_a_move_in_several_steps_earns_one_bonus_when_the_turn_is_over(table, clock):
    """A turn of several steps is one move: the bonus comes when the seat stops acting."""
    await start(table, "clock=1d clock_bonus=6h bids=true")
    clock.advance(4)
    await table.ok(1, "play bid 1")
    await table.ok(2, "play bid 1")  # now ann's turn; her bank 1d (20h + 6h, capped)
    clock.advance(10)
    await table.ok(1, "play take 1")
    assert (await banks(table))[0] == 20 * H  # 1d - 10h + 6h


# ---- §1 warnings ----------------------------------------------------------------------------------
async def test_1_warnings_come_at_24_hours_and_2_hours_left_once_each(table, clock):
    await start(table, "clock=2d clock_bonus=0m remind=720")
    clock.advance(24 - 1 / 60)
    assert await due(table) == []
    clock.advance(1 / 60)
    (warning,) = await due(table)
    assert warning.startswith(
        "⏳ ann, 1d left on your clock in the Fake Race game here: it runs out Saturday 12:00 UTC"
    )
    assert await due(table) == []
    clock.advance(22 - 1 / 60)
    assert await due(table) == []
    clock.advance(1 / 60)
    (second,) = await due(table)
    assert second.startswith("⏳ ann, 2h left on your clock")
    clock.advance(1)
    assert await due(table) == []  # each once


async def test_1_a_warning_never_comes_in_quiet_hours_but_before_they_start(table, clock):
    """The clock starts at 12:00 UTC with 1d 12h: 24 h are left at 00:00, inside ann's quiet
    hours 22-7, so that warning goes at 21:00; 2 h are left at 22:00 the next day, again quiet:
    at 21:00. Nothing ever comes between 22:00 and 07:00."""
    await table.ok(1, "settings quiet 22-7 utc+0")
    await start(table, "clock=1d12h clock_bonus=0m remind=720")
    sent: list[tuple[float, str]] = []
    for _ in range(36 * 4):  # every quarter of an hour up to the bank's end
        clock.advance(0.25)
        sent.extend((clock.now, text) for text in await due(table))
    hours = [((when - 1767268800.0) / H, text) for when, text in sent]
    assert hours[0][0] == 9.0 and hours[0][1].startswith("⏳ ann, 1d 3h left")  # 21:00, before the quiet hours
    assert hours[1][0] == 33.0 and hours[1][1].startswith("⏳ ann, 3h left")  # 21:00 the next day
    assert "clock ran out" in hours[2][1] and hours[2][0] == 36.0
    for when, _ in sent[:2]:
        assert not (22 <= (when % D) / H or (when % D) / H < 7)


async def test_1_a_player_who_takes_turns_by_direct_message_is_warned_there(table, clock):
    await table.ok(1, "settings dm on")
    await start(table, "clock=1d12h remind=720")
    clock.advance(12)
    (text, dm) = await due(table)
    assert text == "" and dm.startswith("[dm to 1] ⏳ ann, 1d left on your clock")


# ---- §1 running out, `game back`, the votes ------------------------------------------------------
async def test_1_a_bank_that_runs_out_hands_the_seat_to_a_bot_until_game_back(table, clock):
    await start(table, "clock=2d clock_bonus=6h stand_in=easy remind=720")
    clock.advance(48 - 1 / 60)
    assert not [t for t in await due(table) if "ran out" in t]
    clock.advance(1 / 60)
    texts = await due(table)
    assert (
        "⌛ ann's clock ran out in the Fake Race game here: a bot (easy) plays their seat from now on, "
        "until ann says `game back`." in texts
    )
    rec = await table.storage.open_table(CHANNEL)
    assert rec.seat_of(1).bot == "easy"
    rows = await table.storage.actions(rec.id)
    assert [(r.seat, r.via) for r in rows] == [(0, "bot")]  # marked in the log as a stand-in's move
    assert "[bot]" in (await table.ok(2, "log")).text
    status = await table.ok(2, "game status")
    assert "ann (A) ran out (Saturday 12:00 UTC): a bot plays until `game back`" in status.text
    await table.ok(2, "play take 1")
    await due(table)  # the bot plays ann's turn again
    await table.refused(1, "play take 1", contains="A bot plays your seat now")
    back = await table.ok(1, "game back")
    assert "ann is back" in back.text
    assert (await banks(table))[0] == 6 * H  # the minimum bank: one move's bonus
    assert (await clock_meta(table)).seats[0].out is None


async def test_1_todays_votes_stay_beside_the_clock(table, clock):
    await start(table, "clock=5d remind=12")
    texts = await wait(table, 36)
    assert any("may `vote skip`" in t for t in texts)
    skipped = await table.ok(2, "vote skip")
    assert "voted to skip ann's turn" in skipped.text
    assert (await banks(table))[0] == 5 * D - 36 * H  # skipped, not moved: no bonus


@contextlib.asynccontextmanager
async def second_process(table: Table, clock: Clock) -> AsyncIterator[tuple[Service, Storage]]:
    """Another service on the table's database: a second process's worth."""
    other = open_storage(table.database)
    await other.open()
    second = Service(other, clock=clock, games=GAMES, settings=table.service.settings)
    try:
        yield second, other
    finally:
        await second.close_bots()
        await other.close()


async def test_1_a_bank_runs_out_once_even_when_two_processes_find_it(table, clock):
    """Two services on one database (two processes' worth) find the same bank run out: the
    hand-over is one commit guarded by the table's revision, so it is made and announced once."""
    await start(table, "clock=1d remind=720")
    async with second_process(table, clock) as (second, other):
        clock.advance(24)
        await table.service.tick()
        await second.tick()  # one after the other: the second finds the seat a bot's
        await table.service.settle_bots()
        await second.settle_bots()
        rec = await table.storage.open_table(CHANNEL)
        ran_out = [n for n in await table.service.pending_notices() if "ran out" in n.reply.text]
        assert len(ran_out) == 1 and rec.seat_of(1).bot
        # both read the table before either wrote: the second's write is refused, nothing twice
        await table.ok(1, "game back")
        clock.advance(24)
        mine, theirs = await table.storage.open_table(CHANNEL), await other.open_table(CHANNEL)
        rows = await table.storage.reminders(mine.id)
        await table.service.absence.run_out(mine, mine.seat_of(1), clock.now, rows)
        with pytest.raises(StaleWrite):
            await second.absence.run_out(theirs, theirs.seat_of(1), clock.now, rows)
        ran_out = [n for n in await table.service.pending_notices() if "ran out" in n.reply.text]
        assert len(ran_out) == 2  # the first time and this one: never a third


async def test_1_ticks_of_two_processes_racing_hand_a_seat_over_once(table, clock):
    await start(table, "clock=1d remind=720")
    async with second_process(table, clock) as (second, _):
        clock.advance(24)
        await asyncio.gather(table.service.tick(), second.tick())
        await table.service.settle_bots()
        await second.settle_bots()
        ran_out = [n for n in await table.service.pending_notices() if "ran out" in n.reply.text]
        assert len(ran_out) == 1
        rec = await table.storage.open_table(CHANNEL)
        assert [(r.seat, r.via) for r in await table.storage.actions(rec.id)] == [(0, "bot")]


# ---- §1 undo ------------------------------------------------------------------------------------------
async def test_1_an_undo_gives_back_the_time_the_undone_moves_used(table, clock):
    await start(table, "clock=3d clock_bonus=0m remind=720")
    clock.advance(10)
    await table.ok(1, "play take 1")
    clock.advance(5)
    assert await banks(table) == {0: 3 * D - 10 * H, 1: 3 * D - 5 * H}
    await table.ok(1, "undo")  # nobody acted since: alone
    assert await banks(table) == {0: 3 * D - 10 * H, 1: 3 * D}  # bob's 5 hours back, ann's clock runs again
    clock.advance(2)
    await table.ok(1, "play take 1")
    clock.advance(4)
    await table.ok(2, "play take 1")
    clock.advance(1)
    asked = await table.ok(1, "undo")  # bob acted since: with his approval
    assert "asks to take back" in asked.text
    clock.advance(1)
    await table.ok(2, "undo approve")
    assert await banks(table) == {0: 3 * D - 12 * H, 1: 3 * D}  # as they stood before ann's undone move
    clock.advance(3)
    assert await banks(table) == {0: 3 * D - 15 * H, 1: 3 * D}


# ---- pause, resume, a vote to replace ---------------------------------------------------------------
async def test_a_pause_stops_every_clock_and_resume_starts_them_again(table, clock):
    await start(table, "clock=2d remind=12")
    await wait(table, 36)
    await table.ok(2, "vote pause")
    clock.advance(100)
    assert await banks(table) == {0: 12 * H, 1: 2 * D}
    assert await due(table) == []
    await table.ok(2, "resume")
    clock.advance(2)
    assert await banks(table) == {0: 10 * H, 1: 2 * D}


async def test_a_seat_voted_to_a_bot_keeps_its_bank_for_game_back(table, clock):
    simple_bots(table)
    await start(table, "clock=3d clock_bonus=6h remind=12")
    await wait(table, 36)
    await table.ok(2, "vote replace")
    await due(table)
    clock.advance(50)
    await table.ok(1, "game back")
    assert (await banks(table))[0] in (3 * D - 36 * H, 3 * D)  # kept as it stood (its own turn or not)


async def test_bots_still_move_when_a_table_sends_no_reminders(table, clock):
    """`settings remind off` stops people's reminders; a bot to act still gets its row and moves."""
    simple_bots(table)
    await table.ok(1, "game new fake-race seed=7 pile=20")
    await table.ok(1, "game bot easy")
    await table.ok(1, "game start fixed")
    await table.ok(1, "settings remind off")
    await table.ok(1, "play take 1")
    await due(table)
    rec = await table.storage.open_table(CHANNEL)
    assert [r.via for r in await table.storage.actions(rec.id)] == ["", "bot"]


# ---- §2 time away ----------------------------------------------------------------------------------
async def test_2_away_stops_every_clock_of_the_player_in_every_server(table, clock):
    await start(table, "clock=2d remind=8", channel=100, guild=7)
    await start(table, "clock=3d remind=8", channel=200, guild=8)
    clock.advance(5)
    away = await table.ok(1, "away 2d beach", channel=999, guild=None)  # from anywhere, a DM too
    assert "You are away until Saturday 17:00 UTC (beach)" in away.text and "2d of 21 days" in away.text
    clock.advance(24)
    assert (await banks(table, 100))[0] == 2 * D - 5 * H and (await banks(table, 200))[0] == 3 * D - 5 * H
    assert await due(table) == []  # reminders wait while ann is away
    status = await table.ok(2, "game status", channel=200, guild=8)
    assert "Away (their clocks stand still): ann until Saturday 17:00 UTC (beach)." in status.text
    assert "ann (A) 2d 19h (stands still: away)" in status.text and "(running)" not in status.text
    board = await table.ok(2, "board", channel=100, guild=7)
    assert board.headline.acting[0].away_until == clock.now + D and board.headline.acting[0].away_note == "beach"
    clock.advance(24)  # the time away is over: the reminders that waited come, the clocks run
    texts = await due(table)
    assert sum("Reminder 1: ann" in t for t in texts) == 2
    clock.advance(1)
    assert (await banks(table, 100))[0] == 2 * D - 6 * H


async def test_2_away_off_starts_the_clocks_again_at_once_and_exactly(table, clock):
    await start(table, "clock=1d remind=720")
    clock.advance(4)
    await table.ok(1, "away 5d")
    clock.advance(24)
    back = await table.ok(1, "away off")
    assert "Welcome back: your clocks run again; it is your turn at 1 table" in back.text
    clock.advance(20 - 1 / 60)
    assert not [t for t in await due(table) if "ran out" in t]
    clock.advance(1 / 60)  # 1d - 4h - 20h: the bank runs out right now, not when the time away would have ended
    assert [t for t in await due(table) if "ran out" in t]


async def test_2_the_days_away_are_limited_to_21_a_year(table, clock):
    assert "You are not away. Away in the last 365 days: none of 21 days." in (await table.ok(1, "away")).text
    await table.refused(1, "away 22d", contains="at most 21 days in any 365; 21d are left (`away 21d` at most)")
    await table.refused(1, "away soon", contains="`away 5d`")
    await table.refused(1, "away off", contains="You are not away")
    await table.ok(1, "away 20d")
    clock.advance(20 * 24)
    await table.refused(1, "away 2d", contains="1d are left (`away 1d` at most)")
    await table.ok(1, "away 1d holiday")
    assert "You are away until" in (await table.ok(1, "away")).text
    clock.advance(24)
    await table.refused(1, "away 1h", contains="used your 21 days away")
    clock.advance(365 * 24)
    assert "21d of 21 days" in (await table.ok(1, "away 21d")).text  # a new year's worth


async def test_2_a_player_away_is_not_voted_out_and_a_clock_run_out_is_not_revived(table, clock):
    await start(table, "clock=1d12h remind=8")
    await wait(table, 25)  # three reminders to ann
    await table.ok(1, "away 1d")
    await table.refused(2, "vote skip", contains="ann is away until Saturday 13:00 UTC: votes wait until they are back")
    await table.ok(1, "away off")
    clock.advance(11)
    assert any("ran out" in t for t in await due(table))
    await table.ok(1, "away 3d")
    rec = await table.storage.open_table(CHANNEL)
    assert rec.seat_of(1).bot and (await clock_meta(table)).seats[0].out is not None


# ---- §1 restarts at every point ----------------------------------------------------------------------
SCENARIO: list[float | tuple[int, str]] = [
    (1, "game new fake-race seed=7 pile=9 clock=1d12h clock_bonus=6h remind=8 stand_in=easy"),
    (2, "game join"),
    (1, "game start fixed"),
    5.0,
    (1, "play take 1"),
    13.0,
    (2, "away 1d"),
    20.0,
    (2, "away off"),
    (1, "game status"),
    30.0,
    (2, "game back"),
    (2, "game status"),
    3.0,
    (1, "play take 1"),
    2.0,
    (2, "play take 2"),
    1.0,
    (2, "undo"),
    2.0,
    (1, "game status"),
    (2, "games mine"),
    40.0,
    (2, "game status"),
]


async def run(table: Table, *, restart: bool) -> list[str]:
    """The scenario, with a restart of the bot before every step or without: what everyone read."""
    said = []
    for step in SCENARIO:
        if restart:
            await table.reopen()
        if isinstance(step, float):
            table.clock.advance(step)
            said.extend(await due(table))
        else:
            user, line = step
            said.append((await table.say(user, line)).text)
            said.extend(await due(table))
    rec = await table.storage.latest_table(CHANNEL)
    assert rec is not None
    said.append(repr(rec.meta.get("clock")))
    return said


async def test_1_clocks_come_out_the_same_with_a_restart_at_every_point(table, request, backend, tmp_path):
    """Every change to a clock is in the commit of its command, so a bot stopped (or killed)
    between any two steps and started again reads exactly what one that ran through reads."""
    plain = await run(table, restart=False)
    url = database_url(request, backend, tmp_path, "restarted")
    storage = open_storage(url)
    await storage.open()
    clock = Clock()
    other = Table(Service(storage, clock=clock, games=GAMES, settings=table.service.settings), storage, clock, url)
    try:
        assert await run(other, restart=True) == plain
    finally:
        await other.service.close_bots()
        await other.storage.close()
    for event in ("left on your clock", "clock ran out", "is back", "took back", "Welcome back", "Your turn at 1"):
        assert any(event in line for line in plain), event


# ---- §3 my turns, everywhere -------------------------------------------------------------------------
async def test_3_games_mine_lists_every_table_in_every_server_where_the_caller_must_act(table, clock):
    simple_bots(table)
    await start(table, "clock=2d", channel=100, guild=7)  # ann's turn
    clock.advance(3)
    await start(table, "clock=1d", channel=200, guild=8)  # ann's turn, less time
    await table.ok(1, "play take 1", channel=200, guild=8)  # now bob's
    await start(table, "", channel=300, guild=8, users=(2, 1))  # bob's turn first, no clock
    clock.advance(2)
    await table.ok(2, "play take 1", channel=300, guild=8)  # ann's turn there, no clock
    await start(table, "clock=1h stand_in=easy", channel=400, guild=9, users=(1, 3))
    clock.advance(1)
    await due(table)  # at table 400 ann's hour ran out: a bot plays her seat
    rec = await table.storage.open_table(100)
    await table.service.posted(rec.id, 987654321098765432)  # the Discord adapter records its posts
    mine = await table.ok(1, "games mine", channel=555, guild=None)  # in a direct message
    assert [(t.channel, t.guild, t.bot) for t in mine.turns] == [(100, 7, None), (300, 8, None), (400, 9, "easy")]
    first, second, _ = mine.turns
    assert first.waited == 6 * H and first.time_left == 2 * D - 6 * H and first.post == 987654321098765432
    assert second.waited == 1 * H and second.time_left is None and second.post is None
    assert mine.text.splitlines() == [
        "Your turn at 2 tables:",
        "• Fake Race — channel 100 on server 7: waiting 6 hours, 1d 18h left on your clock",
        "• Fake Race — channel 300 on server 8: waiting 1 hour",
        "A bot plays your seat at 1 table (`game back` there takes it back):",
        "• Fake Race — channel 400 on server 9 (a bot, easy)",
    ]
    assert (await table.ok(2, "games mine")).text.splitlines()[:2] == [
        "Your turn at 1 table:",
        "• Fake Race — channel 200 on server 8: waiting 3 hours, 21h left on your clock",
    ]
    assert (await table.ok(4, "games mine")).text == "It is nowhere your turn."


async def test_3_a_table_from_before_the_clocks_has_waited_since_its_last_step(table, clock):
    await start(table, "")
    clock.advance(2)
    await table.ok(1, "play take 1")
    rec = await table.storage.open_table(CHANNEL)
    from bot.storage import Change

    await table.storage.commit(rec, Change(meta={k: v for k, v in rec.meta.items() if k != "acting"}), clock.now)
    clock.advance(5)
    (turn,) = (await table.ok(2, "games mine")).turns
    assert turn.waited == 5 * H
