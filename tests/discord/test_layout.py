"""Issue 26 §1, §2: the turn panel, the handover post and the "your turn" DM as layout
components, built from the reply's data alone (bot/discord/layout.py).

Each layout is also checked against what Discord refuses (tests/discord/limits.py): at
most 40 components, custom ids of at most 100 characters, menus of 25, no content.
"""

from __future__ import annotations

import discord

from bot.discord import layout
from bot.service import Actor, Decision, Entry, Headline, Image, Private, Reply
from bot.service.reply import MOVE, PERIOD, SCORE
from engine.core import Choice
from tests.discord.limits import BUTTON, COMPONENTS_V2, GALLERY, SECTION, SELECT, TEXT, message_problems, walk

PLAYERS = ["ann", "bob", "cy"]
PNG = b"\x89PNG\r\n\x1a\n"


def decision(choices: list[Choice], **kw) -> Decision:
    return Decision(2, 1, "bob", kw.pop("prompt", "Choose a region to attack."), choices, "7.00ff00ff", **kw)


def reply_for(d: Decision, **kw) -> Reply:
    reply = Reply(
        game_id="cradle",
        table_id=12,
        version=345,
        headline=Headline("cradle", "Cradle of Civilization: Sumeria to Persia", [Actor("bob", 1, 2)], PLAYERS),
        **kw,
    )
    reply.offer(d)
    return reply


def payload(built: layout.Layout) -> dict:
    """What discord.py sends for the layout: its components and the IS_COMPONENTS_V2 flag."""
    assert built.view.has_components_v2()
    return {
        "flags": COMPONENTS_V2,
        "components": built.view.to_components(),
        "attachments": [{"filename": f.filename} for f in built.files],
    }


def checked(built: layout.Layout) -> dict:
    data = payload(built)
    assert message_problems(data, tuple(f.filename for f in built.files)) == []
    return data


def texts(data: dict) -> list[str]:
    return [c["content"] for c in walk(data["components"]) if c["type"] == TEXT]


def selects(data: dict) -> list[dict]:
    return [c for c in walk(data["components"]) if c["type"] == SELECT]


def choices(n: int, group: str = "Attack", detail: str = "1 army · you hold 3") -> list[Choice]:
    return [Choice(f"attack {group.lower()}-{i}", group, f"{group} {i}", detail) for i in range(n)]


async def test_1_the_panel_reads_prompt_first_then_the_private_view_then_the_choices_beside_their_words():
    d = decision(choices(3), private_view=True, rule="6.4", seat_url="https://epochs.example/s/12/1")
    image = Image(PNG, "Your hand: 3 cards.", "cradle-seat1.png")
    reply = reply_for(d, private=[Private(2, "panel text", image)], turn_steps=1)
    data = checked(layout.panel(reply, 2))
    kinds = [c["type"] for c in data["components"]]
    assert kinds[:2] == [TEXT, GALLERY]  # the question first, then what only bob sees
    assert texts(data)[0] == "**Choose a region to attack.**"
    sections = [c for c in data["components"] if c["type"] == SECTION]
    assert [s["components"][0]["content"] for s in sections] == [
        f"**Attack {i}**\n1 army · you hold 3" for i in range(3)
    ]
    assert [s["accessory"]["custom_id"] for s in sections] == [
        f"ep:do:12:345:7.00ff00ff:attack attack-{i}" for i in range(3)
    ]
    ids = [c.get("custom_id") for c in walk(data["components"]) if c["type"] == BUTTON]
    assert "ep:back:12:345" in ids and "ep:rule:12:6.4" in ids and "ep:log:12:1" in ids
    links = [c["url"] for c in walk(data["components"]) if c["type"] == BUTTON and "url" in c]
    assert links == ["https://epochs.example/s/12/1"]  # the seat's own web page, in the private panel
    assert not any("attack attack-0" in t for t in texts(data)[1:] if "**" not in t)  # no list of actions in the text


async def test_1_up_to_five_bare_choices_are_buttons_named_by_their_labels():
    d = decision([Choice("pass", "Pass", "Pass"), Choice("done", "Done", "End your turn")])
    data = checked(layout.panel(reply_for(d), 2))
    rows = [c for c in data["components"] if c["type"] == 1]
    assert [b["label"] for b in rows[0]["components"]] == ["Pass", "End your turn"]
    assert not any(c["type"] == SECTION for c in data["components"])


async def test_1_a_menu_per_group_each_option_with_its_label_and_detail():
    d = decision(choices(10, "Attack") + choices(12, "Move", "") + choices(4, "Pay", "2 gold"))
    data = checked(layout.panel(reply_for(d), 2))
    menus = selects(data)
    assert [m["placeholder"] for m in menus] == ["Attack", "Move", "Pay"]
    assert [o["label"] for o in menus[0]["options"]][:2] == ["Attack 0", "Attack 1"]
    assert all(o["description"] == "1 army · you hold 3" for o in menus[0]["options"])
    assert all("description" not in o for o in menus[1]["options"])  # the engine gave no detail


async def test_1_more_than_25_choices_are_paged_within_their_group_never_split_blindly():
    d = decision(choices(60, "Place"))
    first = checked(layout.panel(reply_for(d), 2))
    (menu,) = selects(first)
    assert len(menu["options"]) == 25 and menu["placeholder"].startswith("Place (1-25 of 60: Place 0 … Place 24)")
    pages = [c for c in walk(first["components"]) if c.get("custom_id", "").startswith("ep:page:")]
    assert [p["label"] for p in pages] == ["Next ▶ (2/3)"] and pages[0]["custom_id"] == "ep:page:12:345:7.00ff00ff:0:1"
    last = checked(layout.panel(reply_for(d), 2, page=2))
    (menu,) = selects(last)
    assert [o["label"] for o in menu["options"]] == [f"Place {i}" for i in range(50, 60)]


