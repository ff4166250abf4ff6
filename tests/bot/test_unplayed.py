"""A table where no person is left playing (issue 53; README, "Clocks"): when the last
person's clock runs out, the table pauses instead of letting the stand-in bots finish the
game alone; `resume` cannot hand it to the bots; `game back` takes a seat back and the game
goes on. On SQLite and PostgreSQL (the pause lives in the stored table)."""

from __future__ import annotations

import pytest

from .conftest import CHANNEL, GUILD, Table
from .test_clocks import due, simple_bots
from .test_local import script_terminal

pytestmark = pytest.mark.both_backends


async def both_run_out(table: Table, clock) -> list[str]:
    """ann's and then bob's 1-day bank run out (nobody plays): what was said meanwhile. No
    seed is chosen, so the game is not a practice game: its end would be rated."""
    simple_bots(table)
    await table.ok(1, "game new fake-race pile=20 clock=1d clock_bonus=1h remind=720")
    await table.ok(2, "game join")
    await table.ok(1, "game start fixed")
    clock.advance(24)
    texts = await due(table)  # ann's bank ran out: a bot plays her seat, it is bob's turn
    clock.advance(25)
    return texts + await due(table)  # bob's bank ran out too


async def test_the_last_persons_clock_running_out_pauses_the_table(table, clock):
    texts = await both_run_out(table, clock)
    rec = await table.storage.open_table(CHANNEL)
    assert rec.status == "paused" and rec.seat_of(2).bot  # the seat is the stand-in's, the table waits
    assert any(
        "⌛ bob's clock ran out in the Fake Race game here, and no person is left playing it" in t
        and "paused rather than finished by bots alone" in t
        for t in texts
    ), texts
    assert not any("Game over" in t for t in texts)
    before = len(await table.storage.actions(rec.id))
    clock.advance(30 * 24)  # a month: nothing moves, nobody is pinged
    assert await due(table) == []
    assert len(await table.storage.actions(rec.id)) == before


async def test_resume_cannot_hand_an_unplayed_table_to_the_bots(table, clock):
    await both_run_out(table, clock)
    await table.refused(1, "resume", contains="No person is left playing")
    status = await table.ok(2, "game status")
    assert "paused. No person is left playing it: `game back` takes your seat back" in status.text
    await table.refused(2, "play take 1", contains="The game is paused. No person is left playing it")
    assert (await table.storage.open_table(CHANNEL)).status == "paused"


async def test_game_back_on_the_paused_table_takes_the_seat_back_and_the_game_goes_on(table, clock):
    await both_run_out(table, clock)
    back = await table.ok(1, "game back")
    assert "ann is back and plays their own seat again. The game goes on." in back.text
    rec = await table.storage.open_table(CHANNEL)
    assert rec.status == "active" and rec.seat_of(1).bot is None and rec.seat_of(2).bot
    before = len(await table.storage.actions(rec.id))
    await due(table)  # bob's stand-in plays his turn; then it is ann's, a person's
    rec = await table.storage.open_table(CHANNEL)
    assert rec.status == "active" and len(await table.storage.actions(rec.id)) > before


async def test_a_game_finished_by_bots_alone_is_not_rated_and_its_final_post_says_so(table, clock):
    await both_run_out(table, clock)
    # A table left running with every seat a stand-in (as before this pause existed): the bots finish it.
    people = table.service.tables.people
    table.service.tables.people = lambda rec, **kw: [1]
    await table.ok(1, "resume")
    table.service.tables.people = people
    texts = [t for _ in range(3) for t in await due(table)]
    assert any(
        "Game over" in t
        and "Not rated: bots finished this game alone (no person played their own seat at the end)." in t
        for t in texts
    ), texts
    assert await table.storage.ratings(GUILD, game="fake-race") == []


async def test_a_script_shows_the_pause_and_game_back(table, tmp_path):
    """The same through `epochs script` with `wait` (the terminal's script mode)."""
    simple_bots(table)
    out: list[str] = []
    terminal = script_terminal(table, tmp_path, out)
    refused = await terminal.run_script(
        [
            "ann game new fake-race pile=20 clock=1d clock_bonus=1h remind=720",
            "bob game join",
            "ann game start fixed",
            "wait 3d",
            "ann resume",
            "wait 10d",
            "bob game back",
        ]
    )
    text = "\n".join(out)
    assert refused == 1 and "! No person is left playing this game" in text
    assert text.index("ann's clock ran out") < text.index("bob's clock ran out") < text.index("ann: resume")
    assert "paused rather than finished by bots alone" in text and "Game over" not in text
    assert "bob is back and plays their own seat again. The game goes on." in text
