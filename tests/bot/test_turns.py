"""Issue 12: turn-level play. A turn is one exchange (the acting player's steps are
answered to them alone; the channel gets one post when the turn passes), and no step
is left to a player who has no decision to make."""

from __future__ import annotations

import random

import pytest

from bot.service.reply import MOVE
from bot.service.telling import move_line

from .conftest import CHANNEL, GAMES

GAMES_AND_COUNTS = [("rising-cultures", 2), ("rise-of-empires", 3), ("cradle", 4), ("mosaic", 3)]


async def _start(table, game_id: str, players: int, seed: int = 5):
    await table.ok(1, f"game new {game_id} seed={seed}")
    for user in range(2, players + 1):
        await table.ok(user, "game join")
    return await table.ok(1, "game start fixed")


def _users(rec, seats) -> set[int]:
    return {rec.user_at(s).user for s in seats}


@pytest.mark.parametrize("game_id, players", GAMES_AND_COUNTS)
async def test_12_1_a_turn_is_one_exchange_and_12_2_no_step_without_a_decision(table, game_id, players):
    """Random play through the service, every reply checked against the log:
    a post (with one board, if any) exactly when the turn passed, mentioning exactly
    the players who must act now and were not acting before; otherwise the caller's
    panel alone. After every command each seat to act has a real choice."""
    game = GAMES[game_id]
    await _start(table, game_id, players)
    rng = random.Random(game_id)
    posts = handovers = 0
    for _ in range(120):
        rec, state = await table.state()
        if rec is None or game.is_over(state):
            break
        before = game.to_act(state)
        seat = rng.choice(before)
        user = rec.user_at(seat).user
        seen = len(await table.storage.actions(rec.id))
        reply = await table.ok(user, "play " + rng.choice(game.legal_actions(state, seat)))
        rows = (await table.storage.actions(rec.id))[seen:]
        after_rec = await table.storage.latest_table(CHANNEL)
        after = await table.service.replay(after_rec.id)
        now = game.to_act(after)
        passed = bool(set(now) - set(before)) or any(r.seat not in before for r in rows) or game.is_over(after)
        assert all(r.via in ("", "forced") for r in rows) and rows[0].via == "" and rows[0].user == user
        if passed:
            handovers += 1
            posts += 1
            assert not reply.panel and reply.text, reply
            if game.is_over(after):  # the end pings every player but the one reading its answer (issue 26 §2)
                assert set(reply.mentions) == {s.user for s in after_rec.seats} - {user}
            else:
                assert set(reply.mentions) == _users(after_rec, now) - _users(after_rec, before) - {user}
            told = {e.seq: e for e in reply.story if e.kind == MOVE}
            for r in rows:  # every step of this command is in the post's story, in its public form
                assert told[r.seq].action == game.public_action(r.action) and told[r.seq].events == r.events
                assert move_line(told[r.seq])[:40] in reply.text or "earlier step" in reply.text  # (or shortened)
        else:
            assert reply.panel and not reply.text and reply.image is None and reply.mentions == []
            assert [p.user for p in reply.private] == [user]
        assert user not in reply.mentions
        if not game.is_over(after):
            for s in now:
                assert len(game.legal_actions(after, s)) > 1, f"seat {s} was left a step without a choice"
        for r in rows[1:]:
            assert r.via == "forced"
    assert posts == handovers and posts > 0


async def test_12_2_forced_steps_are_marked_automatic_in_the_log_and_the_post(table):
    """A step with exactly one legal action is played at once, marked automatic."""
    game = GAMES["rising-cultures"]
    await _start(table, "rising-cultures", 2, seed=3)
    rng = random.Random(1)
    for _ in range(400):
        rec, state = await table.state()
        if rec is None or game.is_over(state):
            break
        seat = game.to_act(state)[0]
        reply = await table.ok(rec.user_at(seat).user, "play " + rng.choice(game.legal_actions(state, seat)))
        rows = [r for r in await table.storage.actions(rec.id) if r.via == "forced"]
        if rows and not reply.panel and "[automatic]" in reply.text:
            log = await table.ok(1, "log 50")
            assert "[automatic]" in log.text
            return
    pytest.fail("no automatic step was posted in a whole game")


async def test_12_1_the_panel_lists_this_turn_so_far_and_survives_a_restart(table):
    game = GAMES["rise-of-empires"]
    await _start(table, "rise-of-empires", 3, seed=8)
    rng = random.Random(3)
    for _ in range(300):
        rec, state = await table.state()
        seat = game.to_act(state)[0]
        user = rec.user_at(seat).user
        reply = await table.ok(user, "play " + rng.choice(game.legal_actions(state, seat)))
        if reply.panel and reply.choices.get(user):
            break
    else:
        pytest.fail("no turn of several steps")
    assert "This turn so far:" in reply.private[0].text
    await table.reopen()  # a restart in the middle of the turn loses nothing
    again = await table.ok(user, "play")
    assert again.panel and again.private[0].text == reply.private[0].text and again.choices == reply.choices


