"""6.4 Empire Tiles: placement, eras, control, the Mediterranean, the New World and Far East, battles."""

from __future__ import annotations

import itertools

import pytest

from engine.rise_of_empires.board import region_income, region_vp, standings

from .helpers import COMP, act, actor, legal, new, refuses, restart

W, R, B, G, Y = range(5)


def empire_turn(tile_side_era=1, n=4, cubes=None, pool=5, turn=1, players=None):
    s = new(n)
    s.turn = turn
    s.empire_track = list(COMP.empire_tiles)
    s.rows = {r: [-1] * 8 for r in s.rows}
    for region, counts in (cubes or {}).items():
        s.cubes[region] = list(counts)
    s.players[W].pool = pool
    return restart(s, list(range(n)))


def places(s):
    return sorted({a.split(" ")[2] for a in legal(s) if a.startswith("place")})


def test_6_4_first_placement_anywhere_then_adjacent_regions():
    """6.4 example: Michael's "2" tile without water: NW Africa and NE Africa, one cube kept back."""
    s = empire_turn()
    s = act(s, "take empire 2 0-1")
    assert places(s) == sorted(r.id for r in COMP.regions.values() if r.era == 1 and not r.sea)
    s = act(s, "place 2 nw-africa")
    assert places(s) == sorted({"nw-africa", *COMP.adjacent["nw-africa"]} - {"mediterranean", "central-africa"})
    s = act(s, "place 2 ne-africa")
    assert places(s) == ["ne-africa", "nw-africa"]  # the tile's 2 regions are used
    s = act(s, "done")
    assert s.players[W].pool == 1 and s.cubes["ne-africa"][W] == 2


def test_6_4_later_placements_only_next_to_regions_held_before():
    """6.4 example: Peter in SW Europe cannot place in both NE Africa and NW Africa."""
    s = empire_turn(cubes={"sw-europe": [3, 0, 0, 0]})
    s = act(s, "take empire 2 0-1", "place 1 nw-africa")
    assert "ne-africa" not in places(s)
    assert "not legal now" in refuses(s, "place 1 ne-africa")


def test_6_4_cubes_come_from_the_pool_and_zero_is_allowed():
    s = empire_turn(pool=0, cubes={"sw-asia": [1, 0, 0, 0]})
    s.players[W].stock = 24
    assert "withdraw" in legal(s)  # may start again with the cubes on the map
    s = act(s, "take empire 2 0-1")
    assert actor(s) == R  # nothing to place, no battle: the action is over at once
    assert s.players[W].empires == ("e4",) and s.players[W].stock == 24


def test_6_4_no_empire_tile_without_any_cube_faq():
    """Mayfair FAQ: cubes are limited; with none in the pool and none on the map the action cannot be performed."""
    s = empire_turn(pool=0)
    assert not any(a.startswith("take empire") for a in legal(s))
    assert "not legal now" in refuses(s, "take empire 2 0-1")
    s = empire_turn(pool=1)
    assert "take empire 2 0-1" in legal(s)


def test_6_4_withdraw_all_cubes_and_start_again():
    s = empire_turn(cubes={"sw-europe": [3, 0, 0, 0], "nw-africa": [1, 0, 0, 0]}, pool=1)
    assert "withdraw" in legal(s)
    s = act(s, "withdraw")
    assert s.players[W].pool == 5 and s.cubes["sw-europe"][W] == 0
    assert "take empire 2 0-1" in legal(s) and "withdraw" not in legal(s)  # the tile comes next
    s = act(s, "take empire 2 0-1")
    assert "sw-asia" in places(s)  # a new empire may start anywhere
    assert "no cubes on the map to withdraw" in refuses(s, "withdraw")
    s = act(s, "place 1 sw-asia")
    assert "chosen instead of `take empire <tile>`" in refuses(s, "withdraw")


def test_6_4_1_only_regions_of_this_or_earlier_eras():
    s = empire_turn()
    s = act(s, "take empire 3 1-1")
    assert all(COMP.regions[r].era == 1 for r in places(s))
    s = empire_turn(turn=3)
    s = act(s, "take empire 4 1-1")  # e6's Era II side
    eras = {COMP.regions[r].era for r in places(s)}
    assert eras == {1, 2} and "russia" not in places(s)
    s = empire_turn(turn=5)
    s = act(s, "take empire 4 1-1")
    assert "russia" in places(s) and "central-africa" in places(s)


