"""Private information stays private; mentions ping exactly the intended users."""

from __future__ import annotations

import json

from tests.discord.emulator import EPHEMERAL, MANAGE_CHANNELS
from tests.discord.test_play import open_game, position


def hidden_words(game, state, seat: int) -> set[str]:
    """Card ids, slugs and names in `seat`'s hand: in its own view, not in the public one."""
    mine = game.view(state, seat)["players"][seat]["hand"]
    public = json.dumps(game.view(state, None))
    words = {c["id"] for c in mine} | {c["slug"] for c in mine} | {c["name"] for c in mine}
    return {w for w in words if w not in public}


def public_texts(emu) -> list[str]:
    """Everything that reached a public place: channel posts and non-ephemeral interaction messages."""
    out = []
    for message in emu.public_messages():
        out.append(message["text"])
        out.extend(a["description"] or "" for a in message["attachments"])
        out.extend(a["filename"] for a in message["attachments"])
    for request in emu.routes("POST", r"^/channels/1/messages$"):
        out.append(json.dumps(request.body))
    return out


async def test_hand_is_ephemeral_and_never_reaches_a_public_route(harness, emu):
    alice, bob = await open_game(harness, emu, 1001, 1002)
    table, game, state, seats = await position(harness)
    await harness.do(alice, "play", {"action": "civ rome"})
    await harness.do(bob, "play", {"action": "civ egypt"})
    table, game, state, seats = await position(harness)
    secrets = hidden_words(game, state, seats[1001]) | hidden_words(game, state, seats[1002])
    assert secrets
    hand = await harness.do(alice, "hand")
    assert hand.callback.body["type"] == 5 and hand.callback.flags & EPHEMERAL
    shown = emu.reply_text(hand)
    assert "Your private view" in shown
    assert hidden_words(game, state, seats[1001]) & set(shown.replace(",", " ").split()) or any(
        w in shown for w in hidden_words(game, state, seats[1001])
    )
    assert not any(w in shown for w in hidden_words(game, state, seats[1002]))  # not Bob's hand
    # the private picture went with the ephemeral edit, with its alt text, and nowhere else
    edit = [r for r in hand.responses if r.method == "PATCH"][-1]
    (picture,) = edit.files
    assert picture.data.startswith(b"\x89PNG") and "private" in (picture.description or "")
    assert not [m for m in emu.public_messages() if any(a["filename"] == picture.filename for a in m["attachments"])]
    # open the menus too: the "since your last turn" summaries are private
    await harness.press_turn(alice, emu.public_messages(1)[-1])
    await harness.press_turn(bob, emu.public_messages(1)[-1])
    for text in public_texts(emu):
        leaked = [w for w in secrets if w in text]
        assert not leaked, (leaked, text[:200])
    # every ephemeral answer really was flagged ephemeral at the callback
    for inter in emu.interactions.values():
        if inter.type in (2, 3) and inter.callback is not None and inter.callback_type == 5:
            assert inter.callback.flags & EPHEMERAL


async def test_hand_goes_by_direct_message_when_the_player_opted_in(harness, emu):
    alice, bob = await open_game(harness, emu, 1001, 1002)
    opt = await harness.do(alice, "settings", {"dm": True})
    assert "DM: on" in emu.reply_text(opt)
    hand = await harness.do(alice, "hand")
    assert "direct message" in emu.reply_text(hand)
    dm_channel = 500_000 + 1001
    dms = emu.channel_messages(dm_channel)
    assert len(dms) == 1 and "Your private view" in dms[0]["text"]
    assert dms[0]["attachments"] and "private" in dms[0]["attachments"][0]["description"]
    assert emu.routes("POST", r"^/users/@me/channels$")[-1].body == {"recipient_id": 1001}


async def test_closed_dms_fall_back_to_a_channel_mention_without_the_private_text(harness, emu):
    alice, bob = await open_game(harness, emu, 1001, 1002)
    await harness.do(bob, "settings", {"dm": True})
    emu.close_dms(1002)
    before = len(emu.public_messages(1))
    await harness.do(alice, "play", {"action": "civ rome"})  # Bob gets "since your last turn" by DM
    await emu.wait_for(lambda: len(emu.public_messages(1)) == before + 2)
    refused = [r for r in emu.requests if r.path == f"/channels/{500_000 + 1002}/messages"]
    assert refused and refused[-1].status == 403
    nudge = emu.public_messages(1)[-1]
    assert "direct message" in nudge["text"] and "Since your last turn" not in nudge["text"]
    assert nudge["pinged"] == {"users": [1002], "roles": [], "everyone": False}


async def test_names_with_everyone_here_and_role_mentions_never_ping_them(harness, emu):
    emu.add_user(2001, "@everyone")
    emu.add_user(2002, "<@&900> @here")
    users = await open_game(harness, emu, 2001, 2002)
    table, game, state, seats = await position(harness)
    await harness.do(users[0], "play", {"action": game.legal_actions(state, seats[2001])[0]})
    await harness.do(users[0], "game status")
    await harness.do(users[1], "board")
    messages = emu.public_messages(1)
    assert len(messages) >= 4
    for message in messages:
        assert message["pinged"]["everyone"] is False
        assert message["pinged"]["roles"] == []
        allowed = message["allowed_mentions"]
        assert allowed is not None and allowed.get("parse") == []
        assert set(message["pinged"]["users"]) <= {2001, 2002}
        assert set(allowed.get("users", [])) == set(message["pinged"]["users"])
    # typed input with @everyone / a role mention pings nobody either
    typed = await harness.do(users[1], "play", {"action": "@everyone <@&900> @here"})
    assert typed.ephemeral and emu.original(typed)["pinged"] == {"users": [], "roles": [], "everyone": False}
    rules = await harness.do(users[1], "rules", {"topic": "@everyone"})
    assert rules.ephemeral and emu.original(rules)["pinged"]["everyone"] is False
    # the start message pings nobody: the player to act started the game and reads its answer
    start = next(m for m in messages if "begins" in m["text"])
    assert start["pinged"]["users"] == []
    # and every interaction reply (edits, follow-ups) allowed no mentions at all
    for request in emu.requests:
        if request.path.startswith("/webhooks/") and request.method in ("PATCH", "POST"):
            allowed = request.data.get("allowed_mentions")
            assert allowed is None or (allowed.get("parse") == [] and not allowed.get("users"))


async def test_cancel_needs_the_creator_or_discord_manage_permissions(harness, emu):
    await open_game(harness, emu, 1001, 1002)
    refused = await harness.do(emu.users[1003], "game cancel")
    assert refused.ephemeral and "creator" in emu.reply_text(refused)
    assert (await harness.table()).status == "active"
    moderator = emu.users[1004]
    assert moderator.permissions & MANAGE_CHANNELS
    done = await harness.do(moderator, "game cancel")
    assert "cancelled" in emu.public_messages(1)[-1]["text"], emu.reply_text(done)
    assert await harness.storage.open_table(1) is None


async def test_a_game_lives_in_a_thread_beside_one_in_its_parent_channel(harness, emu):
    emu.add_channel(77, "rc-thread", thread_of=1)
    await open_game(harness, emu, 1001, 1002)
    await open_game(harness, emu, 1003, 1002, channel=77)
    thread_start = emu.public_messages(77)[-1]
    assert "begins" in thread_start["text"] and thread_start["pinged"]["users"] == []  # Carol started it
    assert (await harness.storage.open_table(77)).id != (await harness.storage.open_table(1)).id
    suggestions = await harness.suggest(emu.users[1003], "civ", channel=77)
    assert suggestions and all(s.startswith("civ") for s in suggestions)
