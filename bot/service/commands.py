"""The command table (issue 47): every command a player can type, and the part that runs it.

`Service.handle` reads the first word (`game new`, `games history`: the first two) and looks
the verb up here; nothing else finds a command, so a reader (or a tool) follows a command to
its code from this one table. `help` lists the same commands (tests/bot/test_commands.py).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from .core import Ctx
from .reply import Reply

if TYPE_CHECKING:
    from .absence import Absence
    from .away import Away
    from .bots import Bots
    from .lobby import Lobby
    from .moves import Moves
    from .pages import Pages
    from .plans import Plans
    from .prefs import Prefs
    from .records import Records
    from .undo import Undo

#: What `help` says: every command of the table (and what `help` is), in the players' words.
HELP = """Commands:
`game new <game> [option=value ...] [thread]` open a table here, or in a new thread (games: {games})
`game join` / `game leave` / `game bot [easy|normal|strong]` / `game start [fixed]` \
/ `game cancel` / `game status` / `games`
`play <action>` take your turn; `board`; `hand` (private); `log [n]`; `rules [topic]`
`plan <move>[; <move> ...]` moves played for you when your coming decisions come; `plan` / `plan clear` (private)
`undo` (then others: `undo approve` / `undo reject`); `resign`
`vote skip` / `vote replace` / `vote pause` (after {absent} unanswered reminders); `resume`; `game back`
`settings` / `settings remind <hours|off>` / `settings quiet <22-7> [utc+2]` / `settings quiet off`
`settings dm on|off` / `settings heads-up on|off`
`games history [n] [game]`; `stats [player] [game]`; `stats top <game>`; `game export`; `game chart`
`game new from=<export file> at=<step>` a new table from a position of an exported game
`games forget <id>` (server admins) deletes a game's history
`game link` your seat's page on the web table; `game link reset` a new one (older links stop working)
`away <time> [note]` / `away off` your clocks stand still in every game while you are away; `games mine`"""


#: A command's code: the context of the command and the words after its verb.
Handler = Callable[[Ctx, list[str]], Awaitable[Reply]]

#: `games <word>`: the server-wide commands beside the list of open games.
GAMES_COMMANDS = frozenset({"history", "forget", "mine"})


def command_table(
    *,
    help: Handler,
    lobby: Lobby,
    moves: Moves,
    undo: Undo,
    absence: Absence,
    bots: Bots,
    prefs: Prefs,
    records: Records,
    pages: Pages,
    away: Away,
    plans: Plans,
) -> dict[str, Handler]:
    """Every command by the words that name it (as `help` writes them), with its code."""
    return {
        "help": help,
        "game new": lobby.new,
        "game join": lobby.join,
        "game leave": lobby.leave,
        "game bot": bots.bot,
        "game start": lobby.start,
        "game cancel": lobby.cancel,
        "game status": lobby.status,
        "games": lobby.games,
        "play": moves.play,
        "plan": plans.command,
        "board": moves.board,
        "hand": moves.hand,
        "log": moves.log,
        "rules": moves.rules,
        "undo": undo.undo,
        "resign": undo.resign,
        "vote": absence.vote,
        "resume": absence.resume,
        "game back": bots.back,
        "settings": prefs.settings,
        "games history": records.history,
        "stats": records.stats,
        "game export": records.export,
        "game chart": records.chart_command,
        "games forget": records.forget,
        "game link": pages.link,
        "away": away.away,
        "games mine": away.mine,
    }


def verb(phrase: str) -> str:
    """The word a command is found by: its last (`game new` -> `new`, `games mine` -> `mine`);
    the list of open games, `games`, is `list` (`games` alone, or followed by other words)."""
    return "list" if phrase == "games" else phrase.split()[-1]


def parse(words: list[str]) -> tuple[str, list[str]]:
    """The verb of a command's words and the words after it: `game new x` -> (`new`, [`x`]),
    `game` alone -> `status`, `games history 5` -> (`history`, [`5`]), `games` -> `list`; any
    other first word is the verb itself (`join`, `export`: the Discord commands send those)."""
    verb, rest = words[0].lower().lstrip("/"), words[1:]
    if verb == "game":
        if not rest:
            return "status", []
        return rest[0].lower(), rest[1:]
    if verb == "games":
        return (rest[0].lower(), rest[1:]) if rest and rest[0].lower() in GAMES_COMMANDS else ("list", rest)
    return verb, rest
