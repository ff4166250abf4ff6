"""`epochs` / `python -m bot`: the Discord bot, or a terminal table without a token.

    epochs                 Discord when a token is configured; otherwise the
                           terminal table (or, when stdin is not a terminal,
                           script mode on stdin, so it never waits for input)
    epochs discord         the Discord bot (needs DISCORD_TOKEN or config token)
    epochs local           the hot-seat terminal table
    epochs script [FILE]   read `<user> <command>` lines from FILE (or stdin, `-`);
                           a line `wait 2d` (3h, 30m) moves the script's clock on
    epochs migrate FROM TO copy every game from one database to another, empty one
                           (SQLite file or postgresql:// URL) and verify the copy
    epochs replay FILE [--to N] [--out IMAGE]
                           replay an exported game, checking every step, and write
                           the board image of the position reached
    epochs ratings [--rebuild]
                           fold every counted record into ratings again and report
                           the stored ones that differ; --rebuild stores the fold's

Options: --config PATH (default $EPOCHS_CONFIG or ./config.toml), --db PATH.
"""

from __future__ import annotations

import argparse
import io
import logging
import os
import signal
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from .config import Config, ConfigError, load_config

if TYPE_CHECKING:  # the service is imported when a mode needs it (the help answers at once)
    from .service import Service

log = logging.getLogger("epochs")


def _common(parser: argparse.ArgumentParser, default: object = None) -> None:
    """--config and --db, accepted before the mode (`epochs --db F script`) and after it
    (`epochs script --db F`); after the mode the default is SUPPRESS, so a value given
    before it is not overwritten."""
    parser.add_argument("--config", default=default, help="config file (default: $EPOCHS_CONFIG or ./config.toml)")
    parser.add_argument(
        "--db", default=default, help="SQLite database file or postgresql:// URL (overrides the config)"
    )


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="epochs", description="Epochs: civilization board games by message.")
    _common(parser)
    sub = parser.add_subparsers(dest="mode")
    _common(sub.add_parser("discord", help="run the Discord bot"), argparse.SUPPRESS)
    _common(sub.add_parser("local", help="play at this terminal (hot seat)"), argparse.SUPPRESS)
    script = sub.add_parser("script", help="read '<user> <command>' lines (and 'wait 2d') and print the replies")
    _common(script, argparse.SUPPRESS)
    script.add_argument("file", nargs="?", default="-", help="a file of lines, or - for stdin")
    migrate = sub.add_parser("migrate", help="copy every game into another, empty database and verify the copy")
    migrate.add_argument("source", metavar="FROM", help="the database to copy (SQLite file or postgresql:// URL)")
    migrate.add_argument("target", metavar="TO", help="an empty database to copy into (SQLite file or URL)")
    replay = sub.add_parser("replay", help="replay an exported game step by step and draw the position reached")
    _common(replay, argparse.SUPPRESS)
    replay.add_argument("file", help="a file written by `game export`")
    replay.add_argument("--to", type=int, default=None, help="stop after log line N (default: the end)")
    replay.add_argument("--out", default=None, help="where to write the board image (default: FILE-at-N.png)")
    ratings = sub.add_parser(
        "ratings", help="recompute every rating from the records and report the stored ones that differ"
    )
    _common(ratings, argparse.SUPPRESS)
    ratings.add_argument(
        "--rebuild", action="store_true", help="store the recomputed ratings (without it nothing is written)"
    )
    return parser


async def make_service(
    config: Config,
    database: str,
    *,
    images: bool = True,
    web: bool = False,
    clock: Callable[[], float] | None = None,
) -> Service:
    """Open the storage and build the service (inside the running event loop); with `web`,
    start the web table beside it as `[web]` says (it stops when the service closes).
    `clock`: the service's clock (script mode's; real time by default)."""
    from .service import Service, Settings
    from .storage import open_storage

    storage = open_storage(database)
    await storage.open()
    settings = Settings.from_config(config, images=images)
    service = Service(storage, settings=settings) if clock is None else Service(storage, settings=settings, clock=clock)
    if web:
        from .web import open_web

        try:
            await open_web(service, config)
        except BaseException:
            await service.close()
            raise
    return service


