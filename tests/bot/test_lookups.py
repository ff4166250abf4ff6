"""Issue 26 §3, through the service: lookups in plain words.

`game status` says whose turn it is, since when and where the game stands (no
"version"); `log` shows the newest steps that fit, with a line where a round ends, and
pages back (`log page 2`); `games history` tells a person who resigned from a bot; a
player is named by name and the letter the boards give them, never by a seat number.
"""

from __future__ import annotations

import random

from .conftest import GAMES


async def play_randomly(table, steps: int, seed: int = 1) -> None:
    rng = random.Random(seed)
    for _ in range(steps):
        rec, state = await table.state()
        if rec is None:
            return
        game = GAMES[rec.game]
        seat = game.to_act(state)[0]
        await table.ok(rec.user_at(seat).user, "play " + rng.choice(game.legal_actions(state, seat)))


async def test_status_says_whose_turn_since_when_and_the_stage_in_words(table):
    await table.started("rising-cultures", options="seed=3")
    await play_randomly(table, 30)
    table.clock.advance(3.5)
    text = (await table.ok(1, "game status")).text
    rec, state = await table.state()
    waiting = [rec.user_at(s).name for s in GAMES["rising-cultures"].to_act(state)]
    assert text.startswith("Rising Cultures · Round ") and "waiting for " + waiting[0] in text
    assert "for 3 hours" in text and "version" not in text
    assert "(A)" in text and "(B)" in text and "seat" not in text


async def test_49_4_status_counts_one_step_in_the_singular(table):
    await table.started("rising-cultures", options="seed=3")
    assert "(0 steps so far)" in (await table.ok(1, "game status")).text
    await play_randomly(table, 1)
    assert "(1 step so far)" in (await table.ok(1, "game status")).text
    await play_randomly(table, 1)
    assert "(2 steps so far)" in (await table.ok(1, "game status")).text


async def test_log_shows_the_newest_steps_that_fit_and_pages_back_with_round_ends(table):
    await table.started("rising-cultures", options="seed=5")
    await play_randomly(table, 150, seed=2)
    rec = await table.storage.latest_table(table.channel)
    rows = await table.storage.actions(rec.id)
    first = await table.ok(2, "log")
    assert first.page == 1 and first.pages > 1 and len(first.text) <= 2000
    assert f"#{rows[-1].seq} " in first.text  # the newest step is on the first page, at its end
    assert first.text.rstrip().splitlines()[-1].startswith(("#", "—"))
    second = await table.ok(2, "log page 2")
    assert second.page == 2 and f"#{rows[-1].seq} " not in second.text
    oldest = await table.ok(2, f"log page {first.pages}")
    assert "#1 " in oldest.text
    await table.refused(2, f"log page {first.pages + 1}", contains=f"`log page {first.pages}` is the oldest")
    pages = [(await table.ok(2, f"log page {n}")).text for n in range(1, first.pages + 1)]
    assert any("— Round 1 ends" in page for page in pages)  # a line closes each round


async def test_history_tells_a_resigned_person_from_a_bot(table):
    await table.ok(1, "game new rising-cultures seed=9")
    await table.ok(2, "game join")
    await table.ok(1, "game start fixed")
    await table.ok(2, "resign")  # two players: the one left wins
    text = (await table.ok(1, "games history")).text
    assert "bob (B, resigned)" in text and "bot" not in text
    await table.ok(1, "game new rising-cultures seed=10")
    await table.ok(1, "game bot easy")
    await table.ok(1, "game start fixed")
    await table.ok(1, "resign")  # only a bot is left: the game ends
    text = (await table.ok(1, "games history 1")).text
    assert "Bot Cyrus (easy) (B, bot)" in text and "ann (A, resigned)" in text


def test_players_are_named_by_the_letter_the_boards_give_them():
    from bot.service.text import SEAT_LETTERS, lettered
    from renderers.common.palette import PLAYER_LETTERS

    assert list(SEAT_LETTERS) == PLAYER_LETTERS
    assert lettered("ann", 0) == "ann (A)" and lettered("fay", 5) == "fay (F)"
