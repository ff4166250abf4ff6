"""Issue 25 §2: a reply carries the turn as data — the headline, each acting user's
decision and the story as entries — so no front end parses the service's prose; and
issue 22 §5: the terminal heads a private part with the player's name.

(The data never names what a reader may not know: tests/bot/test_hidden_information.py.)
"""

from __future__ import annotations

import json
import logging
import random
from dataclasses import dataclass

import pytest

from bot.local import Terminal
from bot.service import Reply, Service, Settings, described, news
from bot.service.reply import END, MOVE, PERIOD, SCORE, Actor, Decision, Entry, Headline, Private
from bot.service.story import PERIODS, public_scores, stage
from bot.service.telling import choice_lines, headline_line, move_line, squeeze, story_lines
from engine.core import Choice, grouped

from .conftest import CHANNEL, GAMES, NAMES, Table
from .fakegame import FakeRace

GAMES_AND_COUNTS = [("rising-cultures", 2), ("rise-of-empires", 3), ("cradle", 4), ("mosaic", 3), ("fake-race", 3)]


def round_trip(reply: Reply) -> Reply:
    """The reply as the outbox keeps it: JSON text and back."""
    return Reply.from_json(json.loads(json.dumps(reply.to_json())))


async def start(table: Table, game_id: str, players: int, seed: int = 3) -> Reply:
    await table.ok(1, f"game new {game_id} seed={seed}")
    for user in range(2, players + 1):
        await table.ok(user, "game join")
    return await table.ok(1, "game start fixed")


def check_reply(table: Table, game, rec, state, reply: Reply, rows) -> None:
    """The turn data of `reply` against the engine and the log."""
    assert round_trip(reply) == reply
    headline = reply.headline
    assert headline is not None and headline.game_id == game.id and headline.title == game.title
    acting = [] if game.is_over(state) else game.to_act(state)
    assert [(a.name, a.seat, a.user) for a in headline.acting] == [
        (rec.user_at(s).name, s, rec.user_at(s).user) for s in acting
    ]
    word, period = PERIODS.get(game.id, ("", None))
    number = period(game.view(state, None), len(rec.players)) if period else None
    assert (headline.number, headline.stage) == (number, stage(game.id, word, number))
    assert headline.players == [p.name for p in rec.players] and headline.over == game.is_over(state)
    if reply.text:
        assert reply.text.splitlines()[0] == headline_line(headline)
    assert set(reply.decisions) == set(reply.choices) == set(reply.keys)
    for user, decision in reply.decisions.items():
        seat = rec.seat_of(user).seat
        legal = game.legal_actions(state, seat)
        assert (decision.user, decision.seat, decision.name) == (user, seat, NAMES[user])
        assert [c.action for c in decision.choices] == legal == reply.choices[user]
        assert decision.groups == grouped(described.choices(game, state, seat))
        assert decision.key == reply.keys[user] == table.service.choice_key(rec, seat, legal)
        assert decision.prompt == described.prompt(game, state, seat) and decision.prompt
        assert decision.rule == described.rule(game, state, seat)
        assert decision.private_view == described.needs_private_view(game, state, seat)
    told = [e.seq for e in reply.story if e.kind == MOVE]
    assert told == sorted(told) and set(told) <= {r.seq for r in rows}


@pytest.mark.parametrize("game_id, players", GAMES_AND_COUNTS)
async def test_25_2_every_reply_carries_the_turn_as_data(table, game_id, players):
    """Random play through the service: every reply's headline, decisions and story agree
    with the engine and the log, and survive the outbox's JSON round trip whole."""
    game = GAMES[game_id]
    reply = await start(table, game_id, players)
    rng = random.Random(game_id)
    for _ in range(60):
        rec, state = await table.state()
        if rec is None:
            break
        check_reply(table, game, rec, state, reply, await table.storage.actions(rec.id))
        if game.is_over(state):
            break
        seat = rng.choice(game.to_act(state))
        reply = await table.ok(rec.user_at(seat).user, "play " + rng.choice(game.legal_actions(state, seat)))
        if not reply.panel:
            assert reply.story, "a post tells its turn"


