"""The adapter's only door into the service (bot/service).

Everything the Discord side asks of the application layer goes through this
class, so the adapter stays thin and a change in the service's signatures is
absorbed in one place.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # types only: the adapter reaches the service through this class, at run time as well
    from ..service import Notice, Reply, Service
    from ..storage.base import Claim
    from ..workers import WorkerPool


@dataclass(frozen=True)
class Caller:
    """Who asks, where. `admin`: Discord says they manage the server or the channel."""

    guild: int | None
    channel: int
    user: int
    name: str
    admin: bool = False


@dataclass(frozen=True)
class Current:
    """The channel's running table as a component needs it: id and state version."""

    table: int
    version: int


class ServiceLink:
    def __init__(self, service: Service) -> None:
        self.service = service

    def draw_with(self, workers: WorkerPool) -> None:
        """Have the service draw its boards in these worker processes (bot/workers.py)."""
        self.service.workers = workers

    def on_notice(self, wake: Callable[[], None]) -> None:
        """Call `wake()` when the service put a notice in the outbox by itself (a bot's turn)."""
        self.service.on_notice = wake

    async def command(
        self,
        caller: Caller,
        command: str,
        args: str = "",
        *,
        expected_version: int | None = None,
        expected_choice: str | None = None,
        files: dict[str, bytes] | None = None,
    ) -> Reply:
        return await self.service.handle(
            caller.channel,
            caller.user,
            caller.name,
            command,
            args,
            guild=caller.guild,
            admin=caller.admin,
            expected_version=expected_version,
            expected_choice=expected_choice,
            files=files,
        )

    async def next_choices(self, caller: Caller) -> list[tuple[str, str]]:
        """The caller's next decision of this turn, when known ("Plan my next move", issue 51)."""
        return list(await self.service.next_choices_for(caller.channel, caller.user))

    async def plan(self, caller: Caller, moves: list[tuple[str, str | None]]) -> Reply:
        """Plan moves picked from described choices, with their labels (issue 51)."""
        return await self.service.plan_moves(caller.channel, caller.user, caller.name, moves)

    async def legal_actions(self, caller: Caller) -> list[str]:
        return list(await self.service.legal_actions_for(caller.channel, caller.user))

    async def current(self, caller: Caller) -> Current | None:
        table = await self.service.open_table(caller.channel)
        if table is None:
            return None
        return Current(table.id, table.version)

    async def place(self, table: int) -> tuple[int, int | None] | None:
        """Where a table is played (channel, guild), for a press that may come from a direct message."""
        rec = await self.service.table_record(table)
        return None if rec is None else (rec.channel, rec.guild)

    async def tick(self, claim: Claim | None = None) -> list[Notice]:
        """Due reminders into the outbox, then every undelivered notice (oldest first);
        with a `claim`, only this process's shards' reminders and the notices it claimed."""
        return list(await self.service.tick(claim))

    async def delivered(self, notice_id: int) -> None:
        await self.service.delivered(notice_id)

    async def release(self, claim: Claim) -> None:
        """Give back this process's undelivered claims (it is stopping)."""
        await self.service.release(claim)

    async def enqueue(self, channel: int, reply: Reply, tags: dict[str, Any] | None = None) -> int:
        """An undelivered message into the outbox (durable; the dispatcher sends it)."""
        return await self.service.enqueue(channel, reply, tags=tags)

    async def posted(self, table: int, message: int) -> None:
        """A table's public post went out as this message (`games mine` links to the latest)."""
        await self.service.posted(table, message)

    async def prepare(self, notice: Notice) -> Reply:
        """The notice's reply as it goes out now (its board drawn again, or a late note)."""
        return await self.service.prepare(notice)
