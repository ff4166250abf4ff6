"""`/game link` and `/game link reset:` on Discord (issue 53): the seat's web link, and a new
one that voids every older link, answered to the caller alone, as `game link [reset]`."""

from __future__ import annotations

import re

from bot.web.links import Links
from bot.web.tokens import Signer
from tests.discord.test_play import open_game

PUBLIC = "https://epochs.example"


def seat_links(text: str) -> list[str]:
    return re.findall(rf"{re.escape(PUBLIC)}/s/[A-Za-z0-9_-]+", text)


async def test_game_link_and_reset_answer_privately_and_reset_voids_the_old_link(text_harness, emu):
    harness = text_harness
    harness.service.links = Links(PUBLIC, Signer("discord tests"), 30, harness.clock)
    alice, _ = await open_game(harness, emu, 1001, 1002)
    table = await harness.table()
    posts = len(emu.public_messages(1))
    shown = await harness.do(alice, "game link")
    assert shown.ephemeral, emu.reply_text(shown)
    [link] = seat_links(emu.reply_text(shown))
    assert "Your seat page" in emu.reply_text(shown) and f"{PUBLIC}/t/" in emu.reply_text(shown)
    again = await harness.do(alice, "game link")
    assert seat_links(emu.reply_text(again)) == [link]  # the same link the same day
    reset = await harness.do(alice, "game link", {"reset": True})
    assert reset.ephemeral and "every older link to your seat stops working" in emu.reply_text(reset)
    [fresh] = seat_links(emu.reply_text(reset))
    assert fresh != link and await harness.storage.link_generation(table.id, 1001) == 1
    assert await harness.storage.link_generation(table.id, 1002) == 0  # bob's link is his own
    stranger = await harness.do(emu.users[1003], "game link")
    assert stranger.ephemeral and not seat_links(emu.reply_text(stranger))
    assert len(emu.public_messages(1)) == posts  # nothing of it in the channel


async def test_game_link_says_so_when_the_web_table_is_off(text_harness, emu):
    harness = text_harness
    alice, _ = await open_game(harness, emu, 1001, 1002)
    answer = await harness.do(alice, "game link")
    assert answer.ephemeral and "web table is off" in emu.reply_text(answer)