async def test_12_1_undo_of_a_step_inside_the_turn_stays_in_the_panel(table):
    game = GAMES["rise-of-empires"]
    await _start(table, "rise-of-empires", 3, seed=8)
    rng = random.Random(3)
    for _ in range(300):
        rec, state = await table.state()
        seat = game.to_act(state)[0]
        user = rec.user_at(seat).user
        snapshot = game.dumps(state)
        action = rng.choice(game.legal_actions(state, seat))
        reply = await table.ok(user, "play " + action)
        if reply.panel and reply.choices.get(user):
            break
    undo = await table.say(user, "undo")
    if undo.error or not undo.panel:  # the step revealed something random: the others must approve
        assert undo.mentions
        return
    assert not undo.text and "took back" in undo.private[0].text
    _, state = await table.state()
    assert game.dumps(state) == snapshot


async def test_12_1_a_long_turn_post_fits_discord_and_points_to_the_log():
    """A turn of 80 steps: at most 8 lines within the budget, its newest step whole, its
    scorings kept, and a pointer to `log` for the steps left out (issue 25 §2)."""
    from bot.service.reply import SCORE, Entry
    from bot.service.telling import POST_BUDGET, POST_LINES, story_lines

    story = []
    for i in range(80):
        events = [f"ann places {i} cubes in a region with a long name."]
        story.append(Entry(MOVE, i + 1, 0, "ann", f"place {i} somewhere", f"place {i} somewhere", "", events))
        if i % 20 == 0:
            story.append(Entry(SCORE, i + 1, before=[i, 0], after=[i + 1, 0]))
    out = story_lines(story, ["ann", "bob"])
    assert len(out) <= POST_LINES and sum(len(x) + 1 for x in out) <= POST_BUDGET
    assert out[-1] == "• ann places 79 cubes in a region with a long name."
    assert "`log` shows every step" in out[0] and "• Scores: ann 0 → 61" in out  # the scorings: one line


async def test_12_1_simultaneous_choices_make_one_post_per_round(table):
    """Rising Cultures' opening: both players set up their areas at once (three steps
    each, in any order). Every pick answers its player alone; one post ends the round."""
    await _start(table, "rising-cultures", 2, seed=1)
    game = GAMES["rising-cultures"]
    for _ in range(2):  # the civilization choices, one after the other
        rec, state = await table.state()
        seat = game.to_act(state)[0]
        await table.ok(rec.user_at(seat).user, "play " + game.legal_actions(state, seat)[0])
    rec, state = await table.state()
    assert len(game.to_act(state)) == 2
    picks = []
    for _ in range(12):
        rec, state = await table.state()
        seat = game.to_act(state)[-1]  # the second player first, then the first
        reply = await table.ok(rec.user_at(seat).user, "play " + game.legal_actions(state, seat)[0])
        picks.append(reply)
        if not reply.panel:
            break
    assert len(picks) == 6 and all(r.panel for r in picks[:-1])
    post = picks[-1]
    moves = [e for e in post.story if e.kind == MOVE and not e.via]  # the picks (then automatic steps)
    assert len(moves) == 6 and sum(e.action.startswith("resource ") for e in moves) == 4
    hidden = [e for e in moves if "(a hidden card)" in e.action]
    assert len(hidden) == 2 and all(e.label == e.action for e in hidden)  # the label names no hidden card
    assert post.mentions == [rec.user_at(1).user]  # the other player; the last picker (seat 0) reads it


async def test_12_3_heads_up_pings_the_next_player_once_when_the_player_before_starts(table):
    await table.ok(3, "settings heads-up on")
    assert "Heads-up before your turn: on" in (await table.ok(3, "settings")).text
    await table.started(users=(1, 2, 3), options="seed=7 pile=20")  # fake race: seats 0, 1, 2 in turn
    first = await table.ok(1, "play take 1")  # bob's turn starts; cy plays after bob
    assert first.mentions == [2, 3] and "Heads-up, cy: you play after bob." in first.text
    second = await table.ok(2, "play take 1")  # cy's own turn: pinged as the player to act, no heads-up
    assert second.mentions == [3] and "Heads-up" not in second.text
    third = await table.ok(3, "play take 1")  # ann's turn starts; bob has no heads-up
    assert third.mentions == [1] and "Heads-up" not in third.text
    await table.ok(3, "settings heads-up off")
    assert (await table.ok(1, "play take 1")).mentions == [2]
    await table.refused(3, "settings heads-up maybe", contains="heads-up on")
