"""Ratings (issue 27 §4): OpenSkill's Plackett-Luce model over each counted game's final
places, kept with the game's record in one transaction, shown in `stats` and `stats top`;
`epochs ratings --rebuild` gives exactly the numbers the incremental updates stored."""

from __future__ import annotations

import asyncio
import dataclasses
import random
import sqlite3

import asyncpg
import pytest

import bot.storage.ratings as model
from bot.__main__ import main
from bot.migrate import migrate
from bot.service import Service, Settings
from bot.service import ratings as command
from bot.storage import is_postgres, open_storage
from bot.storage.base import Change, GameRecord, RecordSeat, SeatRecord, Skill
from bot.storage.migrations import RATINGS
from bot.storage.ratings import MODEL, START, RatedGame, RatedSeat, fold, ranks, rate
from tests.conftest import database_url

from .conftest import CHANNEL, GAMES, GUILD, Clock
from .test_records import race

pytestmark = pytest.mark.both_backends  # ratings are storage: every flow runs on SQLite and PostgreSQL

FIRST = START.mu, START.sigma


def seat(n: int, user: int, place: int | None, *, resigned: bool = False, name: str = "") -> RatedSeat:
    return RatedSeat(n, user, name or f"u{user}", place, resigned, None)


def openskill(*ranking: float, before: list[Skill] | None = None) -> list[Skill]:
    """OpenSkill itself, called directly: what the model says for these ranks."""
    teams = [[MODEL.rating(mu=s.mu, sigma=s.sigma)] for s in (before or [START] * len(ranking))]
    return [Skill(t[0].mu, t[0].sigma) for t in MODEL.rate(teams, ranks=list(ranking))]


# ---- the model ------------------------------------------------------------------------------
def test_4_openskill_plackett_luce_with_its_defaults_over_final_places():
    assert (MODEL.mu, MODEL.sigma, MODEL.beta, MODEL.tau) == (25.0, 25 / 3, 25 / 6, 25 / 300)
    assert START == Skill(25.0, 25 / 3) and START.conservative == 0.0
    after = rate(RatedGame(1, 10.0, (seat(0, 1, 2), seat(1, 2, 1))), {})
    assert after == dict(zip((0, 1), openskill(2, 1), strict=True))
    assert after[1].mu > 25 > after[0].mu and after[0].sigma < START.sigma
    # a second game starts from the first one's numbers
    again = rate(RatedGame(2, 20.0, (seat(0, 1, 1), seat(1, 2, 2))), {1: after[0], 2: after[1]})
    assert again == dict(zip((0, 1), openskill(1, 2, before=[after[0], after[1]]), strict=True))


def test_4_ties_share_a_rank_and_a_resigned_player_is_last():
    # places as records give them: a stand-in playing a resigned seat may even have won
    seats = [seat(0, 1, 1, resigned=True), seat(1, 2, 2), seat(2, 3, 2), seat(3, 4, 1)]
    assert ranks(seats) == [3, 2, 2, 1]
    after = rate(RatedGame(1, 1.0, tuple(seats)), {})
    assert [after[n] for n in range(4)] == openskill(3, 2, 2, 1)
    assert after[1] == after[2] and after[0].mu < after[1].mu < after[3].mu
    assert ranks([seat(0, 1, 2, resigned=True), seat(1, 2, 3, resigned=True), seat(2, 3, 1)]) == [2, 3, 1]


def test_4_bots_are_neither_rated_nor_rating():
    with_bot = rate(RatedGame(1, 1.0, (seat(0, -1, 1), seat(1, 1, 2), seat(2, 2, 3))), {})
    assert with_bot == {1: openskill(1, 2)[0], 2: openskill(1, 2)[1]}  # as if the bot had not played
    assert rate(RatedGame(2, 1.0, (seat(0, -1, 1), seat(1, 1, 2))), {}) == {}  # one person: nobody rated
    assert rate(RatedGame(3, 1.0, (seat(0, 1, None), seat(1, 2, None))), {}) == {}  # no places: nothing to rate


