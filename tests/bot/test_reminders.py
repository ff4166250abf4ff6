"""Reminders, quiet hours, votes to skip or pause, the outbox — across restarts (issue 3 §2, §3)."""

from __future__ import annotations

import pytest

from bot.service import Settings
from bot.storage import PlayerPrefs

from .conftest import CHANNEL

pytestmark = pytest.mark.both_backends  # storage matters here: run on SQLite and PostgreSQL


async def test_the_player_to_act_is_reminded_after_the_interval(table, clock):
    await table.started()
    clock.advance(11.9)
    assert await table.service.tick() == []
    clock.advance(0.2)
    notices = await table.service.tick()
    assert len(notices) == 1
    notice = notices[0]
    assert notice.channel == CHANNEL and notice.reply.mentions == [1]
    assert "Reminder 1: ann, it is your turn" in notice.reply.text
    # until delivered, a notice is offered again; then never
    assert [n.id for n in await table.service.tick()] == [notice.id]
    await table.service.delivered(notice.id)
    assert await table.service.tick() == []
    clock.advance(12)
    second = await table.service.tick()
    assert "Reminder 2" in second[0].reply.text


async def test_acting_resets_the_reminder_to_the_next_player(table, clock):
    await table.started()
    clock.advance(6)
    await table.ok(1, "play take 1")
    reminders = await table.storage.reminders(1)
    assert [(r.user, r.due, r.count) for r in reminders] == [(2, clock.now + 12 * 3600, 0)]


async def test_pending_reminder_and_unsent_notice_survive_a_restart(table, clock):
    await table.started()
    clock.advance(12.5)
    first = await table.service.tick()
    await table.reopen()
    clock.advance(12)
    after = await table.service.tick()
    ids = [n.id for n in after]
    assert first[0].id in ids and len(after) == 2  # the unsent one, and the next reminder
    assert "Reminder 2" in after[1].reply.text


async def test_quiet_hours_move_a_reminder_to_their_end(table, clock):
    await table.started()  # 12:00 UTC
    await table.ok(1, "settings quiet 22-7 utc+2")
    prefs = await table.storage.prefs(1)
    assert (prefs.quiet_start, prefs.quiet_end, prefs.utc_offset) == (22, 7, 120)
    clock.advance(12)  # 00:00 UTC = 02:00 local: quiet
    assert await table.service.tick() == []
    reminder = (await table.storage.reminders(1))[0]
    assert reminder.count == 0 and reminder.due == clock.now + 5 * 3600  # 07:00 local
    clock.advance(5)
    notices = await table.service.tick()
    assert len(notices) == 1 and "Reminder 1" in notices[0].reply.text


async def test_quiet_hours_are_validated(table):
    await table.refused(1, "settings quiet 25-7", contains="0-23")
    await table.refused(1, "settings quiet late", contains="22-7")
    await table.refused(1, "settings quiet 22-7 mars", contains="utc+2")
    assert "off" in (await table.ok(1, "settings quiet off")).text


async def test_dm_preference_sends_private_parts_by_dm(table, clock):
    await table.ok(2, "settings dm on")
    await table.started()
    reply = await table.ok(1, "play take 1")
    assert reply.private[0].user == 2 and reply.private[0].dm
    clock.advance(12)
    notice = (await table.service.tick())[0]
    assert notice.reply.private[0].user == 2 and notice.reply.private[0].dm


async def test_interval_per_game_and_off(table, clock):
    await table.started(options="seed=7 remind=2")
    clock.advance(2)
    assert len(await table.service.tick()) == 1
    await table.ok(1, "settings remind off")
    clock.advance(100)
    assert len(await table.service.tick()) == 1  # only the earlier, undelivered one
    assert await table.storage.reminders(1) == []
    await table.refused(1, "settings remind 0", contains="from 1 to 720")
    await table.ok(1, "settings remind 6")
    assert (await table.storage.reminders(1))[0].due == clock.now + 6 * 3600


async def absent(table, clock, count):
    for _ in range(count):
        clock.advance(12)
        for notice in await table.service.tick():
            await table.service.delivered(notice.id)


