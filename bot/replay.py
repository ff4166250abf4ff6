"""`epochs replay FILE [--to N] [--out IMAGE]`: an exported game played again at the terminal.

The export (`game export`, bot/service/export.py) is replayed step by step against
this build's engine: every action must be legal for its seat when its turn comes,
and a game recorded as ended must end with the recorded scores and winners. The
log is printed as it goes (with the events the engine tells now; where the file
tells them otherwise, that is noted: wording may change between versions, the
rules may not), and the public board image of the position reached is written.

Exit status: 0 when every step replays; 1 when one does not (which step and why
are printed); 2 when the file is not a readable export or the game is unknown, or
the board image cannot be written. The file is text from anywhere: it is checked
before use (bot/service/intake.py), and nothing in it can end the command otherwise.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

import engine
from engine.core import Game

from .service import export
from .service.intake import MAX_BYTES
from .service.turns import VIA_MARKS

log = logging.getLogger(__name__)


def run(
    path: str | Path, *, to: int | None = None, out: str | Path | None = None, write: Callable[[str], None] = print
) -> int:
    path = Path(path)
    opened = _open(path, write)
    if isinstance(opened, int):
        return opened
    record, game = opened
    if record.seed is None:
        for line in record.lines:
            write(_line(record, line, line.events))
        write("This is a public export of a running game; " + export.PUBLIC_NOTE.split("; ", 1)[-1])
        write(f"epochs replay: {path} does not replay: setup: it holds no seed.")
        return 1
    try:
        position, differ = _replay(game, record, to, write)
    except export.ReplayError as err:
        write(f"epochs replay: {path} does not replay: {err}")
        return 1
    _tell_the_end(game, record, position, differ, to, write)
    return _write_board(game, position, Path(out) if out else Path(f"{path.stem}-at-{position.seq}.png"), write)


def _open(path: Path, write: Callable[[str], None]) -> tuple[export.Export, Game] | int:
    """The export in the file and its game, its heading written; else the exit status (2),
    with why written."""
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_BYTES + 1)  # a larger file is refused by its size, unread
        record = export.parse(data)
    except OSError as err:
        write(f"epochs replay: cannot read {path}: {err.strerror or err}")
        return 2
    except export.ExportError as err:
        write(f"epochs replay: {path}: {err}")
        return 2
    game = engine.GAMES.get(record.game)
    if game is None:
        write(
            f"epochs replay: {path} is a game of {record.game!r}, which this Epochs does not have "
            f"({', '.join(engine.GAMES)})."
        )
        return 2
    seats = ", ".join(f"{name} (seat {i})" for i, name in enumerate(record.names))
    write(f"{game.title}, game #{record.table}: {seats}.")
    if record.data_version and record.data_version != export.data_version(game):
        write(
            f"Note: the file was made with component data {record.data_version}; this Epochs plays "
            f"{export.data_version(game)}. Every step is checked all the same."
        )
    return record, game


def _replay(
    game: Game, record: export.Export, to: int | None, write: Callable[[str], None]
) -> tuple[export.Replayed, int]:
    """Every step up to `to` played again and written; the position reached and how many
    steps the engine told in other words than the file. ReplayError at a step that fails."""
    differ = 0
    steps = export.replay(game, record, to=to)
    position = next(steps)  # the setup
    for line in record.lines:
        if to is not None and line.seq > to:
            break
        if line.undone:
            write(_line(record, line, line.events))
            continue
        position = next(steps)
        write(_line(record, line, position.events))
        if line.events and line.events != position.events:
            differ += 1
            write("    (the file tells it: " + " ".join(line.events) + ")")
    for _ in steps:  # the end: a game recorded as ended must end as recorded
        pass
    return position, differ


def _tell_the_end(
    game: Game,
    record: export.Export,
    position: export.Replayed,
    differ: int,
    to: int | None,
    write: Callable[[str], None],
) -> None:
    """How many steps replayed, then the scores and winners, or who acts next."""
    state = position.state
    replayed = len(record.live(to))
    write(
        f"Replayed {replayed} step{'s' if replayed != 1 else ''}"
        + (f", up to #{position.seq}" if position.seq else "")
        + "; every one was legal."
        + (f" ({differ} told in other words than the file's.)" if differ else "")
    )
    if game.is_over(state):
        scores = game.scores(state)
        write(
            "Game over. Scores: "
            + ", ".join(f"{n} {scores[i]}" for i, n in enumerate(record.names))
            + ". Winner: "
            + ", ".join(record.names[w] for w in game.winners(state))
            + "."
        )
    else:
        acting = ", ".join(record.names[s] for s in game.to_act(state))
        write(f"Next to act: {acting}.")


def _write_board(game: Game, position: export.Replayed, target: Path, write: Callable[[str], None]) -> int:
    """The public board of the position reached, written to `target`: the exit status."""
    image = _board(game, position.state)
    if image is None:
        write("(No board image: this game has no renderer.)")
        return 0
    try:
        target.write_bytes(image)
    except OSError as err:
        write(f"epochs replay: cannot write the board image to {target}: {err.strerror or err}")
        return 2
    write(f"Board image of this position: {target.resolve()}")
    return 0


def _line(record: export.Export, line: export.Line, events: list[str]) -> str:
    mark = f" [{VIA_MARKS[line.via]}]" if line.via in VIA_MARKS else ""
    undone = " (undone: not replayed)" if line.undone else ""
    told = f" — {' '.join(events)}" if events else ""
    return f"#{line.seq} {record.names[line.seat]}: {line.action}{mark}{undone}{told}"


def _board(game: Game, state: Any) -> bytes | None:
    try:
        import renderers  # noqa: PLC0415 - the terminal may run without Pillow's fonts

        return renderers.render(game.id, game.view(state, None)).png
    except (ImportError, KeyError, NotImplementedError):
        return None
    except Exception:  # a drawing fault costs the picture, not the replay's verdict
        log.exception("drawing the board of %s failed", game.id)
        return None