@pytest.fixture
def fake_rounds(monkeypatch):
    """Fake Race read as the real games are: its public view's `round` is its period."""
    monkeypatch.setitem(PERIODS, "fake-race", ("round", lambda view, players: view.get("round")))


async def test_25_2_a_scoring_and_a_round_end_are_entries_of_their_own(table, fake_rounds):
    await table.started(options="seed=7 pile=6")
    first = await table.ok(1, "play take 2")
    assert [(e.kind, e.before, e.after) for e in first.story] == [(MOVE, None, None), (SCORE, [0, 0], [2, 0])]
    assert first.headline.stage == "Round 1"
    second = await table.ok(2, "play take 1")  # bob's turn ends round 1
    assert [(e.kind, e.stage, e.before, e.after) for e in second.story] == [
        (MOVE, "", None, None),
        (SCORE, "", [2, 0], [2, 1]),
        (PERIOD, "Round 1", [2, 0], [2, 1]),
    ]
    assert second.text.splitlines() == [
        "ann — your turn · Fake Race · Round 2",
        "• bob took 1; 3 left.",
        "• Scores: bob 0 → 1",
        "— Round 1 ends: ann 2, bob 1",
        "Open practice game (seed 7): not counted in statistics.",
    ]
    # ann's story since her last turn: bob's move and its entries (the post told them: her part does not)
    assert [e.kind for e in second.decisions[1].story] == [MOVE, SCORE, PERIOD]
    assert second.private_for(1)[0].text == "Now: Take from the pile, draw a card or roll the die."
    await table.ok(1, "play take 2")
    last = await table.ok(2, "play take 1")  # the pile is empty: the game ends
    assert [e.kind for e in last.story] == [MOVE, SCORE, PERIOD, END] and last.story[-1].after == [4, 2]
    assert last.headline.over and last.text.splitlines()[0] == "Game over · Fake Race · Round 3"


@pytest.mark.parametrize("game_id, players", GAMES_AND_COUNTS[:4])
async def test_25_2_every_game_tells_its_period_ends_with_the_public_scores(table, game_id, players):
    """Random play until a post tells a round, game turn or epoch end: the entry names the
    period as the headline did, with the scores the public view shows after that step."""
    game = GAMES[game_id]
    await start(table, game_id, players)
    rng = random.Random(1)
    word, _ = PERIODS[game_id]
    stages = []
    for _ in range(400):
        rec, state = await table.state()
        assert rec is not None and not game.is_over(state), "no period ended"
        seat = rng.choice(game.to_act(state))
        reply = await table.ok(rec.user_at(seat).user, "play " + rng.choice(game.legal_actions(state, seat)))
        if reply.headline and reply.headline.stage:
            stages.append(reply.headline.stage)
        ends = [e for e in reply.story if e.kind == PERIOD]
        if ends:
            break
    (end,) = ends[:1]
    assert end.stage.startswith(word.capitalize() + " ") and end.stage in stages
    replayed = table.service.tables.replay(rec, [r for r in await table.storage.actions(rec.id) if r.seq <= end.seq])
    scores = public_scores(game.view(replayed, None), players)
    assert end.after == scores


async def test_25_2_marks_stored_at_commit_are_those_the_log_replays(table):
    """Each step's mark is made at commit and stored with the table's bookkeeping while a
    story may tell it (after the last post or some seat's last move); replaying the log
    (what a table without them falls back on) gives the very same marks."""
    game = GAMES["cradle"]
    await start(table, "cradle", 4)
    rng = random.Random(4)
    for _ in range(60):
        rec, state = await table.state()
        seat = rng.choice(game.to_act(state))
        await table.ok(rec.user_at(seat).user, "play " + rng.choice(game.legal_actions(state, seat)))
    rec, _ = await table.state()
    rows = [r for r in await table.storage.actions(rec.id) if not r.undone]
    stored = {int(seq): news.Mark.from_json(mark) for seq, mark in rec.meta["marks"].items()}
    since = min([rec.meta["posted"]] + list(rec.meta["last_seq"].values()))
    assert set(stored) >= {r.seq for r in rows if r.seq > since} and len(stored) < len(rows) / 2
    setup = game.setup([p.name for p in rec.players], rec.seed, rec.options or None)
    assert news.marks(game, 4, setup, rows, stored.__contains__) == stored
    assert json.loads(json.dumps(rec.meta["marks"])) == rec.meta["marks"]


