"""What happens when someone uses a command, presses a button or picks from a menu.

Slash commands and components both land here, so the flow is the same whatever
the entry point:

1. Acknowledge first (an ephemeral "thinking" deferral, or a deferred update for
   a press in a panel) — before storage or rendering, so Discord's 3 s limit holds.
2. Ask the service (it decides everything: who may, what is legal, what to say).
3. Refusals and lookups go only to the caller, ephemerally; a lookup worth sharing
   carries "Show everyone".
4. Anything public is posted as a *new* channel message — edits of a deferred reply
   never notify anyone, a new message does — laid out from the reply's data
   (layout.py), with `allowed_mentions` naming exactly the users the service named.
5. The caller's turn is their panel (layout.py), edited in place step by step; other
   players whose turn starts and who asked for direct messages get "your turn" there
   instead of a ping (`Courier.direct`, falling back to a channel mention when their
   DMs are closed).
6. A post or DM that fails is handed to the service's outbox (`Service.enqueue`,
   its own transaction) and delivered by the dispatcher — after a restart too.
   The move itself was stored before any of this; now its announcement is as well.
7. From before the service is asked until the public post is sent (or in the outbox),
   the channel is held (`ChannelOrder.command`, order.py): the dispatcher sends none
   of its outbox posts there meanwhile, so a bot's move made right after the command
   is not read before the command's own post.

A press may come from a direct message ("Take your turn" there): every component
names its table, and the press is handled in that table's channel.
"""

from __future__ import annotations

import dataclasses
import hashlib
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord

import engine

from . import layout, messages
from .courier import UNDELIVERED, Courier
from .link import Caller, ServiceLink
from .order import ChannelOrder
from .ranking import rank
from .views import SELECT_LIMIT, LogButton, PlanSelect, ShareButton, TurnButton

if TYPE_CHECKING:  # the service's plain data, as the adapter receives it
    from ..service import Private, Reply

log = logging.getLogger(__name__)

#: Commands whose answer only the caller needs (ephemeral), and the service command a
#: "Show everyone" button posts for the ones worth sharing. Everything else that succeeds
#: is posted to the channel for all players.
QUIET = frozenset(
    {
        "hand",
        "log",
        "rules",
        "games",
        "games forget",
        "game status",
        "game link",
        "history",
        "stats",
        "export",
        "board",
        "games mine",
        "away",
        "plan",  # issue 51: a plan is its owner's alone
    }
)
SHARED = {"board": "board", "game status": "status", "log": "log", "rules": "rules", "stats": "stats"}
SHARED["history"] = "history"
#: The largest exported game `/game new export:` reads (a long game's export is a few hundred KB).
EXPORT_LIMIT = 8 * 1024 * 1024
#: The name an attached export goes by in the command handed to the service (`from=export`).
EXPORT = "export"
SORRY = "Sorry, something went wrong on my side. Please try again."
GONE = "⌛ This button belongs to a game that is no longer running here."
STALE = "⌛ That button is from an older turn: the game has moved on, so nothing was played."
MOVED = "⌛ The position changed since that panel was made; here is your turn as it stands."


def caller_of(interaction: discord.Interaction) -> Caller:
    """Who is asking, where, and whether Discord says they administer the place."""
    perms = interaction.permissions
    admin = bool(perms.administrator or perms.manage_guild or perms.manage_channels)
    user = interaction.user
    return Caller(
        guild=interaction.guild_id,
        channel=interaction.channel_id or 0,
        user=user.id,
        name=getattr(user, "display_name", None) or user.name,
        admin=admin,
    )


