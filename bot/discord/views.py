"""Persistent components: they keep working after a restart.

Every custom_id carries what its press needs — the table id, and for anything that
plays the state version and the decision key it was made for — so discord.py's
`DynamicItem` rebuilds the item from the id alone (no view is re-registered per
message), and a press on an outdated message is recognised and refused. A custom_id
holds at most 100 characters: an action whose text does not fit is named by its place
in the decision's list (`#3`), which the decision key pins down (the key hashes the
legal actions, so the same key means the same list).

| custom_id | what | where |
|---|---|---|
| `ep:turn:<table>:<version>` | Take your turn | posts, direct messages |
| `ep:do:<table>:<version>:<key>:<action or #i>` | one choice as a button | panel |
| `ep:pick:<table>:<version>:<key>:<group>.<page>` | a menu of up to 25 choices | panel |
| `ep:grp:<table>:<version>:<key>` | the menu of the decision's groups | panel |
| `ep:page:<table>:<version>:<key>:<group>:<page>` | another page of a long group | panel |
| `ep:back:<table>:<version>` | Undo my last step | panel |
| `ep:rule:<table>:<section>` | the rulebook section behind a decision | panel |
| `ep:log:<table>:<page>` | Full story: the log, page by page | panel, posts |
| `ep:share:<table>:<command>` | Show everyone (a lookup, posted) | quiet answers |
| `ep:undo:<table>:<version>:approve\\|reject` | answer an undo request | the request's post |
| `ep:plannext:<table>` | Plan my next move (issue 51) | panel |
| `ep:planpick:<table>:<key>` | the next decision's choices, one to plan | the plan menu |
"""

from __future__ import annotations

import re
from typing import Any, Protocol, runtime_checkable

import discord

CUSTOM_ID_LIMIT = 100
SELECT_LIMIT = 25
ButtonItem = discord.ui.DynamicItem[discord.ui.Button[Any]]


class Presses(Protocol):
    """What a pressed component asks of the bot's `Controller` (controller.py), which it
    reaches through the client: the controller builds these components, so they know it
    only by the calls they make."""

    async def open_menu(self, interaction: discord.Interaction, table: int, version: int) -> None: ...

    async def play_choice(
        self, interaction: discord.Interaction, table: int, version: int, action: str, key: str | None = None
    ) -> None: ...

    async def browse(
        self, interaction: discord.Interaction, table: int, version: int, key: str, group: int, page: int
    ) -> None: ...

    async def answer_undo(self, interaction: discord.Interaction, table: int, version: int, answer: str) -> None: ...

    async def undo_step(self, interaction: discord.Interaction, table: int, version: int) -> None: ...

    async def show_rule(self, interaction: discord.Interaction, table: int, section: str) -> None: ...

    async def show_log(self, interaction: discord.Interaction, table: int, page: int) -> None: ...

    async def share(self, interaction: discord.Interaction, table: int, command: str) -> None: ...

    async def plan_next(self, interaction: discord.Interaction, table: int) -> None: ...

    async def plan_pick(self, interaction: discord.Interaction, table: int, key: str, index: int) -> None: ...


@runtime_checkable
class HasPresses(Protocol):
    """The client a component lives on: the bot (client.py), which holds the controller."""

    controller: Presses


def _controller(interaction: discord.Interaction) -> Presses:
    client = interaction.client
    if not isinstance(client, HasPresses):
        raise TypeError(f"components need the Epochs bot (a client with a controller), not {type(client).__name__}")
    return client.controller


def _button(label: str, custom_id: str, style: discord.ButtonStyle = discord.ButtonStyle.secondary) -> Any:
    return discord.ui.Button(label=label[:80], style=style, custom_id=custom_id)


