"""Playing through Discord: slash commands, autocomplete, the turn button and its menu.

Everything goes through the real discord.py client, the real service and a SQLite
file; the emulator only plays Discord's part.
"""

from __future__ import annotations

import copy
import random

import engine
from tests.discord.emulator import EPHEMERAL, components, gallery

GAME = "rising-cultures"


async def open_game(harness, emu, *players, channel: int = 1):
    users = [emu.users[p] for p in players]
    await harness.do(users[0], "game new", {"game": GAME}, channel=channel)
    for user in users[1:]:
        await harness.do(user, "game join", channel=channel)
    await harness.do(users[0], "game start", {"fixed": True}, channel=channel)
    return users


async def position(harness, channel: int = 1):
    """(table, game, state, {user id: seat}) straight from storage, for checking the bot."""
    table = await harness.table(channel)
    game = engine.GAMES[table.game]
    state = game.loads((await harness.storage.snapshot(table.id))[1])
    return table, game, state, {s.user: s.seat for s in table.seats}


def acting_users(table, game, state) -> set[int]:
    seats = set(game.to_act(state))
    return {s.user for s in table.seats if s.seat in seats}


def turn_buttons(message: dict) -> list[str]:
    return [c["custom_id"] for c in components(message) if c.get("custom_id", "").startswith("ep:turn:")]


async def turn_passed(harness, table, seats: dict[int, int], acting: set[int], seen: int) -> tuple[bool, set[int]]:
    """After a command: did the turn pass (a seat that was not acting came in, or the game
    ended), and who acts now. Worked out from storage, apart from the bot's own logic."""
    table, game, after, _ = await position(harness)
    rows = (await harness.storage.actions(table.id))[seen:]
    before = {seats[u] for u in acting}
    now = acting_users(table, game, after) if not game.is_over(after) else set()
    return bool(now - acting) or any(r.seat not in before for r in rows) or game.is_over(after), now


def offered(menu: dict) -> list[str]:
    """The actions a panel offers, from its selects and its action buttons."""
    return [o["value"] for c in components(menu) if c["custom_id"].startswith("ep:pick:") for o in c["options"]] + [
        c["custom_id"].split(":", 5)[5]
        for c in components(menu)
        if c.get("type") == 2 and c["custom_id"].startswith("ep:do:")
    ]


async def test_full_rising_cultures_game_through_slash_commands_buttons_and_selects(text_harness, emu):
    """A whole game, half by /play (with autocomplete), half by the turn panel, checked
    after every accepted action against storage: while a turn lasts nothing is posted and
    the player's panel is edited in place to the next step; when it passes exactly one
    message is posted, pinging exactly the players who must act now and were not acting
    (never the player who just acted)."""
    harness = text_harness
    alice, bob = await open_game(harness, emu, 1001, 1002)
    users = {1001: alice, 1002: bob}
    rnd = random.Random(4)
    moves = 0
    panels: dict[int, dict] = {}  # user -> their open panel message
    while True:
        table, game, state, seats = await position(harness)
        if table.status == "finished":
            break
        assert moves < 400, "the game should end"
        acting = acting_users(table, game, state)
        uid = sorted(acting)[0]
        legal = game.legal_actions(state, seats[uid])
        action = rnd.choice(legal)
        before = len(emu.public_messages(1))
        seen = len(await harness.storage.actions(table.id))
        if moves % 2 == 0 or uid not in panels:
            if moves % 4 == 0:
                # /play, with the action found through autocomplete on its first word
                suggested = await harness.suggest(users[uid], action.split()[0])
                assert action in suggested or len(suggested) == 25
                assert set(suggested) <= set(legal)
                inter = await harness.do(users[uid], "play", {"action": action})
                assert inter.ephemeral
                panel = emu.original(inter)
            else:
                latest = emu.public_messages(1)[-1]
                assert turn_buttons(latest) and turn_buttons(latest)[0].startswith(f"ep:turn:{table.id}:")
                menu_inter = await harness.press_turn(users[uid], latest)
                assert menu_inter.ephemeral
                menu = emu.original(menu_inter)
                assert set(offered(menu)) <= set(legal)
                if action not in offered(menu):
                    action = offered(menu)[0]
                await harness.pick(users[uid], menu, action)
                panel = emu.messages[int(menu["id"])]
        else:
            menu = panels[uid]
            assert set(offered(menu)) <= set(legal), "the panel shows the step the turn is at"
            if action not in offered(menu):
                action = offered(menu)[0]
            await harness.pick(users[uid], menu, action)
            panel = emu.messages[int(menu["id"])]  # the same message, edited in place
        moves += 1
        table_after, game, after, _ = await position(harness)
        now = acting_users(table_after, game, after) if not game.is_over(after) else set()
        new = emu.public_messages(1)[before:]
        rows = (await harness.storage.actions(table.id))[seen:]
        someone_else = any(s_ not in {seats[u] for u in acting} for s_ in (r.seat for r in rows))
        if now - acting or someone_else or game.is_over(after):  # the turn passed: one post
            assert len(new) == 1, action
            if game.is_over(after):  # the end pings every player but the one who ended it (issue 26 §2)
                assert set(new[0]["pinged"]["users"]) == set(users) - {uid}
            else:
                assert set(new[0]["pinged"]["users"]) == now - acting - {uid}
            assert new[0]["pinged"]["everyone"] is False and new[0]["pinged"]["roles"] == []
            panels = {u: m for u, m in panels.items() if u != uid}
            if uid in now and offered(panel):
                panels[uid] = panel
        else:  # the turn goes on: nothing public, the player's panel shows the next step
            assert new == [], action
            assert panel["flags"] & EPHEMERAL
            if uid in now:
                assert offered(panel) and set(offered(panel)) <= set(game.legal_actions(after, seats[uid]))
                panels[uid] = panel
            else:
                panels.pop(uid, None)
    final = emu.public_messages(1)[-1]
    assert "Game over" in final["text"]
    old = await harness.press_turn(alice, emu.public_messages(1)[-2])
    assert "finished" in emu.reply_text(old)
    assert turn_buttons(final) == []
    table, game, state, _ = await position(harness)
    rows = await harness.storage.actions(table.id)
    assert game.is_over(state) and moves == len([r for r in rows if not r.via])


