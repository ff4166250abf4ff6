"""`rules [topic]`: the matching section of the shipped rulebook (issue 3 §2)."""

from __future__ import annotations

import pytest

from bot.service import rules


@pytest.mark.parametrize(
    "game_id, topic, heading, words",
    [
        ("rising-cultures", "coin limit", "3) Coin Limit: 7 Coins Max", "Egypt's limit is 5"),
        ("rising-cultures", "province card", "1) Province Card", "province"),
        ("rise-of-empires", "6.4.5", "6.4.5 Battles", "battle"),
        ("rise-of-empires", "7", "7.0 Food", "food"),
        ("rise-of-empires", "trading", "6.5 Trading", "trade"),
        ("cradle", "combat", "5.5 Combat", "The Attacker rolls two dice and keeps the higher number"),
        ("cradle", "5.3", "5.3 Starting a New Civilization", "civilization"),
        ("mosaic", "military", "A military action consists of recruiting new units ...", "5 money"),
    ],
)
def test_a_topic_finds_its_section(game_id, topic, heading, words):
    found = rules.find(game_id, topic)
    assert found is not None and found.heading == heading
    assert words.lower() in found.body.lower()
    assert rules.answer(game_id, topic).startswith(f"**{heading}**")


def test_words_that_match_no_heading_find_the_section_that_uses_them():
    found = rules.find("rising-cultures", "swap cards for coins")
    assert found is not None and "swap" in found.body.lower()


def test_no_topic_lists_the_sections_and_long_sections_are_cut():
    listing = rules.answer("rise-of-empires", "")
    assert "6.4.5 Battles" in listing and len(listing) <= 1900
    assert len(rules.answer("cradle", "5.5", limit=300)) <= 300


def test_nonsense_topic_says_so():
    assert "No rulebook section matches" in rules.answer("rising-cultures", "zzzz qqqq")
    assert "no rulebook" in rules.answer("chess", "anything").lower()