def test_6_4_2_control_examples():
    """6.4.2: Michael 2, Dan 1 in NW Africa; Pete and Lin 2 each, Dan 1 in NE Africa."""
    nwa = [0, 0, 2, 1]  # seats: -, -, Michael, Dan
    assert standings(nwa) == ([2], [3])
    assert region_vp(COMP, "nw-africa", nwa) == {2: 2, 3: 1}
    assert region_income(COMP, "nw-africa", nwa) == {2: 2}  # two player cubes
    nea = [2, 2, 0, 1]  # Pete, Lin, -, Dan
    assert region_vp(COMP, "ne-africa", nea) == {0: 1, 1: 1}  # (2 + 1) // 2 each, Dan nothing
    assert region_income(COMP, "ne-africa", nea) == {0: 1, 1: 1}  # one food point each


def test_6_4_2_tie_for_second_shares_second_place():
    counts = [4, 1, 1, 0]
    assert region_vp(COMP, "russia", counts) == {0: 4, 1: 1, 2: 1}  # 2 // 2 each
    assert region_vp(COMP, "sw-europe", counts) == {0: 2, 1: 0, 2: 0}  # 1 // 2 rounds down


def test_6_4_3_the_mediterranean_only_with_water():
    s = empire_turn()
    s = act(s, "take empire 2 0-1")
    assert "mediterranean" not in places(s)
    s = empire_turn()
    s = act(s, "take empire 2 water 1-1")
    assert "mediterranean" in places(s)


def test_6_4_4_navigation_opens_the_new_world_in_era_ii_a():
    s = empire_turn(turn=3, cubes={"sw-europe": [2, 0, 0, 0]})
    s = act(s, "take empire 3 water 1-1")  # e2's Era II/III side
    assert not {"north-america", "china"} & set(places(s))
    s = empire_turn(turn=3, cubes={"sw-europe": [2, 0, 0, 0]})
    s.navigation_taken = True  # anyone took Navigation
    s = act(s, "take empire 3 water 1-1")
    assert {"north-america", "south-america", "china", "japan"} <= set(places(s))
    s = empire_turn(turn=4, cubes={"sw-europe": [2, 0, 0, 0]})
    s.rows["empire"][0] = W
    s = restart(s, [W, R, B, G])
    s = act(s, "take empire 3 water 1-1")
    assert "north-america" in places(s)  # the restriction ends in Era II B


def test_6_4_4_one_overseas_area_per_water_tile():
    """Mayfair FAQ: Europe, North America and South America, but not Europe, North America and China."""
    s = empire_turn(turn=4, cubes={"sw-europe": [2, 0, 0, 0]})
    s.rows["empire"][0] = W
    s = restart(s, [W, R, B, G])
    s = act(s, "take empire 3 water 1-1", "place 1 north-america")
    assert "south-america" in places(s) and "china" not in places(s) and "japan" not in places(s)
    s = act(s, "place 1 south-america")
    # The third region may be in Europe (next to SW Europe), never in the Far East.
    assert places(s) == sorted({"north-america", "south-america", "sw-europe", *COMP.adjacent["sw-europe"]})
    s = act(s, "place 1 se-europe")
    assert places(s) == ["north-america", "se-europe", "south-america"]


def test_6_4_4_non_water_tiles_cannot_enter_overseas():
    s = empire_turn(turn=3, cubes={"sw-europe": [2, 0, 0, 0]})
    s.navigation_taken = True
    s = act(s, "take empire 3 0-1 0-1")  # e4's Era II/III side: no water
    assert not {"north-america", "south-america", "china", "japan", "mediterranean"} & set(places(s))


def test_6_4_4_back_to_the_old_world_from_overseas():
    s = empire_turn(turn=4, cubes={"china": [2, 0, 0, 0]})
    s.rows["empire"][0] = W
    s = restart(s, [W, R, B, G])
    s = act(s, "take empire 3 water 1-1")
    old = [r for r in places(s) if COMP.regions[r].area == "old_world"]
    assert "sw-asia" in old and "nw-africa" in old
    s = act(s, "place 1 nw-africa")
    assert not [r for r in places(s) if COMP.regions[r].area == "old_world" and r != "nw-africa"]


