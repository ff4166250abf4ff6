"""Component data (rulebook 1.1-1.5, Terrain Chart, Wonders, civilization list)."""

from __future__ import annotations

import shutil

import pytest

from engine.core import DataError, set_data_dir
from engine.cradle import data as cradle_data
from engine.cradle.data import components

C = components()


def test_data_named_facts():
    """The rulebook's own facts: 5.4 example, the Thrace illustration, 6.2 example, 5.3 example."""
    assert {"uruk", "ur"} <= C.adjacent["sumer"]
    assert {"wilusha", "chalybes"} <= C.adjacent["thrace"]
    assert C.civs["1-2"].name == "Elam" and C.civs["1-2"].bonus_area == "ur"
    kush = next(c for c in C.civs.values() if c.name == "Kush")
    assert kush.start_area == "nubia"


def test_1_1_nine_regions_land_areas_and_seas():
    assert len(C.regions) == 9
    assert len(C.areas) == 55
    assert sum(len(v) for v in C.region_areas.values()) == 55
    colonization = {s.name for s in C.seas.values() if s.colonization}
    assert colonization == {"Aegean Sea", "Ionian Sea", "Egyptian Sea", "Phoenician Sea"}


def test_1_1_map_is_connected_and_symmetric():
    seen, todo = {"sumer"}, ["sumer"]
    while todo:
        for b in C.adjacent[todo.pop()]:
            if b not in seen:
                seen.add(b)
                todo.append(b)
    assert seen == set(C.areas)
    for a, near in C.adjacent.items():
        for b in near:
            assert a in C.adjacent[b]


def test_1_2_thirty_six_cards_six_per_epoch_in_arrival_order():
    assert sum(len(v) for v in C.cards_of_epoch.values()) == 36
    for epoch, cards in C.cards_of_epoch.items():
        assert cards == [f"{epoch}-{i}" for i in range(1, 7)]
    assert C.civs_of_card["3-4"] == ["3-4t", "3-4a"]


def test_1_2_sourced_civilizations_as_printed():
    printed = {
        "1-1": ("Sumer", "sumer", 9, None),
        "1-2": ("Elam", "elam", 5, "ur"),
        "1-3": ("Old Kingdom of Egypt", "zoan", 5, None),
        "1-4": ("Akkadian Empire", "malgium", 12, None),
        "1-5": ("Guti", "south-zagros", 7, "ur"),
    }
    for cid, (name, start, armies, bonus) in printed.items():
        c = C.civs[cid]
        assert (c.name, c.start_area, c.armies, c.bonus_area) == (name, start, armies, bonus)
    assert "wonder" in C.civs["1-3"].traits  # the sample card's icon


def test_1_4_city_cards_for_each_epoch():
    for epoch in range(1, 7):
        assert any(c.epoch == epoch for c in C.cities.values())


def test_terrain_chart_and_wonders_as_printed():
    assert {t: C.terrain[t].stacking for t in C.terrain} == {"plains": 3, "rough": 2, "mountain": 1, "desert": 1}
    assert [w.name for w in C.wonders] == [
        "Statue of Zeus",
        "Great Pyramid",
        "Tomb of Mausolis",
        "Temple of Artemis",
        "Hanging Gardens",
        "Colossus of Rhodes",
        "Lighthouse of Alexandria",
    ]


def test_7_3_region_rows_as_printed():
    printed = {
        "aegean-islands": (1, 2, 3),
        "anatolia": (1, 5, 9),
        "arabian-desert": (0, 0, 1),
        "caucasus": (1, 3, 5),
        "egypt": (1, 2, 4),
        "greece": (1, 4, 7),
    }
    for rid, row in printed.items():
        r = C.regions[rid]
        assert (r.presence, r.control, r.domination) == row
        assert r.source == "rulebook"


def test_every_entry_says_where_it_comes_from():
    for group in (C.regions, C.areas, C.seas, C.civs, C.cities, C.terrain):
        for entry in group.values():
            assert entry.source in ("rulebook", "published", "reconstructed")
    assert C.areas["sumer"].source == "reconstructed"  # the name is printed, the terrain is not


def test_data_errors_name_file_and_field(tmp_path):
    folder = tmp_path / "cradle"
    folder.mkdir()
    src = cradle_data.HERE / "data" / "map.toml"
    text = src.read_text().replace('terrain = "plains"', 'terrain = "swamp"', 1)
    (folder / "map.toml").write_text(text)
    set_data_dir(tmp_path)
    cradle_data.components.cache_clear()
    try:
        with pytest.raises(DataError, match="map.toml.*terrain 'swamp'"):
            cradle_data.components()
    finally:
        set_data_dir(None)
        cradle_data.components.cache_clear()
        cradle_data.components()
    shutil.rmtree(folder)


def test_data_errors_name_the_owners_cities_file(tmp_path):
    """A City in an unknown Area is reported against the file actually read (the owner's), not the shipped one."""
    folder = tmp_path / "cradle"
    folder.mkdir()
    text = (cradle_data.HERE / "data" / "cities.toml").read_text().replace('area = "ur"', 'area = "atlantis"', 1)
    (folder / "cities.toml").write_text(text)
    set_data_dir(tmp_path)
    cradle_data.components.cache_clear()
    try:
        with pytest.raises(DataError) as refused:
            cradle_data.components()
        assert str(refused.value) == f"{folder / 'cities.toml'}: ur: unknown area 'atlantis'"
    finally:
        set_data_dir(None)
        cradle_data.components.cache_clear()
        cradle_data.components()


def test_1_3_armies_example_middle_assyria_and_medes():
    """1.3: Middle Assyria uses 5 Epoch III Armies; the Medes 12 Epoch VI Armies."""
    assert (C.civs["3-5"].name, C.civs["3-5"].epoch, C.civs["3-5"].armies) == ("Middle Assyria", 3, 5)
    medes = next(c for c in C.civs.values() if c.name == "Medes")
    assert (medes.epoch, medes.armies) == (6, 12)


def test_1_2_sample_card_old_kingdom_of_egypt():
    c = C.civs["1-3"]
    assert (c.epoch, c.order, c.start_area, c.armies) == (1, 3, "zoan", 5)


def test_area_names_read_as_their_action_words():
    """`place South Zagros` can be matched to `place south-zagros`: every Area's id is the slug of its
    printed name, and no name starts with a number (so `place 2 south-zagros` stays unambiguous)."""
    from engine.core import slug

    for area in C.areas.values():
        assert area.id == slug(area.name), area
        assert not area.name[0].isdigit(), area
