"""The story of a game as a picture (issue 17 §3): scores after each round (epoch, game turn)
from the public views, on the final post and by `game chart` — which, while a game runs,
uses public information only."""

from __future__ import annotations

from pathlib import Path

import pytest

import engine
from bot.service import Service, Settings, export
from bot.service.story import public_scores, story
from bot.storage import SQLiteStorage

from .conftest import CHANNEL, GAMES, GUILD, NAMES, Clock
from .fakegame import FakeRace
from .played import document, exported

PERIODS = {
    "rising-cultures": ("round", 7),
    "rise-of-empires": ("game turn", 6),
    "cradle": ("epoch", 6),
    "mosaic": ("round", None),
}


class HiddenRace(FakeRace):
    """Fake Race whose public view shows no scores until the game ends."""

    id = "hidden-race"
    title = "Hidden Race"
    scored_while_running = 0

    def view(self, state, seat):
        out = super().view(state, seat)
        if seat is None and not self.is_over(state):
            out.pop("scores")
        return out

    def scores(self, state):
        if not self.is_over(state):
            HiddenRace.scored_while_running += 1
        return super().scores(state)


HIDDEN = HiddenRace()


@pytest.fixture
async def drawn(tmp_path: Path):
    """A service that draws images (the chart), with the fake games."""
    storage = SQLiteStorage(tmp_path / "chart.sqlite", durable=False)
    await storage.open()
    service = Service(storage, clock=Clock(), games={**GAMES, HIDDEN.id: HIDDEN}, settings=Settings(images=True))
    yield service
    await storage.close()


async def say(service, user, line, channel=CHANNEL):
    return await service.handle(channel, user, NAMES[user], line, guild=GUILD)


@pytest.mark.parametrize("game_id", list(engine.GAMES))
async def test_each_games_story_is_told_by_the_period_its_public_view_names(game_id):
    doc = document(await exported(game_id))
    game = engine.GAMES[game_id]
    record = export.parse(await exported(game_id))
    states = [p.state for p in export.replay(game, record)]
    told = story(game, states, len(doc["seats"]))
    word, count = PERIODS[game_id]
    assert told.word == word and told.finished and told.labels[0] == "start"
    numbers = [int(label) for label in told.labels[1:]]
    assert numbers == list(range(1, len(numbers) + 1)) and (count is None or numbers[-1] == count)
    assert told.scores[-1] == doc["result"]["scores"] == public_scores(game.view(states[-1], None), len(doc["seats"]))
    assert told.scores[0] == public_scores(game.view(states[0], None), len(doc["seats"]))


async def test_the_final_post_carries_the_chart_besides_the_board(drawn):
    for user, line in (
        (1, "game new fake-race pile=6"),
        (2, "game join"),
        (1, "game start fixed"),
        (1, "play take 2"),
        (2, "play take 1"),
    ):
        assert not (await say(drawn, user, line)).error
    assert not (await say(drawn, 1, "play take 2")).files  # no chart while the game runs
    final = await say(drawn, 2, "play take 1")
    assert "Game over" in final.text
    (chart,) = final.files
    assert chart.kind == "chart" and chart.filename == "fake-race-1-scores.png" and chart.data[:4] == b"\x89PNG"
    assert "every player's score after each move (final)" in chart.description
    assert "Final: ann (A) 4 (winner), bob (B) 2." in chart.description
    assert "start: 0, 0; move 1: 2, 0; move 2: 2, 1; move 3: 4, 1; move 4: 4, 2." in chart.description
    # held in the outbox, the chart is not stored but drawn again when the post goes
    notice_id = await drawn.enqueue(CHANNEL, final)
    (notice,) = [n for n in await drawn.pending_notices() if n.id == notice_id]
    assert notice.chart and notice.reply.files == []
    sent = await drawn.prepare(notice)
    assert [f.description for f in sent.files] == [chart.description]


async def test_game_chart_while_the_game_runs_shows_what_everyone_could_see(drawn):
    for user, line in (
        (1, "game new fake-race pile=9"),
        (2, "game join"),
        (1, "game start fixed"),
        (1, "play take 2"),
        (2, "play roll"),
    ):
        await say(drawn, user, line)
    reply = await say(drawn, 2, "game chart")
    assert not reply.error and "went so far" in reply.text
    (chart,) = reply.files
    assert "(so far)" in chart.description and "start: 0, 0; move 1: 2, 0; move 2: 2, " in chart.description


async def test_scores_hidden_during_play_never_reach_a_running_games_chart(drawn):
    for user, line in (
        (1, "game new hidden-race pile=5"),
        (2, "game join"),
        (1, "game start fixed"),
        (1, "play take 2"),
        (2, "play take 2"),
    ):
        assert not (await say(drawn, user, line)).error
    HiddenRace.scored_while_running = 0
    reply = await say(drawn, 1, "game chart")
    assert reply.error and "no chart of game #1 yet" in reply.text and not reply.files
    assert HiddenRace.scored_while_running == 0  # the chart never asked the game for its running scores
    final = await say(drawn, 1, "play take 1")
    (chart,) = final.files  # once over, nothing is hidden: the whole story
    assert "move 1: 2, 0; move 2: 2, 2; move 3: 3, 2." in chart.description


async def test_a_game_ended_by_resignation_has_its_board_and_chart_too(drawn):
    for user, line in (
        (1, "game new fake-race pile=9"),
        (2, "game join"),
        (1, "game start fixed"),
        (1, "play take 2"),
        (2, "play take 1"),
    ):
        await say(drawn, user, line)
    final = await say(drawn, 2, "resign")
    assert "wins the game" in final.text
    (chart,) = final.files
    assert "Final: ann (A) 2 (winner), bob (B) 1." in chart.description


async def test_no_chart_before_the_second_point(drawn):
    for user, line in ((1, "game new fake-race"), (2, "game join"), (1, "game start fixed")):
        await say(drawn, user, line)
    reply = await say(drawn, 1, "game chart")
    assert reply.error and "not reached a second point" in reply.text


def test_the_records_benchmark_measures_story_chart_and_export(capsys):
    from tests.bench import records as bench

    figures = bench.measure("rising-cultures", 1)
    assert figures["steps"] > 20 and figures["story"] >= figures["replay"] > 0 and figures["chart_kib"] > 5
    assert bench.main(["--games", "1"]) == 0 and "chart ms" in capsys.readouterr().out
