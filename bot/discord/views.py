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
from typing import TYPE_CHECKING, Any, Sequence

import discord

if TYPE_CHECKING:
    from .controller import Controller

CUSTOM_ID_LIMIT = 100
SELECT_LIMIT = 25
ROWS = 5
#: Up to this many legal actions are shown as buttons, more as select menus.
BUTTONS_UP_TO = 5


def _controller(interaction: discord.Interaction) -> "Controller":
    return interaction.client.controller  # type: ignore[attr-defined]


class TurnButton(discord.ui.DynamicItem[discord.ui.Button],
                 template=r"ep:turn:(?P<table>[0-9]+):(?P<version>[0-9]+)"):
    """"Take your turn" on the public move message: opens the presser's legal actions."""

    def __init__(self, table: int, version: int, label: str = "Take your turn") -> None:
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.primary,
                                           custom_id=f"ep:turn:{table}:{version}"))
        self.table = table
        self.version = version

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: re.Match[str], /) -> "TurnButton":
        return cls(int(match["table"]), int(match["version"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _controller(interaction).open_menu(interaction, self.table, self.version)


class ActionButton(discord.ui.DynamicItem[discord.ui.Button],
                   template=r"ep:do:(?P<table>[0-9]+):(?P<version>[0-9]+):(?P<action>.+)"):
    """One legal action as a button in the ephemeral menu (when there are few)."""

    def __init__(self, table: int, version: int, action: str) -> None:
        super().__init__(discord.ui.Button(label=action[:80], style=discord.ButtonStyle.secondary,
                                           custom_id=f"ep:do:{table}:{version}:{action}"))
        self.table, self.version, self.action = table, version, action

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: re.Match[str], /) -> "ActionButton":
        return cls(int(match["table"]), int(match["version"]), match["action"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await _controller(interaction).play_choice(interaction, self.table, self.version, self.action)


class ActionSelect(discord.ui.DynamicItem[discord.ui.Select],
                   template=r"ep:pick:(?P<table>[0-9]+):(?P<version>[0-9]+):(?P<page>[0-9]+)"):
    """Up to 25 legal actions as a select menu (several menus when there are more)."""

    def __init__(self, table: int, version: int, page: int = 0, actions: Sequence[str] = ()) -> None:
        options = [discord.SelectOption(label=a[:100], value=a[:100]) for a in actions]
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=f"ep:pick:{table}:{version}:{page}",
            placeholder=_placeholder(actions, page), min_values=1, max_values=1,
            options=options or [discord.SelectOption(label="-", value="-")])
        super().__init__(select)
        self.table, self.version, self.page = table, version, page

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Select,
                             match: re.Match[str], /) -> "ActionSelect":
        return cls(int(match["table"]), int(match["version"]), int(match["page"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        values = (interaction.data or {}).get("values") or []  # type: ignore[union-attr]
        if not values:
            await interaction.response.send_message("Nothing was chosen.", ephemeral=True)
            return
        await _controller(interaction).play_choice(interaction, self.table, self.version, str(values[0]))


class UndoButton(discord.ui.DynamicItem[discord.ui.Button],
                 template=r"ep:undo:(?P<table>[0-9]+):(?P<version>[0-9]+):(?P<answer>approve|reject)"):
    """Approve or reject another player's undo request, from the request message itself."""

    def __init__(self, table: int, version: int, answer: str) -> None:
        style = discord.ButtonStyle.success if answer == "approve" else discord.ButtonStyle.danger
        super().__init__(discord.ui.Button(label=f"{answer.capitalize()} undo", style=style,
                                           custom_id=f"ep:undo:{table}:{version}:{answer}"))
        self.table, self.version, self.answer = table, version, answer

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: re.Match[str], /) -> "UndoButton":
        return cls(int(match["table"]), int(match["version"]), match["answer"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await _controller(interaction).answer_undo(interaction, self.table, self.version, self.answer)


def _placeholder(actions: Sequence[str], page: int) -> str:
    if not actions:
        return "Choose an action"
    return f"Choose an action ({actions[0][:40]} … {actions[-1][:40]})"[:150]


def turn_view(table: int, version: int) -> discord.ui.View:
    """The persistent button under a public move message."""
    view = discord.ui.View(timeout=None)
    view.add_item(TurnButton(table, version))
    return view


def menu_view(table: int, version: int, actions: Sequence[str]) -> tuple[discord.ui.View, int]:
    """An ephemeral menu of legal actions: buttons when few and short, else select menus.

    Returns the view and how many actions it could show (5 menus of 25 at most;
    the rest stay reachable through /play and its autocomplete).
    """
    view = discord.ui.View(timeout=None)
    prefix = len(f"ep:do:{table}:{version}:")
    if len(actions) <= BUTTONS_UP_TO and all(prefix + len(a) <= CUSTOM_ID_LIMIT for a in actions):
        for action in actions:
            view.add_item(ActionButton(table, version, action))
        return view, len(actions)
    usable = [a for a in actions if len(a) <= 100]
    shown = usable[: SELECT_LIMIT * ROWS]
    for page in range(0, len(shown), SELECT_LIMIT):
        view.add_item(ActionSelect(table, version, page // SELECT_LIMIT, shown[page: page + SELECT_LIMIT]))
    return view, len(shown)


def undo_view(table: int, version: int) -> discord.ui.View:
    """Approve / Reject under an undo request (the request does not change the version)."""
    view = discord.ui.View(timeout=None)
    view.add_item(UndoButton(table, version, "approve"))
    view.add_item(UndoButton(table, version, "reject"))
    return view


DYNAMIC_ITEMS = (TurnButton, ActionButton, ActionSelect, UndoButton)