async def test_every_move_message_carries_the_board_image_with_alt_text(harness, emu):
    alice, bob = await open_game(harness, emu, 1001, 1002)
    table, game, state, seats = await position(harness)
    await harness.do(alice, "play", {"action": game.legal_actions(state, seats[1001])[0]})
    start, move = emu.public_messages(1)[-2:]
    for message in (start, move):
        (attachment,) = message["attachments"]  # the map alone (`board` adds the tables)
        assert attachment["filename"].endswith("board.png") and len(attachment["description"]) > 10
        assert gallery(message) == [attachment["filename"]]  # shown in the post's gallery
        (upload,) = message["files"]
        assert upload.data.startswith(b"\x89PNG") and upload.description == attachment["description"]
    assert "\n• Alice" in move["text"] and move["pinged"]["users"] == [1002]
    assert move["text"].startswith("<@1002> — your turn · Rising Cultures")  # who and where, first
    # a board on request answers its caller alone, with the turn button for whoever must act
    posts = len(emu.public_messages(1))
    board = await harness.do(bob, "board")
    answer = emu.original(board)
    assert board.ephemeral and len(emu.public_messages(1)) == posts
    # the map, then the tables (issue 26 §4)
    assert [a["filename"] for a in answer["attachments"]][1:] == ["rising-cultures-tables.png"]
    table = await harness.table()
    assert f"ep:turn:{table.id}:{table.version}" in [c["custom_id"] for c in components(answer)]
    # "Show everyone" posts it, pinging nobody
    share = next(c["custom_id"] for c in components(answer) if c["custom_id"].startswith("ep:share:"))
    await emu.finished(await emu.press(bob, answer, share))
    await harness.settle()
    shown = emu.public_messages(1)[-1]
    assert shown["attachments"] and shown["pinged"]["users"] == [] and shown["allowed_mentions"]["parse"] == []


async def test_autocomplete_lists_the_callers_legal_actions_filtered_and_at_most_25(harness, emu):
    alice, bob = await open_game(harness, emu, 1001, 1002)
    table, game, state, seats = await position(harness)
    legal = game.legal_actions(state, seats[1001])
    assert await harness.suggest(alice, "") == legal[:25]
    civ = await harness.suggest(alice, "civ")
    assert civ and all(a.startswith("civ") for a in civ)
    second_word = legal[0].split()[-1]
    assert (await harness.suggest(alice, second_word))[0] == legal[0]
    assert await harness.suggest(alice, "no such action at all") == []
    carol = emu.users[1003]
    assert await harness.suggest(carol, "") == []  # not a player: nothing to suggest
    inter = emu.interactions[max(emu.interactions)]
    assert inter.callback_type == 8


async def test_rejected_action_is_answered_only_to_the_caller_with_the_reason(harness, emu):
    alice, bob = await open_game(harness, emu, 1001, 1002)
    before = len(emu.public_messages(1))
    bad = await harness.do(alice, "play", {"action": "conquer the world"})
    assert bad.ephemeral and bad.callback.flags & EPHEMERAL
    text = emu.reply_text(bad)
    assert "conquer" in text.lower() or "legal" in text.lower()
    stranger = await harness.do(emu.users[1003], "play", {"action": "civ rome"})
    assert stranger.ephemeral and "not a player" in emu.reply_text(stranger)
    assert len(emu.public_messages(1)) == before
    # refusals went out as edits of an ephemeral deferral, never to the channel route
    assert not [r for r in emu.routes("POST", r"^/channels/1/messages$") if "conquer" in str(r.body)]