class TurnButton(ButtonItem, template=r"ep:turn:(?P<table>[0-9]+):(?P<version>[0-9]+)"):
    """ "Take your turn" on a post or a direct message: opens the presser's panel."""

    def __init__(self, table: int, version: int, label: str = "Take your turn") -> None:
        super().__init__(_button(label, f"ep:turn:{table}:{version}", discord.ButtonStyle.primary))
        self.table, self.version = table, version

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> TurnButton:
        return cls(int(match["table"]), int(match["version"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _controller(interaction).open_menu(interaction, self.table, self.version)


class ActionButton(
    ButtonItem,
    template=r"ep:do:(?P<table>[0-9]+):(?P<version>[0-9]+):(?P<key>[0-9a-f.]*):(?P<action>.+)",
):
    """One choice as a button in the turn panel. `key` is the decision it was offered for
    (`Reply.keys`): another player's pick in a simultaneous step does not spoil it.
    `action`: the action's text, or `#i` (its place in the decision) when too long."""

    def __init__(self, table: int, version: int, action: str, key: str = "", label: str = "") -> None:
        super().__init__(_button(label or action, f"ep:do:{table}:{version}:{key}:{action}"))
        self.table, self.version, self.action, self.key = table, version, action, key

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ActionButton:
        return cls(int(match["table"]), int(match["version"]), match["action"], match["key"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await _controller(interaction).play_choice(interaction, self.table, self.version, self.action, self.key or None)


class ActionSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"ep:pick:(?P<table>[0-9]+):(?P<version>[0-9]+):(?P<key>[0-9a-f.]*):(?P<where>[0-9.]+)",
):
    """Up to 25 choices as a menu: each option the choice's label, its detail as the
    description, its action (or `#i`) as the value. `where`: the group and page it shows."""

    def __init__(
        self,
        table: int,
        version: int,
        where: str = "0.0",
        options: list[discord.SelectOption] | None = None,
        key: str = "",
        placeholder: str = "Choose",
    ) -> None:
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=f"ep:pick:{table}:{version}:{key}:{where}",
            placeholder=placeholder[:150],
            min_values=1,
            max_values=1,
            options=options or [discord.SelectOption(label="-", value="-")],
        )
        super().__init__(select)
        self.table, self.version, self.key = table, version, key

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ActionSelect:
        return cls(int(match["table"]), int(match["version"]), match["where"], key=match["key"])

    async def callback(self, interaction: discord.Interaction) -> None:
        values = self.item.values  # what the presser chose (discord.py reads it from the interaction)
        if not values:
            await interaction.response.send_message("Nothing was chosen.", ephemeral=True)
            return
        await _controller(interaction).play_choice(
            interaction, self.table, self.version, str(values[0]), self.key or None
        )


class GroupSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"ep:grp:(?P<table>[0-9]+):(?P<version>[0-9]+):(?P<key>[0-9a-f.]*)",
):
    """The menu of a decision's groups: picking one shows its choices (nothing is played)."""

    def __init__(
        self, table: int, version: int, key: str = "", options: list[discord.SelectOption] | None = None
    ) -> None:
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=f"ep:grp:{table}:{version}:{key}",
            placeholder="What kind of choice?",
            min_values=1,
            max_values=1,
            options=options or [discord.SelectOption(label="-", value="0")],
        )
        super().__init__(select)
        self.table, self.version, self.key = table, version, key

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> GroupSelect:
        return cls(int(match["table"]), int(match["version"]), match["key"])

    async def callback(self, interaction: discord.Interaction) -> None:
        values = self.item.values
        group = int(values[0]) if values and str(values[0]).isdigit() else 0
        await _controller(interaction).browse(interaction, self.table, self.version, self.key, group, 0)


class PageButton(
    ButtonItem,
    template=r"ep:page:(?P<table>[0-9]+):(?P<version>[0-9]+):(?P<key>[0-9a-f.]*):(?P<group>[0-9]+):(?P<page>[0-9]+)",
):
    """Another page of a group of more than 25 choices (nothing is played)."""

    def __init__(self, table: int, version: int, key: str, group: int, page: int, label: str = "") -> None:
        super().__init__(_button(label or f"Page {page + 1}", f"ep:page:{table}:{version}:{key}:{group}:{page}"))
        self.table, self.version, self.key, self.group, self.page = table, version, key, group, page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> PageButton:
        return cls(int(match["table"]), int(match["version"]), match["key"], int(match["group"]), int(match["page"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _controller(interaction).browse(interaction, self.table, self.version, self.key, self.group, self.page)


class UndoButton(ButtonItem, template=r"ep:undo:(?P<table>[0-9]+):(?P<version>[0-9]+):(?P<answer>approve|reject)"):
    """Approve or reject another player's undo request, from the request message itself."""

    def __init__(self, table: int, version: int, answer: str) -> None:
        style = discord.ButtonStyle.success if answer == "approve" else discord.ButtonStyle.danger
        super().__init__(_button(f"{answer.capitalize()} undo", f"ep:undo:{table}:{version}:{answer}", style))
        self.table, self.version, self.answer = table, version, answer

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> UndoButton:
        return cls(int(match["table"]), int(match["version"]), match["answer"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await _controller(interaction).answer_undo(interaction, self.table, self.version, self.answer)


class UndoStepButton(ButtonItem, template=r"ep:back:(?P<table>[0-9]+):(?P<version>[0-9]+)"):
    """ "Undo my last step" in the turn panel (issue 12: `/undo` works from the panel)."""

    def __init__(self, table: int, version: int) -> None:
        super().__init__(_button("Undo my last step", f"ep:back:{table}:{version}"))
        self.table, self.version = table, version

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> UndoStepButton:
        return cls(int(match["table"]), int(match["version"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _controller(interaction).undo_step(interaction, self.table, self.version)


class RuleButton(ButtonItem, template=r"ep:rule:(?P<table>[0-9]+):(?P<section>[0-9A-Za-z., -]{1,60})"):
    """ "Rule 6.4": the rulebook section behind the decision, shown to the presser alone."""

    def __init__(self, table: int, section: str) -> None:
        super().__init__(_button(f"Rule {section}", f"ep:rule:{table}:{section[:60]}"))
        self.table, self.section = table, section

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> RuleButton:
        return cls(int(match["table"]), match["section"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await _controller(interaction).show_rule(interaction, self.table, self.section)


class LogButton(ButtonItem, template=r"ep:log:(?P<table>[0-9]+):(?P<page>[0-9]+)"):
    """ "Full story" (page 1, newest first) and the log's older and newer pages, to the presser alone."""

    def __init__(self, table: int, page: int = 1, label: str = "Full story") -> None:
        super().__init__(_button(label, f"ep:log:{table}:{page}"))
        self.table, self.page = table, page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> LogButton:
        return cls(int(match["table"]), int(match["page"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _controller(interaction).show_log(interaction, self.table, self.page)


class ShareButton(ButtonItem, template=r"ep:share:(?P<table>[0-9]+):(?P<command>[a-z]+(?: [^:]{0,70})?)"):
    """ "Show everyone": a lookup its caller saw alone, posted in the channel (it pings nobody)."""

    def __init__(self, table: int, command: str) -> None:
        super().__init__(_button("Show everyone", f"ep:share:{table}:{command}"[:CUSTOM_ID_LIMIT]))
        self.table, self.command = table, command

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ShareButton:
        return cls(int(match["table"]), match["command"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await _controller(interaction).share(interaction, self.table, self.command)


class PlanNextButton(ButtonItem, template=r"ep:plannext:(?P<table>[0-9]+)"):
    """ "Plan my next move" in the turn panel, where the next decision of the turn is known
    (issue 51): a menu of its choices, to the presser alone."""

    def __init__(self, table: int) -> None:
        super().__init__(_button("Plan my next move", f"ep:plannext:{table}"))
        self.table = table

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> PlanNextButton:
        return cls(int(match["table"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _controller(interaction).plan_next(interaction, self.table)


class PlanSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"ep:planpick:(?P<table>[0-9]+):(?P<key>[0-9a-f]{1,16})"
):
    """The next decision's choices, by label; the one picked is planned with its label.
    `key` pins the list down (a hash of its actions and labels), so a pick from a list that
    changed meanwhile is refused, not planned as another move."""

    def __init__(self, table: int, key: str, options: list[discord.SelectOption] | None = None) -> None:
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=f"ep:planpick:{table}:{key}",
            placeholder="Plan my next move",
            min_values=1,
            max_values=1,
            options=options or [discord.SelectOption(label="-", value="0")],
        )
        super().__init__(select)
        self.table, self.key = table, key

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> PlanSelect:
        return cls(int(match["table"]), match["key"])

    async def callback(self, interaction: discord.Interaction) -> None:
        values = self.item.values
        index = int(values[0]) if values and str(values[0]).isdigit() else -1
        await _controller(interaction).plan_pick(interaction, self.table, self.key, index)


DYNAMIC_ITEMS = (
    TurnButton,
    ActionButton,
    ActionSelect,
    GroupSelect,
    PageButton,
    UndoButton,
    UndoStepButton,
    RuleButton,
    LogButton,
    ShareButton,
    PlanNextButton,
    PlanSelect,
)
