"""A sharded bot (issue 16 §2): `[discord] shard_count`/`shard_ids` make the client an
AutoShardedBot running those shards, and its dispatcher delivers only their guilds'
reminders and notices."""

from __future__ import annotations

from bot.config import load_config
from bot.discord import DiscordSettings
from bot.service import HOUR
from bot.storage import Shards, shard_of
from tests.discord.harness import Harness
from tests.discord.test_play import open_game


def reminders(emu) -> list[dict]:
    return [m for m in emu.public_messages(1) if "Reminder" in m["text"]]


async def test_a_bot_delivers_only_the_reminders_of_its_own_shards(emu, tmp_path):
    db = tmp_path / "epochs.sqlite"
    ours = shard_of(emu.guild_id, 2)
    home = Harness(emu, db, shard_count=2, shard_ids=[ours])
    await home.start()
    assert home.bot.shard_count == 2 and sorted(home.bot.shards) == [ours]
    assert home.bot.dispatcher.claim.shards == Shards(2, frozenset({ours}))
    await open_game(home, emu, 1001, 1002)
    clock = home.clock
    await home.stop()

    elsewhere = Harness(emu, db, shard_count=2, shard_ids=[1 - ours])  # the other shard's process
    elsewhere.clock = clock
    await elsewhere.start()
    try:
        clock.advance(13 * HOUR)
        await elsewhere.bot.dispatcher.drain()
        await elsewhere.settle()
        assert reminders(emu) == []  # not its guild: it leaves the reminder alone
        assert len(await elsewhere.storage.due_reminders(clock.now)) == 1
    finally:
        await elsewhere.stop()

    home = Harness(emu, db, shard_count=2, shard_ids=[ours])
    home.clock = clock
    await home.start()
    try:
        await emu.wait_for(lambda: reminders(emu))
        await home.bot.dispatcher.drain()
        await home.settle()
        assert len(reminders(emu)) == 1 and "Reminder 1" in reminders(emu)[0]["text"]
    finally:
        await home.stop()


async def test_without_shard_settings_one_process_runs_every_shard_and_claims_every_guild(harness):
    assert harness.bot.shard_ids is None  # AutoShardedBot: as many shards as Discord recommends
    assert harness.bot.dispatcher.claim.shards is None and harness.bot.dispatcher.claim.owner


def test_shard_settings_come_from_the_config_file_and_the_environment(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text("[discord]\nshard_count = 4\nshard_ids = [3, 1]\nclaim_lease = 90\n")
    config = load_config(path, env={})
    settings = DiscordSettings.from_config(config)
    assert (settings.shard_count, settings.shard_ids, settings.claim_lease) == (4, [1, 3], 90.0)
    assert settings.shards == Shards(4, frozenset({1, 3}))
    env = DiscordSettings.from_config(load_config(path, env={"EPOCHS_SHARD_IDS": "0,2"}))
    assert env.shard_ids == [0, 2]


def test_impossible_shard_settings_are_refused_naming_what_is_allowed(tmp_path):
    import pytest

    from bot.config import ConfigError

    path = tmp_path / "config.toml"
    for text, message in (
        ("shard_ids = [0]", "needs discord.shard_count"),
        ("shard_count = 2\nshard_ids = [2]", "from 0 to 1"),
        ("shard_count = 2\nshard_ids = [1, 1]", "different numbers"),
        ("shard_count = 0", "shard_count must be a number >= 1"),
        ("shard_count = 2\nshard_ids = 1", "a list of shard numbers"),
        ("claim_lease = 30", "more than twice discord.dispatch_poll"),
    ):
        path.write_text(f"[discord]\n{text}\n")
        with pytest.raises(ConfigError, match=message):
            load_config(path, env={})
    path.write_text("[discord]\nshard_count = 2\n")
    with pytest.raises(ConfigError, match="EPOCHS_SHARD_IDS"):
        load_config(path, env={"EPOCHS_SHARD_IDS": "one"})
