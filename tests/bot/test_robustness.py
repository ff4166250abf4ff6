"""Issue 11: a reloaded game plays as before, odd input is refused clearly, concurrent
lobby changes all land, and text typed by users is quoted back safely."""

from __future__ import annotations

import asyncio
import random

import pytest

import engine
from bot.service import Service, Settings

from .conftest import CHANNEL, GAMES


# ---------------------------------------------------------------- §1 replay == snapshot
@pytest.mark.parametrize(
    "game_id, players, moves",
    [("rising-cultures", 2, 400), ("rise-of-empires", 3, 160), ("cradle", 4, 160), ("mosaic", 3, 160)],
)
async def test_law_4_replay_equals_the_stored_snapshot_after_every_move(table, game_id, players, moves):
    """With no state cache every command plays from the stored text, as a restarted bot
    does; the log replayed from the setup must then give the stored snapshot exactly."""
    table.service = Service(
        table.storage, clock=table.clock, games=GAMES, settings=Settings(images=False), cache_size=0
    )
    game = engine.GAMES[game_id]
    await table.ok(1, f"game new {game_id} seed=11")
    for user in range(2, players + 1):
        await table.ok(user, "game join")
    await table.ok(1, "game start")
    rng = random.Random(game_id)
    for _ in range(moves):
        rec, state = await table.state()
        if rec is None or game.is_over(state):
            break
        seat = rng.choice(game.to_act(state))
        user = rec.user_at(seat).user
        await table.ok(user, "play " + rng.choice(game.legal_actions(state, seat)))
        rec = await table.storage.latest_table(CHANNEL)
        assert game.dumps(await table.service.replay(rec.id)) == (await table.storage.snapshot(rec.id))[1]


# ---------------------------------------------------------------- §3 odd input
async def test_log_with_unicode_digits_is_refused_naming_what_is_allowed(table):
    await table.started()
    await table.refused(1, "log ²", contains="digits 0-9")
    await table.refused(1, "log ٣", contains="digits 0-9")
    await table.ok(1, "log 3")


async def test_seed_out_of_the_storage_range_is_refused(table):
    await table.refused(1, "game new fake-race seed=9223372036854775808", contains="from 0 to 9223372036854775807")
    await table.refused(1, "game new fake-race seed=-1", contains="from 0 to")
    await table.ok(1, "game new fake-race seed=9223372036854775807")


@pytest.mark.both_backends  # PostgreSQL text cannot hold a lone surrogate: the repair must come first
async def test_lone_surrogates_in_options_are_refused_and_in_names_repaired(table):
    await table.refused(1, "game new fake-race pile=\ud800", contains="broken characters")
    assert await table.storage.open_table(CHANNEL) is None
    reply = await table.service.handle(CHANNEL, 1, "ann\udfff", "game new fake-race")
    assert not reply.error, reply.text
    rec = await table.storage.open_table(CHANNEL)
    assert rec.seats[0].name == "ann\ufffd"


async def test_reminder_interval_has_a_floor_of_one_hour(table):
    await table.refused(1, "game new fake-race remind=0.0001", contains="from 1 to 720")
    await table.ok(1, "game new fake-race remind=1")
    await table.refused(1, "settings remind 0.5", contains="from 1 to 720")


@pytest.mark.parametrize(
    "offset, shown",
    [("utc-0:30", "UTC-0:30"), ("utc+5:45", "UTC+5:45"), ("utc-5", "UTC-5"), ("utc+14", "UTC+14"), ("gmt+0", "UTC+0")],
)
async def test_quiet_hours_offsets_keep_their_sign_and_minutes(table, offset, shown):
    reply = await table.ok(1, f"settings quiet 22-7 {offset}")
    assert shown in reply.text
    assert shown in (await table.ok(1, "settings")).text


@pytest.mark.parametrize("offset", ["utc+14:99", "utc+15", "utc-13", "utc+2:60", "utc+²"])
async def test_quiet_hours_offsets_out_of_range_are_refused(table, offset):
    await table.refused(1, f"settings quiet 22-7 {offset}", contains="utc-12 to utc+14")
    assert (await table.storage.prefs(1)).quiet_start is None


async def test_options_must_be_plain_names_and_values(table):
    await table.refused(1, "game new fake-race pile=@everyone", contains="is not an option")
    await table.refused(1, "game new fake-race <@1>=2", contains="is not an option")


# ---------------------------------------------------------------- §4 quoting
@pytest.mark.parametrize(
    "line", ["rules mosaic @qqzzx", "game new @everyone", "rules cradle <@&123>", "frobnicate@here"]
)
async def test_user_text_is_quoted_with_mentions_neutralised(table, line):
    reply = await table.say(1, line)
    assert "@everyone" not in reply.text and "@here" not in reply.text and "<@" not in reply.text
    assert "\u200b" in reply.text or "\u2039" in reply.text


async def test_an_action_with_backticks_cannot_break_out_of_code_formatting(table):
    await table.started()
    reply = await table.refused(1, "play `take` @everyone `")
    quoted = [part for i, part in enumerate(reply.text.split("`")) if i % 2 == 1]
    assert any("take" in q and "@\u200beveryone" in q for q in quoted), reply.text
    assert "@everyone" not in reply.text


# ---------------------------------------------------------------- §5 concurrent joins
async def test_four_joins_at_the_same_moment_all_succeed(table):
    await table.ok(1, "game new mosaic")
    replies = await asyncio.gather(*(table.say(user, "game join") for user in (2, 3, 4, 5)))
    assert [r.error for r in replies] == [False] * 4, [r.text for r in replies]
    rec = await table.storage.open_table(CHANNEL)
    assert sorted(s.user for s in rec.seats) == [1, 2, 3, 4, 5]


async def test_joins_and_leaves_at_once_all_land(table):
    await table.ok(1, "game new mosaic")
    await table.ok(2, "game join")
    await table.ok(3, "game join")
    replies = await asyncio.gather(
        table.say(2, "game leave"), table.say(4, "game join"), table.say(3, "game leave"), table.say(5, "game join")
    )
    assert not any(r.error for r in replies), [r.text for r in replies]
    rec = await table.storage.open_table(CHANNEL)
    assert sorted(s.user for s in rec.seats) == [1, 4, 5]


async def test_a_move_on_an_old_position_is_still_refused(table):
    await table.started()
    first, second = await asyncio.gather(table.say(1, "play take 1"), table.say(1, "play take 2"))
    assert sorted([first.error, second.error]) == [False, True]
    assert (first if first.error else second).stale
