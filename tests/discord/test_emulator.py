"""The loopback Discord itself, checked with a bare discord.py client.

The adapter's tests trust the emulator's bookkeeping (who was pinged, what was
ephemeral, which files came with which alt text), so it gets its own checks:
the routes discord.py uses for replies it does not (multipart callbacks,
follow-ups), and Discord's notification rules it encodes.
"""

from __future__ import annotations

import asyncio
import io

import discord
import pytest
from discord import app_commands

from tests.discord.emulator import EPHEMERAL


@pytest.fixture
async def client(emu):
    bot = discord.Client(intents=discord.Intents(guilds=True), guild_ready_timeout=0.05)
    tree = app_commands.CommandTree(bot)
    alice = emu.users[1001]

    @tree.command(name="echo", description="answer with a file, a follow-up and an edit")
    async def echo(interaction: discord.Interaction, word: str) -> None:
        await interaction.response.send_message(
            f"<@{alice.id}> @everyone {word}",
            file=discord.File(io.BytesIO(b"\x89PNG..."), "a.png", description="alt a"),
            allowed_mentions=discord.AllowedMentions(everyone=False, users=[discord.Object(alice.id)]),
        )
        await interaction.followup.send("secret", ephemeral=True)
        await interaction.edit_original_response(content=f"<@{emu.users[1002].id}> edited")

    @tree.command(name="plain", description="default allowed mentions")
    async def plain(interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"<@{alice.id}> @here")

    async def setup_hook() -> None:
        await tree.sync()

    bot.setup_hook = setup_hook
    await bot.login("token")
    task = asyncio.create_task(bot.connect())
    await asyncio.wait_for(bot.wait_until_ready(), 10)
    yield bot
    await bot.close()
    await asyncio.gather(task, return_exceptions=True)


async def test_multipart_callback_follow_up_and_edit_are_recorded_with_their_meaning(client, emu):
    inter = await emu.slash(emu.users[1001], 1, "echo", {"word": "hi"})
    await emu.wait_for(lambda: sum(r.method == "PATCH" for r in inter.responses) == 1)
    callback = inter.callback
    assert callback.query.get("with_response") in ("1", "true")
    assert callback.body["type"] == 4 and callback.files[0].description == "alt a"
    original = emu.original(inter)
    assert original["pinged"] == {"users": [1001], "roles": [], "everyone": False}
    assert original["text"] == "<@1002> edited" and original["edits"] == 1  # edits never notify
    follow = [m for m in emu.messages.values() if m["text"] == "secret"][0]
    assert follow["flags"] & EPHEMERAL and follow["pinged"]["users"] == []
    assert original in emu.public_messages(1) and follow not in emu.public_messages(1)


async def test_without_allowed_mentions_discord_parses_everything(client, emu):
    inter = await emu.slash(emu.users[1001], 1, "plain")
    await emu.answered(inter)
    assert emu.original(inter)["pinged"] == {"users": [1001], "roles": [], "everyone": True}


async def test_a_429_without_via_is_a_ban_for_discord_py_and_with_via_a_wait(client, emu):
    channel = client.get_partial_messageable(1)
    emu.fail("POST", r"^/channels/1/messages$", 429, via=False)
    with pytest.raises(discord.HTTPException) as caught:
        await channel.send("x")
    assert caught.value.status == 429
    emu.fail("POST", r"^/channels/1/messages$", 429, retry_after=0.01)
    message = await channel.send("y")
    assert [r.status for r in emu.routes("POST", "^/channels/1/messages$")] == [429, 429, 200]
    assert emu.messages[message.id]["text"] == "y"


async def test_gateway_bot_points_at_the_emulator(client, emu):
    shards, url, limits = await client.http.get_bot_gateway()
    assert shards == 1 and url == f"ws://127.0.0.1:{emu.port}/gateway" and limits["remaining"] > 0


async def test_closed_dms_answer_403_50007(client, emu):
    emu.close_dms(1002)
    dm = await client.create_dm(discord.Object(1002))
    with pytest.raises(discord.Forbidden) as caught:
        await dm.send("hello")
    assert caught.value.code == 50007


async def test_dropping_the_gateway_leads_to_resume_and_replay(client, emu):
    seen = []

    async def on_resumed() -> None:
        seen.append("resumed")

    client.on_resumed = on_resumed
    await emu.drop_gateway()
    inter = await emu.slash(emu.users[1001], 1, "plain")  # missed while away, replayed on RESUME
    await emu.answered(inter, timeout=15)
    assert emu.resumes == 1 and emu.identifies == 1 and seen == ["resumed"]


