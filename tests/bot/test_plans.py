"""Planned moves (issue 51): queued for a player's coming decisions, played in the commit that
hands them the turn when they still fit, dropped with the engine's reason when not; private,
durable, played once across processes; every bad input refused with nothing stored."""

from __future__ import annotations

import asyncio

import pytest

from bot.service import Service, Settings
from bot.storage import open_storage

from .conftest import GAMES

pytestmark = pytest.mark.both_backends  # the plans live in the storage: both backends

FAKE = GAMES["fake-race"]


async def plans_of(table, user: int) -> list[str]:
    rec, _ = await table.state()
    return [p.action for p in (await table.storage.plans(rec.id)).get(user, [])]


def private_text(reply, user: int) -> str:
    return "\n".join(p.text for p in reply.private if p.user == user)


async def test_a_plan_is_played_when_the_decision_comes_and_the_next_waits(table):
    await table.started()  # ann (seat 0) to act, pile 6
    reply = await table.ok(2, "plan take 2; take 1")
    assert reply.text == "" and "`take 2`" in private_text(reply, 2)  # answered privately only
    assert await plans_of(table, 2) == ["take 2", "take 1"]
    post = await table.ok(1, "play take 1")  # bob's decision comes: his first planned move is played
    rec, state = await table.state()
    rows = await table.storage.actions(rec.id)
    assert [(r.seat, r.action, r.via) for r in rows] == [(0, "take 1", ""), (1, "take 2", "planned")]
    assert FAKE.to_act(state) == [0] and state.pile == 3
    assert await plans_of(table, 2) == ["take 1"]  # the next waits for his next decision
    assert "[planned]" in post.text
    log = await table.ok(1, "log")
    assert "#2 bob: `take 2` [planned]" in log.text


async def test_a_plan_that_no_longer_fits_is_dropped_with_the_engines_reason(table):
    await table.started(options="seed=7 pile=3")
    await table.ok(2, "plan take 2; roll")
    reply = await table.ok(1, "play take 2")  # pile 1: `take 2` is no longer legal for bob
    rec, state = await table.state()
    assert [r.via for r in await table.storage.actions(rec.id)] == [""]  # nothing played for him
    assert FAKE.to_act(state) == [1]
    assert await plans_of(table, 2) == []  # the whole queue dropped
    [notice] = [p for p in reply.private if p.user == 2 and "no longer fits" in p.text]
    assert notice.dm and "`take 2` no longer fits" in notice.text and "not legal now" in notice.text
    assert "take 2" not in reply.text  # the public post says nothing of it


async def test_a_planned_choice_whose_label_changed_is_dropped(table):
    await table.started()
    reply = await table.service.plan_moves(table.channel, 2, "bob", [("take 1", "2 from the pile")])
    assert not reply.error, reply.text
    post = await table.ok(1, "play take 1")
    [notice] = [p for p in post.private if p.user == 2 and "no longer fits" in p.text]
    assert "is now" in notice.text and "2 from the pile" in notice.text
    assert await plans_of(table, 2) == []


async def test_a_planned_choice_with_its_label_is_played(table):
    await table.started()
    reply = await table.service.plan_moves(table.channel, 2, "bob", [("take 1", "1 from the pile")])
    assert "(1 from the pile)" in private_text(reply, 2)
    await table.ok(1, "play take 2")
    rec, _ = await table.state()
    assert [r.via for r in await table.storage.actions(rec.id)] == ["", "planned"]


async def test_plan_shows_and_clear_empties(table):
    await table.started()
    await table.ok(1, "plan roll; take 1")  # planned on one's own turn: for the coming decisions
    shown = await table.ok(1, "plan")
    assert "1. `roll` (next)" in private_text(shown, 1) and "2. `take 1`" in private_text(shown, 1)
    await table.ok(1, "play take 1")  # the current decision is not a planned one
    assert await plans_of(table, 1) == ["roll", "take 1"]
    panel = await table.ok(2, "play")  # bob's panel: his plan only, never ann's
    assert "Planned for your coming decisions" not in private_text(panel, 2)
    await table.ok(2, "plan take 1")
    panel = await table.ok(2, "play")
    assert "Planned for your coming decisions: `take 1`" in private_text(panel, 2)
    assert panel.decisions[2].planned == ["take 1"]
    await table.ok(2, "plan clear")
    await table.ok(1, "plan clear")
    assert await plans_of(table, 1) == []
    empty = await table.ok(1, "plan")
    assert "no moves planned" in private_text(empty, 1)


async def test_bad_plans_are_refused_and_nothing_is_stored(table):
    await table.ok(1, "game new fake-race seed=7 pile=6")
    await table.refused(1, "plan take 1", contains="not started yet")
    await table.ok(2, "game join")
    await table.ok(1, "game start fixed")
    await table.refused(2, "plan fly away", contains="no move of Fake Race")
    await table.refused(2, "plan ;", contains="empty plan")
    await table.refused(2, "plan " + "; ".join(["take 1"] * 21), contains="at most 20")
    await table.refused(3, "plan take 1", contains="not a player")
    reply = await table.service.plan_moves(table.channel, 2, "bob", [])
    assert reply.error and "empty plan" in reply.text.lower()
    await table.ok(2, "plan " + "; ".join(["take 1"] * 20))
    await table.refused(2, "plan roll", contains="at most 20")
    assert len(await plans_of(table, 2)) == 20
    await table.ok(2, "resign")  # resigning clears the queue
    rec = await table.storage.latest_table(table.channel)
    assert await table.storage.plans(rec.id) == {}
    await table.refused(2, "plan take 1", contains="finished")


