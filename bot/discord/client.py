"""The discord.py client: start-up, command sync, persistent components, the dispatcher.

An `AutoShardedBot`: with `[discord] shard_count` and `shard_ids` set, this process
runs those shards only, and its dispatcher sends only their guilds' reminders and
notices, claimed in the database so no other process sends them too (README,
"Running at scale"); without them, one process runs every shard Discord
recommends.

Follows discord.py's `examples/advanced_startup.py`: everything asynchronous is
set up in `setup_hook` — cogs, the dynamic (persistent) items, the command sync
(to the development guild when one is configured, which is instant, globally
otherwise), and the outbox/reminder dispatcher. Only the `guilds` intent is
used: slash commands and components need no privileged intents.
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import socket
from dataclasses import dataclass, field
from typing import Any, TypedDict

import discord
from discord import app_commands
from discord.ext import commands

from ..storage.base import Claim, Shards
from ..workers import WorkerPool, default_size
from . import messages
from .cog import GameCommands, GamesCommands, PlayCommands
from .controller import Controller
from .courier import Courier
from .dispatcher import Dispatcher
from .link import ServiceLink
from .views import DYNAMIC_ITEMS

log = logging.getLogger(__name__)


def _first(config: Any, *names: str, default: Any = None) -> Any:
    for name in names:
        value = config.get(name) if isinstance(config, dict) else getattr(config, name, None)
        if value not in (None, ""):
            return value
    return default


@dataclass
class DiscordSettings:
    """What the adapter needs from the bot's configuration."""

    token: str = field(default="", repr=False)
    dev_guild: int | None = None
    #: Seconds between outbox/reminder rounds (commands also wake the dispatcher).
    poll: float = 30.0
    retry_base: float = 2.0
    retry_cap: float = 600.0
    #: discord.py waits this long after the last GUILD_CREATE before "ready".
    guild_ready_timeout: float = 2.0
    sync_commands: bool = True
    #: Longest 429 wait (s) discord.py may sleep through; longer ones are retried later.
    max_ratelimit_timeout: float = 30.0
    #: A notice Discord keeps refusing (4xx, not 429) this long is given up (logged).
    give_up_after: float = 86400.0
    #: Processes that draw the boards (bot/workers.py): one per core by default, so
    #: boards are drawn in parallel and never on the event loop's process. 0 draws
    #: in this process on a thread (boards then queue behind one another and slow
    #: the replies to Discord; for tests and tiny machines).
    render_workers: int = field(default_factory=default_size)
    #: Shards in all and the ones this process runs (None: every shard, as Discord recommends).
    shard_count: int | None = None
    shard_ids: list[int] | None = None
    #: Seconds a claimed notice stays this process's without renewal (DECISIONS.md).
    claim_lease: float = 120.0

    @property
    def shards(self) -> Shards | None:
        """The guilds this process serves, for its claims (None: all)."""
        if self.shard_count is None:
            return None
        return Shards(self.shard_count, frozenset(self.shard_ids or range(self.shard_count)))

    @classmethod
    def from_config(cls, config: Any) -> DiscordSettings:
        """Read a config object or dict, tolerant of the usual spellings."""
        discord_section = _first(config, "discord", default=None)
        sources = [s for s in (discord_section, config) if s is not None]

        def pick(*names: str, default: Any = None) -> Any:
            for source in sources:
                value = _first(source, *names)
                if value is not None:
                    return value
            return default

        guild = pick("dev_guild", "development_guild", "dev_guild_id", "development_guild_id", "guild_id")
        return cls(
            token=str(pick("token", "discord_token", default="")),
            dev_guild=int(guild) if guild not in (None, "", 0) else None,
            poll=float(pick("dispatch_poll", "poll", default=30.0)),
            retry_base=float(pick("retry_base", default=2.0)),
            retry_cap=float(pick("retry_cap", default=600.0)),
            guild_ready_timeout=float(pick("guild_ready_timeout", default=2.0)),
            sync_commands=bool(pick("sync_commands", default=True)),
            max_ratelimit_timeout=float(pick("max_ratelimit_timeout", default=30.0)),
            give_up_after=float(pick("give_up_after", default=86400.0)),
            render_workers=int(pick("render_workers", default=default_size())),
            shard_count=None if pick("shard_count") is None else int(pick("shard_count")),
            shard_ids=None if pick("shard_ids") is None else [int(i) for i in pick("shard_ids")],
            claim_lease=float(pick("claim_lease", default=120.0)),
        )