async def test_command_definitions_discord_would_refuse_are_refused(client, emu):
    with pytest.raises(discord.HTTPException) as caught:
        await client.http.bulk_upsert_global_commands(
            emu.app_id,
            [{"name": "Bad Name", "description": "x", "type": 1}, {"name": "ok", "description": "y" * 101, "type": 1}],
        )
    assert caught.value.status == 400 and caught.value.code == 50035
    assert {c["name"] for c in emu.commands["global"]} == {"echo", "plain"}  # unchanged


async def test_messages_discord_would_refuse_are_refused(client, emu):
    channel = client.get_partial_messageable(1)
    with pytest.raises(discord.HTTPException) as caught:
        await channel.send("x" * 2001)
    assert caught.value.status == 400 and caught.value.code == 50035
    view = discord.ui.View()
    view.add_item(discord.ui.Button(label="a", custom_id="same"))
    view.add_item(discord.ui.Button(label="b", custom_id="same"))
    with pytest.raises(discord.HTTPException):
        await channel.send("y", view=view)
    assert not emu.public_messages(1)


def test_notified_follows_allowed_mentions():
    from tests.discord.limits import notified

    text = "<@1> <@!2> <@&9> @everyone"
    assert notified(text, None) == {"users": [1, 2], "roles": [9], "everyone": True}
    assert notified(text, {"parse": []}) == {"users": [], "roles": [], "everyone": False}
    assert notified(text, {"parse": [], "users": ["2"]}) == {"users": [2], "roles": [], "everyone": False}
    assert notified(text, {"parse": ["roles", "everyone"]}) == {"users": [], "roles": [9], "everyone": True}


async def test_a_layout_message_reads_from_its_text_displays_and_pings_from_them(client, emu):
    """discord.py's LayoutView sends the IS_COMPONENTS_V2 flag; its text displays ping as
    content does (filtered by allowed_mentions), and a gallery shows an attached file."""
    channel = client.get_partial_messageable(1)
    view = discord.ui.LayoutView()
    view.add_item(discord.ui.TextDisplay("<@1001> — your turn · <@1002> not allowed"))
    view.add_item(discord.ui.MediaGallery(discord.MediaGalleryItem("attachment://b.png", description="the board")))
    view.add_item(discord.ui.ActionRow(discord.ui.Button(label="Take your turn", custom_id="ep:turn:1:1")))
    message = await channel.send(
        view=view,
        file=discord.File(io.BytesIO(b"\x89PNG"), "b.png"),
        allowed_mentions=discord.AllowedMentions(users=[discord.Object(1001)]),
    )
    stored = emu.messages[message.id]
    assert stored["flags"] & (1 << 15) and stored["content"] == ""
    assert stored["text"].startswith("<@1001> — your turn") and stored["pinged"]["users"] == [1001]
    from tests.discord.emulator import components, gallery

    assert gallery(stored) == ["b.png"] and [c["custom_id"] for c in components(stored)] == ["ep:turn:1:1"]


async def test_layout_messages_discord_would_refuse_are_refused(client, emu):
    channel = client.get_partial_messageable(1)
    rows = [  # 9 rows of 4 buttons: 45 components (discord.py refuses it before sending, Discord too)
        {"type": 1, "components": [{"type": 2, "style": 2, "label": "b", "custom_id": f"b{i}.{j}"} for j in range(4)]}
        for i in range(9)
    ]
    route = discord.http.Route("POST", "/channels/{channel_id}/messages", channel_id=1)
    with pytest.raises(discord.HTTPException) as caught:
        await client.http.request(route, json={"flags": 1 << 15, "components": rows})
    assert caught.value.code == 50035
    with pytest.raises(discord.HTTPException):  # content beside layout components
        await client.http.request(
            route, json={"flags": 1 << 15, "content": "x", "components": [{"type": 10, "content": "y"}]}
        )
    unattached = discord.ui.LayoutView()
    unattached.add_item(discord.ui.MediaGallery(discord.MediaGalleryItem("attachment://missing.png")))
    with pytest.raises(discord.HTTPException):
        await channel.send(view=unattached)
    layout = discord.ui.LayoutView()
    layout.add_item(discord.ui.TextDisplay("a panel"))
    message = await channel.send(view=layout)
    with pytest.raises(discord.HTTPException):  # a layout message takes no content, ever after
        await message.edit(content="plain text again")
    assert not [m for m in emu.public_messages(1) if m["id"] != str(message.id)]