@dataclass
class Drawn:
    png: bytes
    alt: str


async def test_25_2_the_private_view_goes_beside_a_decision_that_depends_on_it(table):
    """Fake Race: a seat holding cards decides with its hand beside it (its panel carries
    the picture of its private view); a seat without cards does not."""
    seats_drawn: list[int | None] = []

    def renderer(game_id, view, *, seat=None, part=None, highlight=()):
        seats_drawn.append(seat)
        return Drawn(b"\x89PNG", f"hand {view.get('hand')}")

    table.service = Service(table.storage, clock=table.clock, games=GAMES, settings=Settings(), renderer=renderer)
    await table.started(options="seed=7 pile=9")
    await table.ok(1, "play draw")
    moved = await table.ok(2, "play take 1")
    assert moved.decisions[1].private_view and not moved.private_for(1)[0].image  # read later, in the panel
    panel = await table.ok(1, "play")
    (part,) = panel.private_for(1)
    assert panel.decisions[1].private_view and part.image is not None and part.image.alt.startswith("hand ['")
    assert seats_drawn[-1] == 0
    await table.ok(1, "play take 1")
    other = await table.ok(2, "play")
    assert not other.decisions[2].private_view and other.private_for(2)[0].image is None


async def test_25_2_a_description_that_does_not_match_the_legal_actions_is_not_shown(table, monkeypatch, caplog):
    """A front end must never offer what the game refuses: a description that does not list
    exactly the legal actions gives way to the plain actions, and the mismatch is logged."""
    game = GAMES["fake-race"]
    state = game.setup(["ann", "bob"], 1)
    monkeypatch.setattr(FakeRace, "choices", lambda self, state, seat: [Choice("roll", "Roll", "The die")])
    with caplog.at_level(logging.ERROR):
        assert [c.label for c in described.choices(game, state, 0)] == game.legal_actions(state, 0)
    assert "does not list the legal actions" in caplog.text


async def test_25_2_the_turn_data_survives_the_outbox(table):
    """A post the transport could not deliver keeps its headline, story and decisions."""
    await table.started()
    reply = await table.ok(1, "play take 2")
    await table.service.enqueue(CHANNEL, reply)
    (notice,) = await table.service.tick()
    held = notice.reply
    assert (held.headline, held.story, held.decisions) == (reply.headline, reply.story, reply.decisions)
    assert held.decisions[2].choices[0] == Choice("take 1", "Take from the pile", "1 from the pile", "+1 · 3 left")


def test_25_2_the_story_keeps_period_ends_scorings_and_the_newest_moves():
    players = ["ann", "bob"]
    story = [
        Entry(MOVE, i, i % 2, players[i % 2], f"roll {i}", f"roll {i}", "", [f"{players[i % 2]} rolled."])
        for i in range(1, 20)
    ]
    story.insert(5, Entry(PERIOD, 5, stage="Round 1", before=[1, 1], after=[3, 2]))
    story.insert(8, Entry(SCORE, 7, before=[3, 2], after=[5, 2]))
    story.append(Entry(SCORE, 19, before=[5, 2], after=[5, 9]))
    lines = story_lines(story, players)
    assert len(lines) == 8 and lines[0] == "• … 14 earlier steps (`log` shows every step)"
    assert lines[1] == "— Round 1 ends: ann 3, bob 2"  # always shown, in its place
    # the scorings since the round's end: one line, after the newest move
    assert lines[-2:] == ["• bob rolled.", "• Scores: ann 3 → 5, bob 2 → 9"]
    assert squeeze("first words " + "x " * 200 + "the newest end.", 100).endswith("the newest end.")


