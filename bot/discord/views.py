"""Persistent components: they keep working after a restart.

Every custom_id carries the table id and the state version it was made for
(`ep:turn:<table>:<version>`), so discord.py's `DynamicItem` rebuilds the item
from the id alone (no view has to be re-registered per message), and a press on
an outdated message is recognised and refused (the version moved on). A custom_id
holds at most 100 characters; action strings that do not fit go through a select,
whose values may be 100 characters long.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

import discord

CUSTOM_ID_LIMIT = 100
SELECT_LIMIT = 25
ROWS = 5
#: Up to this many legal actions are shown as buttons, more as select menus.
BUTTONS_UP_TO = 5


class Presses(Protocol):
    """What a pressed component asks of the bot's `Controller` (controller.py), which it
    reaches through the client: the controller builds these components, so they know it
    only by the calls they make."""

    async def open_menu(self, interaction: discord.Interaction, table: int, version: int) -> None: ...

    async def play_choice(
        self, interaction: discord.Interaction, table: int, version: int, action: str, key: str | None = None
    ) -> None: ...

    async def answer_undo(self, interaction: discord.Interaction, table: int, version: int, answer: str) -> None: ...

    async def undo_step(self, interaction: discord.Interaction, table: int, version: int) -> None: ...


@runtime_checkable
class HasPresses(Protocol):
    """The client a component lives on: the bot (client.py), which holds the controller."""

    controller: Presses


def _controller(interaction: discord.Interaction) -> Presses:
    client = interaction.client
    if not isinstance(client, HasPresses):
        raise TypeError(f"components need the Epochs bot (a client with a controller), not {type(client).__name__}")
    return client.controller


class TurnButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"ep:turn:(?P<table>[0-9]+):(?P<version>[0-9]+)",
):
    """ "Take your turn" on the public move message: opens the presser's legal actions."""

    def __init__(self, table: int, version: int, label: str = "Take your turn") -> None:
        super().__init__(
            discord.ui.Button(label=label, style=discord.ButtonStyle.primary, custom_id=f"ep:turn:{table}:{version}")
        )
        self.table = table
        self.version = version

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> TurnButton:
        return cls(int(match["table"]), int(match["version"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _controller(interaction).open_menu(interaction, self.table, self.version)


class ActionButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"ep:do:(?P<table>[0-9]+):(?P<version>[0-9]+):(?P<key>[0-9a-f.]*):(?P<action>.+)",
):
    """One legal action as a button in the turn panel (when there are few). `key` is the
    decision it was offered for (`Reply.keys`): another player's pick in a simultaneous
    step does not spoil it."""

    def __init__(self, table: int, version: int, action: str, key: str = "") -> None:
        super().__init__(
            discord.ui.Button(
                label=action[:80],
                style=discord.ButtonStyle.secondary,
                custom_id=f"ep:do:{table}:{version}:{key}:{action}",
            )
        )
        self.table, self.version, self.action, self.key = table, version, action, key

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ActionButton:
        return cls(int(match["table"]), int(match["version"]), match["action"], match["key"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await _controller(interaction).play_choice(interaction, self.table, self.version, self.action, self.key or None)


class ActionSelect(
    discord.ui.DynamicItem[discord.ui.Select[discord.ui.View]],
    template=r"ep:pick:(?P<table>[0-9]+):(?P<version>[0-9]+):(?P<key>[0-9a-f.]*):(?P<page>[0-9]+)",
):
    """Up to 25 legal actions as a select menu (several menus when there are more)."""

    def __init__(self, table: int, version: int, page: int = 0, actions: Sequence[str] = (), key: str = "") -> None:
        options = [discord.SelectOption(label=a[:100], value=a[:100]) for a in actions]
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=f"ep:pick:{table}:{version}:{key}:{page}",
            placeholder=_placeholder(actions, page),
            min_values=1,
            max_values=1,
            options=options or [discord.SelectOption(label="-", value="-")],
        )
        super().__init__(select)
        self.table, self.version, self.page, self.key = table, version, page, key

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ActionSelect:
        return cls(int(match["table"]), int(match["version"]), int(match["page"]), key=match["key"])

    async def callback(self, interaction: discord.Interaction) -> None:
        values = self.item.values  # what the presser chose (discord.py reads it from the interaction)
        if not values:
            await interaction.response.send_message("Nothing was chosen.", ephemeral=True)
            return
        await _controller(interaction).play_choice(
            interaction, self.table, self.version, str(values[0]), self.key or None
        )


class UndoButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"ep:undo:(?P<table>[0-9]+):(?P<version>[0-9]+):(?P<answer>approve|reject)",
):
    """Approve or reject another player's undo request, from the request message itself."""

    def __init__(self, table: int, version: int, answer: str) -> None:
        style = discord.ButtonStyle.success if answer == "approve" else discord.ButtonStyle.danger
        super().__init__(
            discord.ui.Button(
                label=f"{answer.capitalize()} undo", style=style, custom_id=f"ep:undo:{table}:{version}:{answer}"
            )
        )
        self.table, self.version, self.answer = table, version, answer

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> UndoButton:
        return cls(int(match["table"]), int(match["version"]), match["answer"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await _controller(interaction).answer_undo(interaction, self.table, self.version, self.answer)


class UndoStepButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"ep:back:(?P<table>[0-9]+):(?P<version>[0-9]+)",
):
    """ "Undo my last step" in the turn panel (issue 12: `/undo` works from the panel)."""

    def __init__(self, table: int, version: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Undo my last step", style=discord.ButtonStyle.secondary, custom_id=f"ep:back:{table}:{version}"
            )
        )
        self.table, self.version = table, version

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> UndoStepButton:
        return cls(int(match["table"]), int(match["version"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _controller(interaction).undo_step(interaction, self.table, self.version)


def _placeholder(actions: Sequence[str], page: int) -> str:
    if not actions:
        return "Choose an action"
    return f"Choose an action ({actions[0][:40]} … {actions[-1][:40]})"[:150]


def turn_view(table: int, version: int) -> discord.ui.View:
    """The persistent button under a public move message."""
    view = discord.ui.View(timeout=None)
    view.add_item(TurnButton(table, version))
    return view


def menu_view(
    table: int, version: int, actions: Sequence[str], *, undo: bool = False, key: str = ""
) -> tuple[discord.ui.View, int]:
    """An ephemeral menu of legal actions: buttons when few and short, else select menus;
    with `undo`, an "Undo my last step" button below them (the turn panel).

    Returns the view and how many actions it could show (5 rows at most: menus of 25;
    the rest stay reachable through /play and its autocomplete).
    """
    view = discord.ui.View(timeout=None)
    prefix = len(f"ep:do:{table}:{version}:{key}:")
    if len(actions) <= BUTTONS_UP_TO and all(prefix + len(a) <= CUSTOM_ID_LIMIT for a in actions):
        for action in actions:
            view.add_item(ActionButton(table, version, action, key))
        shown = len(actions)
        rows_left = ROWS - 1
    else:
        usable = [a for a in actions if len(a) <= 100]
        rows_left = ROWS - (1 if undo else 0)
        picked = usable[: SELECT_LIMIT * rows_left]
        for page in range(0, len(picked), SELECT_LIMIT):
            view.add_item(ActionSelect(table, version, page // SELECT_LIMIT, picked[page : page + SELECT_LIMIT], key))
        shown = len(picked)
        rows_left -= (len(picked) + SELECT_LIMIT - 1) // SELECT_LIMIT
    if undo and rows_left >= 0:
        view.add_item(UndoStepButton(table, version))
    return view, shown


def undo_view(table: int, version: int) -> discord.ui.View:
    """Approve / Reject under an undo request (the request does not change the version)."""
    view = discord.ui.View(timeout=None)
    view.add_item(UndoButton(table, version, "approve"))
    view.add_item(UndoButton(table, version, "reject"))
    return view


DYNAMIC_ITEMS = (TurnButton, ActionButton, ActionSelect, UndoButton, UndoStepButton)