async def test_stale_button_and_stale_menu_are_refused_and_play_nothing(harness, emu):
    alice, bob = await open_game(harness, emu, 1001, 1002)
    start_message = emu.public_messages(1)[-1]
    menu = emu.original(await harness.press_turn(alice, start_message))
    table, game, state, seats = await position(harness)
    await harness.do(alice, "play", {"action": game.legal_actions(state, seats[1001])[0]})
    moved = await harness.table()
    # the old public button
    old = await harness.press_turn(alice, start_message)
    assert old.ephemeral
    assert "older turn" in emu.reply_text(old) and "nothing was played" in emu.reply_text(old)
    # the menu opened before the move
    picked = await harness.pick(alice, menu, offered(menu)[-1])
    assert "older turn" in emu.reply_text(picked)
    assert (await harness.table()).version == moved.version
    assert components(emu.messages[picked.original_id]) == []  # the spent menu lost its buttons
    # the newest button still works
    fresh = await harness.press_turn(bob, emu.public_messages(1)[-1])
    assert offered(emu.original(fresh))


async def test_turn_button_explains_to_someone_who_is_not_to_act(harness, emu):
    alice, bob = await open_game(harness, emu, 1001, 1002)
    table, game, state, seats = await position(harness)
    await harness.do(alice, "play", {"action": game.legal_actions(state, seats[1001])[0]})
    table, game, state, seats = await position(harness)
    assert acting_users(table, game, state) == {1002}  # after her civilization pick, Bob picks
    inter = await harness.press_turn(alice, emu.public_messages(1)[-1])
    assert "not your turn" in emu.reply_text(inter).lower()


async def test_stranger_pressing_the_turn_button_is_told_they_do_not_play(harness, emu):
    await open_game(harness, emu, 1001, 1002)
    inter = await harness.press_turn(emu.users[1003], emu.public_messages(1)[-1])
    assert inter.ephemeral and "not a player" in emu.reply_text(inter)


async def test_simultaneous_step_the_others_pick_does_not_spoil_an_open_panel(text_harness, emu):
    """Both players set up their areas at once. Alice's pick moves the game's version, yet
    Bob's open panel still plays (his own decision did not change); a second press of a
    button Bob already used is refused as stale and plays nothing (issue 12 §1)."""
    harness = text_harness
    alice, bob = await open_game(harness, emu, 1001, 1002)
    await harness.do(alice, "play", {"action": "civ rome"})
    await harness.do(bob, "play", {"action": "civ egypt"})
    table, game, state, seats = await position(harness)
    assert acting_users(table, game, state) == {1001, 1002}  # both choose at once now
    latest = emu.public_messages(1)[-1]
    alice_menu = emu.original(await harness.press_turn(alice, latest))
    bob_menu = copy.deepcopy(emu.original(await harness.press_turn(bob, latest)))
    posts = len(emu.public_messages(1))
    await harness.pick(alice, alice_menu, game.legal_actions(state, seats[1001])[0])
    bob_choice = game.legal_actions(state, seats[1002])[0]
    picked = await harness.pick(bob, bob_menu, bob_choice)
    text = emu.reply_text(picked)
    rows = await harness.storage.actions(table.id)
    assert "older turn" not in text and "This turn so far" in text and rows[-1].events[0] in text
    assert [r.action for r in rows][-2:] == [game.legal_actions(state, seats[1001])[0], bob_choice]
    again = await harness.pick(bob, bob_menu, bob_choice)  # the old panel's button, pressed twice
    assert "older turn" in emu.reply_text(again) and "nothing was played" in emu.reply_text(again)
    assert len(await harness.storage.actions(table.id)) == len(rows)
    assert len(emu.public_messages(1)) == posts  # nothing posted while the round lasts


async def test_two_commands_at_the_same_moment_one_wins_the_other_is_told(text_harness, emu):
    harness = text_harness
    alice, bob = await open_game(harness, emu, 1001, 1002)
    table, game, state, seats = await position(harness)
    action = game.legal_actions(state, seats[1001])[0]
    before = len(emu.public_messages(1))
    first = await emu.slash(alice, 1, "play", {"action": action})
    second = await emu.slash(alice, 1, "play", {"action": action})  # the same command, twice at once
    await emu.finished(first)
    await emu.finished(second)
    await harness.settle()
    rows = await harness.storage.actions(table.id)
    assert [r.action for r in rows] == [action]  # played once
    assert len(emu.public_messages(1)) == before + 1  # and posted once (the turn passed to Bob)
    texts = [emu.reply_text(first), emu.reply_text(second)]
    assert sum("moved on" in t or "not your turn" in t.lower() for t in texts) == 1


async def test_49_4_the_turn_panel_asked_for_again_is_shown_whole_again(text_harness, emu):
    """Issue 49 §4: "Take your turn" pressed a second time for the same decision shows the
    same panel, choices and all (never an empty answer)."""
    alice, _ = await open_game(text_harness, emu, 1001, 1002)
    start_message = emu.public_messages(1)[-1]
    first = emu.original(await text_harness.press_turn(alice, start_message))
    again = emu.original(await text_harness.press_turn(alice, start_message))
    assert offered(first) and offered(again) == offered(first)
