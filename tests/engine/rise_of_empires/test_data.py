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
    entries = [
        *COMP.regions.values(),
        *COMP.borders,
        *COMP.progress.values(),
        *COMP.cities.values(),
        *COMP.territories.values(),
        *COMP.empire_sides.values(),
        *COMP.trade,
        COMP.rules,
    ]
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
    assert "ne-africa" not in adj["sw-europe"]  # 6.4 example
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


def test_2_1_scandinavia_and_the_black_sea_are_no_regions_era_i_and_ii_regions_have_a_symbol():
    names = {r.name.lower() for r in COMP.regions.values()}
    assert not {"scandinavia", "black sea"} & names and not {"scandinavia", "black-sea"} & set(COMP.regions)
    assert all(r.income != "none" and r.income_amount > 0 for r in COMP.regions.values() if r.era in (1, 2))


RESEARCH = Path(__file__).resolve().parents[3].parent / "shared" / "research" / "data" / "rise-of-empires.json"


@pytest.mark.skipif(not RESEARCH.exists(), reason="the shared research folder is not checked out here")
def test_the_toml_carries_the_research_dataset_faithfully():
    """Every value of shared/research/data/rise-of-empires.json arrives unchanged in data/*.toml."""
    import json

    d = json.loads(RESEARCH.read_text())
    by_code = {r.code: r for r in COMP.regions.values()}
    for r in d["regions"]:
        m = by_code[r["id"]]
        ((kind, amount),) = (r.get("income") or {"none": 0}).items()
        assert (m.era, m.control_vp, m.second_vp, m.income, m.income_amount, m.sea) == (
            r["era"],
            r["banner"]["control"],
            r["banner"]["second"],
            kind,
            amount,
            r.get("kind") == "sea",
        ), r["id"]
    ids = {r.code: r.id for r in COMP.regions.values()}
    for e in d["adjacency"]:
        assert (ids[e["b"]] in COMP.adjacent[ids[e["a"]]]) == e["adjacent"], e
    progress = {p.name: p for p in COMP.progress.values()}
    for p in d["progress_tiles"]:
        m, eff = progress[p["name"]], p["effect"]
        assert (m.era, m.copies, m.effect, m.free_action, m.red_bottom) == (
            p["era"],
            p["copies"],
            eff["type"],
            p["free_action"],
            p["red_bottom"],
        ), p["name"]
        amount = eff.get("amount", eff.get("count", eff.get("regions")))
        assert amount is None or m.amount == amount, p["name"]
    cities = {c.code: c for c in COMP.cities.values()}
    for c in d["city_tiles"]:
        m, made = cities[c["id"]], c.get("produces", {})
        assert (
            m.era,
            m.half,
            m.wonder,
            m.cost_gold,
            m.upkeep_resources,
            m.upkeep_food,
            m.vp,
            m.cost_resources,
            m.cost_cubes,
            m.produces_gold,
            m.produces_resources,
            m.produces_food,
        ) == (
            c["era"],
            c["half"],
            c["wonder"],
            c["cost_gold"],
            c.get("upkeep_resources", 0),
            c.get("upkeep_food", 0),
            c.get("vp_per_turn", c.get("vp_immediate")),
            c.get("cost_resources", 0),
            c.get("cost_cubes", 0),
            made.get("gold", 0),
            made.get("resources", 0),
            made.get("food", 0),
        ), c["id"]
    for e in d["empire_tiles"]:
        for key, side in (("era1_side", "i"), ("era23_side", "ii")):
            m, x = COMP.empire_sides[f"{e['id'].lower()}-{side}"], e[key]
            rows = [[r["attacker_loses"], r["defender_loses"]] for r in x["battle_rows"]]
            assert (m.number, m.water, [list(r) for r in m.battle_rows]) == (x["number"], x["water"], rows), e["id"]
    for box, t in zip(COMP.trade, d["trade_boxes"], strict=True):
        ((gain, amount),) = t["gain"].items()
        assert (box.discs, box.gain, box.amount, list(box.eras)) == (t["discs"], gain, amount, t["valid_eras"])
