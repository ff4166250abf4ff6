"""engine/core/choices.py: a detail keeps what decides the choice (issue 49, point 3)."""

from __future__ import annotations

from engine.core import DETAIL_MAX, details, essential
from engine.core.choices import clip


def test_details_joins_the_non_empty_parts_in_their_order() -> None:
    assert details("4 gold", "", "2 VP") == "4 gold · 2 VP"
    assert details("", essential("")) == ""


def test_issue_49_an_essential_part_stays_when_the_nice_parts_do_not_fit() -> None:
    nice = "a long description of what the tile does " * 2  # 83 characters
    cover = essential("covers Darius I")
    assert details("3 coins", nice, cover) == "3 coins · covers Darius I"  # the old cut kept the nice part
    assert details("3 coins", "2 VP", nice, cover) == "3 coins · 2 VP · covers Darius I"


def test_issue_49_nice_parts_go_whole_most_important_first_and_the_order_is_kept() -> None:
    first, second, third = "a" * 45, "b" * 45, "c" * 10
    out = details(first, second, third, essential("costs 4"))
    assert len(out) <= DETAIL_MAX
    assert out == f"{first} · {third} · costs 4"  # the second does not fit whole: left out, never cut


def test_issue_49_essential_parts_too_long_together_are_cut_with_an_ellipsis() -> None:
    long = essential("x " * 60)
    assert details(long, "nice") == clip(" ".join(long.split()))
    assert details(long).endswith("…")


def test_details_without_essential_parts_cuts_only_an_overlong_first_part() -> None:
    long = "word " * 30
    assert details(long, "2 VP") == clip(long)
    assert details("2 VP", long, "3 gold") == "2 VP · 3 gold"