def test_4_the_fold_rates_in_the_order_given_and_says_what_differs():
    games = [RatedGame(1, 1.0, (seat(0, 1, 1), seat(1, 2, 2))), RatedGame(2, 2.0, (seat(0, 2, 1), seat(1, 3, 2)))]
    results = fold(games, {})
    first = openskill(1, 2)
    second = openskill(1, 2, before=[first[1], START])
    assert [r.computed for r in results] == [*first, *second]
    assert all(r.changed for r in results)  # nothing was stored
    stored = [dataclasses.replace(s, stored=r.computed) for s, r in zip(games[0].seats, results, strict=False)]
    again = fold([dataclasses.replace(games[0], seats=tuple(stored))], {})
    assert not any(r.changed for r in again)


# ---- games through the service ------------------------------------------------------------
async def stored_ratings(storage, guild=GUILD) -> dict[tuple[str, int], Skill]:
    return {(r.game, r.user): r.skill for r in await storage.ratings(guild)}


async def nothing_to_rebuild(storage) -> list[model.Recomputed]:
    """The fold of every record from scratch equals what the incremental updates stored, exactly."""
    results = await storage.recompute_ratings(write=False)
    assert [r for r in results if r.changed] == []
    return results


async def test_a_finished_game_is_rated_in_the_commit_that_records_it(table):
    await race(table)  # ann wins 4-2
    winner, loser = openskill(1, 2)
    assert await stored_ratings(table.storage) == {("fake-race", 1): winner, ("fake-race", 2): loser}
    (ann,) = await table.storage.ratings(GUILD, user=1)
    assert (ann.name, ann.games) == ("ann", 1)
    mine = (await table.ok(1, "stats")).text
    assert (
        f"Fake Race: 1 game, 1 win (100%), average score 4.0, average place 1.0; rating "
        f"{winner.conservative:.1f} (skill {winner.mu:.1f} ± {winner.sigma:.1f}, 1 rated game)" in mine
    )
    assert command.EXPLAINED in mine
    await nothing_to_rebuild(table.storage)


async def test_a_failing_rating_update_stores_neither_the_move_nor_the_record(table, monkeypatch):
    """The update runs in the transaction of the move that ends the game: if it fails, the
    game is not over, not recorded and not rated; played again, all three happen together."""
    await race(table, moves=("take 2",) * 2)

    def broken(*_args):
        raise RuntimeError("the rating update failed")

    monkeypatch.setattr(model, "rate", broken)
    refused = await table.say(1, "play take 2")
    assert refused.error
    rec = await table.storage.open_table(CHANNEL)
    assert rec is not None and rec.status == "active"
    assert await table.storage.history(GUILD) == [] and await table.storage.ratings(GUILD) == []
    monkeypatch.undo()
    await table.ok(1, "play take 2")
    assert [r.reason for r in await table.storage.history(GUILD)] == ["end"]
    assert len(await table.storage.ratings(GUILD)) == 2


async def test_practice_cancelled_and_lone_person_games_are_not_rated(table):
    await race(table, options="seed=3 pile=6")  # an open practice game
    await race(table, moves=("take 1",))
    await table.ok(1, "game cancel")
    assert await table.storage.ratings(GUILD) == []
    mine = (await table.ok(1, "stats")).text
    assert "rating" not in mine.lower()
    # a person against a seated bot alone: counted in statistics, rated against nobody
    await table.ok(1, "game new fake-race pile=6")
    rec = await table.storage.open_table(CHANNEL)
    bot = SeatRecord(-1, "Bot Sargon (normal)", None, False, table.clock.now, "normal")
    await table.storage.commit(rec, Change(seats=[*rec.seats, bot]), table.clock.now)
    await table.ok(1, "game start fixed")

    async def takes_two(*_args) -> str:
        return "take 2"

    table.service.bots.bot_decision = takes_two
    for _ in range(2):
        await table.ok(1, "play take 2")
        await table.service.tick()
        await table.service.settle_bots()
    (record,) = await table.storage.history(GUILD, limit=1)
    assert record.reason == "end" and [s.user for s in record.seats] == [1, -1]
    assert await table.storage.ratings(GUILD) == []
    assert "1 game, 1 win" in (await table.ok(1, "stats")).text
    await nothing_to_rebuild(table.storage)


