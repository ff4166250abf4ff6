"""Progress tile effects (6.1, player aid as reconstructed in data/progress.toml), views and the contract."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.core import IllegalAction
from engine.rise_of_empires import data as roe_data
from engine.rise_of_empires.scoring import food_change, income_of, vp_of

from .helpers import COMP, GAME, act, actor, legal, new, refuses, restart

W, R, B, G = range(4)


@pytest.mark.parametrize(
    "tile,territories,food,cubes,gold,resources",
    [
        ("agriculture", [], 2, 0, 0, 0),
        ("crop-rotation", [], 3, 0, 0, 0),
        ("fertilizers", [], 4, 0, 0, 0),  # errata: 4, not the aid's 3
        ("irrigation", ["plains", "plains"], 2 * 2 + 2, 2, 0, 0),
        ("mining", ["mountain"], -3, 3, 0, 1),
        ("iron-axe", ["forest", "forest"], -4, 4, 0, 2),
        ("steam-pump", ["plains"], 2, 1, 0, 1),
        ("medicine", [], 0, 2, 0, 0),
        ("stock-exchange", [], 0, 0, 3, 0),
    ],
)
def test_6_1_progress_tiles_change_food_and_income(tile, territories, food, cubes, gold, resources):
    s = new(2)
    s.players[W].progress = [tile]
    s.players[W].territories = list(territories)
    assert food_change(COMP, s, W) == food
    assert income_of(COMP, s, W) == {"gold": gold, "resources": resources, "cubes": cubes}


def test_6_1_vp_tiles_score_in_the_vp_phase():
    s = new(2)
    s.cubes["anatolia"] = [2, 1]
    s.cubes["sw-asia"] = [1, 1]
    s.players[W].progress = ["religion"]
    assert vp_of(COMP, s, W) == 2 + 1 + 2 * 1  # Anatolia control, SW Asia shared (3 // 2), 2 regions ruled


def test_6_1_banking_swaps_a_disc_for_two_gold():
    s = new(2)
    s.players[W].progress = ["banking"]
    s = restart(s, [W, R])
    s = act(s, "use banking")
    assert (s.players[W].resources, s.players[W].gold) == (1, 7)


def test_6_1_navigation_opens_the_overseas_areas_for_everyone():
    s = new(3)
    s.turn = 3
    s.offer_progress = ["navigation"]
    s = restart(s, [W, R, B])
    assert not s.navigation_taken
    s = act(s, "take progress navigation")
    assert s.navigation_taken


def test_horse_riding_adds_a_region_to_every_empire_tile():
    s = new(4)
    s.players[W].progress = ["horse-riding"]
    s = restart(s, [W, R, B, G])
    s = act(s, "take empire 2 0-1", "place 1 sw-europe", "place 1 nw-africa", "place 1 se-europe")
    assert s.cubes["se-europe"][W] == 1  # a third region with a "2" tile
    assert {a.split()[2] for a in legal(s) if a.startswith("place")} == {"sw-europe", "nw-africa", "se-europe"}


def test_mercenaries_one_region_beyond_adjacency():
    s = new(4)
    s.turn = 3
    s.players[W].progress = ["mercenaries"]
    s.cubes["sw-europe"] = [2, 0, 0, 0]
    s = restart(s, [W, R, B, G])
    s = act(s, "take empire 4 1-1")
    s = act(s, "place 1 sw-asia")  # far from SW Europe
    assert "near-east" not in {a.split()[2] for a in legal(s) if a.startswith("place")}


def test_6_4_5_differing_battle_rows_are_named(tmp_path, monkeypatch):
    """An owner's corrected empires.toml whose Era III tile has two different battle rows."""
    root = tmp_path / "rise-of-empires"
    root.mkdir()
    shipped = Path(roe_data.__file__).parent / "data" / "empires.toml"
    text = shipped.read_text().replace(
        'tile = "e4"\nside = 2\nnumber = 3\nwater = false\nbattle_rows = [[0, 1], [0, 1]]',
        'tile = "e4"\nside = 2\nnumber = 3\nwater = false\nbattle_rows = [[0, 1], [1, 3]]',
    )
    assert "[[0, 1], [1, 3]]" in text
    (root / "empires.toml").write_text(text)
    monkeypatch.setenv("EPOCHS_DATA_DIR", str(tmp_path))
    s = new(4)
    s.turn = 5
    s.cubes["anatolia"] = [3, 3, 0, 0]
    s = restart(s, [W, R, B, G])
    s = act(s, "take empire 3 0-1 1-3")
    assert [a for a in legal(s) if a.startswith("battle")] == ["battle anatolia red row 1", "battle anatolia red row 2"]
    s = act(s, "battle anatolia red row 2")
    assert s.cubes["anatolia"] == [2, 0, 0, 0]


