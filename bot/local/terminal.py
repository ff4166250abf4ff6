"""The terminal table: the same service, driven from a keyboard or a script.

Hot seat: the players named at the start (separated by spaces or commas) share the
keyboard; the prompt shows whose turn it is, and each decision's choices are printed
once, grouped, in words with the action text to type (`Reply.decisions`), and again
whenever a bare `play` asks for the panel; a bare line is the command of the player to
act (`take 1` is short for `play take 1`), `bob: hand` speaks as another player. Board
images are written to a folder and their paths printed. A private part is headed with
its player's name, never a user id.

Script mode reads lines `<user> <command>` (a file or stdin) and prints every
reply: for tests, demos and bug reports. It never waits for a terminal. Its clock
stands still but for lines `wait 2d` (`3h`, `30m`), which move it on and run what
falls due on the way — reminders, clock warnings, a bank running out, the end of a
time away — in order (issue 27 §5); the hot-seat table keeps real time.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import logging
import re
import threading
import time
import zlib
from collections.abc import Awaitable, Callable, Iterable
from functools import partial
from pathlib import Path
from typing import TextIO

from ..durations import parse_duration
from ..service import Decision, Reply, Service
from ..service.clocks import LONGEST, moment
from ..service.telling import choice_lines
from ..service.text import names as join_names
from ..service.text import printable, quote, unreadable
from ..storage.base import StorageUnavailable

log = logging.getLogger(__name__)

#: The terminal is one "channel"; there is no server.
CHANNEL = 1

COMMANDS = {
    "game",
    "play",
    "board",
    "hand",
    "log",
    "rules",
    "undo",
    "resign",
    "vote",
    "resume",
    "settings",
    "bot",
    "back",
    "status",
    "games",
    "help",
    "new",
    "join",
    "leave",
    "start",
    "cancel",
    "list",
    "history",
    "stats",
    "export",
    "chart",
    "forget",
    "away",
}


def user_id(name: str) -> int:
    """A stable id for a player name, the same in every run (the database remembers seats by id)."""
    return zlib.crc32(name.strip().lower().encode("utf-8")) + 1


#: Where a script on a fresh database starts its clock: Monday 5 January 2026, 09:00 UTC.
#: Fixed, so the moments it prints ("runs out Saturday 00:00 UTC") are the same every run.
SCRIPT_START = 1_767_603_600.0


class ScriptClock:
    """The service's clock in script mode: `start` (the real time by default: a script on a
    database that is kept must not go back in time), moved on only by `wait` lines, so a
    script's times read the same however fast it runs."""

    def __init__(self, start: float | None = None) -> None:
        self.now = time.time() if start is None else start

    def __call__(self) -> float:
        return self.now