async def test_a_resigned_player_is_rated_last_even_when_their_stand_in_wins(table):
    await table.ok(1, "game new fake-race pile=7")
    for user in (2, 3):
        await table.ok(user, "game join")
    await table.ok(1, "game start fixed")
    for user, line in ((1, "play take 1"), (2, "play take 1"), (3, "play take 2"), (3, "resign")):
        await table.ok(user, line)
    await table.ok(1, "play take 1")
    await table.ok(2, "play take 1")  # cy's seat takes the last one by itself
    (record,) = await table.storage.history(GUILD)
    assert [(s.name, s.score, s.place, s.winner, s.resigned) for s in record.seats] == [
        ("ann", 2, 2, False, False),
        ("bob", 2, 2, False, False),
        ("cy", 3, 1, True, True),
    ]
    ann, bob, cy = openskill(1, 1, 2)  # ann and bob tie ahead of cy
    assert await stored_ratings(table.storage) == {("fake-race", 1): ann, ("fake-race", 2): bob, ("fake-race", 3): cy}
    assert cy.mu < 25 < ann.mu


async def test_4_stats_top_orders_by_the_conservative_estimate_after_three_games(table):
    for _ in range(5):
        await race(table, users=(1, 2))  # the first to move takes 4 of 6: ann wins 5 of 6
    await race(table, users=(2, 1))
    for _ in range(3):
        await race(table, users=(3, 4))  # cy wins 3 of 3: a better win rate, a less certain skill
    await race(table, users=(5, 4))  # u5 beats dee: one game, not ranked yet
    top = (await table.ok(2, "stats top fake-race")).text
    rated = {r.user: r for r in await table.storage.ratings(GUILD, game="fake-race")}
    assert rated[1].skill.conservative > rated[3].skill.conservative  # ann above cy, whose win rate is higher
    order = [n for n in ("ann", "cy", "bob", "dee") if f". {n} — rating" in top]
    assert order == ["ann", "cy", "bob", "dee"]
    assert top.index("1. ann — rating") < top.index("2. cy — rating") < top.index("3. bob") < top.index("4. dee")
    assert "at least 3 rated games; by rating" in top
    assert f"1. ann — {command.rating_text(rated[1])}; 6 games, 5 wins (83%)" in top
    assert "Not ranked yet (fewer rated games): u5 (1)." in top
    expected = sorted(rated.values(), key=lambda r: -r.skill.conservative)
    assert [r.name for r in command.ranked(list(rated.values()), 3)] == [r.name for r in expected if r.games >= 3]
    await nothing_to_rebuild(table.storage)


async def test_games_ending_at_the_same_moment_are_rated_one_after_the_other(table):
    """Three games with a player in common end at once (SQLite: one group commit; PostgreSQL:
    three transactions on three connections): each sees the ratings the ones before it left."""
    for n, other in enumerate((2, 3, 4)):
        await race(table, users=(1, other), moves=("take 2",) * 2, channel=CHANNEL + n)
    finals = await asyncio.gather(*(table.say(1, "play take 2", channel=CHANNEL + n) for n in range(3)))
    assert not any(r.error for r in finals)
    assert len(await table.storage.history(GUILD)) == 3
    results = await nothing_to_rebuild(table.storage)
    (ann,) = await table.storage.ratings(GUILD, user=1)
    assert ann.games == 3 and ann.skill == [r.computed for r in results if r.user == 1][-1]


async def test_a_game_that_ended_earlier_but_was_stored_later_refolds_the_later_ones(table):
    """Updates go by end time, then table: a game stored after another that ended later (two
    processes, a slow commit) is rated before it, and the later one is folded again."""
    await race(table, users=(2, 3), moves=("take 2",) * 2)  # bob will win this one
    await race(table, users=(2, 3), moves=("take 1", "take 2", "take 1"), channel=CHANNEL + 1)  # and cy this
    ended = table.clock.now
    await table.ok(3, "play take 2", channel=CHANNEL + 1)
    table.clock.now = ended - 60
    await table.ok(2, "play take 2")  # ends a minute before the other one, stored after it
    assert [(r.table, r.ended) for r in await table.storage.history(GUILD)] == [(2, ended), (1, ended - 60)]
    bob, cy = openskill(1, 2)
    bob, cy = openskill(2, 1, before=[bob, cy])
    assert await stored_ratings(table.storage) == {("fake-race", 2): bob, ("fake-race", 3): cy}
    await nothing_to_rebuild(table.storage)


