"""The slash-command surface: names, options, descriptions — and nothing else.

Every command hands its words to the `Controller`, which defers, asks the service
and delivers; the game id is offered as fixed choices from `engine.GAMES`, and
`/play action:` autocompletes from the caller's legal actions.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

import discord
from discord import app_commands
from discord.ext import commands

import engine

from .controller import Controller

#: A slash command's callback, before `app_commands.command` makes it a command.
Command = TypeVar("Command", bound=Callable[..., Coroutine[Any, Any, None]])

GAME_CHOICES = [app_commands.Choice(name=game.title[:100], value=game_id) for game_id, game in engine.GAMES.items()]


def _game_choices(func: Command) -> Command:
    """Offer the registered games as fixed choices (none registered: free text)."""
    return app_commands.choices(game=GAME_CHOICES)(func) if GAME_CHOICES else func


def _words(*parts: object) -> str:
    return " ".join(str(p) for p in parts if p not in (None, "")).strip()


class GameCommands(
    commands.GroupCog, group_name="game", group_description="Create and manage the game in this channel"
):
    def __init__(self, controller: Controller) -> None:
        self.controller = controller
        super().__init__()

    @app_commands.command(name="new", description="Open a new game in this channel or thread")
    @app_commands.describe(
        game="Which game",
        options="Game options as name=value words, e.g. 'clock=3d remind=24' (optional)",
        thread="Open a public thread for this game and play there (a busy channel hosts many)",
        export="Start from a position of an exported game (a file from /game export)",
        at="With an export: the step of its log to start after (0: its start)",
    )
    @_game_choices
    async def new(
        self,
        interaction: discord.Interaction,
        game: str | None = None,
        options: str | None = None,
        thread: bool = False,
        export: discord.Attachment | None = None,
        at: app_commands.Range[int, 0, 1000000] | None = None,
    ) -> None:
        await self.controller.new_game(interaction, _words(game, options), thread=thread, export=export, at=at)

    @app_commands.command(name="join", description="Take a seat at the game being set up here")
    async def join(self, interaction: discord.Interaction) -> None:
        await self.controller.command(interaction, "game join")

    @app_commands.command(name="leave", description="Leave the game being set up here")
    async def leave(self, interaction: discord.Interaction) -> None:
        await self.controller.command(interaction, "game leave")

    @app_commands.command(name="start", description="Start the game (its creator)")
    @app_commands.describe(fixed="Keep the joining order as seat order (default: seats are shuffled)")
    async def start(self, interaction: discord.Interaction, fixed: bool = False) -> None:
        await self.controller.command(interaction, "game start", "fixed" if fixed else "")

    @app_commands.command(name="bot", description="Seat a fill-in bot at the game being set up here")
    @app_commands.describe(level="How well it plays (default: normal)", remove="Take the last bot away instead")
    @app_commands.choices(
        level=[
            app_commands.Choice(name="easy (quick, beatable)", value="easy"),
            app_commands.Choice(name="normal (about a second a move)", value="normal"),
            app_commands.Choice(name="strong (a few seconds a move)", value="strong"),
        ]
    )
    async def bot(self, interaction: discord.Interaction, level: str | None = None, remove: bool = False) -> None:
        await self.controller.command(interaction, "game bot", "remove" if remove else _words(level))

    @app_commands.command(name="back", description="Take your seat back from the bot that played it")
    async def back(self, interaction: discord.Interaction) -> None:
        await self.controller.command(interaction, "game back")

    @app_commands.command(name="cancel", description="Cancel the game here (its creator or a server/channel manager)")
    async def cancel(self, interaction: discord.Interaction) -> None:
        await self.controller.command(interaction, "game cancel")

    @app_commands.command(name="status", description="Whose turn it is, since when, the scores (only you see it)")
    async def status(self, interaction: discord.Interaction) -> None:
        await self.controller.command(interaction, "game status")

    @app_commands.command(name="link", description="Your seat's page on the web (only you see it)")
    @app_commands.describe(reset="A new link: every older link to your seat stops working (a link that leaked)")
    async def link(self, interaction: discord.Interaction, reset: bool = False) -> None:
        await self.controller.command(interaction, "game link", "reset" if reset else "")

    @app_commands.command(name="list", description="The games on this server")
    async def list_(self, interaction: discord.Interaction) -> None:
        await self.controller.command(interaction, "games")

    @app_commands.command(name="history", description="The ended games of this server, newest first")
    @app_commands.describe(count="How many games (default 10, at most 25)", game="Only games of this kind")
    @_game_choices
    async def history(
        self,
        interaction: discord.Interaction,
        count: app_commands.Range[int, 1, 25] | None = None,
        game: str | None = None,
    ) -> None:
        await self.controller.command(interaction, "history", _words(count, game))

    @app_commands.command(name="export", description="The game as a JSON file (a running game: its public log only)")
    @app_commands.describe(id="A game of this server from /game history (default: this channel's game)")
    async def export(self, interaction: discord.Interaction, id: app_commands.Range[int, 1] | None = None) -> None:
        await self.controller.command(interaction, "export", _words(id))

    @app_commands.command(name="chart", description="Every player's score after each round, as a picture")
    @app_commands.describe(id="A game of this server from /game history (default: this channel's game)")
    async def chart(self, interaction: discord.Interaction, id: app_commands.Range[int, 1] | None = None) -> None:
        await self.controller.command(interaction, "chart", _words(id))

    @app_commands.command(name="forget", description="Delete an ended game and its history (server admins)")
    @app_commands.describe(id="The game's number from /game history")
    async def forget(self, interaction: discord.Interaction, id: app_commands.Range[int, 1]) -> None:
        await self.controller.command(interaction, "games forget", str(id))


@app_commands.allowed_contexts(guilds=True, dms=True, private_channels=False)  # `games mine` in DM (issue 27 §3)
class GamesCommands(commands.GroupCog, group_name="games", group_description="Your games, in every server"):
    def __init__(self, controller: Controller) -> None:
        self.controller = controller
        super().__init__()

    @app_commands.command(
        name="mine", description="Every table where it is your turn, in every server (only you see it)"
    )
    async def mine(self, interaction: discord.Interaction) -> None:
        await self.controller.command(interaction, "games mine")


class PlayCommands(commands.Cog):
    def __init__(self, controller: Controller) -> None:
        self.controller = controller

    @app_commands.command(name="play", description="Take an action in this channel's game")
    @app_commands.describe(action="Your action — start typing to see the legal ones")
    async def play(self, interaction: discord.Interaction, action: str) -> None:
        await self.controller.command(interaction, "play", action)

    @play.autocomplete("action")
    async def play_autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        actions = await self.controller.autocomplete(interaction, current)
        return [app_commands.Choice(name=a[:100], value=a[:100]) for a in actions]

    @app_commands.command(
        name="plan", description="Moves played for you when your coming decisions come (only you see it)"
    )
    @app_commands.describe(
        moves="Moves as /play takes them, separated by ';' (empty: show your plan)", clear="Empty your plan"
    )
    async def plan(self, interaction: discord.Interaction, moves: str | None = None, clear: bool = False) -> None:
        await self.controller.command(interaction, "plan", "clear" if clear else _words(moves))

    @app_commands.command(name="board", description="The board (only you see it; you may show everyone)")
    async def board(self, interaction: discord.Interaction) -> None:
        await self.controller.command(interaction, "board")

    @app_commands.command(name="hand", description="Your private information (only you see it)")
    async def hand(self, interaction: discord.Interaction) -> None:
        await self.controller.command(interaction, "hand")

    @app_commands.command(name="log", description="The game's newest steps (only you see it)")
    @app_commands.describe(
        page="Go back: page 2 is the one before the newest (default 1)", count="Instead: the last this many steps"
    )
    async def log(
        self,
        interaction: discord.Interaction,
        page: app_commands.Range[int, 1, 100000] | None = None,
        count: app_commands.Range[int, 1, 50] | None = None,
    ) -> None:
        await self.controller.command(interaction, "log", f"page {page}" if page else _words(count))

    @app_commands.command(name="undo", description="Take back your last action, or answer an undo request")
    @app_commands.describe(answer="Answer another player's undo request")
    @app_commands.choices(
        answer=[
            app_commands.Choice(name="approve", value="approve"),
            app_commands.Choice(name="reject", value="reject"),
        ]
    )
    async def undo(self, interaction: discord.Interaction, answer: str | None = None) -> None:
        await self.controller.command(interaction, "undo", _words(answer))

    @app_commands.command(name="resign", description="Resign from this channel's game")
    async def resign(self, interaction: discord.Interaction) -> None:
        await self.controller.command(interaction, "resign")

    @app_commands.command(name="rules", description="Look something up in the rulebook")
    @app_commands.describe(topic="A section number or words, e.g. '6.4' or 'battle'")
    async def rules(self, interaction: discord.Interaction, topic: str | None = None) -> None:
        await self.controller.command(interaction, "rules", _words(topic))

    @app_commands.command(name="vote", description="Vote to skip an absent player's turn, or to pause the game")
    @app_commands.choices(
        kind=[
            app_commands.Choice(name="skip their turn", value="skip"),
            app_commands.Choice(name="let a bot play their seat", value="replace"),
            app_commands.Choice(name="pause the game", value="pause"),
        ]
    )
    async def vote(self, interaction: discord.Interaction, kind: str) -> None:
        await self.controller.command(interaction, "vote", kind)

    @app_commands.command(name="stats", description="Games played, wins and averages on this server; or a leaderboard")
    @app_commands.describe(
        player="Whose statistics (default: yours)", game="Only this game", top="The leaderboard of `game` instead"
    )
    @_game_choices
    async def stats(
        self,
        interaction: discord.Interaction,
        player: discord.User | None = None,
        game: str | None = None,
        top: bool = False,
    ) -> None:
        if top:
            await self.controller.command(interaction, "stats", _words("top", game))
        else:
            await self.controller.command(interaction, "stats", _words(f"<@{player.id}>" if player else "", game))

    @app_commands.command(name="away", description="Stop your clocks in every game for a while (only you see it)")
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=False)  # it spans every server
    @app_commands.describe(
        time="How long: 5d, 12h or 2d12h; 'off' when you are back; leave it out to see how it stands",
        note="A few words the other players see beside 'away until …' (optional)",
    )
    async def away(self, interaction: discord.Interaction, time: str | None = None, note: str | None = None) -> None:
        await self.controller.command(interaction, "away", _words(time, note))

    @app_commands.command(name="resume", description="Resume a paused game")
    async def resume(self, interaction: discord.Interaction) -> None:
        await self.controller.command(interaction, "resume")

    @app_commands.command(name="settings", description="Reminders, quiet hours, direct messages")
    @app_commands.describe(
        reminders="Hours between reminders for this game, or 'off' (creator or admin)",
        quiet="Your quiet hours, local time, e.g. 22-7, or 'off'",
        utc="Your offset from UTC for the quiet hours, e.g. +2 or -5:30",
        dm="Get reminders and private information by direct message",
        heads_up="A ping when the player before you starts their turn",
    )
    async def settings(
        self,
        interaction: discord.Interaction,
        reminders: str | None = None,
        quiet: str | None = None,
        utc: str | None = None,
        dm: bool | None = None,
        heads_up: bool | None = None,
    ) -> None:
        steps: list[tuple[str, str]] = []
        if reminders is not None:
            steps.append(("settings", f"remind {reminders}"))
        if quiet is not None:
            offset = f" utc{utc if utc.startswith(('+', '-')) else '+' + utc}" if utc else ""
            steps.append(("settings", f"quiet {quiet}{offset}"))
        if dm is not None:
            steps.append(("settings", f"dm {'on' if dm else 'off'}"))
        if heads_up is not None:
            steps.append(("settings", f"heads-up {'on' if heads_up else 'off'}"))
        await self.controller.quiet_steps(interaction, steps or [("settings", "")])
