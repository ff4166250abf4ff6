"""People playing on the loopback Discord as they would on a phone: only by pressing.

`Table.play` plays a whole game (or a number of steps) in one channel through the
real bot: a person who must act (read from storage, as a scripted player watching the
game would know) opens their turn panel with the "Take your turn" button — on the
channel's newest post, or in their direct messages when they asked for them — and
picks a random legal action through whatever the panel offers: a button, a select
menu, a menu of groups leading to its choices, the next page of a long list. Nothing
is typed. While their turn lasts they go on in the same panel.

Every pick is written down as a `Stretch`: what the panel showed, and what reached
the players between the press and the moment the bots were done (posts, direct
messages, who was pinged). The benchmark counts them (`python -m tests.bench discord
turns`) and the tests assert on them (tests/discord/test_phone.py).
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import engine
from tests.discord.emulator import EPHEMERAL, DiscordEmulator, Interaction, User, components
from tests.discord.limits import BUTTON, SECTION, TEXT, walk

#: Where a user's direct messages land in the emulator.
DM_BASE = 500_000
#: How long a person waits for the ping of their turn before acting anyway (seconds).
PING_PATIENCE = 3.0


@dataclass
class Panel:
    """A turn panel as one pick saw it."""

    user: int
    text: str  # what the panel reads, the choices' own words apart
    choice_words: str  # the words of the choices shown as text (sections beside their buttons)
    prompt: str  # the decision's prompt, from the service
    prompt_shown: bool
    prompt_first: bool
    options: int  # select options that stand for an action
    options_missing_detail: int  # of those, where the engine gives a detail the option lacks
    navigations: int  # presses to reach the chosen action (group menu, pages)
    reachable: bool  # the chosen action could be reached


@dataclass
class Stretch:
    """One pick and what followed it until the bots were done."""

    caller: int
    action: str
    panel: Panel
    before: set[int]  # persons acting before the pick
    after: set[int]  # persons acting once everything settled
    bots_moved: int  # bot steps in the stretch
    posts: list[dict] = field(default_factory=list)  # public posts in the game's channel
    dms: list[dict] = field(default_factory=list)  # direct messages
    pressed_at: float = 0.0
    over: bool = False
    #: The caller's panel still offers choices after the pick (their turn goes on there).
    panel_open: bool = False

    @property
    def newly(self) -> set[int]:
        """The persons whose turn starts: not acting before, and the caller when they must act
        again but their panel was closed (their turn passed, to bots, and came back)."""
        fresh = self.after - self.before
        if self.caller in self.after and not self.panel_open:
            fresh.add(self.caller)
        return fresh

    def pings(self, user: int) -> int:
        """How often `user` was notified in the stretch: channel mentions and direct messages."""
        return sum(user in m["pinged"]["users"] for m in self.posts) + sum(
            int(m["channel_id"]) == DM_BASE + user for m in self.dms
        )


def dm_channel(user: int) -> int:
    return DM_BASE + user


def layout_texts(message: dict) -> tuple[str, str]:
    """(the text a message reads, the choices' words): a section whose accessory is an action
    button holds a choice's words; everything else is the panel's own text."""
    if not message["flags"] & (1 << 15):
        return message["text"], ""
    own: list[str] = []
    choices: list[str] = []
    for item in message.get("components") or []:
        for comp in [item, *walk(item.get("components"))]:
            if comp.get("type") == SECTION:
                target = choices if str(comp["accessory"].get("custom_id", "")).startswith("ep:do:") else own
                target.extend(t["content"] for t in comp.get("components") or [])
            elif comp.get("type") == TEXT and not _in_section(message, comp):
                own.append(comp["content"])
    return "\n".join(own), "\n".join(choices)


def _in_section(message: dict, text: dict) -> bool:
    return any(
        c.get("type") == SECTION and any(t is text for t in c.get("components") or [])
        for c in walk(message.get("components"))
    )


def action_ids(action: str, index: int) -> tuple[str, str]:
    """The two ways a component may name an action: its text, or its place in the list."""
    return action, f"#{index}"


class Table:
    """A game in one channel of the loopback Discord, played by pressing."""

    def __init__(self, harness: Any, emu: DiscordEmulator, channel: int = 1, *, seed: int = 1) -> None:
        self.harness = harness
        self.emu = emu
        self.channel = channel
        self.rnd = random.Random(seed)
        self.stretches: list[Stretch] = []
        self.panels: dict[int, int] = {}  # user -> their open panel's message id
        self.dm_users: set[int] = set()
        #: Filled in by whoever plays the table (the benchmark): the people, closed DMs, notices.
        self.people: set[int] = set()
        self.closed_dms: set[int] = set()
        self.nudges: list[dict] = []
        self.late: list[dict] = []

    # ---- storage, as a scripted player watching the game knows it -----------------------
    async def position(self) -> tuple[Any, Any, Any]:
        table = await self.harness.table(self.channel)
        game = engine.GAMES[table.game]
        state = game.loads((await self.harness.storage.snapshot(table.id))[1])
        return table, game, state

    async def acting_persons(self) -> set[int]:
        table, game, state = await self.position()
        if table.status != "active":
            return set()
        seats = set(game.to_act(state))
        return {s.user for s in table.seats if s.seat in seats and not s.bot and not s.resigned}

    async def bots_to_act(self) -> bool:
        table, game, state = await self.position()
        if table.status != "active":
            return False
        seats = set(game.to_act(state))
        return any(s.bot for s in table.seats if s.seat in seats)

    def bots_thinking(self) -> bool:
        """A bot's task is still at work (deciding, or storing and announcing its move)."""
        return self.harness.service.bots_thinking() > 0

    async def settle(self, *, outbox_grace: float = 2.0, bots_limit: float = 120.0) -> None:
        """Wait until no bot must act or is at work, then until the outbox is empty (at most
        `outbox_grace` seconds: a post held longer than that counts as held), then a moment for
        the sends."""
        deadline = time.perf_counter() + bots_limit
        while (await self.bots_to_act() or self.bots_thinking()) and time.perf_counter() < deadline:
            self.harness.bot.dispatcher.wake()  # a tick hands a due bot its table, as every round does
            await asyncio.sleep(0.05)
        deadline = time.perf_counter() + outbox_grace
        while await self.harness.storage.notices() and time.perf_counter() < deadline:
            await asyncio.sleep(0.05)
        for _ in range(5):
            await asyncio.sleep(0.01)

    # ---- the messages a person presses ---------------------------------------------------
    def newest_with_turn_button(self, user: int) -> dict | None:
        """Where `user` finds "Take your turn": their newest direct message with it (when they
        take their turns by DM), else the channel's newest post with it."""
        places = [dm_channel(user)] if user in self.dm_users else []
        places.append(self.channel)
        for place in places:
            for message in reversed(self.emu.channel_messages(place)):
                if message["flags"] & EPHEMERAL:
                    continue
                if any(c.get("custom_id", "").startswith("ep:turn:") for c in components(message)):
                    return message
        return None

    async def press(self, user: User, message: dict, custom_id: str) -> Interaction:
        inter = await self.emu.finished(await self.emu.press(user, message, custom_id), timeout=60)
        await self.harness.settle()
        return inter

    async def select(self, user: User, message: dict, custom_id: str, value: str) -> Interaction:
        inter = await self.emu.finished(await self.emu.select(user, message, custom_id, [value]), timeout=60)
        await self.harness.settle()
        return inter

    async def open_panel(self, user: User) -> dict | None:
        message = self.newest_with_turn_button(user.id)
        if message is None:
            return None
        button = next(c for c in components(message) if c.get("custom_id", "").startswith("ep:turn:"))
        inter = await self.press(user, message, button["custom_id"])
        self.panels[user.id] = inter.original_id or 0
        return self.emu.original(inter)

    # ---- reaching an action in a panel -----------------------------------------------------
    @staticmethod
    def find(panel: dict, action: str, index: int) -> tuple[str, str, str] | None:
        """("button", custom_id, "") or ("select", custom_id, value) offering `action`."""
        names = action_ids(action, index)
        for comp in components(panel):
            cid = comp.get("custom_id", "")
            if comp.get("type") == BUTTON and cid.startswith("ep:do:") and cid.split(":", 5)[5] in names:
                return "button", cid, ""
            if cid.startswith("ep:pick:"):
                for option in comp.get("options") or []:
                    if option["value"] in names:
                        return "select", cid, option["value"]
        return None

    @staticmethod
    def offered(panel: dict, legal: Sequence[str]) -> list[str]:
        """The actions a panel offers as it stands."""
        out = []
        for index, action in enumerate(legal):
            if Table.find(panel, action, index) is not None:
                out.append(action)
        return out

    async def navigate(self, user: User, panel: dict, group: str) -> dict | None:
        """One press towards the choices of `group`: pick it in the group menu, else the next page."""
        for comp in components(panel):
            cid = comp.get("custom_id", "")
            if cid.startswith("ep:grp:"):
                option = next((o for o in comp.get("options") or [] if o["label"] == group[:100]), None)
                if option is not None and not option.get("default"):
                    inter = await self.select(user, panel, cid, option["value"])
                    return self.emu.original(inter)
        for comp in components(panel):
            if comp.get("custom_id", "").startswith("ep:page:") and comp.get("label", "").startswith("Next"):
                inter = await self.press(user, panel, comp["custom_id"])
                return self.emu.original(inter)
        return None

    # ---- one pick ---------------------------------------------------------------------------
    async def pick(self, user: User) -> Stretch | None:
        """`user` (who must act) picks a random legal action in their panel; None when they
        had no panel to open."""
        service = self.harness.service
        table, game, state = await self.position()
        seat = table.seat_of(user.id).seat
        legal = game.legal_actions(state, seat)
        decision = await service.decision_for(self.channel, user.id)
        panel_id = self.panels.get(user.id)
        panel = self.emu.messages.get(panel_id) if panel_id else None
        if panel is None or not self.offered(panel, legal) and not self._navigable(panel):
            panel = await self.open_panel(user)
            if panel is None:
                return None
        action = self.rnd.choice(legal)
        group = next((c.group for c in decision.choices if c.action == action), "") if decision else ""
        navigations = 0
        while self.find(panel, action, legal.index(action)) is None and navigations < 12:
            moved = await self.navigate(user, panel, group)
            if moved is None:
                break
            panel, navigations = moved, navigations + 1
        reachable = self.find(panel, action, legal.index(action)) is not None
        if not reachable:  # (a panel that hides some actions): one of those it shows
            shown = self.offered(panel, legal)
            assert shown, f"the panel offers nothing: {panel['text'][:300]}"
            action = self.rnd.choice(shown)
        record = self._panel_record(user.id, panel, decision, navigations, reachable)
        before = await self.acting_persons()
        first = max(self.emu.messages, default=0)
        rows_before = len(await self.harness.storage.actions(table.id))
        kind, cid, value = self.find(panel, action, legal.index(action)) or ("", "", "")
        pressed_at = time.perf_counter()
        inter = await (self.select(user, panel, cid, value) if kind == "select" else self.press(user, panel, cid))
        self.panels[user.id] = inter.original_id or self.panels.get(user.id, 0)
        await self.settle()
        after_pick = self.emu.messages.get(self.panels[user.id]) or {}
        still_open = any(
            c.get("custom_id", "").startswith(("ep:do:", "ep:pick:", "ep:grp:")) for c in components(after_pick)
        )
        rows = (await self.harness.storage.actions(table.id))[rows_before:]
        table, game, state = await self.position()
        stretch = Stretch(
            user.id,
            action,
            record,
            before,
            await self.acting_persons(),
            sum(r.via == "bot" for r in rows),
            pressed_at=pressed_at,
            over=table.status == "finished",
            panel_open=still_open,
        )
        for mid, message in sorted(self.emu.messages.items()):
            if mid <= first or message["flags"] & EPHEMERAL:
                continue
            if int(message["channel_id"]) == self.channel:
                stretch.posts.append(message)
            elif int(message["channel_id"]) >= DM_BASE:
                stretch.dms.append(message)
        self.stretches.append(stretch)
        return stretch

    def _navigable(self, panel: dict) -> bool:
        return any(c.get("custom_id", "").startswith(("ep:grp:", "ep:page:")) for c in components(panel))

    def _panel_record(self, user: int, panel: dict, decision: Any, navigations: int, reachable: bool) -> Panel:
        text, words = layout_texts(panel)
        prompt = decision.prompt if decision is not None else ""
        details = {c.action: c.detail for c in decision.choices} if decision is not None else {}
        indexed = {f"#{i}": c.action for i, c in enumerate(decision.choices)} if decision is not None else {}
        options = missing = 0
        for comp in components(panel):
            if not comp.get("custom_id", "").startswith("ep:pick:"):
                continue
            for option in comp.get("options") or []:
                action = indexed.get(option["value"], option["value"])
                options += 1
                if details.get(action) and not option.get("description"):
                    missing += 1
        first_line = text.strip().splitlines()[0] if text.strip() else ""
        return Panel(
            user,
            text,
            words,
            prompt,
            bool(prompt) and prompt in text,
            bool(prompt) and prompt in first_line,
            options,
            missing,
            navigations,
            reachable,
        )

    async def play(self, steps: int = 100_000) -> None:
        """Pick after pick until the game ends (or `steps` picks): the person whose panel is
        open goes on while their turn lasts, else a random person who must act."""
        current: int | None = None
        for _ in range(steps):
            await self.settle()
            acting = await self.acting_persons()
            if not acting:
                table, _, _ = await self.position()
                if table.status != "active":
                    return
                await asyncio.sleep(0.05)
                continue
            if current not in acting:
                current = self.rnd.choice(sorted(acting))
                await self.wait_for_ping(current)
            stretch = await self.pick(self.emu.users[current])
            if stretch is None:
                current = None

    async def wait_for_ping(self, user: int, patience: float = PING_PATIENCE) -> bool:
        """A person waits a little for the notification of their turn (a held post comes late)."""
        last = self.stretches[-1] if self.stretches else None
        if last is None or user not in last.newly or last.pings(user):
            return True
        deadline = time.perf_counter() + patience
        while time.perf_counter() < deadline:
            await asyncio.sleep(0.05)
            for mid in sorted(self.emu.messages):
                message = self.emu.messages[mid]
                if message["flags"] & EPHEMERAL or any(message is m for m in last.posts + last.dms):
                    continue
                if message.get("at", 0) < last.pressed_at:
                    continue
                if int(message["channel_id"]) == self.channel:
                    last.posts.append(message)
                elif int(message["channel_id"]) >= DM_BASE:
                    last.dms.append(message)
            if last.pings(user):
                return True
        return False
