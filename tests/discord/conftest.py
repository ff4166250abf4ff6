"""Fixtures: a started loopback Discord, and the real bot stack connected to it."""

from __future__ import annotations

import pytest

from tests.discord.emulator import MANAGE_CHANNELS, DiscordEmulator
from tests.discord.harness import Harness


@pytest.fixture
async def emu():
    emulator = DiscordEmulator()
    await emulator.start()
    emulator.patch_discord()
    emulator.add_user(1001, "Alice")
    emulator.add_user(1002, "Bob")
    emulator.add_user(1003, "Carol")
    emulator.add_user(1004, "Mod", permissions=MANAGE_CHANNELS | (1 << 11) | (1 << 10))
    yield emulator
    await emulator.stop()


@pytest.fixture
async def harness(emu, tmp_path):
    h = Harness(emu, tmp_path / "epochs.sqlite")
    await h.start()
    yield h
    await h.stop()


@pytest.fixture
async def text_harness(emu, tmp_path):
    """The same stack without board images (long games stay fast; images are tested apart)."""
    h = Harness(emu, tmp_path / "epochs.sqlite", images=False)
    await h.start()
    yield h
    await h.stop()
