"""Issue 14 §3: fill-in bots at the table, through the service.

Bots are seated in the lobby, stand in for resigned or voted-out players, move by
themselves between commands (a task per table, decisions in a worker process), are
stored like any move and announced with their turn, and never see more than their
seat may know.
"""

from __future__ import annotations

import asyncio
import random

import pytest

import engine
import engine.ai

from .conftest import CHANNEL, GAMES


async def bots_play(table) -> list:
    """Let every bot to act play (the dispatcher's tick); return the notices they posted."""
    posted = []
    for _ in range(2000):
        notices = await table.service.tick()
        for notice in notices:
            posted.append(await table.service.prepare(notice))
            await table.service.delivered(notice.id)
        thinking = table.service.bots_thinking()
        if not notices and not thinking:
            return posted
        await table.service.settle_bots()
    raise AssertionError("the bots never stopped")


async def test_14_3_game_bot_seats_a_named_bot_and_counts_as_a_player(table):
    await table.ok(1, "game new cradle seed=4")
    await table.ok(2, "game join")
    easy = await table.ok(2, "game bot easy")
    assert "Bot Sargon (easy)" in easy.text
    await table.ok(1, "game bot")
    await table.refused(3, "game bot", contains="join the table first")
    await table.refused(1, "game bot clever", contains="game bot easy")
    rec = await table.storage.open_table(CHANNEL)
    assert [(s.name, s.bot) for s in rec.seats] == [
        ("ann", None),
        ("bob", None),
        ("Bot Sargon (easy)", "easy"),
        ("Bot Hammurabi (normal)", "normal"),
    ]
    assert all(s.user < 0 for s in rec.seats if s.bot)
    removed = await table.ok(1, "game bot remove")
    assert "Bot Hammurabi (normal) left" in removed.text
    await table.ok(1, "game bot easy")
    start = await table.ok(1, "game start")  # two people and two bots play Cradle (4-6 players)
    assert "begins" in start.text
    rec = await table.storage.open_table(CHANNEL)
    assert all(m > 0 for m in start.mentions)  # a bot is never pinged


async def test_14_3_a_bot_only_table_for_a_game_without_bots_is_refused(table):
    await table.ok(1, "game new fake-race")
    await table.refused(1, "game bot", contains="no bot for Fake Race")


@pytest.mark.parametrize(
    "game_id, bots", [("rising-cultures", 1), ("rise-of-empires", 1), ("cradle", 3), ("mosaic", 1)]
)
async def test_14_3_one_person_with_bots_plays_every_game_to_the_end(table, game_id, bots):
    """Solo play: one person, the rest bots (easy), through the service to the end. The
    bots' moves are in the log (`via = "bot"`), announced in posts, and the log replays."""
    game = GAMES[game_id]
    await table.ok(1, f"game new {game_id} seed=21")
    for _ in range(bots):
        await table.ok(1, "game bot easy")
    await table.ok(1, "game start")
    rng = random.Random(game_id)
    posts = await bots_play(table)
    for _ in range(3000):
        rec, state = await table.state()
        if rec is None:
            break
        seat = game.to_act(state)[0]
        assert not rec.user_at(seat).bot, "a bot to act was left waiting"
        await table.ok(1, "play " + rng.choice(game.legal_actions(state, seat)))
        posts += await bots_play(table)
    rec = await table.storage.latest_table(CHANNEL)
    assert rec.status == "finished"
    rows = await table.storage.actions(rec.id)
    assert any(r.via == "bot" for r in rows) and all(r.user is None for r in rows if r.via == "bot")
    assert any("[bot]" in p.text for p in posts)
    assert game.dumps(await table.service.replay(rec.id)) == (await table.storage.snapshot(rec.id))[1]


async def test_14_3_a_bot_decides_from_the_seat_s_information_state_only(table):
    """What crosses into the bot's process is `engine.ai.infostate` of its seat: the hidden
    parts redrawn. Two positions that differ only in what the seat cannot see send the
    same text, so the bot cannot tell them apart."""
    sent = []

    class Recorder:
        async def run(self, job, game_id, text, seat, level, seed, timeout=None):
            sent.append((job, game_id, text, seat, level, seed))
            return engine.ai.decide(game_id, text, seat, level, seed)

        async def close(self) -> None:
            pass

    table.service.thinkers = Recorder()
    await table.ok(1, "game new rising-cultures seed=3")
    await table.ok(1, "game bot easy")
    await table.ok(1, "game start fixed")
    game = GAMES["rising-cultures"]
    for _ in range(30):
        await bots_play(table)
        rec, state = await table.state()
        seat = game.to_act(state)[0]
        await table.ok(1, "play " + game.legal_actions(state, seat)[0])
        if sent:
            break
    job, game_id, text, seat, level, seed = sent[0]
    assert job == "engine.ai:decide" and game_id == "rising-cultures" and level == "easy"
    true_state = game.loads(text)  # a legal position ...
    assert game.view(true_state, seat) is not None
    # ... made from the seat's knowledge: the real hidden cards of the other seat are not copied
    rec, state = await table.state()
    twin = engine.ai.resample("rising-cultures", state, seat, engine.core.Rng.from_seed(99, "other"))
    assert engine.ai.infostate(game, twin, seat, seed) == engine.ai.infostate(game, state, seat, seed)