class TokenFilter(logging.Filter):
    """Belt and braces: a log line that would contain the token gets it blanked."""

    def __init__(self, token: str) -> None:
        super().__init__()
        self.token = token

    def filter(self, record: logging.LogRecord) -> bool:
        if self.token and len(self.token) >= 8:
            message = record.getMessage()
            if self.token in message:
                record.msg = message.replace(self.token, "[token]")
                record.args = None
        return True


class _Sharding(TypedDict, total=False):
    """The shards this process runs, when not all (`AutoShardedBot(shard_ids=...)`)."""

    shard_ids: list[int]


class EpochsBot(commands.AutoShardedBot):
    def __init__(self, settings: DiscordSettings, service: Any) -> None:
        intents = discord.Intents.none()
        intents.guilds = True
        # no `shard_ids` at all (not None) when this process runs every shard, as discord.py's types say
        sharding: _Sharding = {} if settings.shard_ids is None else {"shard_ids": settings.shard_ids}
        # A rate limit longer than max_ratelimit_timeout raises instead of sleeping inside a
        # command: the send then goes into the outbox and the dispatcher delivers it; nobody waits.
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            allowed_mentions=messages.NO_PINGS,
            guild_ready_timeout=settings.guild_ready_timeout,
            max_ratelimit_timeout=settings.max_ratelimit_timeout,
            # games are played in server channels and threads, not in DMs with the bot
            allowed_contexts=app_commands.AppCommandContext(guild=True),
            shard_count=settings.shard_count,
            **sharding,
        )
        self.settings = settings
        self.link = ServiceLink(service)
        self.courier = Courier(self, on_post=self.link.posted)  # `games mine` links to a table's latest post
        # this process's name on its outbox claims: unique per start, readable in the database
        owner = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"
        self.dispatcher = Dispatcher(
            self.link,
            self.courier,
            poll=settings.poll,
            retry_base=settings.retry_base,
            retry_cap=settings.retry_cap,
            give_up_after=settings.give_up_after,
            claim=Claim(owner, settings.claim_lease, settings.shards),
        )
        # a command's post goes before its channel's later outbox posts (order.py)
        self.controller = Controller(
            self.link, self.courier, on_change=self.dispatcher.wake, order=self.dispatcher.order
        )
        self.link.on_notice(self.dispatcher.wake)  # a bot's turn posted: deliver it now
        self.workers: WorkerPool | None = None
        if settings.render_workers > 0:
            self.workers = WorkerPool(settings.render_workers, initializer="renderers:warm", name="epochs-render")
            self.link.draw_with(self.workers)
        self._warming: asyncio.Task[None] | None = None
        self.tree.error(self._on_tree_error)

    async def setup_hook(self) -> None:
        if self.workers is not None:
            # the drawing workers warm up (fonts, static layers) while the bot logs in;
            # a board asked for before they are ready waits for them
            self._warming = asyncio.create_task(self._start_workers(), name="epochs-render-start")
        await self.add_cog(GameCommands(self.controller))
        await self.add_cog(PlayCommands(self.controller))
        await self.add_cog(GamesCommands(self.controller))
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        if self.settings.sync_commands:
            await self._sync()
        self.dispatcher.start()

    async def _sync(self) -> None:
        """Publish the slash commands; a failure is logged and the bot runs on (the
        commands synced last time keep working), rather than refusing to start."""
        guild = discord.Object(self.settings.dev_guild) if self.settings.dev_guild else None
        where = f"the development guild {self.settings.dev_guild}" if guild else "all servers (global)"
        try:
            if guild is not None:
                self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
        except discord.Forbidden:
            log.error(
                "cannot sync the slash commands to %s: is the bot in that server, invited with the "
                "applications.commands scope?",
                where,
            )
        except discord.HTTPException:
            log.exception("syncing the slash commands to %s failed", where)
        else:
            log.info("synced %d slash commands to %s", len(synced), where)

    async def _start_workers(self) -> None:
        assert self.workers is not None
        try:
            await self.workers.start()
        except Exception:  # boards are then drawn text-only; the game goes on
            log.exception("the drawing workers could not start")

    async def close(self) -> None:
        await self.dispatcher.stop()
        await super().close()
        if self._warming is not None:
            await asyncio.gather(self._warming, return_exceptions=True)
        if self.workers is not None:
            await self.workers.close()

    async def _on_tree_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        log.error("command failed: %s", error, exc_info=error)
        text = "Sorry, something went wrong on my side. Please try again."
        try:
            if interaction.response.is_done():
                await interaction.followup.send(text, ephemeral=True)
            else:
                await interaction.response.send_message(text, ephemeral=True)
        except discord.HTTPException:
            pass
