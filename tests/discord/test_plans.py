"""`/plan` on Discord (issue 51): answered only to the caller, never in a public place; the
planned move is played for its player when their decision comes, marked `[planned]`."""

from __future__ import annotations

from tests.discord.emulator import EPHEMERAL
from tests.discord.test_play import open_game, position
from tests.discord.test_privacy import public_texts


async def test_plan_is_ephemeral_and_played_when_the_decision_comes(harness, emu):
    alice, bob = await open_game(harness, emu, 1001, 1002)
    table, game, state, seats = await position(harness)
    waiting = bob if seats[1002] not in game.to_act(state) else alice
    acting = alice if waiting is bob else bob
    label = "civ rome"
    planned = await harness.do(waiting, "plan", {"moves": label})
    assert planned.callback.flags & EPHEMERAL
    assert "Planned: `civ rome`" in emu.reply_text(planned)
    shown = await harness.do(waiting, "plan")
    assert "1. `civ rome` (next)" in emu.reply_text(shown)
    assert not any("civ rome" in text for text in public_texts(emu))  # nobody else learns it
    await harness.do(acting, "play", {"action": "civ egypt"})
    table, game, state, seats = await position(harness)
    rows = await harness.storage.actions(table.id)
    assert [(r.action, r.via) for r in rows][-1] == ("civ rome", "planned")
    cleared = await harness.do(waiting, "plan", {"clear": True})
    assert "empty" in emu.reply_text(cleared)