def test_11_0_dropping_diplomacy_ends_the_alliance():
    s = new(4)
    s.turn = 4
    s.rows = {r: [-1] * 8 for r in s.rows}
    s.players[W].progress = ["diplomacy"]
    s.players[W].ally = R
    s = restart(s, [W, R, B, G])
    assert s.phase == "era end"
    s = act(s, "done")
    assert s.players[W].ally == -1 and s.players[W].progress == []


def test_law_5_views_hide_the_face_down_stacks_only():
    s = new(3)
    public = GAME.view(s, None)
    text = repr(public)
    assert "legal" not in public and public["tiles_left"] == {"progress": 40, "territory": 30}
    hidden = [t for t in s.progress_deck[:8] if t not in s.offer_progress]
    assert all(f"'{t}'" not in text for t in hidden) or not hidden
    mine = GAME.view(s, actor(s))
    assert mine["legal"] == legal(s) and GAME.view(s, (actor(s) + 1) % 3)["legal"] == []


def test_law_1_refusals_say_why_and_change_nothing():
    s = new(2)
    other = 1 - actor(s)
    with pytest.raises(IllegalAction, match="It is not .*'s turn; waiting for"):
        GAME.apply(s, other, legal(s)[0])
    with pytest.raises(IllegalAction, match="not an action of this game"):
        GAME.apply(s, actor(s), "fly to the moon")
    with pytest.raises(IllegalAction, match="not legal now"):
        GAME.apply(s, actor(s), "take progress printing")


def test_law_4_a_half_finished_move_survives_dumps_and_loads():
    s = new(4)
    s = restart(s, [W, R, B, G])
    s = act(s, "take empire 2 water 1-1", "place 1 mediterranean")
    again = GAME.loads(GAME.dumps(s))
    assert GAME.dumps(again) == GAME.dumps(s) and legal(again) == legal(s)
    assert act(again, "done") is not None


def test_colours_option_accepts_text():
    s = GAME.setup(["a", "b"], 1, {"colours": "Yellow, blue"})
    assert [p.colour for p in s.players] == ["yellow", "blue"]


def test_2_6_haven_needs_a_resource_disc_in_the_bank():
    """2.6: 40 resource discs; Haven's 1 gold -> 1 disc swap is only offered while the bank has one."""
    s = new(2)
    s.players[W].progress = ["haven"]
    s.players[R].resources = 38  # with W's 2, all 40 discs are held
    s = restart(s, [W, R])
    assert "use haven" not in legal(s)
    s.players[R].resources = 37
    s = restart(s, [W, R])
    assert "use haven" in legal(s)


def test_law_1_refusals_name_the_rule_that_stands_in_the_way():
    s = new(4)
    s = restart(s, [W, R, B, G])
    s.offer_progress = ["writing", "printing"]
    s.players[W].progress = ["writing"]
    s.players[W].gold = 1
    assert "You already hold Writing: no duplicate" in refuses(s, "take progress writing")
    s.turn = 3
    s.offer_progress = ["agriculture"]
    s.players[W].gold = 0
    assert "Agriculture is an Era I tile: it costs 1 gold now" in refuses(s, "take progress agriculture")
    s.turn = 1
    assert "Rome costs 4 gold (you have 0)" in refuses(s, "take city rome")
    assert "The 7 for 6 VP box is not open in Era I" in refuses(s, "trade 7 for 6 vp")
    assert "In an A turn you place a disc" in refuses(s, "remove progress 1")
    s.players[W].pool = 0
    assert "You have no cube in your pool or on the map" in refuses(s, "take empire 2 0-1")
    assert "Legal now:" in refuses(s, "take empire 2 0-1")


