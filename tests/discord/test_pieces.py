"""The adapter's pure pieces: autocomplete ranking, message shaping, custom ids."""

from __future__ import annotations

from bot.discord import messages
from bot.discord.ranking import MAX_CHOICES, fit, rank

ACTIONS = [
    "take progress mining",
    "take progress masonry",
    "play brewery build",
    "place 2 mediterranean",
    "battle mediterranean red",
    "done",
]


def test_rank_prefers_exact_then_prefix_then_word_prefixes_then_substring():
    assert rank(ACTIONS, "done") == ["done"]
    assert rank(ACTIONS, "take") == ["take progress mining", "take progress masonry"]
    assert rank(ACTIONS, "t p mas") == ["take progress masonry"]
    # "mediterranean" starts no action but is inside two: kept in the service's order
    assert rank(ACTIONS, "mediterranean") == ["place 2 mediterranean", "battle mediterranean red"]
    assert rank(ACTIONS, "PLAY   brewery") == ["play brewery build"]


def test_rank_puts_prefix_before_substring_matches():
    actions = ["remove 1 red", "red 1 remove"]
    assert rank(actions, "red") == ["red 1 remove", "remove 1 red"]


def test_rank_returns_nothing_that_does_not_fit_and_at_most_25():
    assert rank(ACTIONS, "zzz") == []
    assert fit("done", "xyz") is None
    many = [f"place {i} aegean" for i in range(60)]
    assert len(rank(many, "")) == MAX_CHOICES
    assert rank(many, "")[:2] == ["place 0 aegean", "place 1 aegean"]
    assert len(rank(many, "aeg")) == MAX_CHOICES


def test_allowed_mentions_name_only_the_given_users():
    allowed = messages.allowed([5, 7, 5]).to_dict()
    assert allowed["parse"] == []
    assert allowed["users"] == [5, 7]
    assert not allowed.get("replied_user") and "roles" not in allowed
    assert messages.NO_PINGS.to_dict()["parse"] == [] and "users" not in messages.NO_PINGS.to_dict()


def test_mentions_are_put_in_front_once():
    assert messages.with_mentions("Your turn", [3, 4]) == "<@3> <@4>\nYour turn"
    assert messages.with_mentions("<@3> to act", [3]) == "<@3> to act"
    assert messages.with_mentions("", [3]) == "<@3>"


def test_long_text_is_clipped_or_split_within_discords_limit():
    text = "\n".join(f"line {i} " + "x" * 50 for i in range(100))
    assert len(messages.clip(text)) <= messages.LIMIT
    parts = messages.chunks(text)
    assert all(len(p) <= messages.LIMIT for p in parts)
    assert "\n".join(parts) == text
    assert all(len(p) <= 2000 for p in messages.chunks("y" * 4500))


def test_settings_come_from_the_bots_config_and_never_show_the_token():
    from bot.config import Config
    from bot.discord import DiscordSettings

    config = Config(token="abc.def.SECRET", dev_guild=42, dispatch_poll=5.0, discord={"retry_cap": 60})
    settings = DiscordSettings.from_config(config)
    assert (settings.token, settings.dev_guild, settings.poll, settings.retry_cap) == ("abc.def.SECRET", 42, 5.0, 60.0)
    assert "SECRET" not in repr(settings)
    assert DiscordSettings.from_config({"token": "t"}).dev_guild is None


def test_token_filter_blanks_the_token_in_log_lines():
    import logging

    from bot.discord.client import TokenFilter

    record = logging.LogRecord("x", logging.INFO, __file__, 1, "sending %s", ("Bot abc.def.SECRET",), None)
    TokenFilter("abc.def.SECRET").filter(record)
    assert record.getMessage() == "sending Bot [token]"
