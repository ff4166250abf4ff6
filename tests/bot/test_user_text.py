"""User text is text everywhere (issue 53): a hostile display name and away note reach every
kind of message the bot sends (posts, `game status`, panels, reminders, clock warnings,
run-out notices, away notices, DMs) without a link, mention, heading, spoiler, code or
escape sequence acting; a NUL in a note is dropped alike on both backends."""

from __future__ import annotations

import pytest

from bot.local.terminal import Terminal
from bot.service import Reply
from bot.service.text import user_text
from tests.hostile import NAME, NOTE, misleading

from .conftest import CHANNEL, GUILD


def texts(reply: Reply) -> list[str]:
    """Every text of a reply: the public text, the private parts, the decisions' prompts."""
    found = [reply.text, *(p.text for p in reply.private), *(d.prompt for d in reply.decisions.values())]
    return [t for t in found if t]


async def hostile(table, user: int, line: str) -> Reply:
    return await table.service.handle(CHANNEL, user, NAME, line, guild=GUILD)


@pytest.mark.both_backends
async def test_a_hostile_name_and_note_act_in_no_message(table, clock):
    replies = [await hostile(table, 1, "game new fake-race seed=7 pile=6 clock=1d")]
    replies.append(await table.ok(2, "game join"))
    replies.append(await hostile(table, 1, "game start fixed"))
    replies.append(await hostile(table, 1, "away 1d " + NOTE))
    assert not replies[-1].error, replies[-1].text
    replies += [await table.ok(2, "game status"), await hostile(table, 1, "away"), await table.ok(2, "board")]
    for _ in range(8):  # reminders, clock warnings, the run-out and the bots' posts
        clock.advance(12)
        for notice in await table.service.tick():
            replies.append(notice.reply)
            await table.service.delivered(notice.id)
        await table.service.settle_bots()
    replies += [await table.ok(2, "game status"), await table.ok(2, "games mine")]
    shown = [t for r in replies for t in texts(r)]
    assert any("Claim your seat" in t for t in shown)  # the name is there, as text
    assert {t: misleading(t) for t in shown if misleading(t)} == {}


@pytest.mark.both_backends
async def test_a_nul_in_an_away_note_is_dropped_alike_on_both_backends(table):
    reply = await table.ok(1, "away 2d beach\x00house")
    assert "(beachhouse)" in reply.text
    assert "(beachhouse)" in (await table.ok(1, "away")).text
    [stored] = await table.storage.away(1, 0)
    assert stored.note == "beachhouse"


async def test_a_name_is_cleaned_once_where_it_enters(table):
    reply = await table.service.handle(CHANNEL, 1, NAME, "game new fake-race")
    assert not reply.error, reply.text
    [seat] = (await table.storage.open_table(CHANNEL)).seats
    assert misleading(seat.name) == [] and "Claim your seat" in seat.name


async def test_the_terminal_prints_no_escape_sequence(table):
    lines: list[str] = []
    terminal = Terminal(table.service, out=lines.append, images_dir=table.path.parent)
    await terminal.say(NAME, "game new fake-race")
    terminal.out("an old row: \x1b[2J\x1b]0;title\x07\u202eevil\x9b")
    assert lines and not any("\x1b" in line or "\u202e" in line or "\x9b" in line for line in lines), lines


@pytest.mark.both_backends
async def test_a_nul_in_a_display_name_is_dropped_alike_on_both_backends(table):
    reply = await table.service.handle(CHANNEL, 1, "an\x00n\udfff", "game new fake-race")
    assert not reply.error, reply.text
    [seat] = (await table.storage.open_table(CHANNEL)).seats
    assert seat.name == "ann\ufffd"


@pytest.mark.parametrize("text", [NAME, NOTE, "ann", "a@b <#1> -# x"])
def test_cleaning_twice_changes_nothing(text):
    """A name read back from an export (a fork) is cleaned again: it must stay as it was."""
    once = user_text(text, 100)
    assert user_text(once, 100) == once
