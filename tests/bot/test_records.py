"""Game records (issue 17 §1, §4): the record a game leaves, history, statistics, the
leaderboard, practice games, bots kept apart, and forgetting a game."""

from __future__ import annotations

import dataclasses

import pytest

from bot.service.records import places
from bot.storage.base import Change, GameRecord, RecordSeat

from .conftest import CHANNEL, GUILD

pytestmark = pytest.mark.both_backends  # records are storage: every flow runs on SQLite and PostgreSQL


async def race(table, users=(1, 2), *, options: str = "pile=6", moves=("take 2",) * 3, channel=CHANNEL) -> None:
    """A Fake Race game played to its end: `moves` in turn, starting with users[0]."""
    await table.ok(users[0], f"game new fake-race {options}", channel=channel)
    for user in users[1:]:
        await table.ok(user, "game join", channel=channel)
    await table.ok(users[0], "game start fixed", channel=channel)
    for i, move in enumerate(moves):
        await table.ok(users[i % len(users)], f"play {move}", channel=channel)


# ---- the record ---------------------------------------------------------------------------
def test_places_winners_first_then_by_score_resigned_last_ties_share():
    assert places([4, 2], [0], [False, False]) == [1, 2]
    assert places([5, 7, 7, 1], [1], [False, False, False, False]) == [3, 1, 2, 4]  # 7 lost the tie-break
    assert places([3, 3, 1], [0, 1], [False, False, False]) == [1, 1, 3]
    assert places([9, 2, 4], [1], [True, False, False]) == [3, 1, 2]  # the last one left won; resigned last


async def test_a_finished_game_is_recorded_in_the_same_commit_as_its_last_move(table):
    start = table.clock.now
    await table.ok(1, "game new fake-race pile=6")
    await table.ok(2, "game join")
    table.clock.advance(24)
    await table.ok(1, "game start fixed")
    for user in (1, 2):
        await table.ok(user, "play take 2")
        table.clock.advance(12)
    last = await table.ok(1, "play take 2")
    assert "Game over" in last.text
    (record,) = await table.storage.history(GUILD)
    assert (record.game, record.reason, record.moves, record.practice) == ("fake-race", "end", 3, False)
    assert record.started == start + 24 * 3600 and record.ended == table.clock.now
    assert [(s.name, s.score, s.place, s.winner) for s in record.seats] == [("ann", 4, 1, True), ("bob", 2, 2, False)]
    history = await table.ok(2, "games history")
    assert (
        "#1 Fake Race: finished (2026-01-02 to 2026-01-03, 1.0 days, 3 moves). 1. ann (A) 4 (won), 2. bob (B) 2. "
        "Winner: ann." in history.text
    )


async def test_history_is_newest_first_with_a_count_and_a_game(table):
    for n in range(3):
        await race(table, moves=("take 2",) * 3 if n != 1 else ("take 1", "take 2", "take 1", "take 2"))
        table.clock.advance(1)
    text = (await table.ok(1, "games history")).text
    assert text.index("#3 ") < text.index("#2 ") < text.index("#1 ")
    assert "bob (B) 4 (won)" in text  # game 2: bob took 4 of 6
    one = (await table.ok(1, "games history 1")).text
    assert "#3 " in one and "#2 " not in one
    assert "No ended Rising Cultures games" in (await table.ok(1, "game history rising-cultures")).text
    assert "#1 " in (await table.ok(1, "history 5 fake-race")).text
    await table.refused(1, "games history lots", contains="number of games")
    # another server's games are not this server's history
    other = await table.service.handle(CHANNEL + 1, 1, "ann", "games history", guild=GUILD + 1)
    assert "No ended games" in other.text


async def test_history_says_how_each_game_ended(table):
    await race(table, moves=("take 1",))
    table.clock.advance(2)
    await table.ok(1, "game cancel")
    await race(table, moves=("take 2", "take 1"))
    await table.ok(2, "resign")
    await table.ok(1, "game new fake-race")
    await table.ok(1, "game cancel")  # a lobby that never started leaves no record
    text = (await table.ok(1, "games history")).text
    assert "#1 Fake Race: cancelled (2026-01-01 to 2026-01-01, 0.1 days, 1 move); ann (A) and bob (B)." in text
    assert "#2 Fake Race: ended by resignation" in text and "1. ann (A) 2 (won), 2. bob (B, resigned) 1" in text
    assert "#3" not in text