async def test_forgetting_a_counted_game_folds_the_later_ones_without_it(table):
    await race(table, users=(1, 2))
    await race(table, users=(2, 1))
    await race(table, users=(1, 3))
    await table.ok(1, "games forget #1", admin=True)
    assert [r.table for r in await table.storage.history(GUILD)] == [3, 2]
    bob_wins, ann_loses = openskill(1, 2)
    ann, cy = openskill(1, 2, before=[ann_loses, START])
    assert await stored_ratings(table.storage) == {
        ("fake-race", 1): ann,
        ("fake-race", 2): bob_wins,
        ("fake-race", 3): cy,
    }
    await nothing_to_rebuild(table.storage)


async def play_randomly(table, rng: random.Random, games: int) -> None:
    """Many games of up to three of five people on two servers: random moves, resignations,
    cancellations, practice games, clocks that jump back, and a forgotten game."""
    for n in range(games):
        guild = GUILD if n % 4 else GUILD + 1
        users = rng.sample(range(1, 6), rng.choice((2, 3)))
        options = "pile=8" + (" seed=5" if rng.random() < 0.1 else "")
        await table.ok(users[0], f"game new fake-race {options}", guild=guild)
        for user in users[1:]:
            await table.ok(user, "game join", guild=guild)
        await table.ok(users[0], "game start fixed", guild=guild)
        game = GAMES["fake-race"]
        while (rec := await table.storage.open_table(CHANNEL)) is not None:
            if rng.random() < 0.03:
                await table.ok(users[0], "game cancel", guild=guild)
                break
            state = await table.service.tables.state(rec)
            acting = rec.user_at(game.to_act(state)[0])
            if rng.random() < 0.04:
                playing = [s.user for s in rec.seats if not s.resigned]
                await table.ok(rng.choice(playing), "resign", guild=guild)
                continue
            await table.ok(acting.user, "play " + rng.choice(game.legal_actions(state, acting.seat)), guild=guild)
        table.clock.advance(rng.choice((1, 2, -3)))  # now and then a game ends "before" the last one
        if n == games // 2:
            ended = await table.storage.latest_table(CHANNEL)
            await table.ok(users[0], f"games forget #{ended.id}", admin=True, guild=guild)


async def test_epochs_ratings_rebuild_gives_the_numbers_of_the_incremental_updates(table, request, tmp_path):
    """The incremental updates, made game by game as the games end, are the fold of all the
    records from scratch, to the last bit; a database whose ratings were lost gets exactly
    them back from `epochs ratings --rebuild`."""
    await play_randomly(table, random.Random(27), 40)
    results = await nothing_to_rebuild(table.storage)
    records = await table.storage.history(GUILD, limit=100) + await table.storage.history(GUILD + 1, limit=100)
    assert len({r.table for r in results}) > 20 and {r.reason for r in records} == {"end", "resign", "cancelled"}
    assert any(r.practice for r in records) and any(s.resigned for r in records for s in r.seats)
    assert any(a.ended < b.ended for a in records for b in records if a.table > b.table)  # ended out of order
    said: list[str] = []
    assert await command.run(table.database, write=False, say=said.append) == 0
    assert "every stored rating is the fold's: nothing to change" in said[1]

    # the same records with every rating lost, in a second database of the same kind
    rows = await table.storage.export_rows()
    lost = [(*row[:-3], None, None, row[-1]) for row in rows["record_seats"]]  # mu, sigma; ended kept
    copy = database_url(request, "postgres" if is_postgres(table.database) else "sqlite", tmp_path, "lost")
    storage = open_storage(copy)
    await storage.open()
    await storage.import_rows({**rows, "record_seats": lost})
    await storage.close()
    said.clear()
    assert await command.run(copy, write=False, say=said.append) == 1
    rated = sum(1 for r in results if r.computed is not None)
    assert f"{rated} stored ratings differ from the fold's" in said[1]
    assert said[2].startswith("  game #") and "not rated -> " in said[2] and "more" in said[-2]
    said.clear()
    assert await command.run(copy, write=True, say=said.append) == 0
    assert f"{rated} stored ratings replaced by the fold's:" in said[1]
    storage = open_storage(copy)
    await storage.open()
    try:
        assert (await storage.export_rows())["record_seats"] == rows["record_seats"]
    finally:
        await storage.close()