async def test_after_n_unanswered_reminders_the_others_may_vote_to_skip(table, clock):
    table.service.settings = Settings(images=False, absent_after=3)
    await table.started(users=(1, 2, 3))
    await table.ok(1, "play take 1")  # bob must act now, and does not
    await absent(table, clock, 2)
    await table.refused(1, "vote skip", contains="nobody is absent")
    clock.advance(12)
    notices = await table.service.tick()
    assert "may `vote skip`" in notices[0].reply.text and sorted(notices[0].reply.mentions) == [1, 2, 3]
    await table.refused(2, "vote skip", contains="nobody is absent")  # not about oneself
    first = await table.ok(1, "vote skip")
    assert "1 of 2 needed" in first.text
    done = await table.ok(3, "vote skip")
    assert "voted to skip bob's turn" in done.text and "• bob took 1; 4 left. [skipped by vote]" in done.text
    rows = await table.storage.actions(1)
    assert [(r.seat, r.action, r.via) for r in rows][-1] == (1, "take 1", "skip")
    assert done.mentions == [] and list(done.choices) == [3]  # cy cast the last vote and is next: no ping


async def test_vote_to_pause_then_resume(table, clock):
    table.service.settings = Settings(images=False, absent_after=1)
    await table.started()
    await absent(table, clock, 1)
    paused = await table.ok(2, "vote pause")
    assert "pause" in paused.text
    rec, _ = await table.state()
    assert rec.status == "paused" and await table.storage.reminders(rec.id) == []
    await table.refused(1, "play take 1", contains="paused")
    await table.refused(3, "resume", contains="not a player")
    clock.advance(48)
    assert await table.service.tick() == []
    resumed = await table.ok(1, "resume")
    assert resumed.mentions == [] and list(resumed.choices) == [1]  # ann resumed it herself: no ping
    assert (await table.storage.reminders(rec.id))[0].due == clock.now + 12 * 3600


async def test_reminders_stop_when_the_game_ends_or_is_cancelled(table, clock):
    await table.started()
    await table.ok(1, "game cancel")
    clock.advance(13)
    assert await table.service.tick() == []


async def test_prefs_are_stored_per_player(table):
    await table.storage.set_prefs(PlayerPrefs(5, 1, 6, -300, True))
    assert await table.storage.prefs(5) == PlayerPrefs(5, 1, 6, -300, True)
    assert await table.storage.prefs(6) == PlayerPrefs(6)


async def test_simultaneous_votes_are_both_counted(table, clock):
    table.service.settings = Settings(images=False, absent_after=1)
    await table.started(users=(1, 2, 3))
    await table.ok(1, "play take 1")  # bob to act, and away; ann and cy must both agree
    await absent(table, clock, 1)
    import asyncio

    replies = await asyncio.gather(table.say(1, "vote skip"), table.say(3, "vote skip"))
    assert not any(r.error for r in replies)
    assert any("voted to skip bob's turn" in r.text for r in replies)
    rows = await table.storage.actions(1)
    assert [(r.seat, r.via) for r in rows] == [(0, ""), (1, "skip")]


async def test_a_reminder_sent_meanwhile_does_not_refuse_a_move(table, clock):
    await table.started()
    clock.advance(12)
    import asyncio

    _, reply = await asyncio.gather(table.service.tick(), table.say(1, "play take 1"))
    assert not reply.error, reply.text
    assert len(await table.storage.actions(1)) == 1


async def test_simultaneous_step_reminds_each_waiting_player_and_keeps_their_count(table, clock):
    start = await table.started(options="seed=7 bids=true")
    assert start.mentions == [2] and start.choices == {1: ["bid 1", "bid 2"], 2: ["bid 1", "bid 2"]}
    clock.advance(12)
    notices = await table.service.tick()
    assert sorted(n.reply.mentions[0] for n in notices) == [1, 2]
    reply = await table.ok(1, "play bid 2")
    # the simultaneous step goes on (only bob still bids): no post, ann's panel says whom she waits for
    assert reply.panel and not reply.text and reply.mentions == [] and reply.choices == {}
    assert "Waiting for bob" in reply.private[0].text
    reminders = {r.user: r for r in await table.storage.reminders(1)}
    assert list(reminders) == [2] and reminders[2].count == 1  # bob's unanswered reminder still counts
    await table.refused(1, "play bid 1", contains="not your turn; waiting for bob")
    reply = await table.ok(2, "play bid 1")
    assert reply.mentions == [1] and "• ann placed a bid.\n• bob placed a bid." in reply.text  # one post for the round


async def test_a_reminder_another_process_sent_meanwhile_is_not_sent_again(table, clock):
    """Two processes' ticks may both read a reminder as due; the one that comes second
    finds it already sent (rescheduled) and sends nothing."""
    await table.started()
    clock.advance(12.5)
    read_by_the_other = await table.storage.due_reminders(clock.now)
    (sent,) = await table.service.tick()
    for reminder in read_by_the_other:
        await table.service.absence.remind(reminder, clock.now)
    assert [n.id for n in await table.service.pending_notices()] == [sent.id]
    assert [r.count for r in await table.storage.reminders(1)] == [1]