async def test_14_3_a_resigned_seat_is_played_by_a_bot(table):
    game = GAMES["rise-of-empires"]
    await table.ok(1, "game new rise-of-empires seed=6")
    await table.ok(2, "game join")
    await table.ok(3, "game join")
    await table.ok(1, "game start fixed")
    resigned = await table.ok(3, "resign")
    assert "a bot (easy) plays their seat" in resigned.text
    rng = random.Random(1)
    for _ in range(60):
        await bots_play(table)
        rec, state = await table.state()
        seat = game.to_act(state)[0]
        assert seat != 2
        await table.ok(rec.user_at(seat).user, "play " + rng.choice(game.legal_actions(state, seat)))
    rows = await table.storage.actions(rec.id)
    assert any(r.seat == 2 and r.via == "bot" for r in rows)
    await table.refused(3, "game back", contains="resigned")


async def test_14_3_vote_replace_then_game_back(table, clock):
    from bot.service import Settings

    table.service.settings = Settings(images=False, absent_after=1, stand_in_level="easy")
    game = GAMES["rising-cultures"]
    await table.ok(1, "game new rising-cultures seed=5")
    await table.ok(2, "game join")
    await table.ok(1, "game start fixed")
    rec, state = await table.state()
    absent = rec.user_at(game.to_act(state)[0]).user
    other = 3 - absent
    clock.advance(13)
    await table.service.tick()  # one unanswered reminder: the others may vote
    done = await table.ok(other, "vote replace")
    assert "a bot (easy) plays" in done.text and "game back" in done.text
    await table.refused(absent, "play civ rome", contains="A bot plays your seat now")
    posts = await bots_play(table)
    rows = await table.storage.actions(rec.id)
    assert rows and rows[-1].via in ("bot", "forced") and any(r.via == "bot" for r in rows)
    assert posts  # the bot's turn was announced
    back = await table.ok(absent, "game back")
    assert "is back" in back.text
    rec = await table.storage.open_table(CHANNEL)
    assert rec.seat_of(absent).bot is None
    await table.refused(absent, "game back", contains="nobody plays it for you")


async def test_14_3_a_restart_while_a_bot_thinks_loses_nothing(table):
    """The bot's thinking is not stored: killed in the middle, after a restart its reminder
    is still due and it decides again — the same move, from the same position."""
    started = asyncio.Event()

    class Slow:
        async def run(self, job, game_id, text, seat, level, seed, timeout=None):
            started.set()
            await asyncio.sleep(30)  # still thinking when the bot stops

        async def close(self) -> None:
            pass

    await table.ok(1, "game new mosaic seed=8")
    await table.ok(1, "game bot easy")
    await table.ok(1, "game start fixed")
    game = GAMES["mosaic"]
    rng = random.Random(2)
    for _ in range(40):
        rec, state = await table.state()
        if any(rec.user_at(s).bot for s in game.to_act(state)):
            break  # the bot must act now, and has not been asked yet
        await table.ok(1, "play " + rng.choice(game.legal_actions(state, game.to_act(state)[0])))
        rec, state = await table.state()
        if any(rec.user_at(s).bot for s in game.to_act(state)):
            break
    else:
        pytest.fail("the bot never had to act")
    table.service.thinkers = Slow()
    seen = len(await table.storage.actions(rec.id))
    await table.service.tick()
    await asyncio.wait_for(started.wait(), 5)
    await table.reopen()  # the process goes away in the middle of the bot's thinking
    assert len(await table.storage.actions(rec.id)) == seen  # nothing half-done was stored
    await bots_play(table)  # the fresh process: the reminder is due, the bot decides again
    rows = await table.storage.actions(rec.id)
    assert len(rows) > seen and rows[seen].via == "bot"
    rec2, state2 = await table.state()
    assert not rec2.user_at(game.to_act(state2)[0]).bot


async def test_bots_move_first_and_one_post_tells_everything_up_to_the_next_person(table):
    """Issue 26 §2: when a person's turn passes to bots, nothing is posted then; the bots
    move, and one post tells the person's turn and the bots' up to the next person,
    pinging that person once (a heads-up over the bots is merged into it)."""
    game = GAMES["cradle"]
    await table.ok(1, "game new cradle seed=4")
    await table.ok(2, "game join")
    await table.ok(1, "game bot easy")
    await table.ok(1, "game bot easy")
    await table.ok(1, "settings heads-up on")
    await table.ok(2, "settings heads-up on")
    await table.ok(1, "game start fixed")
    await bots_play(table)
    rng = random.Random(5)
    handovers = 0
    for _ in range(400):
        rec, state = await table.state()
        if rec is None:
            break
        seat = game.to_act(state)[0]
        user = rec.user_at(seat).user
        reply = await table.ok(user, "play " + rng.choice(game.legal_actions(state, seat)))
        rec, after = await table.state()
        if rec is None or not any(rec.user_at(s).bot for s in game.to_act(after)):
            continue
        # the turn passed to bots: the caller hears so, and nothing is posted yet
        assert reply.bots_moving and not reply.text and not reply.mentions, reply.text
        posts = await bots_play(table)
        rec, now = await table.state()
        assert len(posts) == 1, [p.text for p in posts]
        (post,) = posts
        if rec is not None:
            persons = {rec.user_at(s).user for s in game.to_act(now)}
            assert set(post.mentions) >= persons and len(post.mentions) == len(set(post.mentions))
            assert all(m > 0 for m in post.mentions)
        for warned in post.heads_up:  # a heads-up passes over bots, to a person not pinged for their turn
            assert post.mentions.count(warned.user) == 1 and warned.user > 0
            assert warned.after and all(name.startswith("Bot ") for name in warned.after[1:])
        told = {e.seq for e in post.story}
        rows = [r for r in await table.storage.actions((await table.storage.latest_table(CHANNEL)).id)]
        assert {r.seq for r in rows if r.via == "bot"} & told, "the bots' moves are told"
        handovers += 1
        if handovers >= 3:
            break
    assert handovers >= 3