def test_6_4_5_battle_example_defender_then_attacker():
    """Dan places 3 cubes in the Med with the "1" water tile; Peter (2 cubes) loses 2, Dan loses 1."""
    s = empire_turn(cubes={"mediterranean": [0, 2, 0, 0]})
    s = act(s, "take empire 1 water 1-2", "place 3 mediterranean")
    assert "battle mediterranean red" in legal(s)  # the battle ends the placement (6.4.5)
    s = act(s, "battle mediterranean red")
    assert s.cubes["mediterranean"] == [2, 0, 0, 0]
    assert s.players[R].stock == 27 and s.players[W].stock == 26


def test_6_4_5_battles_are_optional_and_anywhere_you_have_cubes():
    s = empire_turn(cubes={"sw-asia": [1, 0, 3, 0]})
    s = act(s, "take empire 2 0-2", "place 1 near-east")
    assert [a for a in legal(s) if a.startswith("battle")] == ["battle sw-asia blue"]
    s = act(s, "done")
    assert s.cubes["sw-asia"] == [1, 0, 3, 0] and actor(s) == R


def test_6_4_5_second_battle_only_in_era_iii_in_another_region():
    cubes = {"anatolia": [2, 2, 0, 0], "russia": [2, 0, 2, 0]}
    s = empire_turn(turn=3, cubes=cubes)
    s = act(s, "take empire 2 1-2 1-2", "battle anatolia red")
    assert actor(s) == R  # Era II: one battle, the top row
    s = empire_turn(turn=5, cubes=cubes)
    s = act(s, "take empire 2 1-2 1-2", "battle anatolia red")
    assert legal(s) == ["battle russia blue", "done"]  # not Anatolia again
    s = act(s, "battle russia blue")
    assert s.cubes["russia"] == [1, 0, 0, 0] and actor(s) == R


def test_2_9_allies_cannot_battle_each_other():
    s = empire_turn(cubes={"anatolia": [2, 2, 0, 0], "sw-asia": [1, 0, 1, 0]})
    s.players[R].ally = W
    s = restart(s, [W, R, B, G])
    s = act(s, "take empire 2 0-2")
    assert [a for a in legal(s) if a.startswith("battle")] == ["battle sw-asia blue"]


def test_2_9_diplomacy_places_the_alliance_piece():
    s = empire_turn()
    s.turn = 3
    s.offer_progress = ["diplomacy"]
    s = restart(s, [W, R, B, G])
    s = act(s, "take progress diplomacy")
    assert legal(s) == ["ally red", "ally blue", "ally green"]
    s = act(s, "ally green")
    assert s.players[W].ally == G


def test_law_2_a_new_empire_in_era_iii_lists_under_60_choices():
    s = empire_turn(turn=5, pool=12)
    s = act(s, "take empire 4 water 1-1")
    options = legal(s)
    assert len(places(s)) == 16 and len(options) < 60
    assert "place 12 russia" in options and "place 3 russia" not in options


def _new_empire_water_turn():
    """Era II B, no cubes on the map, the "3 water" tile (e2's Era II/III side) on offer."""
    s = empire_turn(turn=4)
    s.rows["empire"][0] = W
    s = restart(s, [W, R, B, G])
    return act(s, "take empire 3 water 1-1")


@pytest.mark.parametrize(
    "regions",
    [
        ("sw-europe", "north-america", "south-america"),
        ("sw-europe", "nw-africa", "north-america"),
        ("china", "japan", "anatolia"),
    ],
)
def test_6_4_4_new_empire_regions_in_any_order(regions):
    """6.4.4: the overseas area comes "in addition to cubes placed in the European/North African/Near East
    part": a new empire's set of regions is legal in every order (North America first, then SW Europe too)."""
    for order in itertools.permutations(regions):
        s = _new_empire_water_turn()
        for region in order:
            assert region in places(s), (order, region)
            s = act(s, f"place 1 {region}")
        assert sorted(r for r in COMP.regions if s.cubes[r][W]) == sorted(regions)


def test_6_4_4_new_empire_overseas_first_then_old_world_grows_from_its_first_old_world_region():
    s = _new_empire_water_turn()
    s = act(s, "place 1 north-america", "place 1 sw-europe")
    assert "nw-africa" in places(s) and "china" not in places(s)
    msg = refuses(s, "place 1 near-east")
    assert "new empire spreads only next to its first region in the Old World" in msg
    assert "does not border SW Europe" in msg and "North America" not in msg