async def test_stats_per_player_and_game_count_only_ended_games(table):
    await race(table)  # ann wins 4-2
    await race(table, moves=("take 1", "take 2", "take 1", "take 2"))  # bob wins 4-2
    await race(table, users=(2, 1))  # bob first: bob wins 4-2
    await race(table, moves=("take 1",))
    await table.ok(1, "game cancel")  # cancelled: not counted
    mine = (await table.ok(1, "stats")).text
    assert "Statistics of ann" in mine
    assert "Fake Race: 3 games, 1 win (33%), average score 2.7, average place 1.7" in mine
    bob = (await table.ok(1, "stats bob")).text
    assert "Statistics of bob" in bob and "3 games, 2 wins (67%), average score 3.3, average place 1.3" in bob
    assert "Statistics of bob" in (await table.ok(1, "stats <@2> fake-race")).text
    assert "no counted games in Rising Cultures" in (await table.ok(1, "stats bob rising-cultures")).text
    await table.refused(1, "stats nobody", contains="Nobody called `nobody`")
    assert "cy has no counted games" in (await table.ok(3, "stats")).text


async def test_leaderboard_needs_a_minimum_of_games_and_lists_bots_apart(table):
    for users in ((1, 2), (1, 2), (2, 1)):
        await race(table, users=users)  # the first player always wins 4-2: ann 2 of 3, bob 1 of 3
    await race(table, users=(1, 3))
    await race(table, users=(3, 4), moves=("take 2",))
    rec = await table.storage.open_table(CHANNEL)  # cy's seat is played by a fill-in bot in this game
    await table.storage.commit(
        rec,
        Change(seats=[dataclasses.replace(s, bot="normal") if s.user == 3 else s for s in rec.seats]),
        table.clock.now,
    )
    await table.ok(4, "play take 2")

    async def takes_two(*_args) -> str:
        return "take 2"

    table.service.bots.bot_decision = takes_two  # the fill-in bot's choice, fixed for this record
    await table.service.tick()
    await table.service.settle_bots()  # the bot seat plays and wins this one, 4-2
    top = (await table.ok(4, "stats top fake-race")).text
    assert "at least 3 rated games; by rating" in top  # the order itself: test_ratings
    assert "1. ann — rating " in top and "; 4 games, 3 wins (75%)" in top
    assert "2. bob — rating " in top and "; 3 games, 1 win (33%)" in top
    assert "Not ranked yet (fewer rated games): cy (2), dee (1)." in top  # a person's seat a bot finished counts
    assert "Bots (listed apart, never ranked with people):\n- cy (normal) — 1 game, 1 win (100%)" in top
    assert "as a bot (normal): 1 game, 1 win" in (await table.ok(3, "stats")).text
    (record,) = await table.storage.history(GUILD, limit=1)
    assert [(s.name, s.bot) for s in record.seats] == [("cy", "normal"), ("dee", None)]
    assert "cy (A, a bot played for them) 4 (won)" in (await table.ok(1, "games history 1")).text
    await table.refused(1, "stats top", contains="leaderboard of one game")


async def test_a_chosen_seed_makes_an_open_practice_game_kept_out_of_statistics(table):
    opened = await table.ok(1, "game new fake-race seed=42 pile=6")
    assert "Open practice game (seed 42 was chosen, so anyone who saw it can replay" in opened.text
    await table.ok(2, "game join")
    assert "Open practice game" in (await table.ok(1, "game status")).text
    start = await table.ok(1, "game start fixed")
    assert "Open practice game (seed 42): not counted in statistics." in start.text
    for user in (1, 2):
        post = await table.ok(user, "play take 2")
        assert "Open practice game (seed 42)" in post.text
    final = await table.ok(1, "play take 2")
    assert "Game over" in final.text and "Open practice game" in final.text
    assert "Open practice game" in (await table.ok(1, "game status")).text
    assert "#1 Fake Race [open practice game]: finished" in (await table.ok(1, "games history")).text
    assert "no counted games" in (await table.ok(1, "stats")).text
    assert "Nobody has played 3 rated games" in (await table.ok(1, "stats top fake-race")).text
    await race(table)  # a game without a chosen seed is no practice game
    assert "Open practice game" not in table.replies[-1].text
    assert "1 game, 1 win" in (await table.ok(1, "stats")).text


