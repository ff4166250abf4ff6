"""Undo (issue 3 §2): alone only for one's own last action when nobody has acted
since and nothing hidden or random was revealed; otherwise with every other
player's approval, within 24 h; undone lines stay in the log, marked."""

from __future__ import annotations

import pytest

import engine

from .conftest import GAMES

pytestmark = pytest.mark.both_backends  # storage matters here: run on SQLite and PostgreSQL

FAKE = GAMES["fake-race"]


async def test_own_last_action_is_taken_back_alone(table):
    await table.started()
    rec0, before = await table.state()
    await table.ok(1, "play take 2")
    reply = await table.ok(1, "undo")
    assert "ann took back `take 2`" in reply.text and reply.mentions == [] and list(reply.choices) == [1]
    rec, state = await table.state()
    assert FAKE.dumps(state) == FAKE.dumps(before) and rec.version == rec0.version + 2
    rows = await table.storage.actions(rec.id)
    assert [(r.action, r.undone) for r in rows] == [("take 2", True)]
    # play goes on with fresh sequence numbers; replay skips the undone line
    await table.ok(1, "play take 1")
    rows = await table.storage.actions(rec.id)
    assert [(r.seq, r.action, r.undone) for r in rows] == [(1, "take 2", True), (2, "take 1", False)]
    assert FAKE.dumps(await table.service.replay(rec.id)) == (await table.storage.snapshot(rec.id))[1]
    log = await table.ok(2, "log")
    assert "#1 ann: `take 2` (undone)" in log.text


async def test_undo_after_someone_else_acted_needs_everyone_elses_approval(table):
    await table.started(users=(1, 2, 3))
    _, before = await table.state()
    await table.ok(1, "play take 1")
    await table.ok(2, "play take 1")
    ask = await table.ok(1, "undo")
    assert "others have acted since" in ask.text and sorted(ask.mentions) == [2, 3]
    assert "2 action(s) would be undone" in ask.text
    await table.refused(1, "undo approve", contains="already approved")
    wait = await table.ok(2, "undo approve")
    assert "waiting for cy" in wait.text
    _, unchanged = await table.state()
    assert unchanged.pile == before.pile - 2  # nothing undone until everyone agreed
    done = await table.ok(3, "undo yes")
    assert "Everyone approved" in done.text
    rec, state = await table.state()
    assert FAKE.dumps(state) == FAKE.dumps(before)
    rows = await table.storage.actions(rec.id)
    assert [r.undone for r in rows] == [True, True]


async def test_drawing_a_hidden_card_makes_undo_need_approval(table):
    await table.started()
    await table.ok(1, "play draw")
    ask = await table.ok(1, "undo")
    assert "something hidden or random was revealed" in ask.text and ask.mentions == [2]
    rec, state = await table.state()
    assert len(state.hands[0]) == 1
    await table.ok(2, "undo approve")
    _, state = await table.state()
    assert state.hands[0] == []


async def test_rolling_a_die_makes_undo_need_approval(table):
    await table.started()
    await table.ok(1, "play roll")
    ask = await table.ok(1, "undo")
    assert "something hidden or random was revealed" in ask.text


async def test_undo_requests_expire_after_24_hours(table, clock):
    await table.started()
    await table.ok(1, "play take 1")
    await table.ok(2, "play take 1")
    await table.ok(1, "undo")
    clock.advance(24.01)
    await table.refused(2, "undo approve", contains="no undo request")
    rec, state = await table.state()
    assert state.pile == 4
    again = await table.ok(1, "undo")  # a fresh request may be made
    assert "asks to take back" in again.text


async def test_a_rejected_undo_changes_nothing(table):
    await table.started()
    await table.ok(1, "play take 1")
    await table.ok(2, "play take 1")
    await table.ok(1, "undo")
    reply = await table.ok(2, "undo reject")
    assert "rejected" in reply.text
    await table.refused(2, "undo approve", contains="no undo request")
    _, state = await table.state()
    assert state.pile == 4
    assert not any(r.undone for r in await table.storage.actions(1))


async def test_a_new_move_voids_a_pending_undo_request(table):
    await table.started()
    await table.ok(1, "play take 1")
    await table.ok(2, "play take 1")
    await table.ok(2, "undo")  # bob's own last action, but it revealed nothing: free
    _, state = await table.state()
    assert state.pile == 5
    await table.ok(2, "play draw")
    await table.ok(2, "undo")  # revealed a card: needs ann
    await table.ok(1, "play take 1")
    await table.refused(2, "undo approve", contains="no undo request")


async def test_nothing_to_undo(table):
    await table.started()
    await table.refused(1, "undo", contains="no action to take back")
    await table.refused(1, "undo maybe", contains="undo approve")


async def test_undo_of_a_rising_cultures_move_restores_the_position(table):
    if "rising-cultures" not in engine.GAMES:
        return
    game = engine.GAMES["rising-cultures"]
    await table.started("rising-cultures", options="seed=4")
    rec, before = await table.state()
    seat = game.to_act(before)[0]
    user = rec.user_at(seat).user
    action = game.legal_actions(before, seat)[0]
    await table.ok(user, f"play {action}")
    reply = await table.ok(user, "undo")
    rec, state = await table.state()
    if "took back" in reply.text:
        assert game.dumps(state) == game.dumps(before)
    else:  # the move revealed something: the other player must agree
        other = next(s.user for s in rec.seats if s.user != user)
        await table.ok(other, "undo approve")
        _, state = await table.state()
        assert game.dumps(state) == game.dumps(before)