# ---- storage: the contract, the migration, the copy -------------------------------------
async def test_storage_ratings_are_the_fold_of_the_counted_records(records_storage):
    """Records written out of order, rewritten and forgotten: every backend's ratings are the
    fold of the counted records in (end time, table) order, whatever order they came in."""
    storage = records_storage
    tables = [
        await storage.create_table(
            guild={5: 8, 7: None}.get(n, 7),
            channel=100 + n,
            game="fake-race",
            creator=1,
            options={},
            seed=1,
            seats=[],
            remind_every=0,
            now=0.0,
        )
        for n in range(8)
    ]

    def seats(*places: int, resigned: int | None = None, users=(1, 2, 3)) -> list[RecordSeat]:
        return [
            RecordSeat(n, user, f"p{user}", None, 10 - place, place, place == 1, n == resigned)
            for n, (user, place) in enumerate(zip(users, places, strict=False))
        ]

    def record(table: int, ended: float, places, *, guild=7, reason="end", practice=False, **kw) -> GameRecord:
        return GameRecord(table, guild, "fake-race", reason, 0.0, ended, 5, practice, seats(*places, **kw))

    written = [
        record(1, 30.0, (1, 2)),
        record(2, 10.0, (2, 1, 3)),  # ended before table 1, stored after it
        record(3, 20.0, (1, 2), practice=True),
        record(4, 20.0, (1, 1), users=(2, 3)),  # ties, and ended at the same time as table 5
        record(5, 20.0, (2, 1, 1), resigned=2),
        record(6, 5.0, (1, 2), guild=8),  # another server
        record(7, 40.0, (1, 2), users=(1, -1)),  # a person and a bot: nobody rated
        record(8, 50.0, (2, 1), guild=None),  # no server: the terminal
    ]
    for rec, rec_record in zip(tables, written, strict=True):
        await storage.commit(rec, Change(record=rec_record, bump=False), rec_record.ended)
    # table 4 is rewritten: p3 now won it
    written[3] = record(4, 20.0, (2, 1), users=(2, 3))
    await storage.commit(tables[3], Change(record=written[3], bump=False), 21.0)
    assert await storage.forget(tables[0].id)

    counted = [w for w in written[1:] if w.guild == 7 and not w.practice]
    games = [
        RatedGame(
            w.table, w.ended, tuple(RatedSeat(s.seat, s.user, s.name, s.place, s.resigned, None) for s in w.seats)
        )
        for w in sorted(counted, key=lambda w: (w.ended, w.table))
    ]
    expected: dict[int, Skill] = {}
    counts: dict[int, int] = {}
    for r in fold(games, {}):
        if r.computed is not None:
            expected[r.user] = r.computed
            counts[r.user] = counts.get(r.user, 0) + 1
    found = await storage.ratings(7)
    assert [(r.game, r.user) for r in found] == [("fake-race", u) for u in (1, 2, 3)]
    assert {r.user: r.skill for r in found} == expected
    assert {r.user: r.games for r in found} == counts == {1: 2, 2: 3, 3: 3}
    assert [r.name for r in found] == ["p1", "p2", "p3"]
    assert [r.user for r in await storage.ratings(7, user=2)] == [2]
    assert await storage.ratings(7, game="mosaic") == []
    assert [r.user for r in await storage.ratings(8)] == [1, 2]
    assert [r.skill for r in await storage.ratings(None)] == openskill(2, 1)
    await nothing_to_rebuild(storage)


async def _downgrade(database: str) -> None:
    """The database as a build before ratings left it: no rating columns, the schema before
    (and none of the later migrations' tables: 7's times away and posts, issue 27 §2-§3;
    nor 8's names; nor 9's plans, issue 51)."""
    later = ("DROP TABLE plans", "DROP TABLE away", "DROP TABLE posts", "DROP INDEX seats_user")
    if is_postgres(database):
        conn = await asyncpg.connect(database)
        try:
            for statement in later:
                await conn.execute(statement)
            await conn.execute("ALTER TABLE record_seats DROP COLUMN mu, DROP COLUMN sigma, DROP COLUMN ended")
            await conn.execute("DELETE FROM schema_migrations WHERE number >= $1", RATINGS)
        finally:
            await conn.close()
        return
    conn = sqlite3.connect(database)
    try:
        for statement in later:
            conn.execute(statement)
        conn.execute("DROP INDEX record_seats_rated")
        for column in ("mu", "sigma", "ended"):
            conn.execute(f"ALTER TABLE record_seats DROP COLUMN {column}")
        # and before issue 48's migration 8: SQLite's own names, no seat positions
        for name in ("seats", "actions", "reminders", "players", "record_seats", "links"):
            conn.execute(f"ALTER TABLE {name} RENAME COLUMN user_id TO user")
        conn.execute("ALTER TABLE seats DROP COLUMN pos")
        conn.execute(f"PRAGMA user_version={RATINGS - 1}")
        conn.commit()
    finally:
        conn.close()