def test_25_2_the_headline_names_who_acts_where():
    cradle = Headline("cradle", "Cradle of Civilization: Sumeria to Persia", [Actor("cy", 2, 9)], stage="Epoch III")
    assert headline_line(cradle) == "cy — your turn · Cradle of Civilization · Epoch III"
    bots = Headline("mosaic", "Mosaic: A Story of Civilization", [Actor("Bot Ashoka (easy)", 1)])
    assert headline_line(bots) == "Bot Ashoka (easy) to act · Mosaic"
    assert headline_line(Headline("fake-race", "Fake Race", over=True)) == "Game over · Fake Race"
    assert (
        move_line(Entry(MOVE, 1, 0, "ann", "take 1", "1 from the pile", "forced"))
        == "• ann: 1 from the pile [automatic]"
    )


def test_49_4_the_headline_speaks_to_the_people_who_act_not_the_bots_beside_them():
    acting = [Actor("Bot Cleopatra (normal)", 0), Actor("ann", 1, 9), Actor("Bot Ashoka (normal)", 2)]
    mosaic = Headline("mosaic", "Mosaic: A Story of Civilization", acting, stage="Round 1")
    assert headline_line(mosaic) == "ann — your turn · Mosaic · Round 1"
    assert headline_line(mosaic, lambda a: f"<@{a.user}>") == "<@9> — your turn · Mosaic · Round 1"
    only_bots = Headline("mosaic", "Mosaic: A Story of Civilization", [acting[0], acting[2]])
    assert headline_line(only_bots) == "Bot Cleopatra (normal) and Bot Ashoka (normal) to act · Mosaic"


def test_25_2_choices_read_as_label_detail_and_what_to_type():
    decision = Decision(
        1,
        0,
        "ann",
        "Take from the pile, draw a card or roll the die.",
        [Choice("take 1", "Take", "1 from the pile", "+1 · 5 left"), Choice("roll", "Roll", "roll")],
        "0.0",
        rule="3",
    )
    assert choice_lines(decision) == [
        "Take:",
        "  1 from the pile — +1 · 5 left  [take 1]",
        "Roll: roll",
        "(the rule: `rules 3`)",
    ]


async def test_22_5_a_private_part_is_headed_with_the_players_name(table, tmp_path):
    """A terminal that never heard of bob (the reply was made for another front end, or
    before a restart) still heads his part with his name, never his user id."""
    await table.started()
    reply = await table.ok(1, "play take 2")
    out: list[str] = []
    Terminal(table.service, out=out.append, images_dir=tmp_path).show(reply, "ann")
    assert "--- private to bob (others look away) ---" in out
    out.clear()
    Terminal(table.service, out=out.append, images_dir=tmp_path).show(Reply(private=[Private(4123767105, "hi")]), "")
    assert out[0] == "--- private to a player (others look away) ---"


async def test_25_2_a_bots_post_tells_the_next_player_its_turn_as_their_news(table):
    """A bot's turn is posted from the outbox and marked told only there: the decision in
    its post still counts the bot's steps as the next player's news, not as their turn."""
    from .test_bots import bots_play  # noqa: PLC0415

    game = GAMES["rising-cultures"]
    await table.ok(1, "game new rising-cultures seed=2")
    await table.ok(1, "game bot easy")
    await table.ok(1, "game start fixed")
    for _ in range(30):
        rec, state = await table.state()
        if 0 in game.to_act(state):
            await table.ok(1, "play " + game.legal_actions(state, 0)[0])
        for post in await bots_play(table):
            if 1 in post.decisions and any(e.via == "bot" for e in post.story):
                bot_steps = [e.seq for e in post.story if e.kind == MOVE and e.via == "bot"]
                decision = post.decisions[1]
                assert set(bot_steps) <= {e.seq for e in decision.story} and not decision.turn
                return
    pytest.fail("no bot's post offered ann a decision")
