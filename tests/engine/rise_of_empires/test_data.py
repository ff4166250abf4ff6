"""2.0-2.5 components as data: every file loads, totals match the rulebook, bad data is refused clearly."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from engine.core import SOURCES, DataError
from engine.rise_of_empires import data as roe_data
from engine.rise_of_empires.data import FILES, components

COMP = components()


def test_every_entry_is_marked_with_its_source():
    entries = [*COMP.regions.values(), *COMP.borders, *COMP.progress.values(), *COMP.cities.values(),
               *COMP.territories.values(), *COMP.empire_sides.values(), *COMP.trade, COMP.rules]
    assert entries and all(e.source in SOURCES for e in entries)
    assert {e.source for e in entries} == set(SOURCES)


def test_2_0_component_totals():
    assert sum(p.copies for p in COMP.progress.values()) == 48
    assert len(COMP.cities) == 36 and sum(c.wonder for c in COMP.cities.values()) == 6
    assert sum(t.copies for t in COMP.territories.values()) == 40
    assert sum(t.copies for t in COMP.territories.values() if t.kind == "town") == 6
    assert len(COMP.empire_tiles) == 8


def test_2_1_map_borders():
    adj = COMP.adjacent
    assert all(b in adj and a in adj[b] for a, bs in adj.items() for b in bs)  # symmetric
    assert "ne-africa" not in adj["sw-europe"]          # 6.4 example
    assert "south-america" not in adj["north-america"]  # 2.1: no common border
    assert COMP.regions["mediterranean"].sea and sum(r.sea for r in COMP.regions.values()) == 1  # 6.4.3
    assert {r.era for r in COMP.regions.values()} == {1, 2, 3}
    assert all(r.income == "none" for r in COMP.regions.values() if r.era == 3)  # 2.1: no symbol in Era III


def test_2_5_3_city_tiles_per_turn_and_wonders_only_in_b_turns():
    for turn, n in enumerate(COMP.rules.cities_per_turn, start=1):
        era, half = (turn + 1) // 2, "AB"[(turn + 1) % 2]
        assert sum(1 for c in COMP.cities.values() if c.era == era and c.half == half) == n
    assert all(c.half == "B" for c in COMP.cities.values() if c.wonder)


def test_bad_data_is_refused_naming_file_entry_and_field(tmp_path: Path, monkeypatch):
    root = tmp_path / "rise-of-empires"
    root.mkdir()
    src = Path(roe_data.__file__).parent / "data"
    text = (src / "progress.toml").read_text().replace('effect = "food_per_turn"', 'effect = "free_lunch"', 1)
    (root / "progress.toml").write_text(text)
    monkeypatch.setenv("EPOCHS_DATA_DIR", str(tmp_path))
    with pytest.raises(DataError, match=r"progress.toml: \[\[progress\]\] #1 \(id = 'agriculture'\): effect must be"):
        components()
    (root / "progress.toml").write_text((src / "progress.toml").read_text().replace("copies = 2", "copies = 3", 1))
    with pytest.raises(DataError, match="Era 1 has 17 progress tiles"):
        components()
    monkeypatch.delenv("EPOCHS_DATA_DIR")
    assert components() is COMP


def test_an_owners_corrected_file_replaces_the_shipped_one(tmp_path: Path, monkeypatch):
    root = tmp_path / "rise-of-empires"
    root.mkdir()
    src = Path(roe_data.__file__).parent / "data"
    for f in FILES:
        shutil.copy(src / f, root / f)
    text = (root / "map.toml").read_text().replace('name = "Japan"', 'name = "India"')
    (root / "map.toml").write_text(text)
    monkeypatch.setenv("EPOCHS_DATA_DIR", str(tmp_path))
    assert components().regions["japan"].name == "India"
