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


async def test_a_table_without_plans_reads_none_until_someone_plans_and_then_it_is_played(table):
    """Nearly every handover finds no plan: once one has, the table says so and the handovers
    and panels that follow read no plans (a query and a round trip each on PostgreSQL) until
    someone plans; that plan is then played when its decision comes, as any."""
    read = table.storage.plans
    reads: list[int] = []

    async def counted(table_id: int):
        reads.append(table_id)
        return await read(table_id)

    table.storage.plans = counted
    try:
        await table.started(options="seed=7 pile=10")  # ann (seat 0) to act
        await table.ok(1, "play take 1")  # bob's decision comes: the plans are read, none found
        assert reads
        reads.clear()
        await table.ok(2, "play take 1")
        await table.ok(1, "play take 1")
        await table.ok(2, "play take 1")
        assert not reads  # three handovers and their panels later: not read again
        await table.ok(2, "plan take 1")  # bob plans: the next handover reads (the plan's own read apart)
        reads.clear()
        await table.ok(1, "play take 1")
        assert reads
    finally:
        table.storage.plans = read
    rec, _ = await table.state()
    rows = await table.storage.actions(rec.id)
    assert [(r.seat, r.via) for r in rows][-2:] == [(0, ""), (1, "planned")]


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
    rec, _ = await table.state()
    try:
        # the same press from the same position in both (a button carries its version): however
        # the two interleave, the second finds the table moved on (had it no version, a press
        # that starts after the other's commit finds ann to act again and is a new move)
        replies = await asyncio.gather(
            table.service.handle(table.channel, 1, "ann", "play take 2", expected_version=rec.version),
            other.handle(table.channel, 1, "ann", "play take 2", expected_version=rec.version),
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


# ---- the rules of the table around a plan: a bot taking the seat, a fork, time away ----------------
async def test_a_seat_voted_to_a_bot_loses_its_plan_and_the_bot_plays_none_of_it(table, clock):
    from bot.service import Settings

    from .test_clocks import due, simple_bots

    table.service.settings = Settings(images=False, absent_after=1)
    simple_bots(table)  # the fake race's bot plays the first legal action (`take 1`)
    await table.started()
    await table.ok(1, "play take 1")  # bob's decision
    await table.ok(2, "plan roll; take 2")  # planned on his turn: for the decisions after it
    clock.advance(13)
    await due(table)  # one unanswered reminder: ann may vote
    await table.ok(1, "vote replace")
    rec, _ = await table.state()
    assert rec.seat_of(2).bot and await table.storage.plans(rec.id) == {}
    await due(table)  # the bot plays bob's seat
    rows = await table.storage.actions(rec.id)
    assert [(r.seat, r.via) for r in rows] == [(0, ""), (1, "bot")]
    await table.ok(1, "play take 1")
    await due(table)
    rows = await table.storage.actions(rec.id)
    assert [r.via for r in rows if r.seat == 1] == ["bot", "bot"]  # never `roll` nor `planned`
    await table.ok(2, "game back")
    assert await plans_of(table, 2) == []  # back in the seat: the old plan does not come back


async def test_a_seat_whose_clock_ran_out_loses_its_plan(table, clock):
    from .test_clocks import due

    await table.ok(1, "game new fake-race seed=7 pile=20 clock=2d stand_in=easy remind=720")
    await table.ok(2, "game join")
    await table.ok(1, "game start fixed")
    await table.ok(1, "plan take 2; roll")  # planned on her turn, for her next decisions
    clock.advance(48)
    assert any("ran out" in t for t in await due(table))  # her bank ran out: a bot has her seat
    rec, _ = await table.state()
    assert rec.seat_of(1).bot == "easy" and await table.storage.plans(rec.id) == {}


async def test_a_fork_starts_with_no_plans_and_the_original_ended_with_none(table):
    """A fork is made from an ended game's export only (a running game's holds no seed): the
    original's queues went with its end, and the fork, a new table, starts with none, even at
    a position where a plan of the original was still waiting (bot/DECISIONS.md)."""
    await table.started(options="seed=7 pile=12")
    await table.ok(2, "plan take 1; take 2; take 1")
    await table.ok(1, "play take 1")  # bob's `take 1` is played for him; `take 2; take 1` wait
    assert await plans_of(table, 2) == ["take 2", "take 1"]
    await table.ok(1, "game cancel")
    rec = await table.storage.latest_table(table.channel)
    assert rec.status == "cancelled" and await table.storage.plans(rec.id) == {}
    data = (await table.ok(1, "game export")).files[0].data
    fork = table.channel + 1
    await table.ok(1, "game new from=x.json at=2", files={"x.json": data}, channel=fork)
    await table.ok(2, "game join", channel=fork)
    await table.ok(1, "game start", channel=fork)
    forked = await table.storage.open_table(fork)
    assert forked is not None and await table.storage.plans(forked.id) == {}
    assert [r.via for r in await table.storage.actions(forked.id)] == ["fork", "fork"]  # the planned move copied
    await table.ok(1, "play take 1", channel=fork)  # bob's decision comes in the fork: nothing is played for him
    rows = await table.storage.actions(forked.id)
    assert [r.via for r in rows] == ["fork", "fork", ""]
    plan = await table.ok(2, "plan", channel=fork)
    assert "no moves planned" in private_text(plan, 2)


async def test_a_damaged_position_rebuilt_from_the_log_keeps_the_plans(table):
    """Rebuilding a damaged snapshot by replaying the log is a repair, not the replay that
    clears a queue: the plan stays and is played when the decision comes."""
    from bot.storage.base import Change

    await table.started()
    await table.ok(2, "plan take 2")
    rec, _ = await table.state()
    await table.storage.commit(rec, Change(snapshot="{ damaged", bump=False), table.clock.now)
    table.service.tables.forget(rec.id)
    await table.ok(1, "board")  # the position is rebuilt from the log
    assert await plans_of(table, 2) == ["take 2"]
    await table.ok(1, "play take 1")
    assert [r.via for r in await table.storage.actions(rec.id)] == ["", "planned"]


async def test_time_away_keeps_the_plan_and_it_is_played_when_the_decision_comes(table, clock):
    await table.started()
    await table.ok(2, "plan take 2; take 1")
    away = await table.ok(2, "away 3d holiday")
    assert "take 2" not in away.text  # the time away says nothing of the plan
    clock.advance(30)
    await table.service.tick()  # reminders and clocks while he is away: the plan stays
    assert await plans_of(table, 2) == ["take 2", "take 1"]
    post = await table.ok(1, "play take 1")  # his decision comes while he is away
    rec, _ = await table.state()
    assert [(r.seat, r.action, r.via) for r in await table.storage.actions(rec.id)] == [
        (0, "take 1", ""),
        (1, "take 2", "planned"),
    ]
    assert "[planned]" in post.text and await plans_of(table, 2) == ["take 1"]


# ---- `[planned]` in the records --------------------------------------------------------------------
async def test_a_planned_move_is_marked_planned_in_the_export_and_its_replay(table, tmp_path, monkeypatch):
    import json
    from types import SimpleNamespace

    from bot import replay

    monkeypatch.setattr(replay, "engine", SimpleNamespace(GAMES=GAMES))  # `epochs replay` knows the fake race too

    await table.started(options="seed=7 pile=4")
    await table.ok(2, "plan take 2")
    await table.ok(1, "play take 1")  # bob's planned `take 2` is played
    running = json.loads((await table.ok(1, "game export")).files[0].data)  # the public log of the running game
    assert [(a["action"], a["via"]) for a in running["actions"]] == [("take 1", ""), ("take 2", "planned")]
    await table.ok(1, "play take 1")  # the pile is empty: the game ends
    data = (await table.ok(1, "game export")).files[0].data
    ended = json.loads(data)
    assert ended["status"] == "finished"
    assert [a["via"] for a in ended["actions"]] == ["", "planned", ""]
    path = tmp_path / "game.json"
    path.write_bytes(data)
    lines: list[str] = []
    assert replay.run(path, out=tmp_path / "end.png", write=lines.append) == 0
    assert lines[2].startswith("#2 bob: take 2 [planned] ") and lines[1].startswith("#1 ann: take 1 — ")


async def test_a_plan_outlives_a_kill_9_and_a_fresh_process_plays_it(database, tmp_path):
    """Durable: the process that stored a plan is killed with SIGKILL (no clean-up of any kind);
    a fresh process on the same database plays it when the decision comes."""
    from .test_processes import Process, guild_on

    guild, channel = guild_on(0), 10
    first = await Process(database, "first", tmp_path / "first.jsonl", None).start()
    try:
        await first.say(channel, 1, "game new fake-race seed=5 pile=20", guild)
        await first.say(channel, 2, "game join", guild)
        await first.say(channel, 1, "game start fixed", guild)
        await first.say(channel, 2, "plan take 2; take 1", guild)  # answered: stored
    finally:
        await first.kill()
    fresh = await Process(database, "fresh", tmp_path / "fresh.jsonl", None).start()
    try:
        played = await fresh.say(channel, 1, "play take 1", guild)
        shown = await fresh.say(channel, 2, "plan", guild)
    finally:
        await fresh.stop()
    assert "[planned]" in played["text"] and shown["text"] == ""  # the plan itself is told privately only
    storage = open_storage(database)
    await storage.open()
    try:
        rec = await storage.latest_table(channel)
        assert [(r.seat, r.action, r.via) for r in await storage.actions(rec.id)] == [
            (0, "take 1", ""),
            (1, "take 2", "planned"),
        ]
        assert [p.action for p in (await storage.plans(rec.id))[2]] == ["take 1"]
    finally:
        await storage.close()