class Controller:
    def __init__(
        self,
        link: ServiceLink,
        courier: Courier,
        on_change: Callable[[], None] = lambda: None,
        *,
        order: ChannelOrder | None = None,
    ) -> None:
        self.link = link
        self.courier = courier
        #: Called after every command: it may have queued notices (the dispatcher wakes up).
        self.on_change = on_change
        #: The dispatcher's channel order (a command's post before later outbox posts).
        self.order = order if order is not None else ChannelOrder()

    # ----- slash commands --------------------------------------------------------------
    async def command(
        self,
        interaction: discord.Interaction,
        command: str,
        args: str = "",
        *,
        attachment: discord.Attachment | None = None,
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        caller = caller_of(interaction)
        files = await self._attached(interaction, attachment)
        if files is None:
            return
        async with self.order.command(caller.channel):  # until its post is out (order.py)
            reply = await self._asked(f"command {command}", caller, command, args, files=files)
            message, buttons = None, None
            if reply is not None and not (reply.error or command in QUIET or reply.panel):
                if command == "undo" and not args and reply.mentions and reply.table_id is not None:
                    buttons = None if reply.choices else "undo"  # a request: the others answer by button
                message = await self._announce(caller.channel, reply, buttons=buttons)
        if reply is None:
            await self._say(interaction, SORRY)
            return
        self.on_change()
        if reply.error or command in QUIET:
            share = f"{SHARED[command]} {args}".strip() if command in SHARED and not reply.error else None
            await self._quiet(interaction, caller, reply, share=share)
            return
        if reply.panel:  # the caller's turn goes on: their panel, nothing in the channel
            await self._show_panel(interaction, caller, reply)
            return
        await self._publish(interaction, caller, reply, message, buttons=buttons)

    async def new_game(
        self,
        interaction: discord.Interaction,
        args: str,
        *,
        thread: bool = False,
        export: discord.Attachment | None = None,
        at: int | None = None,
    ) -> None:
        """`/game new`, here or (`thread`, or the word `thread` among the options) in a new
        public thread of this channel, which then is the table's channel: every post,
        reminder and button of that game lives in the thread alone. With `export` (an
        attached file of `/game export`) the table starts from step `at` of that game."""
        words = args.split()
        if "thread" in (w.lower() for w in words):
            thread = True
            words = [w for w in words if w.lower() != "thread"]
        if export is not None:
            words += [f"from={EXPORT}"] + ([f"at={at}"] if at is not None else [])
        if not thread:
            await self.command(interaction, "game new", " ".join(words), attachment=export)
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        caller = caller_of(interaction)
        files = await self._attached(interaction, export)
        if files is None:
            return
        parent = interaction.channel
        if not isinstance(parent, discord.TextChannel):
            await self._say(
                interaction, "A game thread opens from a text channel; here, use `/game new` without `thread`."
            )
            return
        title = next(
            (g.title for gid, g in engine.GAMES.items() if words and gid == words[0].lower()),
            words[0] if words else "game",
        )
        try:
            room = await parent.create_thread(
                name=f"{title} — {caller.name}"[:100],
                type=discord.ChannelType.public_thread,
                auto_archive_duration=10080,
            )
        except discord.HTTPException as exc:
            log.warning("creating a thread in %s failed: %s", parent.id, exc)
            await self._say(
                interaction,
                "I could not open a thread here (I need the Create Public Threads "
                "permission). Use `/game new` without `thread`, or ask an admin.",
            )
            return
        inside = dataclasses.replace(caller, channel=room.id)
        # held as any command: a game started from an export may have bots who move at once
        async with self.order.command(room.id):
            reply = await self._asked("game new in a thread", inside, "game new", " ".join(words), files=files)
            if reply is not None and not reply.error:
                await self._post_public(room.id, reply)
        self.on_change()
        if reply is None or reply.error:
            await room.delete()  # nothing lives in it: no empty thread is left behind
            await self._say(interaction, reply.text if reply is not None else SORRY)
            return
        await self._say(interaction, f"✅ The game has its own thread: {room.jump_url} — play there.")

    async def _attached(
        self, interaction: discord.Interaction, attachment: discord.Attachment | None
    ) -> dict[str, bytes] | None:
        """The exported game attached to the command, read from Discord ({} without one);
        None (and the caller told why) when it cannot be read."""
        if attachment is None:
            return {}
        if attachment.size > EXPORT_LIMIT:
            await self._say(
                interaction,
                f"That file is {attachment.size // 1024} KB; an exported game is at most "
                f"{EXPORT_LIMIT // (1024 * 1024)} MB. Attach a file from `/game export`.",
            )
            return None
        try:
            return {EXPORT: await attachment.read()}
        except (discord.HTTPException, discord.NotFound) as exc:
            log.warning("reading attachment %s failed: %s", attachment.id, exc)
            await self._say(interaction, "I could not read the attached file from Discord; please attach it again.")
            return None

    async def quiet_steps(self, interaction: discord.Interaction, steps: list[tuple[str, str]]) -> None:
        """Several service commands answered together, only to the caller (`/settings`)."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        caller = caller_of(interaction)
        texts = []
        try:
            for command, args in steps:
                reply = await self.link.command(caller, command, args)
                texts.append(("❌ " if reply.error else "") + reply.text)
        except Exception:
            log.exception("settings failed")
            texts.append(SORRY)
        self.on_change()
        await self._say(interaction, "\n".join(texts))

    async def autocomplete(self, interaction: discord.Interaction, current: str) -> list[str]:
        """The caller's legal actions that match what they typed (at most 25)."""
        try:
            actions = await self.link.legal_actions(caller_of(interaction))
        except Exception:
            log.exception("autocomplete failed")
            return []
        return rank(actions, current)

    # ----- components -------------------------------------------------------------------
    async def _caller_at(self, interaction: discord.Interaction, table: int) -> Caller | None:
        """The presser, in the channel where `table` is played (a press may come from a DM)."""
        caller = caller_of(interaction)
        place = await self.link.place(table)
        if place is None:
            return None
        channel, guild = place
        if caller.channel == channel:
            return caller
        return dataclasses.replace(caller, channel=channel, guild=guild, admin=False)

    async def open_menu(self, interaction: discord.Interaction, table: int, version: int) -> None:
        """ "Take your turn": the presser's turn panel, where their turn stands.

        Asks the service for `play` without an action against the button's version:
        a stale version is refused by the service, a player who must act gets their
        panel (the decision, what happened since their last turn: from the stored log,
        the same after a restart), anyone else the reason (not your turn, not a player)."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            caller = await self._caller_at(interaction, table)
            if caller is None:
                await self._say(interaction, GONE)
                return
            reply = await self.link.command(caller, "play", "", expected_version=version)
            head = ""
            if reply.stale and reply.table_id == table:
                # an older message's button: the panel where the turn stands now (the press
                # played nothing); the older-turn note only for a presser who no longer acts
                reply = await self.link.command(caller, "play", "")
                if not reply.decisions.get(caller.user):
                    head = STALE
        except Exception:
            log.exception("menu failed")
            await self._say(interaction, SORRY)
            return
        if reply.table_id != table:  # finished, cancelled, or another game here now
            await self._say(interaction, GONE)
            return
        if not reply.decisions.get(caller.user):
            await self._say(interaction, "\n".join(t for t in (head, reply.text, *self._own(reply, caller)) if t))
            return
        await self._show_panel(interaction, caller, reply)

    async def play_choice(
        self, interaction: discord.Interaction, table: int, version: int, action: str, key: str | None = None
    ) -> None:
        """A pick from the panel: play it against the decision the panel was made for, then
        edit the same panel in place to the next step (no channel post while the turn lasts).
        `action` may be `#i`, the choice's place in the decision (views.py)."""
        await interaction.response.defer()  # deferred update of the panel message itself
        await self._panel_step(interaction, table, version, "play", action, key)

    async def undo_step(self, interaction: discord.Interaction, table: int, version: int) -> None:
        """ "Undo my last step" in the panel: the service takes it back (alone when it revealed
        nothing and nobody acted since, else it asks the others, in the channel)."""
        await interaction.response.defer()
        await self._panel_step(interaction, table, version, "undo", "")

    async def browse(
        self, interaction: discord.Interaction, table: int, version: int, key: str, group: int, page: int
    ) -> None:
        """The menu of groups or a page button: the same panel showing another part of the
        choices (nothing is played). A decision that changed meanwhile is shown afresh."""
        await interaction.response.defer()
        try:
            caller = await self._caller_at(interaction, table)
            reply = await self.link.command(caller, "play", "") if caller is not None else None
        except Exception:
            log.exception("browsing the panel failed")
            await self._closed(interaction, SORRY)
            return
        if caller is None or reply is None or reply.table_id != table:
            await self._closed(interaction, GONE)
            return
        if not reply.decisions.get(caller.user):
            await self._closed(interaction, "\n".join(t for t in (reply.text, *self._own(reply, caller)) if t))
            return
        if reply.keys.get(caller.user) != key:
            await self._show_panel(interaction, caller, reply, note=MOVED)
            return
        await self._show_panel(interaction, caller, reply, group=group, page=page)

    async def _at_table(self, interaction: discord.Interaction, table: int) -> Caller | None:
        """The presser in `table`'s channel while that table is the one played there; None
        when it is gone (finished, cancelled, another game here now)."""
        caller = await self._caller_at(interaction, table)
        current = await self.link.current(caller) if caller is not None else None
        return caller if current is not None and current.table == table else None

    async def _panel_step(
        self,
        interaction: discord.Interaction,
        table: int,
        version: int,
        command: str,
        args: str,
        key: str | None = None,
    ) -> None:
        try:
            caller = await self._at_table(interaction, table)
            if caller is not None and args.startswith("#"):  # a choice by its place: the key pins the list down
                legal = await self.link.legal_actions(caller)
                place = int(args[1:]) if args[1:].isdigit() else -1
                args = legal[place] if 0 <= place < len(legal) else args
        except Exception:
            log.exception("panel %s failed", command)
            await self._closed(interaction, SORRY)
            return
        if caller is None:
            await self._closed(interaction, GONE)
            return
        async with self.order.command(caller.channel):  # until its post is out (order.py)
            reply = await self._asked(
                f"panel {command}", caller, command, args, expected_version=version, expected_choice=key
            )
            message = None
            if reply is not None and not reply.panel and not (reply.error and reply.table_id == table):
                buttons = "undo" if command == "undo" and reply.mentions and not reply.choices else None
                message = await self._post_public(caller.channel, reply, buttons=buttons)
        if reply is None:
            await self._closed(interaction, SORRY)
            return
        self.on_change()
        if reply.error and reply.table_id == table:
            await self._refused_step(interaction, caller, reply)
            return
        if reply.panel:
            await self._show_panel(interaction, caller, reply)
            return
        done = "✅ Your turn is over." if command == "play" else "✅ Done."
        link = message.jump_url if message is not None else None
        if reply.decisions.get(caller.user):  # the turn came back to the caller: the panel goes on
            await self._show_panel(interaction, caller, reply, note=done + (f" {link}" if link else ""))
        else:
            await self._closed(interaction, done, link=link)
        await self._deliver_others(reply, caller, message)

    async def _refused_step(self, interaction: discord.Interaction, caller: Caller, reply: Reply) -> None:
        """A panel step the service refused — stale (a double press, a second window) or not
        allowed (nothing to undo): the reason above the panel where the turn stands."""
        try:
            fresh = await self.link.command(caller, "play", "")
        except Exception:
            log.exception("fresh panel failed")
            fresh = reply
        note = STALE if reply.stale else "❌ " + reply.text
        if fresh.decisions.get(caller.user):
            await self._show_panel(interaction, caller, fresh, note=note)
        else:
            said = [note, fresh.text, *self._own(fresh, caller)]
            await self._closed(interaction, "\n".join(t for t in said if t))

    async def answer_undo(self, interaction: discord.Interaction, table: int, version: int, answer: str) -> None:
        """Approve / Reject pressed under an undo request."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            caller = await self._at_table(interaction, table)
        except Exception:
            log.exception("undo answer failed")
            await self._say(interaction, SORRY)
            return
        if caller is None:
            await self._say(interaction, GONE)
            return
        async with self.order.command(caller.channel):  # until its post is out (order.py)
            reply = await self._asked("undo answer", caller, "undo", answer, expected_version=version)
            message = await self._announce(caller.channel, reply) if reply is not None and not reply.error else None
        if reply is None:
            await self._say(interaction, SORRY)
            return
        self.on_change()
        if reply.error:
            await self._say(interaction, STALE + "\n" + reply.text if reply.stale else reply.text)
            return
        await self._publish(interaction, caller, reply, message)

    async def show_rule(self, interaction: discord.Interaction, table: int, section: str) -> None:
        """ "Rule 6.4" in a panel: the rulebook's section, to the presser alone (a new message:
        the panel stays as it is)."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        caller = await self._caller_at(interaction, table) or caller_of(interaction)
        try:
            reply = await self.link.command(caller, "rules", section)
        except Exception:
            log.exception("rule lookup failed")
            await self._say(interaction, SORRY)
            return
        await self._quiet(interaction, caller, reply, share=None)

    async def plan_next(self, interaction: discord.Interaction, table: int) -> None:
        """ "Plan my next move": the next decision of the presser's turn as a menu, to them
        alone (a new message: the panel stays as it is), when it is known (issue 51)."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        caller = await self._caller_at(interaction, table)
        choices = await self.link.next_choices(caller) if caller is not None else []
        if not choices:
            await self._say(interaction, "Your next decision is not known yet: it depends on this one.")
            return
        options = [
            discord.SelectOption(label=label[:100] or action[:100], value=str(i), description=action[:100])
            for i, (action, label) in enumerate(choices[:SELECT_LIMIT])
        ]
        view = discord.ui.View(timeout=None)
        view.add_item(PlanSelect(table, choices_key(choices), options))
        await interaction.edit_original_response(
            content="Your next decision, once you have made this one: pick the move to plan for it.", view=view
        )

    async def plan_pick(self, interaction: discord.Interaction, table: int, key: str, index: int) -> None:
        """A move picked from the "Plan my next move" menu: planned with its label, if the
        menu still shows the next decision as it is now."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        caller = await self._caller_at(interaction, table)
        choices = await self.link.next_choices(caller) if caller is not None else []
        if caller is None or choices_key(choices) != key or not 0 <= index < len(choices):
            await self._say(interaction, "That menu is out of date: your decision changed. Nothing was planned.")
            return
        try:
            reply = await self.link.plan(caller, [choices[index]])
        except Exception:
            log.exception("planning a move failed")
            await self._say(interaction, SORRY)
            return
        await self._quiet(interaction, caller, reply, share=None)

    async def show_log(self, interaction: discord.Interaction, table: int, page: int) -> None:
        """ "Full story": the log's newest page, to the presser alone, in a message of its own;
        its Older / Newer buttons turn the pages of that message in place."""
        paging = bool(interaction.message is not None and interaction.message.flags.ephemeral)
        paging = paging and not (interaction.message is not None and interaction.message.flags.components_v2)
        if paging:
            await interaction.response.defer()
        else:
            await interaction.response.defer(ephemeral=True, thinking=True)
        caller = await self._caller_at(interaction, table) or caller_of(interaction)
        try:
            reply = await self.link.command(caller, "log", f"page {page}")
        except Exception:
            log.exception("log failed")
            await self._say(interaction, SORRY)
            return
        await self._quiet(interaction, caller, reply, share=f"log page {page}")

    async def share(self, interaction: discord.Interaction, table: int, command: str) -> None:
        """ "Show everyone": the lookup, asked again now, posted in the channel (pinging
        nobody); the caller's own answer says where."""
        await interaction.response.defer()
        caller = caller_of(interaction)
        if table:
            caller = await self._caller_at(interaction, table) or caller
        verb, _, args = command.partition(" ")
        try:
            reply = await self.link.command(caller, verb, args)
        except Exception:
            log.exception("sharing %s failed", command)
            return
        if reply.error:
            await interaction.followup.send(reply.text, ephemeral=True, allowed_mentions=messages.NO_PINGS)
            return
        public = dataclasses.replace(reply, mentions=[], private=[], choices={}, decisions={}, keys={})
        message = await self._post_public(caller.channel, public)
        shown = f"✅ Shown to everyone: {message.jump_url}" if message is not None else "✅ It will be shown shortly."
        await interaction.followup.send(shown, ephemeral=True, allowed_mentions=messages.NO_PINGS)

    # ----- the caller's answers ------------------------------------------------------------
    @staticmethod
    def _own(reply: Reply, caller: Caller) -> list[str]:
        return [p.text for p in reply.private_for(caller.user) if not p.dm]

    async def _show_panel(
        self,
        interaction: discord.Interaction,
        caller: Caller,
        reply: Reply,
        *,
        note: str = "",
        group: int = 0,
        page: int = 0,
    ) -> None:
        """Edit the caller's ephemeral message into their turn panel (layout.panel); without a
        decision for them (their part of a simultaneous step is done, or their turn passed to
        bots) into what the service says instead."""
        if reply.table_id is None or reply.version is None or not reply.decisions.get(caller.user):
            await self._closed(interaction, "\n".join(t for t in (note, *self._own(reply, caller)) if t) or "✅ Done.")
            return
        built = layout.panel(reply, caller.user, note=note, group=group, page=page)
        await interaction.edit_original_response(
            view=built.view, attachments=built.files, allowed_mentions=messages.NO_PINGS
        )

    async def _closed(self, interaction: discord.Interaction, text: str, *, link: str | None = None) -> None:
        """A panel (or any answer) closed with a line of text: its buttons are spent."""
        built = layout.note(text, link=link)
        await interaction.edit_original_response(view=built.view, attachments=[], allowed_mentions=messages.NO_PINGS)

    async def _say(self, interaction: discord.Interaction, text: str) -> None:
        """A short answer in the caller's fresh ephemeral message (a refusal, a confirmation)."""
        await interaction.edit_original_response(content=messages.clip(text), allowed_mentions=messages.NO_PINGS)

    async def _quiet(
        self, interaction: discord.Interaction, caller: Caller, reply: Reply, *, share: str | None
    ) -> None:
        """A lookup or a refusal, to the caller alone: the answer, its pictures and the caller's
        own private parts (by DM when they asked for that), with "Show everyone" where sharing
        makes sense, "Take your turn" when they must act, and the log's pages."""
        parts: list[str] = []
        files: list[discord.File] = []
        if reply.turns:  # `games mine`: each table with where it is and a link to its last post
            parts.append(layout.mine_text(reply.turns, self.courier.where))
        elif reply.text:
            parts.append(reply.text)
            files += messages.files_of(reply.image, reply.files)
        dm_parts = []
        for private in reply.private_for(caller.user):
            if private.dm:
                dm_parts.append(private)
                continue
            parts.append(private.text)
            files += messages.files_of(private.image)
        if dm_parts:
            await self._direct(caller.user, dm_parts, reply, caller.channel)
            parts.append("I sent you the private part by direct message.")
        buttons = discord.ui.View(timeout=None)
        table = reply.table_id or 0
        if reply.pages > 1:
            if reply.page < reply.pages:
                buttons.add_item(LogButton(table, reply.page + 1, "◀ Older"))
            if reply.page > 1:
                buttons.add_item(LogButton(table, reply.page - 1, "Newer ▶"))
        decision = reply.decisions.get(caller.user)
        if decision is not None and reply.table_id is not None and reply.version is not None:
            buttons.add_item(TurnButton(reply.table_id, reply.version))
            if decision.seat_url:
                buttons.add_item(discord.ui.Button(label="Open my seat", url=decision.seat_url))
        if share and not reply.error:
            buttons.add_item(ShareButton(table, share))
        pieces = messages.chunks("\n\n".join(p for p in parts if p) or "✅ Done.")
        await interaction.edit_original_response(
            content=pieces[0],
            attachments=files[:10],
            view=buttons if buttons.children and len(pieces) == 1 else None,
            allowed_mentions=messages.NO_PINGS,
        )
        for index, more in enumerate(pieces[1:], 2):
            last = index == len(pieces)
            await interaction.followup.send(
                more,
                ephemeral=True,
                view=buttons if last and buttons.children else discord.utils.MISSING,
                allowed_mentions=messages.NO_PINGS,
            )

    async def _asked(self, what: str, caller: Caller, command: str, args: str, **kw: Any) -> Reply | None:
        """The service's answer to a command; None (logged as `what` failing) when it failed inside."""
        try:
            return await self.link.command(caller, command, args, **kw)
        except Exception:
            log.exception("%s failed", what)
            return None

    # ----- delivery -------------------------------------------------------------------------
    async def _announce(self, channel: int, reply: Reply, *, buttons: str | None = None) -> Any:
        """A command's public post, when it has anything to show (`_post_public`); else None."""
        if reply.text or reply.image:
            return await self._post_public(channel, reply, buttons=buttons)
        return None

    async def _publish(
        self,
        interaction: discord.Interaction,
        caller: Caller,
        reply: Reply,
        message: Any,
        *,
        buttons: str | None = None,
    ) -> None:
        """After a command's public post (`message`, None when it went into the outbox): the
        caller's answer or panel, then the others' DMs."""
        link = message.jump_url if message is not None else None
        if reply.decisions.get(caller.user) and buttons is None:
            # the caller acts next (they started the game, or the turn came back to them): their panel
            await self._show_panel(interaction, caller, reply, note="✅ Posted." + (f" {link}" if link else ""))
        else:
            own = self._own(reply, caller)
            dm = [p for p in reply.private_for(caller.user) if p.dm]
            if dm:
                await self._direct(caller.user, dm, reply, caller.channel, link)
                own.append("I sent you the private part by direct message.")
            await self._say(interaction, "\n\n".join(own) or ("✅ Done." + (f" {link}" if link else "")))
        await self._deliver_others(reply, caller, message)

    async def _post_public(self, channel: int, reply: Reply, *, buttons: str | None = None) -> Any:
        """The one public message of a command (layout.post), exact mentions; None when it went
        into the outbox instead (Discord refused it or could not be reached): the dispatcher
        delivers it, after a restart too. The outbox's delivery in flight in the channel goes
        first: it tells earlier moves (order.py)."""
        await self.order.settled(channel)
        try:
            return await self.courier.post(channel, reply, buttons=buttons)
        except UNDELIVERED as exc:
            log.warning("posting to channel %s failed (%s); it goes into the outbox", channel, exc)
            public = dataclasses.replace(reply, private=[p for p in reply.private if p.dm])
            await self._keep(
                channel,
                public,
                {"buttons": buttons} if buttons else {},
                "public message",
                lambda: self.courier.post(channel, reply, buttons=buttons),
            )
            return None

    async def _direct(
        self,
        user: int,
        parts: list[Private],
        reply: Reply,
        channel: int | None,
        link: str | None = None,
        *,
        turn: bool = False,
    ) -> None:
        """DM private parts (closed DMs: a channel mention); a failed send goes into the outbox.
        `turn`: they come with the post that starts turns (courier.py)."""
        try:
            await self.courier.direct(user, parts, fallback_channel=channel, reply=reply, link=link, turn=turn)
        except UNDELIVERED as exc:
            log.warning("direct message to %s failed (%s); it goes into the outbox", user, exc)
            dms = [dataclasses.replace(p, dm=True) for p in parts]
            held = dataclasses.replace(reply, text="", image=None, files=[], mentions=[], private=dms)
            await self._keep(
                channel or 0,
                held,
                {"dm": user, "turn": turn},
                "direct message",
                lambda: self.courier.direct(user, parts, fallback_channel=channel, reply=reply, link=link, turn=turn),
                key=-user,
            )

    async def _keep(
        self,
        channel: int,
        reply: Reply,
        tags: dict[str, Any],
        what: str,
        retry: Callable[[], Awaitable[Any]],
        *,
        key: int | None = None,
    ) -> None:
        """Hand an undelivered message to the outbox (durable); only if the database
        fails as well, keep it in memory for the dispatcher (lost on a restart)."""
        try:
            await self.link.enqueue(channel, reply, tags)
        except Exception:
            log.exception("could not store an undelivered %s; it is retried from memory only", what)
            self.courier.later(channel if key is None else key, retry, what)
        self.on_change()

    async def _deliver_others(self, reply: Reply, caller: Caller, message: Any) -> None:
        """Other players' private parts: by DM when they asked for it (never in public) — for
        a player whose turn starts, their "your turn" with a link to the post. Everyone else
        reads what happened since their last turn in their panel ("Take your turn"), worked
        out again from the stored log then."""
        by_user: dict[int, list[Private]] = {}
        for part in reply.private:
            if part.user != caller.user and part.dm:
                by_user.setdefault(part.user, []).append(part)
        link = message.jump_url if message is not None else None
        for user, parts in by_user.items():
            await self._direct(user, parts, reply, caller.channel, link, turn=True)


def choices_key(choices: list[tuple[str, str]]) -> str:
    """A short hash of a decision's actions and labels: the plan menu carries it, so a pick
    from a menu whose decision changed is recognised."""
    return hashlib.sha256(repr(choices).encode()).hexdigest()[:12]
