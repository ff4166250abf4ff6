"""The real bot (service + SQLite storage + discord.py client) wired to the emulator.

`Harness.start()` builds the whole stack as production does — `Service` over the
SQLite storage, `bot.discord.create_bot` — logs in against the loopback Discord
and waits for READY; `restart()` closes the client and the database and starts a
fresh process-like stack on the same file. A settable clock drives reminders.
"""

from __future__ import annotations

import asyncio
import io
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.discord import create_bot
from bot.service import Service, Settings
from tests.discord.emulator import DiscordEmulator, Interaction, User, components

TOKEN = "emulated.bot-token.SECRET-0123456789"


class Clock:
    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@dataclass
class Picture:
    png: bytes
    alt: str


def board_renderer(
    game_id: str, view: dict, *, seat: int | None = None, part: str | None = None, highlight: Any = ()
) -> Any:
    """The project's renderer when it draws this game, else a small honest PNG with alt text."""
    try:
        import renderers

        return renderers.render(game_id, view, seat, part, highlight)
    except (KeyError, ImportError, NotImplementedError, AttributeError):
        pass
    from PIL import Image as PILImage
    from PIL import ImageDraw

    image = PILImage.new("RGB", (320, 80), "white")
    label = f"{view.get('title', game_id)} round {view.get('round', '?')} phase {view.get('phase', '?')}"
    ImageDraw.Draw(image).text((8, 30), label, fill="black")
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    return Picture(buffer.getvalue(), f"Board: {label}.")


def open_storage(path: Path) -> Any:
    from bot.storage import open_storage as open_sqlite

    return open_sqlite(path)


class Harness:
    """`renderer`: how the service draws (default `board_renderer`, on a thread); None with
    `render_workers=N` draws as production does, in N worker processes (the benchmark)."""

    def __init__(
        self,
        emu: DiscordEmulator,
        db: Path,
        *,
        dev_guild: bool = True,
        images: bool = True,
        renderer: Any = board_renderer,
        **settings: Any,
    ) -> None:
        self.emu = emu
        self.db = db
        self.clock = Clock()
        self.dev_guild = dev_guild
        self.images = images
        self.renderer = renderer
        settings.setdefault("render_workers", 0)  # no processes to start in every test
        self.settings = settings
        self.bot: Any = None
        self.service: Service | None = None
        self.storage: Any = None
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        self.storage = open_storage(self.db)
        await self.storage.open()
        self.service = Service(
            self.storage, clock=self.clock, settings=Settings(images=self.images), renderer=self.renderer
        )
        config = {
            "token": TOKEN,
            "guild_ready_timeout": 0.05,
            "dispatch_poll": 0.2,
            "retry_base": 0.1,
            "dev_guild": self.emu.guild_id if self.dev_guild else None,
            **self.settings,
        }
        self.bot = create_bot(config, self.service)
        await self.bot.login(TOKEN)
        self._task = asyncio.create_task(self.bot.connect(reconnect=True))
        await asyncio.wait_for(self.bot.wait_until_ready(), 10)

    async def stop(self) -> None:
        if self.bot is not None:
            await self.bot.close()
        if self._task is not None:
            await asyncio.gather(self._task, return_exceptions=True)
        if self.service is not None:
            await self.service.close_bots()  # the bots' thinking processes go with the bot
        if self.storage is not None:
            await self.storage.close()
        self.bot = self._task = self.storage = None

    async def restart(self) -> None:
        await self.stop()
        await self.start()

    # ----- acting as users ------------------------------------------------------------
    async def do(
        self, user: User, name: str, options: dict[str, Any] | None = None, *, channel: int = 1
    ) -> Interaction:
        """A slash command, waited for until its reply is complete."""
        inter = await self.emu.finished(await self.emu.slash(user, channel, name, options))
        await self.settle()
        return inter

    async def settle(self) -> None:
        """Let the bot finish what it does after the reply (public post, DMs)."""
        for _ in range(3):
            await asyncio.sleep(0.002)

    async def suggest(self, user: User, typed: str, *, channel: int = 1) -> list[str]:
        inter = await self.emu.answered(await self.emu.autocomplete(user, channel, "play", {"action": typed}, "action"))
        return [c["value"] for c in inter.choices]

    async def press_turn(self, user: User, message: dict) -> Interaction:
        button = next(c for c in components(message) if c.get("custom_id", "").startswith("ep:turn:"))
        inter = await self.emu.finished(await self.emu.press(user, message, button["custom_id"]))
        await self.settle()
        return inter

    async def pick(self, user: User, menu: dict, action: str) -> Interaction:
        """Choose `action` in an ephemeral menu (a button or a select option)."""
        for comp in components(menu):
            cid = comp.get("custom_id", "")
            if comp.get("type") == 2 and cid.endswith(f":{action}"):
                inter = await self.emu.press(user, menu, cid)
                break
            if comp.get("type") == 3 and any(o["value"] == action for o in comp.get("options", [])):
                inter = await self.emu.select(user, menu, cid, [action])
                break
        else:
            raise AssertionError(f"{action!r} is not in the menu")
        await self.emu.finished(inter)
        await self.settle()
        return inter

    async def table(self, channel: int = 1) -> Any:
        """The channel's table: the open one, else the last one seen there (finished)."""
        seen = self.__dict__.setdefault("_tables", {})
        rec = await self.storage.open_table(channel)
        if rec is not None:
            seen[channel] = rec.id
            return rec
        return await self.storage.table(seen[channel]) if channel in seen else None