async def test_forgetting_a_game_is_for_server_admins_and_only_once_it_ended(table):
    await race(table)
    await race(table, moves=("take 1",))
    await table.refused(1, "games forget 1", contains="Only a server admin")
    await table.refused(1, "games forget 2", admin=True, contains="`game cancel` it in its channel first")
    await table.refused(1, "games forget 9", admin=True, contains="no game #9")
    other = await table.service.handle(CHANNEL + 5, 9, "eve", "games forget 1", guild=GUILD + 1, admin=True)
    assert other.error and "no game #1 on this server" in other.text
    gone = await table.ok(1, "games forget #1", admin=True)
    assert "deleted game #1 (Fake Race) with its whole history" in gone.text
    assert await table.storage.table(1) is None and await table.storage.actions(1) == []
    assert await table.storage.history(GUILD) == []
    assert "no counted games" in (await table.ok(1, "stats")).text
    await table.ok(1, "game cancel")
    assert [r.table for r in await table.storage.history(GUILD)] == [2]


# ---- the storage contract (SQLite and the interface-only backend) -------------------------------
def _record(table: int, guild, ended: float, *, reason="end", practice=False, kind="fake-race", seats=()):
    return GameRecord(table, guild, kind, reason, ended - 100, ended, 5, practice, list(seats))


async def test_storage_history_standings_and_forget_keep_their_contract(records_storage):
    backend = records_storage
    tables = []
    for n in range(6):
        rec = await backend.create_table(
            guild=7 if n < 5 else 8,
            channel=100 + n,
            game="fake-race",
            creator=1,
            options={},
            seed=1,
            seats=[],
            remind_every=0,
            now=0.0,
            meta={"practice": {"seed": 1}} if n == 3 else None,
        )
        tables.append(rec)
    assert tables[3].meta == {"practice": {"seed": 1}} and tables[0].meta == {}

    def ann(place: int, score: int, name: str = "ann") -> RecordSeat:
        return RecordSeat(0 if place == 1 else 1, 1, name, None, score, place, place == 1)

    def bob(place: int, score: int) -> RecordSeat:
        return RecordSeat(1 if place == 2 else 0, 2, "bob", None, score, place, place == 1)

    bot = RecordSeat(1, 9, "Bot", "normal", 3, 2, False)
    written = [
        _record(1, 7, 10.0, seats=[ann(1, 5, "old ann"), bob(2, 3)]),
        _record(2, 7, 30.0, seats=[ann(2, 4), bob(1, 6)]),
        _record(3, 7, 20.0, reason="cancelled", seats=[RecordSeat(0, 1, "ann"), RecordSeat(1, 2, "bob")]),
        _record(4, 7, 40.0, practice=True, seats=[ann(1, 9), bob(2, 1)]),
        _record(5, 7, 30.0, reason="resign", kind="mosaic", seats=[ann(1, 7), bot]),
        _record(6, 8, 50.0, seats=[ann(1, 1), bob(2, 0)]),
    ]
    for rec, record in zip(tables, written, strict=True):
        await backend.commit(rec, Change(record=record, bump=False), record.ended)
    history = await backend.history(7)
    assert [r.table for r in history] == [4, 5, 2, 3, 1]  # ended descending, then table descending
    assert [s.seat for s in history[0].seats] == [0, 1] and history[0].practice
    assert [r.table for r in await backend.history(7, game="fake-race", limit=2)] == [4, 2]
    assert await backend.history(None) == []
    rows = await backend.standings(7)
    assert [(s.game, s.user, s.bot) for s in rows] == [
        ("fake-race", 1, None),
        ("fake-race", 2, None),
        ("mosaic", 1, None),
        ("mosaic", 9, "normal"),
    ]
    fake_ann = rows[0]
    assert (
        fake_ann.name,
        fake_ann.games,
        fake_ann.wins,
        fake_ann.score_total,
        fake_ann.scored,
        fake_ann.place_total,
        fake_ann.placed,
    ) == ("ann", 2, 1, 9, 2, 3, 2)
    assert [(s.game, s.games) for s in await backend.standings(7, user=2)] == [("fake-race", 2)]
    assert [s.user for s in await backend.standings(7, game="mosaic")] == [1, 9]
    # rewriting a table's record replaces it
    await backend.commit(tables[1], Change(record=_record(2, 7, 30.0, seats=[ann(1, 8), bob(2, 6)]), bump=False), 31)
    assert (await backend.standings(7, user=1, game="fake-race"))[0].wins == 2
    assert await backend.forget(tables[0].id) and not await backend.forget(tables[0].id)
    assert [r.table for r in await backend.history(7)] == [4, 5, 2, 3]
    assert await backend.table(tables[0].id) is None