def test_law_1_placement_and_battle_refusals_cite_6_4():
    s = new(4)
    s.cubes["sw-europe"] = [3, 0, 1, 0]
    s.cubes["sw-asia"] = [0, 0, 2, 0]
    s = restart(s, [W, R, B, G])
    s = act(s, "take empire 2 0-1")
    assert "Only an empire tile with water" in refuses(s, "place 1 mediterranean")
    assert "Russia is an Era III region (6.4.1)" in refuses(s, "place 1 russia")
    assert "You have 5 cubes in your pool" in refuses(s, "place 9 nw-africa")
    assert "SW Asia is not in or next to a region that held your cubes" in refuses(s, "place 1 sw-asia")
    assert "You have no cubes in SW Asia" in refuses(s, "battle sw-asia blue")


def test_6_1_free_actions_at_every_step_of_the_turn_but_a_payment():
    s = new(4)
    s.players[W].progress = ["haven"]
    s = restart(s, [W, R, B, G])
    s = act(s, "take empire 2 0-1")
    assert "use haven" in legal(s)  # placing cubes: a step of the turn
    s = new(4)
    s.turn = 2
    s.rows = {r: [-1] * 8 for r in s.rows}
    s.rows["city"][:2] = [W, R]
    s.players[W].progress = ["haven"]
    s = restart(s, [W, R, B, G])
    s = act(s, "remove city 1")
    assert s.stack.top.kind == "pay" and "use haven" not in legal(s)
    assert "finish this one first (6.1)" in refuses(s, "use haven")


def test_law_4_a_game_stored_mid_step_by_the_earlier_flow_goes_on():
    """Snapshots of the earlier flows load into today's steps: the `after` step and the one-good-at-a-time
    payment of the first flow, and issue 12's flow without `after` and without part payments."""
    import json

    s = new(4)
    s.turn = 2
    s.rows = {r: [-1] * 8 for r in s.rows}
    s.rows["city"][:3] = [W, R, B]
    s = restart(s, [W, R, B, G])
    s = act(s, "remove city 1")  # idle: a payment of 2 follows
    old = json.loads(GAME.dumps(s))
    # The first flow: `after` pushed with the action (as today), the payment one good at a time.
    assert [d["kind"] for d in old["stack"]["items"]][-3:] == ["end-action", "after", "pay"]
    old["stack"]["items"][-1] = {"kind": "pay", "seat": W, "data": {"remaining": 1}}
    again = GAME.loads(json.dumps(old))
    assert [d.kind for d in again.stack.items][-3:] == ["end-action", "after", "pay"]
    assert legal(again) == ["pay 1 food", "pay 1 gold", "pay 1 cube", "pay 1 resource"]
    assert actor(act(again, "pay 1 food")) == R
    # Stored by the flow of issue 12: no `after` step, a payment with no part paid. White holds Haven:
    # once the disc is paid for, Haven is offered after the action.
    s.players[W].progress = ("haven",)
    old = json.loads(GAME.dumps(s))
    assert [d["kind"] for d in old["stack"]["items"]][-3:] == ["end-action", "after", "pay"]
    del old["stack"]["items"][-1]["data"]["paid"]
    del old["stack"]["items"][-2]
    again = GAME.loads(json.dumps(old))
    assert [d.kind for d in again.stack.items][-3:] == ["end-action", "after", "pay"]
    assert again.stack.top.data["paid"] == [0, 0, 0, 0, 0]
    again = act(again, "pay 2 food")
    assert actor(again) == W and legal(again) == ["done", "use haven"]
