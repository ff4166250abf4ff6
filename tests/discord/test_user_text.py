"""User text is text on Discord (issue 53): a display name and an away note written as a
masked link, spoiler, heading, code and mentions reach the loopback Discord's posts, panels,
`game status`, `/away` answers and clock notices as plain text, and ping nobody."""

from __future__ import annotations

from tests.discord.test_clocks import clocked_game
from tests.hostile import NAME, NOTE, misleading


async def test_a_hostile_name_and_note_render_as_text_on_discord(text_harness, emu):
    harness = text_harness
    emu.add_user(1001, NAME)
    alice, bob = await clocked_game(harness, emu)
    await harness.press_turn(alice, emu.public_messages(1)[-1])
    await harness.do(alice, "away", {"time": "1d", "note": NOTE})
    await harness.do(bob, "game status")
    await harness.do(alice, "away")
    harness.clock.advance(4 * 86400)  # past the time away and the clock: reminders, the run-out
    for _ in range(4):
        await harness.service.tick()
        await harness.settle()
    await harness.do(bob, "game status")
    messages = list(emu.messages.values())
    shown = [m["text"] for m in messages if m["text"]]
    assert any("Claim your seat" in t for t in shown)  # the name is there, as text
    assert {t: misleading(t) for t in shown if misleading(t)} == {}
    assert not any(m["pinged"].get("everyone") for m in messages)
