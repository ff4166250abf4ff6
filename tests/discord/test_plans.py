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


async def test_the_panel_offers_plan_my_next_move_only_where_the_next_decision_is_known():
    from bot.discord import layout
    from tests.discord.limits import BUTTON, walk
    from tests.discord.test_layout import checked, choices, decision, reply_for

    def buttons(d) -> list[str]:
        data = checked(layout.panel(reply_for(d), d.user))
        return [c.get("custom_id", "") for c in walk(data["components"]) if c["type"] == BUTTON]

    assert "ep:plannext:12" in buttons(decision(choices(3), plannable=True))
    assert not any(b.startswith("ep:plannext") for b in buttons(decision(choices(3))))


async def test_the_panel_shows_its_users_plan():
    from bot.discord import layout
    from tests.discord.test_layout import checked, choices, decision, reply_for, texts

    d = decision(choices(2), planned=["take 1", "roll"])
    assert any(
        "Planned for your coming decisions: `take 1`, `roll`" in t
        for t in texts(checked(layout.panel(reply_for(d), d.user)))
    )
    d = decision(choices(2))
    assert not any("Planned" in t for t in texts(checked(layout.panel(reply_for(d), d.user))))


async def test_a_pick_from_an_outdated_plan_menu_plans_nothing():
    from bot.discord.controller import choices_key

    now = [("take 1", "1 from the pile"), ("roll", "The die")]
    assert choices_key(now) != choices_key(list(reversed(now)))  # the order pins a pick down
    assert choices_key(now) == choices_key(list(now)) and len(choices_key(now)) == 12