async def test_1_many_groups_get_a_menu_of_groups_leading_to_one_group_s_choices():
    groups = [f"Kind {k}" for k in range(8)]
    d = decision([c for g in groups for c in choices(4, g)])
    data = checked(layout.panel(reply_for(d), 2, group=3))
    kinds, menu = selects(data)
    assert kinds["custom_id"] == "ep:grp:12:345:7.00ff00ff"
    assert [o["label"] for o in kinds["options"]] == groups
    assert [o.get("default", False) for o in kinds["options"]].index(True) == 3
    assert kinds["options"][0]["description"] == "4 choices: Kind 0 0 … Kind 0 3"
    assert [o["label"] for o in menu["options"]] == [f"Kind 3 {i}" for i in range(4)]


async def test_1_a_long_action_is_named_by_its_place_and_every_panel_stays_within_discord_s_limits():
    long = [Choice("place " + "mediterranean " * 8 + str(i), "Place", f"Sea {i}") for i in range(3)]
    data = checked(layout.panel(reply_for(decision(long)), 2))
    ids = [c["custom_id"] for c in walk(data["components"]) if c.get("custom_id", "").startswith("ep:do:")]
    assert ids == ["ep:do:12:345:7.00ff00ff:#0", "ep:do:12:345:7.00ff00ff:#1", "ep:do:12:345:7.00ff00ff:#2"]
    for count, groups in ((200, 30), (80, 2), (26, 1), (30, 26)):
        many = [Choice(f"a{i}", f"Group {i % groups}", f"Choice {i}", "x" * 100) for i in range(count)]
        built = layout.panel(reply_for(decision(many)), 2)
        checked(built)
        assert len(walk(payload(built)["components"])) <= 40


async def test_1_since_your_last_turn_newest_first_at_most_six_with_scores_and_round_ends_on_their_own_lines():
    story = [Entry(MOVE, i, 0, "ann", f"move {i}", f"move {i}", "", [f"ann did thing {i}."]) for i in range(1, 9)]
    story.insert(4, Entry(SCORE, 4, before=[1, 0, 0], after=[5, 0, 0]))
    story.insert(5, Entry(PERIOD, 4, stage="Epoch I", before=[1, 0, 0], after=[5, 0, 0]))
    data = checked(layout.panel(reply_for(decision(choices(2), story=story)), 2))
    block = texts(data)[-1].splitlines()
    assert block[0] == "-# Since your last turn, newest first"
    entries = block[1:]
    assert len(entries) == 6 and entries[0] == "• ann did thing 8." and entries[1] == "• ann did thing 7."
    assert "— Epoch I ends: ann 5, bob 0, cy 0" in entries and "• Scores: ann 1 → 5" in entries
    full = [c for c in walk(data["components"]) if c.get("custom_id") == "ep:log:12:1"]
    assert full and full[0]["label"] == "Full story (+4)"  # what the six left out


async def test_2_the_handover_post_says_who_and_where_first_then_eight_lines_then_the_board():
    story = [Entry(MOVE, i, 0, "ann", f"m{i}", f"m{i}", "", [f"ann moved {i}."]) for i in range(1, 13)]
    story.append(Entry(PERIOD, 12, stage="Epoch III", before=[3, 2, 1], after=[9, 4, 1]))
    reply = reply_for(decision(choices(2)), story=story, mentions=[2], image=Image(PNG, "the map", "cradle-board.png"))
    reply.headline.stage = "Epoch IV"
    reply.headline.table_url = "https://epochs.example/t/12"
    built = layout.post(reply, pinged=[2])
    data = checked(built)
    lines = texts(data)[0].splitlines()
    assert lines[0] == "<@2> — your turn · Cradle of Civilization · Epoch IV"
    assert len(lines) - 1 <= 8 and "— Epoch III ends: ann 9, bob 4, cy 1" in lines
    assert lines[1] == "• … 6 earlier steps (Full story)"
    assert [c["type"] for c in data["components"]][1] == GALLERY and [f.filename for f in built.files] == [
        "cradle-board.png"
    ]
    buttons = [c for c in walk(data["components"]) if c["type"] == BUTTON]
    assert [b.get("custom_id") or b["url"] for b in buttons] == [
        "ep:turn:12:345",
        "ep:log:12:1",
        "https://epochs.example/t/12",
    ]


async def test_2_the_your_turn_dm_names_the_game_and_the_place_and_carries_take_your_turn():
    d = decision(choices(2), seat_url="https://epochs.example/s/12/1")
    reply = reply_for(d)
    data = checked(layout.turn_dm(reply, 2, where="in <#1> (#general) on Test", link="https://discord.com/x"))
    first = texts(data)[0]
    assert first.startswith("**Your turn** · Cradle of Civilization: Sumeria to Persia") and "#general" in first
    buttons = [c.get("custom_id") or c.get("url") for c in walk(data["components"]) if c["type"] == BUTTON]
    assert buttons == ["ep:turn:12:345", "https://discord.com/x", "https://epochs.example/s/12/1"]


async def test_a_closed_panel_stays_a_layout_message():
    built = layout.note("✅ Your turn is over.", link="https://discord.com/x")
    data = checked(built)
    assert texts(data) == ["✅ Your turn is over."]
    assert isinstance(built.view, discord.ui.LayoutView)