async def test_a_positional_move_is_planned_only_from_a_described_choice():
    from bot.service.plans import positional

    assert positional("mosaic", "draft 1") and positional("rise-of-empires", "take progress 2")
    assert not positional("rise-of-empires", "take progress navigation") and not positional("fake-race", "take 1")


async def test_the_end_of_the_game_clears_the_plans(table):
    await table.started(options="seed=7 pile=2")
    await table.ok(2, "plan roll")
    await table.ok(1, "plan roll")
    await table.ok(1, "play take 2")  # the pile is empty: the game ends
    rec = await table.storage.latest_table(table.channel)
    assert rec.status == "finished" and await table.storage.plans(rec.id) == {}


async def test_plans_survive_a_restart(table):
    await table.started()
    await table.ok(2, "plan roll")
    await table.reopen()
    await table.ok(1, "play take 1")
    rec, _ = await table.state()
    assert [r.via for r in await table.storage.actions(rec.id)] == ["", "planned"]


async def test_a_plan_is_played_once_across_two_processes(table, database, clock):
    await table.started()
    await table.ok(2, "plan take 1; roll")
    other_storage = open_storage(database)
    await other_storage.open()
    other = Service(other_storage, clock=clock, games=GAMES, settings=Settings(images=False))
    try:
        replies = await asyncio.gather(
            table.service.handle(table.channel, 1, "ann", "play take 2"),
            other.handle(table.channel, 1, "ann", "play take 2"),
        )
        assert sorted(r.error for r in replies) == [False, True]
    finally:
        await other_storage.close()
    rec, _ = await table.state()
    assert [(r.action, r.via) for r in await table.storage.actions(rec.id)] == [("take 2", ""), ("take 1", "planned")]
    assert await plans_of(table, 2) == ["roll"]


async def test_resigning_clears_ones_plan_and_the_game_goes_on(table):
    await table.started(users=(1, 2, 3))
    await table.ok(3, "plan roll")
    await table.ok(2, "plan take 1")
    await table.ok(3, "resign")
    rec, _ = await table.state()
    assert rec.status == "active" and set(await table.storage.plans(rec.id)) == {2}


async def test_a_planned_move_is_undone_as_any_move(table):
    await table.started()
    await table.ok(2, "plan take 1")
    await table.ok(1, "play take 1")  # bob's plan played
    reply = await table.ok(2, "undo")  # his own last move, nobody acted since: alone
    assert "bob took back `take 1`" in reply.text


async def test_a_planned_move_spends_no_clock_time_and_earns_the_bonus(table, clock):
    from .test_clocks import banks

    await table.ok(1, "game new fake-race seed=7 pile=6 clock=2d clock_bonus=12h clock_cap=3d")
    await table.ok(2, "game join")
    await table.ok(1, "game start fixed")
    await table.ok(2, "plan take 1")
    clock.advance(5)
    await table.ok(1, "play take 1")  # bob's decision comes and his plan plays it at once
    day, hour = 24 * 3600.0, 3600.0
    assert await banks(table) == {0: 2 * day - 5 * hour + 12 * hour, 1: 2 * day + 12 * hour}


class TwoSteps:
    """A turn of two decisions: `pick a|b`, then `go x|y` whatever was picked (nothing hidden)."""

    def __init__(self, first_differs: bool = False) -> None:
        self.first_differs = first_differs

    def to_act(self, state):
        return [] if state["done"] else [0]

    def is_over(self, state):
        return state["done"]

    def legal_actions(self, state, seat):
        if state["picked"] is None:
            return ["pick a", "pick b"]
        return ["go x", "go y"] + (["go z"] if self.first_differs and state["picked"] == "pick b" else [])

    def apply(self, state, seat, action):
        from engine.core import Step

        if action.startswith("pick"):
            return Step({**state, "picked": action})
        return Step({**state, "done": True})

    def choices(self, state, seat):
        from engine.core import Choice

        return [
            Choice(a, "Go" if a.startswith("go") else "Pick", a.split()[1].upper())
            for a in self.legal_actions(state, seat)
        ]

    def view(self, state, seat):
        return {"picked": state["picked"]}

    def dumps(self, state):
        import json

        return json.dumps(state)


def test_the_next_decision_is_known_when_every_pick_leads_to_the_same_one():
    from bot.service.plans import next_choices

    start = {"picked": None, "done": False}
    known = next_choices(TwoSteps(), start, 0, ["ann"])
    assert [(c.action, c.label) for c in known] == [("go x", "X"), ("go y", "Y")]
    assert next_choices(TwoSteps(first_differs=True), start, 0, ["ann"]) == []  # it depends on the pick
    state = FAKE.setup(["ann", "bob"], 7, {"pile": 6})
    assert next_choices(FAKE, state, 0, ["ann", "bob"]) == []  # the turn passes: not known
    assert next_choices(FAKE, state, 1, ["ann", "bob"]) == []  # not bob's decision now


async def test_a_typed_positional_move_is_refused_and_planned_from_its_described_choice(table):
    await table.started(game="mosaic", options="seed=3")
    game = GAMES["mosaic"]
    for _ in range(20):  # the leaders first, then the draft
        rec, state = await table.state()
        seat = game.to_act(state)[0]
        if "draft 1" in game.legal_actions(state, seat):
            break
        await table.ok(rec.user_at(seat).user, "play " + game.legal_actions(state, seat)[0])
    user = rec.user_at(seat).user
    refused = await table.refused(user, "plan draft 1", contains="picks by a number")
    assert "panel" in refused.text and await plans_of(table, user) == []
    choice = next(c for c in game.choices(state, seat) if c.action == "draft 1")
    reply = await table.service.plan_moves(table.channel, user, "x", [("draft 1", choice.label)])
    assert not reply.error, reply.text
    assert await plans_of(table, user) == ["draft 1"]
