"""`[clocks]` in the configuration (issue 27 §1-§2): read, checked, and the example's values
the defaults."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import ConfigError, load_config
from bot.service import Settings

ROOT = Path(__file__).resolve().parents[2]
DAY = 86400.0


def config(tmp_path, text: str):
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    return load_config(path, env={})


def test_1_clocks_are_off_unless_the_server_sets_a_default(tmp_path):
    plain = config(tmp_path, "")
    assert (plain.clock_bank, plain.clock_bonus, plain.clock_cap, plain.away_days_per_year) == (0.0, DAY, 0.0, 21.0)
    example = load_config(ROOT / "config.example.toml", env={})
    assert (example.clock_bank, example.clock_bonus, example.clock_cap, example.away_days_per_year) == (
        0.0,
        DAY,
        0.0,
        21.0,
    )


def test_1_a_default_clock_with_its_bonus_cap_and_days_away_reaches_the_service(tmp_path):
    given = config(tmp_path, '[clocks]\ndefault = "3d"\nbonus = "12h"\ncap = "5d"\naway_days_per_year = 10\n')
    settings = Settings.from_config(given)
    assert (settings.clock_bank, settings.clock_bonus, settings.clock_cap, settings.away_days) == (
        3 * DAY,
        DAY / 2,
        5 * DAY,
        10.0,
    )
    assert config(tmp_path, '[clocks]\ndefault = "off"\n').clock_bank == 0.0


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ('default = "3"', "clocks.default must be a time with its unit from 1h to 60d"),
        ('default = "30m"', "from 1h"),
        ('default = "61d"', "to 60d"),
        ('bonus = "soon"', "clocks.bonus must be a time with its unit"),
        ('default = "3d"\ncap = "1d"', "clocks.cap must be at least the bank"),
        ("away_days_per_year = -1", "clocks.away_days_per_year"),
    ],
)
def test_a_clocks_setting_that_cannot_be_used_says_what_is_allowed(tmp_path, text, says):
    with pytest.raises(ConfigError, match=says):
        config(tmp_path, f"[clocks]\n{text}\n")