async def test_the_ratings_migration_folds_the_records_already_stored(table):
    for users in ((1, 2), (2, 3), (3, 1), (1, 2, 3)):
        await race(table, users=users)
    rated = await stored_ratings(table.storage)
    await table.service.close_bots()
    await table.storage.close()
    await _downgrade(table.database)
    table.storage = open_storage(table.database)
    await table.storage.open()  # migration RATINGS runs again, and folds the four records
    assert await table.storage.schema_version() >= RATINGS
    assert await stored_ratings(table.storage) == rated
    table.service = Service(table.storage, clock=table.clock, games=GAMES, settings=Settings(images=False))


async def test_epochs_migrate_copies_the_ratings_and_the_copy_folds_alike(request, tmp_path):
    source = database_url(request, "sqlite", tmp_path, "source")
    target = database_url(request, "postgres", tmp_path)
    storage = open_storage(source)
    await storage.open()
    service = Service(storage, clock=Clock(), games=GAMES, settings=Settings(images=False))
    names = {1: "ann", 2: "bob", 3: "cy"}
    for users in ((1, 2), (2, 3), (1, 2, 3)):
        for user, line in [(users[0], "game new fake-race pile=6")] + [(u, "game join") for u in users[1:]]:
            assert not (await service.handle(1, user, names[user], line, guild=GUILD)).error
        assert not (await service.handle(1, users[0], names[users[0]], "game start fixed", guild=GUILD)).error
        for i in range(3):
            user = users[i % len(users)]
            assert not (await service.handle(1, user, names[user], "play take 2", guild=GUILD)).error
    source_rows = await storage.export_rows()
    await storage.close()
    assert all(row[-2] is not None for row in source_rows["record_seats"])  # every seat's sigma
    assert (await migrate(source, target, games=GAMES, say=lambda _: None)).ok
    copied = open_storage(target)
    await copied.open()
    try:
        assert (await copied.export_rows())["record_seats"] == source_rows["record_seats"]
        await nothing_to_rebuild(copied)  # PostgreSQL folds the records to SQLite's numbers
    finally:
        await copied.close()


def test_epochs_ratings_on_the_command_line(tmp_path, capsys):
    database = str(tmp_path / "cli.sqlite")

    async def fill() -> None:
        storage = open_storage(database)
        await storage.open()
        service = Service(storage, clock=Clock(), games=GAMES, settings=Settings(images=False))
        for user, line in ((1, "game new fake-race pile=4"), (2, "game join"), (1, "game start fixed")):
            assert not (await service.handle(1, user, f"p{user}", line, guild=GUILD)).error
        for user in (1, 2):
            assert not (await service.handle(1, user, f"p{user}", "play take 2", guild=GUILD)).error
        await storage.close()

    asyncio.run(fill())
    assert main(["ratings", "--db", database]) == 0
    out = capsys.readouterr().out
    assert "folded 1 counted games: 2 seats of people rated" in out and "nothing to change" in out
    conn = sqlite3.connect(database)
    conn.execute("UPDATE record_seats SET mu = mu + 1e-12")
    conn.commit()
    conn.close()
    assert main(["ratings", "--db", database]) == 1
    assert "2 stored ratings differ from the fold's" in capsys.readouterr().out
    assert main(["ratings", "--rebuild", "--db", database]) == 0
    assert "2 stored ratings replaced by the fold's" in capsys.readouterr().out
    assert main(["ratings", "--db", database]) == 0
    assert main(["ratings", "--db", str(tmp_path / "missing.sqlite")]) == 2
    assert "no SQLite database at" in capsys.readouterr().err
