"""The discord.py adapter: slash commands, autocomplete, buttons, mentions, reminders.

Thin by design (shared/DESIGN.md): it translates Discord interactions into service
commands and the service's plain `Reply` objects into Discord messages; the
service decides everything else. Discord types never leave this package.

Entry points for `bot/__main__.py`:

- `create_bot(config, service) -> EpochsBot` — build the client around an opened
  service (inside a running event loop);
- `await serve(config, service)` — log in, connect and run until closed;
- `run(config, make_service=None)` — the blocking convenience: `asyncio.run` of
  `serve` with the service built by `await make_service()` inside the loop (an
  aiosqlite connection must be opened in the loop that uses it); without a
  factory, `default_service(config)` opens `config.database` and applies the
  reminder settings of `bot.config.Config`.

`config` may be an object or a dict; see `DiscordSettings.from_config` for the
keys read (token, dev_guild, ...), also inside a `discord` section.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord

from .client import DiscordSettings, EpochsBot, TokenFilter

if TYPE_CHECKING:
    from ..service import Service

log = logging.getLogger(__name__)

__all__ = ["DiscordSettings", "EpochsBot", "create_bot", "default_service", "run", "serve"]


def create_bot(config: Any, service: Any) -> EpochsBot:
    settings = config if isinstance(config, DiscordSettings) else DiscordSettings.from_config(config)
    return EpochsBot(settings, service)


def _guard_token(token: str) -> None:
    token_filter = TokenFilter(token)
    for name in ("", "discord", "bot"):
        logging.getLogger(name).addFilter(token_filter)
    for handler in logging.getLogger().handlers:
        handler.addFilter(token_filter)


async def serve(config: Any, service: Any) -> None:
    """Run the bot until it is closed (Ctrl-C or `bot.close()`)."""
    bot = create_bot(config, service)
    token = bot.settings.token
    if not token:
        raise ValueError("no Discord token configured (set DISCORD_TOKEN or the config's token)")
    _guard_token(token)
    async with bot:
        await bot.start(token)


async def default_service(config: Any) -> Service:
    """The SQLite-backed service described by a `bot.config.Config` (opened)."""
    from ..service import Service, Settings
    from ..storage import open_storage

    storage = open_storage(getattr(config, "database", "epochs.sqlite"))
    await storage.open()
    return Service(storage, settings=Settings.from_config(config))


def run(config: Any, make_service: Callable[[], Awaitable[Service]] | None = None) -> None:
    """Blocking: build the service inside the event loop, then serve until stopped."""

    async def main() -> None:
        service = await (make_service() if make_service is not None else default_service(config))
        try:
            await serve(config, service)
        finally:
            await service.close()  # it closes its storage

    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        log.info("stopped")
    except discord.LoginFailure:
        log.error("Discord refused the bot token: check DISCORD_TOKEN (or [discord] token in the config)")
        raise SystemExit(2) from None