class Terminal:
    """Print replies for a terminal; write images into `images_dir`. `clock`: the service's
    clock when it is a `ScriptClock` (script mode: `wait` moves it)."""

    def __init__(
        self,
        service: Service,
        *,
        out: Callable[[str], None] = print,
        images_dir: str | Path = "epochs-images",
        channel: int = CHANNEL,
        clock: ScriptClock | None = None,
    ) -> None:
        self.service = service
        self.clock = clock
        #: Every line printed goes through `printable`: a name or note (or a row stored before
        #: names were cleaned) can never send the terminal an escape sequence.
        self.out: Callable[[str], None] = lambda line: out(printable(line))
        self.images_dir = Path(images_dir)
        self.channel = channel
        self.names: dict[int, str] = {}
        #: The decision key whose choices were printed last, per user: a decision is listed once
        #: (but for a bare `play`, which asks for the panel, choices and all).
        self.listed: dict[int, str] = {}
        #: The web table's links printed already (the table's, each seat's): each once.
        self.linked: set[str] = set()
        self._flushing = asyncio.Lock()

    # --------------------------------------------------------------- output
    def show(self, reply: Reply, speaker: str) -> None:
        if reply.headline is not None:
            self._link("The table on the web (anyone with the link can watch)", reply.headline.table_url)
        if reply.text:
            prefix = "! " if reply.error else ""
            self.out(prefix + reply.text)
        if reply.image is not None:
            self.out(f"[board image: {self._save(reply.image.png, reply, 'board')}]")
        for file in reply.files:
            what = "chart image" if file.kind == "chart" else "file"
            self.out(f"[{what}: {self._save(file.data, reply, file.filename, exact=True)}]")
        decided = dict(reply.decisions)
        for part in reply.private:
            who = self._who(part.user, part.name)
            self.out(f"--- private to {who} (others look away) ---")
            self.out(part.text)
            decision = decided.pop(part.user, None)
            if decision is not None:
                self._list(decision)
            if part.image is not None:
                self.out(f"[{who}'s private image: {self._save(part.image.png, reply, who)}]")
            self.out("--- end of private part ---")
        for decision in decided.values():  # a decision without a private part (`board`): its choices, once
            if self.listed.get(decision.user) != decision.key:
                self.out(f"--- private to {self._who(decision.user, decision.name)} (others look away) ---")
                self.out(f"Now: {decision.prompt}")
                self._list(decision)
                self.out("--- end of private part ---")

    def _who(self, user: int, name: str) -> str:
        """A player's name for a private part's heading (never their user id)."""
        return name or self.names.get(user) or "a player"

    def _list(self, decision: Decision) -> None:
        """The choices of `decision`, unless they were printed already."""
        if self.listed.get(decision.user) != decision.key:
            self.listed[decision.user] = decision.key
            for line in choice_lines(decision):
                self.out(line)
            self._link(f"{decision.name}'s seat on the web (private: it acts for {decision.name})", decision.seat_url)

    def _link(self, what: str, url: str) -> None:
        """A web table link, the first time it comes ("" when the web table is off)."""
        if url and url not in self.linked:
            self.linked.add(url)
            self.out(f"{what}: {url}")

    def _save(self, data: bytes, reply: Reply, what: str, *, exact: bool = False) -> Path:
        """Write an image (or, `exact`, a file under its own name) into the images folder."""
        self.images_dir.mkdir(parents=True, exist_ok=True)
        safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in what).lstrip(".") or "file"
        name = safe if exact else f"table{reply.table_id or 0}-v{reply.version or 0}-{safe}.png"
        path = self.images_dir / name
        path.write_bytes(data)
        return path.resolve()

    async def say(self, name: str, line: str) -> Reply:
        """Run one line as player `name` and print the answer."""
        uid = user_id(name)
        self.names[uid] = name
        words = line.split()
        if words and words[0].lower().lstrip("/") not in COMMANDS:
            line = "play " + line
        if [w.lower().lstrip("/") for w in words] == ["play"]:  # the panel asked for: its choices again
            self.listed.pop(uid, None)
        files = {}
        lowered = [w.lower().lstrip("/") for w in words]
        opening = lowered[:2] == ["game", "new"] or lowered[:1] == ["new"]
        for word in words if opening else []:  # `game new from=FILE at=N`: the terminal reads the export
            if word.lower().startswith("from="):
                try:
                    files[word[5:]] = Path(word[5:]).expanduser().read_bytes()
                except OSError as err:
                    self.out(f"! cannot read {word[5:]}: {err.strerror or err}")
                    return Reply(f"cannot read {word[5:]}", error=True)
        reply = await self.service.handle(self.channel, uid, name, line, files=files)
        self.show(reply, name)
        try:
            await self.flush()
        except StorageUnavailable as err:  # the reply told the player; the notices wait in the outbox
            log.warning("notices not read: %s", err.reason)
        return reply

    async def flush(self) -> None:
        """Print notices waiting in the outbox (reminders, the turns bots played, moves made on
        the web table), and mark them delivered; bots to act play first, so a solo game runs
        on to the next person."""
        async with self._flushing:  # the follower and a command never print one notice twice
            await self._flush()

    async def _flush(self) -> None:
        for _ in range(10_000):
            notices = [n for n in await self.service.tick() if n.channel == self.channel]
            for notice in notices:
                self.show(await self.service.prepare(notice), "")
                await self.service.delivered(notice.id)
            if not notices and not self.service.bots_thinking():
                return
            await self.service.settle_bots()

    # --------------------------------------------------------------- script
    async def run_script(self, lines: Iterable[str]) -> int:
        """Lines `<user> <command>`; '#' starts a comment. Returns the number of refused commands."""
        refused = 0
        for number, raw in enumerate(lines, 1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            if unreadable(line):
                self.out(f"! line {number} is not UTF-8 text (it holds bytes no character is made of); skipped.")
                refused += 1
                continue
            name, _, command = line.partition(" ")
            name = name.rstrip(":")
            if name.lower() == "wait":
                self.out(f"> {line}")
                refused += not await self.wait(command.strip())
                continue
            if not command.strip():
                self.out(f"! {quote(line, 60)}: a line is `<user> <command>`")
                refused += 1
                continue
            self.out(f"> {name}: {command.strip()}")
            reply = await self.say(name, command.strip())
            refused += reply.error
        return refused

    async def wait(self, length: str) -> bool:
        """`wait 2d`: move the script's clock on, running everything that falls due on the way
        at its own moment (`Service.tick` at each reminder row's time, soonest first), so a
        reminder, a warning and a bank running out come in order and are printed as they
        happen. False (and why) when the length cannot be read, or the table keeps real time."""
        seconds = parse_duration(length)
        if self.clock is None:
            self.out("! `wait` works in scripts (`epochs script`); this table keeps real time.")
            return False
        if seconds is None or seconds > LONGEST:
            self.out(
                f"! {quote(length, 20)}: `wait` takes a time with its unit, up to 60 days: `wait 2d`, `3h`, `30m`."
            )
            return False
        target = self.clock.now + seconds
        for _ in range(10_000):
            await self.flush()  # what is due now, and the bots' moves it sets off
            later = [due for due in await self.service.due_times(target) if due > self.clock.now]
            if not later:
                break
            self.clock.now = min(later)
        self.clock.now = target
        await self.flush()
        self.out(f"(the clock reads {moment(target, target)})")
        return True

    # ---------------------------------------------------------- interactive
    async def current(self) -> tuple[str | None, list[str], Decision | None]:
        """(game title, names of players who must act, the decision of the first)."""
        acting = await self.service.people_to_act(self.channel)  # a bot plays by itself: not among them
        if acting is None:
            return None, [], None
        rec, people = acting
        for s in rec.seats:
            self.names[s.user] = s.name
        decision = await self.service.decision_for(self.channel, people[0].user) if people else None
        return self.service.games[rec.game].title, [p.name for p in people], decision

    async def setup_table(self, ask: Callable[[str], str | Awaitable[str]]) -> bool:
        """Resume the open table, or ask for a game and players and start one."""
        rec = await self.service.open_table(self.channel)
        if rec is not None and rec.status in ("active", "paused"):
            self.out(
                f"Resuming the {self.service.games[rec.game].title} game of "
                f"{join_names([s.name for s in rec.players])}."
            )
            for s in rec.seats:
                self.names[s.user] = s.name
            if self.service.links is not None:
                self._link(
                    "The table on the web (anyone with the link can watch)", self.service.links.table_url(rec.id)
                )
            return True
        if rec is not None:  # an unfinished lobby from an earlier run
            await self.service.handle(self.channel, rec.creator, "host", "game cancel", admin=True)
        games = list(self.service.games)
        if not games:
            self.out("No games are installed.")
            return False
        self.out("Games: " + ", ".join(f"{g} ({self.service.games[g].title})" for g in games))
        game_id = (await _answer(ask, f"Game [{games[0]}]: ")).strip().lower() or games[0]
        game = self.service.games.get(game_id)
        if game is None:
            self.out(f"No game {game_id!r}.")
            return False
        default = " ".join(["ann", "bob", "cy", "dee", "eve", "fay"][: game.min_players])
        count = (
            str(game.min_players) if game.min_players == game.max_players else f"{game.min_players}-{game.max_players}"
        )
        typed = await _answer(
            ask,
            f"Players, separated by spaces or commas ({count}; `bot`, `bot:easy` or `bot:strong` "
            f"seats a fill-in bot) [{default}]: ",
        )
        names = listed_names(typed) or default.split()
        people = [n for n in names if not _bot_word(n)]
        if not people:
            self.out("Someone must play: name at least one player beside the bots.")
            return False
        if len({n.lower() for n in people}) != len(people):
            self.out("Player names must differ.")
            return False
        if (await self.say(people[0], f"game new {game_id}")).error:
            return False
        for name in people[1:]:
            await self.say(name, "game join")
        for word in filter(_bot_word, names):
            await self.say(people[0], f"game bot {_bot_word(word)}")
        return not (await self.say(people[0], "game start")).error

    async def run_interactive(
        self, ask: Callable[[str], str | Awaitable[str]] = input, *, follow: float | None = None
    ) -> None:
        """The hot-seat loop, until `quit` or end of input. `ask` may answer later (a keyboard
        read on a thread, so the web table serves meanwhile); `follow`: print what comes into
        the outbox (moves made on the web table) every so many seconds while waiting."""
        follower = asyncio.get_running_loop().create_task(self._follow(follow)) if follow else None
        try:
            await self._interactive(ask)
        finally:
            if follower is not None:
                follower.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await follower

    async def _follow(self, every: float) -> None:
        while True:
            await asyncio.sleep(every)
            try:
                await self.flush()
            except StorageUnavailable as err:
                log.warning("notices not read: %s", err.reason)

    async def _interactive(self, ask: Callable[[str], str | Awaitable[str]]) -> None:
        self.out(
            "Epochs terminal table. Type `help` for commands, `quit` to leave; "
            "`name: command` speaks as another player."
        )
        try:
            if not await self.setup_table(ask):
                return
            while True:
                try:
                    title, acting, decision = await self.current()
                except StorageUnavailable:
                    self.out(
                        "! The database cannot be reached; whose turn it is cannot be read. Try again in a moment."
                    )
                    title, acting, decision = None, [], None
                if acting:
                    self.out(f"\n[{title}] {' and '.join(acting)} to act.")
                    if decision is not None and self.listed.get(decision.user) != decision.key:
                        self.out(f"Now: {decision.prompt}")
                        self._list(decision)  # (printed once: a reply that offered it listed it already)
                    speaker = acting[0]
                else:
                    speaker = next(iter(self.names.values()), "host")
                line = (await _answer(ask, f"{speaker}> ")).strip()
                if line.lower() in ("quit", "exit"):
                    return
                if not line:
                    continue
                head, sep, rest = line.partition(":")
                if sep and head.strip() and " " not in head.strip():
                    speaker, line = head.strip(), rest.strip()
                await self.say(speaker, line)
        except (EOFError, KeyboardInterrupt):
            self.out("")


def keyboard(prompt: str) -> asyncio.Future[str]:
    """`input(prompt)` on a daemon thread, answered in the event loop (so the web table serves
    meanwhile). Not `asyncio.to_thread`: a thread still waiting for a line would hold up the
    interpreter's exit after Ctrl-C until someone pressed Enter."""
    loop = asyncio.get_running_loop()
    answer: asyncio.Future[str] = loop.create_future()

    def settle(outcome: Callable[[], None]) -> None:
        if not answer.done():
            outcome()

    def read() -> None:
        try:
            line = input(prompt)
        except BaseException as err:  # EOFError, KeyboardInterrupt: the loop decides
            loop.call_soon_threadsafe(settle, partial(answer.set_exception, err))
        else:
            loop.call_soon_threadsafe(settle, partial(answer.set_result, line))

    threading.Thread(target=read, name="keyboard", daemon=True).start()
    return answer


async def _answer(ask: Callable[[str], str | Awaitable[str]], prompt: str) -> str:
    """What the player typed: `ask` answers at once (`input`) or later (read on a thread)."""
    answer = ask(prompt)
    return await answer if inspect.isawaitable(answer) else answer


def listed_names(typed: str) -> list[str]:
    """The names in a typed list, commas and spaces alike ("ann, bot, bot" is ann and two
    bots): a name is one word, so neither separator belongs to one."""
    return [name for name in re.split(r"[,\s]+", typed) if name]


def _bot_word(name: str) -> str:
    """`bot` -> "normal", `bot:easy` -> "easy": a fill-in bot asked for at the terminal ("" for a person)."""
    low = name.lower()
    if low == "bot":
        return "normal"
    return low.split(":", 1)[1] if low.startswith("bot:") else ""


def read_lines(stream: TextIO) -> Iterable[str]:
    for line in stream:
        yield line.rstrip("\n")
