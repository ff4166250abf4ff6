"""What happens when someone uses a command, presses a button or picks an action.

Slash commands and components both land here, so the flow is the same whatever
the entry point:

1. Acknowledge first (an ephemeral "thinking" deferral, or a deferred update for
   a menu pick) — before storage or rendering, so Discord's 3 s limit always holds.
2. Ask the service (it decides everything: who may, what is legal, what to say).
3. Refusals go only to the caller, ephemerally, with the service's reason.
4. Anything public is posted as a *new* channel message — edits of a deferred
   reply never notify anyone, a new message does — with `allowed_mentions` naming
   exactly the users the service named, the board image with its alt text, and a
   persistent "Take your turn" button carrying the table id and state version.
5. The caller's private parts (a hand, "since your last turn") go into their
   ephemeral reply, or by direct message when they opted in; other players'
   private parts go by direct message through `Courier` (falling back to a
   channel mention when DMs are closed).
6. A post or DM that fails is handed to the service's outbox (`Service.enqueue`,
   its own transaction) and delivered by the dispatcher — after a restart too.
   The move itself was stored before any of this; now its announcement is as well.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord

import engine

from . import messages
from .courier import UNDELIVERED, Courier
from .link import Caller, ServiceLink
from .ranking import rank
from .views import menu_view

if TYPE_CHECKING:  # the service's plain data, as the adapter receives it
    from ..service import Private, Reply

log = logging.getLogger(__name__)

#: Commands whose answer only the caller needs (ephemeral). Everything else that
#: succeeds is posted to the channel for all players.
QUIET = frozenset({"hand", "log", "rules", "settings", "games", "status", "history", "stats", "export"})
#: The largest exported game `/game new export:` reads (a long game's export is a few hundred KB).
EXPORT_LIMIT = 8 * 1024 * 1024
#: The name an attached export goes by in the command handed to the service (`from=export`).
EXPORT = "export"


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
    def __init__(self, link: ServiceLink, courier: Courier, on_change: Callable[[], None] = lambda: None) -> None:
        self.link = link
        self.courier = courier
        #: Called after every command: it may have queued notices (the dispatcher wakes up).
        self.on_change = on_change

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
        try:
            reply = await self.link.command(caller, command, args, files=files)
        except Exception:
            log.exception("command %s failed", command)
            await self._say(interaction, "Sorry, something went wrong on my side. Please try again.")
            return
        self.on_change()
        if reply.error or command.split()[0] in QUIET:
            await self._private_answer(interaction, caller, reply, include_text=True)
            return
        if reply.panel:  # the caller's turn goes on: their panel, nothing in the channel
            await self._show_panel(interaction, caller, reply, fallback=self._say)
            return
        buttons = None
        if (
            command == "undo"
            and not args
            and reply.mentions
            and reply.table_id is not None
            and reply.version is not None
            and not reply.choices
        ):
            buttons = "undo"  # a request: the others answer by button
        await self._publish(interaction, caller, reply, buttons=buttons)

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
        try:
            reply = await self.link.command(inside, "game new", " ".join(words), files=files)
        except Exception:
            log.exception("game new in a thread failed")
            reply = None
        self.on_change()
        if reply is None or reply.error:
            await room.delete()  # nothing lives in it: no empty thread is left behind
            await self._say(
                interaction,
                reply.text if reply is not None else "Sorry, something went wrong on my side. Please try again.",
            )
            return
        try:
            await self.courier.post(room.id, reply)
        except UNDELIVERED as exc:
            log.warning("posting to thread %s failed (%s); it goes into the outbox", room.id, exc)
            await self._keep(room.id, reply, {}, "public message", lambda: self.courier.post(room.id, reply))
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

    async def answer_undo(self, interaction: discord.Interaction, table: int, version: int, answer: str) -> None:
        """Approve / Reject pressed under an undo request."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        caller = caller_of(interaction)
        try:
            current = await self.link.current(caller)
            if current is None or current.table != table:
                await self._say(interaction, GONE)
                return
            reply = await self.link.command(caller, "undo", answer, expected_version=version)
        except Exception:
            log.exception("undo answer failed")
            await self._say(interaction, "Sorry, something went wrong on my side. Please try again.")
            return
        self.on_change()
        if reply.error:
            text = stale_text(version, reply.version) + "\n" + reply.text if reply.stale else reply.text
            await self._say(interaction, text)
            return
        await self._publish(interaction, caller, reply)

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
            texts.append("Sorry, something went wrong on my side. Please try again.")
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
    async def open_menu(self, interaction: discord.Interaction, table: int, version: int) -> None:
        """ "Take your turn": the presser's turn panel, where their turn stands.

        Asks the service for `play` without an action against the button's version:
        a stale version is refused by the service, a player who must act gets their
        panel (this turn so far and their choices, from the stored log: the same after
        a restart), anyone else the reason (not your turn, not a player)."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        caller = caller_of(interaction)
        head = ""
        try:
            reply = await self.link.command(caller, "play", "", expected_version=version)
            if reply.stale and reply.table_id == table:
                # an older message's button: the panel where the turn stands now (the press
                # played nothing); the older-turn note only for a presser who no longer acts
                reply = await self.link.command(caller, "play", "")
                if not reply.panel:
                    head = stale_text(version, reply.version)
        except Exception:
            log.exception("menu failed")
            await self._say(interaction, "Sorry, something went wrong on my side. Please try again.")
            return
        if reply.table_id != table:  # finished, cancelled, or another game here now
            await self._say(interaction, GONE)
            return
        if not reply.panel:
            await self._say(interaction, "\n".join(t for t in (head, reply.text) if t))
            return
        summary = ""
        try:  # what the others did since the presser's last turn, worked out from the stored log
            summary = await self.link.since_last_turn(caller)
        except Exception:
            log.exception("summary failed")
        await self._show_panel(
            interaction, caller, reply, head="\n".join(t for t in (head, summary) if t), fallback=self._say
        )

    async def _show_panel(
        self,
        interaction: discord.Interaction,
        caller: Caller,
        reply: Reply,
        *,
        head: str = "",
        fallback: Callable[[discord.Interaction, str], Awaitable[None]],
    ) -> None:
        """Edit the caller's ephemeral message into their turn panel for `reply.version`:
        what their turn holds so far, what is decided now, and one click per choice
        (with "Undo my last step" while the turn lasts). Without choices (their part of a
        simultaneous step is done) the panel says whom it waits for."""
        own = [p.text for p in reply.private_for(caller.user)]
        actions = reply.choices.get(caller.user) or []
        lines = [t for t in (head, *own) if t]
        if not actions or reply.table_id is None or reply.version is None:
            await fallback(interaction, "\n".join(lines) or reply.text or "✅ Done.")
            return
        view, shown = menu_view(
            reply.table_id, reply.version, actions, undo=reply.turn_steps > 0, key=reply.keys.get(caller.user, "")
        )
        lines.append(f"Your move — {len(actions)} legal action{'s' if len(actions) != 1 else ''}:")
        if shown < len(actions):
            lines.append(f"(the menu shows {shown}; type `/play` to reach the others)")
        await interaction.edit_original_response(
            content=messages.clip("\n".join(lines)), view=view, allowed_mentions=messages.NO_PINGS
        )

    async def play_choice(
        self, interaction: discord.Interaction, table: int, version: int, action: str, key: str | None = None
    ) -> None:
        """A pick from the panel: play it against the decision the panel was made for, then
        edit the same panel in place to the next step (no channel post while the turn lasts)."""
        await interaction.response.defer()  # deferred update of the panel message itself
        await self._panel_step(interaction, table, version, "play", action, key)

    async def undo_step(self, interaction: discord.Interaction, table: int, version: int) -> None:
        """ "Undo my last step" in the panel: the service takes it back (alone when it revealed
        nothing and nobody acted since, else it asks the others, in the channel)."""
        await interaction.response.defer()
        await self._panel_step(interaction, table, version, "undo", "")

    async def _panel_step(
        self,
        interaction: discord.Interaction,
        table: int,
        version: int,
        command: str,
        args: str,
        key: str | None = None,
    ) -> None:
        caller = caller_of(interaction)
        try:
            current = await self.link.current(caller)
            if current is None or current.table != table:
                await self._menu_done(interaction, GONE)
                return
            reply = await self.link.command(caller, command, args, expected_version=version, expected_choice=key)
        except Exception:
            log.exception("panel %s failed", command)
            await self._menu_done(interaction, "Sorry, something went wrong on my side. Please try again.")
            return
        self.on_change()
        if reply.stale and reply.table_id == table:
            try:
                fresh = await self.link.command(caller, "play", "")
            except Exception:
                log.exception("fresh menu failed")
                fresh = reply
            await self._show_panel(
                interaction, caller, fresh, head=stale_text(version, reply.version), fallback=self._menu_done
            )
            return
        if reply.error:  # refused (nothing to undo, say): the reason above the same panel
            try:
                fresh = await self.link.command(caller, "play", "")
            except Exception:
                log.exception("fresh menu failed")
                fresh = reply
            await self._show_panel(interaction, caller, fresh, head="❌ " + reply.text, fallback=self._menu_done)
            return
        if reply.panel:
            await self._show_panel(interaction, caller, reply, fallback=self._menu_done)
            return
        buttons = "undo" if command == "undo" and reply.mentions and not reply.choices else None
        message = await self._post_public(interaction, reply, buttons=buttons)
        note = "✅ Your turn is over." if command == "play" else "✅ Done."
        if message is not None:
            note += f" {message.jump_url}"
        if reply.choices.get(caller.user):  # the turn came back to the caller: the panel goes on
            await self._show_panel(interaction, caller, reply, head=note, fallback=self._menu_done)
        else:
            await self._menu_done(interaction, note)
        await self._deliver_others(reply, caller, interaction.channel_id)

    # ----- delivery -------------------------------------------------------------------------
    async def _publish(
        self, interaction: discord.Interaction, caller: Caller, reply: Reply, *, buttons: str | None = None
    ) -> None:
        message = await self._post_public(interaction, reply, buttons=buttons) if (reply.text or reply.image) else None
        if reply.choices.get(caller.user) and buttons is None:
            # the caller acts next (they started the game, or the turn came back to them): their panel
            note = "✅ Posted." + (f" {message.jump_url}" if message is not None else "")
            await self._show_panel(interaction, caller, reply, head=note, fallback=self._say)
        else:
            await self._private_answer(interaction, caller, reply, include_text=False, posted=message)
        await self._deliver_others(reply, caller, interaction.channel_id)

    async def _post_public(
        self, interaction: discord.Interaction, reply: Reply, *, buttons: str | None = None
    ) -> discord.Message | None:
        """The one public message of a command: text, board image, exact mentions, turn button.

        If Discord refuses it or cannot be reached, it goes into the outbox instead
        (None is returned): delivered by the dispatcher, after a restart too."""
        channel = interaction.channel_id or 0
        try:
            return await self.courier.post(channel, reply, buttons=buttons)
        except UNDELIVERED as exc:
            log.warning("posting to channel %s failed (%s); it goes into the outbox", channel, exc)
            public = dataclasses.replace(reply, private=[])  # private parts are delivered apart
            await self._keep(
                channel,
                public,
                {"buttons": buttons} if buttons else {},
                "public message",
                lambda: self.courier.post(channel, reply, buttons=buttons),
            )
            return None

    async def _direct(self, user: int, parts: list[Private], reply: Reply, channel: int | None) -> None:
        """DM private parts (closed DMs: a channel mention); a failed send goes into the outbox."""
        try:
            await self.courier.direct(user, parts, fallback_channel=channel)
        except UNDELIVERED as exc:
            log.warning("direct message to %s failed (%s); it goes into the outbox", user, exc)
            held = type(reply)(
                private=[dataclasses.replace(p, dm=True) for p in parts],
                game_id=reply.game_id,
                table_id=reply.table_id,
                version=reply.version,
            )
            await self._keep(
                channel or 0,
                held,
                {"dm": user},
                "direct message",
                lambda: self.courier.direct(user, parts, fallback_channel=channel),
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

    async def _private_answer(
        self,
        interaction: discord.Interaction,
        caller: Caller,
        reply: Reply,
        *,
        include_text: bool,
        posted: discord.Message | None = None,
    ) -> None:
        """The caller's ephemeral reply: refusals, quiet answers, their own private parts."""
        parts: list[str] = []
        files: list[discord.File] = []
        if include_text and reply.text:
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
            await self._direct(caller.user, dm_parts, reply, interaction.channel_id)
            parts.append("I sent you the private part by direct message.")
        if not parts:
            parts.append(f"✅ Done. {posted.jump_url}" if posted is not None else "✅ Done.")
        text = "\n\n".join(p for p in parts if p)
        pieces = messages.chunks(text)
        await interaction.edit_original_response(
            content=pieces[0], attachments=files[:10], allowed_mentions=messages.NO_PINGS
        )
        for more in pieces[1:]:
            await interaction.followup.send(more, ephemeral=True, allowed_mentions=messages.NO_PINGS)

    async def _deliver_others(self, reply: Reply, caller: Caller, channel_id: int | None) -> None:
        """Other players' private parts: by DM when they asked for it (never in public).
        The others' "since your last turn" is shown in their menu ("Take your turn"),
        worked out again from the stored log then (`Service.since_last_turn`)."""
        by_user: dict[int, list[Private]] = {}
        for part in reply.private:
            if part.user != caller.user and part.dm:
                by_user.setdefault(part.user, []).append(part)
        for user, parts in by_user.items():
            await self._direct(user, parts, reply, channel_id)

    async def _say(self, interaction: discord.Interaction, text: str) -> None:
        await interaction.edit_original_response(content=messages.clip(text), allowed_mentions=messages.NO_PINGS)

    async def _menu_done(self, interaction: discord.Interaction, text: str) -> None:
        """Replace the ephemeral menu by a line of text (its buttons are spent)."""
        await interaction.edit_original_response(
            content=messages.clip(text), view=None, allowed_mentions=messages.NO_PINGS
        )


GONE = "⌛ This button belongs to a game that is no longer running here."


def stale_text(version: int, now: int | None) -> str:
    """A press on an outdated message: say so clearly (the current menu follows, if any)."""
    moved = f" (it was made for version {version}; the game is at version {now})" if now is not None else ""
    return f"⌛ This button is from an older turn{moved}: the game has moved on, so nothing was played."
