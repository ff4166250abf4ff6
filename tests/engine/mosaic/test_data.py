"""Component data (engine/mosaic/data/*.toml): complete, marked, validated, and every goal reachable."""

from __future__ import annotations

import shutil
from collections import Counter
from pathlib import Path

import pytest

from engine.core import DataError, set_data_dir
from engine.mosaic import data as mdata
from engine.mosaic.data import PILLARS, load

D = load()
SHIPPED = Path(mdata.__file__).parent / "data"


def test_every_data_file_entry_has_a_source():
    import tomllib

    for f in SHIPPED.glob("*.toml"):
        doc = tomllib.loads(f.read_text())
        for key, val in doc.items():
            rows = val if isinstance(val, list) else [val]
            for row in rows:
                assert row.get("source") in ("rulebook", "published", "reconstructed"), (f.name, key, row)


def test_component_counts():
    assert len(D.technologies) == 105 and sum(t.starting for t in D.technologies.values()) == 30
    assert Counter(b.type for b in D.builds.values()) == {
        "city": 12,
        "port_city": 6,
        "farm_town": 8,
        "manufactory_town": 9,
        "project": 9,
    }
    assert len(D.population_cards) == 14 and len(D.tax_cards) == 14
    assert len(D.regions) == 7 and len(D.hexes) == 157
    assert Counter(h.kind for h in D.hexes.values()) == {"land": 119, "cache": 28, "port": 10}
    assert sum(c.copies for c in D.caches) == 28
    assert len(D.wonders) == 9 and len(D.golden_ages) == 9 and len(D.governments) == 6
    assert len(D.achievements) == 15 and len(D.leaders) == 9


def test_every_golden_age_reachable_from_technologies_alone():
    per_pillar = Counter(p for t in D.technologies.values() for p in t.provides)
    for g in D.golden_ages.values():
        assert per_pillar[g.pillar] >= g.symbols, g.id


def test_diverse_reachable_with_one_starting_card_per_pillar():
    starting = {t.provides[0] for t in D.technologies.values() if t.starting}
    assert starting == set(PILLARS)


def test_every_technology_playable_in_some_order() -> None:
    have: Counter[str] = Counter()
    left = dict(D.technologies)
    progress = True
    while left and progress:
        progress = False
        for tid, t in list(left.items()):
            if all(have[k] >= v for k, v in t.requires.items()):
                have.update(t.provides)
                del left[tid]
                progress = True
    assert not left


def test_every_government_reachable():
    per_pillar = Counter(p for t in D.technologies.values() for p in t.provides)
    for g in D.governments.values():
        assert all(per_pillar[k] >= v for k, v in g.requires.items())


def test_map_regions_have_caches_ports_and_neighbours():
    for reg in D.regions:
        kinds = Counter(D.hexes[h].kind for h in D.region_hexes[reg])
        assert kinds["cache"] == 4 and kinds["port"] >= 1
    islands = [h for h in D.hexes if not D.neighbours[h]]
    assert islands == ["italia-2"]  # Corsica: the one hex that touches no other


def _load_changed(tmp_path: Path, filename: str, old: str, new: str, count: int = -1) -> mdata.Data:
    """`load()` with the shipped data as an owner's override in which `old` reads `new` in `filename`."""
    over = tmp_path / "mosaic"
    over.mkdir()
    for f in SHIPPED.glob("*.toml"):
        shutil.copy(f, over / f.name)
    text = (over / filename).read_text()
    assert old in text
    (over / filename).write_text(text.replace(old, new, count))
    load.cache_clear()
    set_data_dir(tmp_path)
    try:
        return load()
    finally:
        set_data_dir(None)
        load.cache_clear()


def test_a_broken_override_file_is_refused_with_file_entry_and_field(tmp_path):
    sphinx = 'id = "sphinx"\nname = "Sphinx"\nvp_kind = "per_wonder_in_region"\n'
    with pytest.raises(DataError, match=r"tables.toml.*sphinx.*vp"):
        _load_changed(tmp_path, "tables.toml", sphinx + "vp = 4", sphinx + 'vp = "four"')
    assert load().wonders["sphinx"].vp == 4


def test_setup_cache_tiles_one_for_each_cache_hex(tmp_path):
    """Rulebook, Setup: "place 1 on each hex with the matching symbol": data with more or fewer
    cache tiles than cache hexes is refused at load, not met halfway through a setup."""
    money_5 = 'id = "money-5"\nbenefit = "money"\namount = 5\n'
    with pytest.raises(DataError, match=r"tables.toml: the cache tiles' copies add up to 27, but the map has 28"):
        _load_changed(tmp_path, "tables.toml", money_5 + "copies = 4", money_5 + "copies = 3")


def test_unknown_pillar_in_a_technology_is_refused(tmp_path):
    with pytest.raises(DataError, match="unknown pillar"):
        _load_changed(tmp_path, "technology.toml", 'provides = ["science"]', 'provides = ["magic"]', 1)