async def _local(config: Config, database: str, mode: str, file: str | None, *, fresh: bool = False) -> int:
    """The terminal table or a script; `fresh`: the script's database is a new temporary one."""
    from .local import SCRIPT_START, ScriptClock, Terminal, keyboard, read_lines

    # the web table runs beside the terminal table; a script ends with its input, and its
    # output must be the same every run (bot/web/README.md, "Which modes serve it"): its clock
    # moves only with `wait` lines (issue 27 §5), from a fixed moment on a fresh database
    clock = ScriptClock(SCRIPT_START if fresh else None) if mode == "script" else None
    service = await make_service(config, database, web=mode != "script", clock=clock)
    try:
        terminal = Terminal(service, images_dir=config.images_dir, clock=clock)
        if mode == "script":
            # bytes that are not UTF-8 come through as lone surrogates, and the script refuses
            # that line, saying which, instead of ending at it
            if file in (None, "-"):
                if isinstance(sys.stdin, io.TextIOWrapper):
                    sys.stdin.reconfigure(errors="surrogateescape")
                refused = await terminal.run_script(read_lines(sys.stdin))
            else:
                with open(file, encoding="utf-8", errors="surrogateescape") as handle:
                    refused = await terminal.run_script(read_lines(handle))
            print(f"({refused} command(s) refused)" if refused else "(all commands accepted)")
        elif service.links is not None:
            # the keyboard is read on a thread, so the web table answers meanwhile; moves made
            # on its pages are printed as they come
            await terminal.run_interactive(keyboard, follow=1.0)
        else:
            await terminal.run_interactive()
        return 0
    finally:
        await service.close()


#: The exit status of a command whose output was closed early (`epochs script ... | head`):
#: what a shell reports for a process ended by SIGPIPE (128 + 13).
CLOSED_OUTPUT = 128 + signal.SIGPIPE


def main(argv: Sequence[str] | None = None) -> int:
    from .storage import StorageError

    _printable_output()
    try:
        code = _main(argv)
        sys.stdout.flush()  # inside the try: a reader gone by now is a closed output as well
        return code
    except StorageError as err:
        # A database that cannot be used (damaged, newer, unreachable): say which and
        # why, and stop at once; the file was not written to.
        print(f"epochs: {err}", file=sys.stderr)
        return 3
    except BrokenPipeError:
        return _output_closed()


def _printable_output() -> None:
    """Text that this terminal's encoding cannot show (a lone surrogate from a file, an emoji
    on an ASCII console) is printed escaped (`\\udc80`) rather than ending the program."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")


def _output_closed() -> int:
    """Whoever read our output stopped reading (`| head`): end quietly, as a program killed by
    SIGPIPE does. Standard output is pointed at /dev/null first, so the interpreter's last
    flush at exit does not fail once more with its own message."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # no real file behind stdout (a test's capture)
        pass
    return CLOSED_OUTPUT


def _main(argv: Sequence[str] | None) -> int:
    import asyncio  # here, not at the top: the drawing workers import this module, and need no asyncio

    args = _parser().parse_args(argv)
    try:
        config = load_config(args.config)
    except ConfigError as err:
        print(f"epochs: {err}", file=sys.stderr)
        return 2
    logging.basicConfig(
        level=getattr(logging, config.log_level), format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    if config.data_dir:
        os.environ["EPOCHS_DATA_DIR"] = config.data_dir  # before the engine loads its data
    mode = args.mode
    if mode == "migrate":
        from .migrate import run

        return asyncio.run(run(args.source, args.target, warn=lambda text: print(text, file=sys.stderr)))
    if mode == "replay":
        from .replay import run as replay

        return replay(args.file, to=args.to, out=args.out)
    if mode == "ratings":
        from .service.ratings import run as ratings

        database = args.db or config.database
        return asyncio.run(ratings(database, write=args.rebuild, warn=lambda text: print(text, file=sys.stderr)))
    if mode is None:
        if config.has_token:
            mode = "discord"
        elif sys.stdin is not None and sys.stdin.isatty():
            mode = "local"
        else:
            mode = "script"
    database = args.db or config.database
    if mode == "script" and not args.db:
        # a script gets a fresh database (removed afterwards) unless told which one to use
        with tempfile.TemporaryDirectory(prefix="epochs-") as tmp:
            script = str(Path(tmp) / "script.sqlite")
            return asyncio.run(_local(config, script, mode, getattr(args, "file", None), fresh=True))
    if mode == "discord":
        if not config.has_token:
            print(
                "epochs: no Discord token: set DISCORD_TOKEN or [discord] token in config.toml "
                "(without one, `epochs local` plays at this terminal).",
                file=sys.stderr,
            )
            return 2
        try:
            from . import discord as adapter
        except ImportError as err:
            print(f"epochs: the Discord adapter cannot load: {err}", file=sys.stderr)
            return 2
        adapter.run(config, lambda: make_service(config, database, web=True))
        return 0
    if mode == "local":
        print("No Discord token configured: opening a terminal table. (Set DISCORD_TOKEN to run the bot on Discord.)")
    return asyncio.run(_local(config, database, mode, getattr(args, "file", None)))


if __name__ == "__main__":
    sys.exit(main())
