"""A whole game as one versioned JSON file, and replaying such a file (issue 17 §2).

The log is the source of truth (DESIGN.md, "Storage"): the setup from the seed and
options, then every action, gives every position of the game again. An export is
that log written out for people and tools: the game, the version of its component
data, the seed and options, the seats and every log line with its seat, time, how
it came to be (`via`) and whether it was undone.

What an export never holds (bot/DECISIONS.md, "Records"): Discord ids of anyone
(seats are named as the players saw them), tokens, or — while the game runs — the
seed and the hidden parts of actions: with the seed anyone could replay every
shuffle and die, and a hidden card named in an action is still hidden. Such a
*public* export says so in its `note` and cannot be replayed.

Pure: no storage, no asyncio; `replay` checks each step against the engine.
"""

from __future__ import annotations

import hashlib
import inspect
import json
import logging
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeGuard

from engine.core import Game, IllegalAction, data_path, slug

from .intake import ExportError, document, moment, step, writable
from .text import neutral

log = logging.getLogger(__name__)

#: What the `format` field of every export says.
FORMAT = "epochs-game"
#: The format's version; a reader refuses files of a later version.
VERSION = 1

PUBLIC_NOTE = (
    "Exported while the game was running: only the public log. The seed and the hidden parts of "
    "actions are left out, because they would reveal hidden cards and every future shuffle and die; "
    "this file can be read but not replayed. Export the game again once it has ended for the whole "
    "record."
)
COMPLETE_NOTE = "The whole record of an ended game: `epochs replay FILE` plays it again step by step."
STRIPPED = ["seed", "hidden parts of actions"]


class ReplayError(Exception):
    """A step of an export the engine does not accept: which step (`seq`, 0 for the
    setup) and why."""

    def __init__(self, seq: int, why: str) -> None:
        super().__init__(f"step #{seq}: {why}" if seq else f"setup: {why}")
        self.seq = seq
        self.why = why


@dataclass
class Line:
    """One log line of an export."""

    seq: int
    seat: int
    action: str
    #: Unix seconds; None when the time is not known (the file says null).
    time: float | None
    via: str = ""
    undone: bool = False
    events: list[str] = field(default_factory=list)


@dataclass
class Export:
    """An export read back and checked (`parse`)."""

    game: str
    names: list[str]
    options: dict[str, Any]
    seed: int | None
    lines: list[Line]
    table: int | None = None
    data_version: str = ""
    public: bool = False
    result: dict[str, Any] | None = None
    bots: list[str | None] = field(default_factory=list)

    def live(self, to: int | None = None) -> list[Line]:
        """The lines that count (not undone), up to sequence number `to` when given."""
        return [ln for ln in self.lines if not ln.undone and (to is None or ln.seq <= to)]


# ---- writing ----------------------------------------------------------------------------
def iso(when: float | None) -> str | None:
    """Unix seconds as an ISO 8601 UTC time, to the second; None (null in the file: not
    known) for a time no export can hold (`intake.writable`): a table stored by an older
    build may hold one (year 0), and its export must still be written and read back."""
    if not writable(when):
        return None
    assert when is not None
    return datetime.fromtimestamp(when, UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def data_version(game: Game) -> str:
    """The version of the component data a game plays with: the game's own
    `data_version` when it has one, else a hash of the data files it reads now
    (an owner's corrected files included), so a replay can tell it plays other data."""
    own = getattr(game, "data_version", None)
    if isinstance(own, str) and own:
        return own
    package = Path(inspect.getfile(type(game))).parent
    shipped = package / "data"
    names = sorted(p.name for p in shipped.glob("*.toml")) if shipped.is_dir() else []
    if not names:
        return "none"
    digest = hashlib.sha256()
    for name in names:
        digest.update(name.encode("utf-8") + b"\0" + data_path(package, game.id, name).read_bytes() + b"\0")
    return "sha256:" + digest.hexdigest()[:16]


def build(
    *,
    table: int,
    game: Game,
    seed: int,
    options: dict[str, Any],
    seats: Sequence[dict[str, Any]],
    lines: Sequence[Line],
    public: bool,
    status: str,
    practice: bool,
    created: float,
    started: float | None,
    ended: float | None,
    result: dict[str, Any] | None,
    fork: dict[str, Any] | None,
    now: float,
    shown: Any = None,
) -> dict[str, Any]:
    """The export document. `seats`: `seat`, `name`, `bot`, `resigned` of each seat in
    seat order. `public`: the game runs, so the seed is left out and every action is
    written as everyone saw it (`shown(action)`, the game's `public_action`)."""

    def action(text: str) -> str:
        return shown(text) if public and shown is not None else text

    return {
        "format": FORMAT,
        "version": VERSION,
        "note": PUBLIC_NOTE if public else COMPLETE_NOTE,
        "public": public,
        "stripped": list(STRIPPED) if public else [],
        "exported_at": iso(now),
        "table": table,
        "game": game.id,
        "title": game.title,
        "data_version": data_version(game),
        "seed": None if public else seed,
        "options": dict(options),
        "practice": practice,
        "status": status,
        "fork": fork,
        "created_at": iso(created),
        "started_at": iso(started),
        "ended_at": iso(ended),
        "seats": [dict(s) for s in seats],
        "result": None if public else result,
        "actions": [
            {
                "seq": ln.seq,
                "seat": ln.seat,
                "action": action(ln.action),
                "time": iso(ln.time),
                "via": ln.via,
                "undone": ln.undone,
                "events": list(ln.events),
            }
            for ln in lines
        ],
    }


def dumps(doc: dict[str, Any]) -> bytes:
    """The document as UTF-8 JSON, a field a line and a seat or an action a line (a long
    game stays a file one can read and diff)."""
    fields = []
    for key, value in doc.items():
        if key in ("seats", "actions") and value:
            text = "[\n    " + ",\n    ".join(json.dumps(v, ensure_ascii=False) for v in value) + "\n  ]"
        else:
            text = json.dumps(value, ensure_ascii=False)
        fields.append(f"  {json.dumps(key)}: {text}")
    return ("{\n" + ",\n".join(fields) + "\n}\n").encode("utf-8")


# ---- reading ----------------------------------------------------------------------------
#: The longest seat name (the bot keeps display names to 64 characters), action and game id.
MAX_NAME, MAX_ACTION, MAX_ID = 64, 500, 40
#: Step numbers run below this (`at=` takes up to nine digits); seeds and table ids below 2**63.
MAX_SEQ, MAX_INT = 10**9, 2**63
#: The times an export carries beside its actions'.
TIMES = ("exported_at", "created_at", "started_at", "ended_at")


def _need(doc: dict[str, Any], key: str, kind: type, what: str) -> Any:
    value = doc.get(key)
    if not isinstance(value, kind):
        raise ExportError(f"the export's `{key}` must be {what}.")
    return value


def _whole(value: Any, low: int, high: int) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value < high


def _optional(row: dict[str, Any], key: str, kind: type, where: str, what: str, default: Any) -> Any:
    value = row.get(key, default)
    if value is None and default is None:
        return None
    if not isinstance(value, kind):
        raise ExportError(f"{where}, field `{key}` must be {what}.")
    return value


def _shown(value: Any) -> str:
    """A value of the file quoted in a refusal: short (the file may hold megabytes)."""
    text = repr(value)
    return text if len(text) <= 30 else text[:29] + "…"


def parse(data: bytes | str) -> Export:
    """An export read from its bytes, checked field by field; ExportError says what is
    wrong and where. Every text is checked first (`intake.document`), so no message here
    can hold a broken character or megabytes of a field."""
    doc = document(data)
    if doc.get("format") != FORMAT:
        raise ExportError(f"the file is not an Epochs export (its `format` is not {FORMAT!r}).")
    version = doc.get("version")
    if not _whole(version, 1, MAX_INT):
        raise ExportError("the export's `version` must be a whole number from 1.")
    if version > VERSION:
        raise ExportError(f"the export is of format version {version}; this Epochs reads up to {VERSION}.")
    game = _need(doc, "game", str, "a game id")
    if not re.fullmatch(rf"[a-z0-9][a-z0-9-]{{0,{MAX_ID - 1}}}", game):
        raise ExportError("the export's `game` must be a game id such as `mosaic` (small letters, digits and `-`).")
    seed = doc.get("seed")
    if seed is not None and not _whole(seed, 0, MAX_INT):
        raise ExportError("the export's `seed` must be a whole number from 0 to 2^63-1 (or null in a public export).")
    options = _options(_need(doc, "options", dict, "an object of options"))
    names, bots = _seats(_need(doc, "seats", list, "a list of seats"))
    lines = _lines(_need(doc, "actions", list, "a list of actions"), len(names))
    for key in TIMES:
        moment(doc.get(key), f"the export's `{key}`")
    data = doc.get("data_version") or ""
    if not isinstance(data, str) or len(data) > 2 * MAX_ID:
        raise ExportError(f"the export's `data_version` must be a short text (at most {2 * MAX_ID} characters).")
    return Export(
        game,
        names,
        options,
        seed,
        lines,
        _table_number(doc.get("table")),
        data,
        _optional(doc, "public", bool, "the export", "true or false", False) or seed is None,
        _result(doc.get("result"), len(names)),
        bots,
    )


def _options(options: dict[str, Any]) -> dict[str, Any]:
    """Options as `game new` takes them: plain names with plain values."""
    for key, value in options.items():
        plain = isinstance(value, bool) or _whole(value, -MAX_INT, MAX_INT)
        plain = plain or (isinstance(value, float) and abs(value) < MAX_INT)
        plain = plain or (isinstance(value, str) and len(value) <= 100)
        if not re.fullmatch(r"[A-Za-z0-9_.+-]{1,40}", key) or not plain:
            raise ExportError(
                f"the export's option {_shown(key)} must be a name of letters, digits and `._+-` with a plain "
                "value (true or false, a number or a short word), as `game new` takes them."
            )
    return dict(options)


def _seats(seats: list[Any]) -> tuple[list[str], list[str | None]]:
    """The players' names in seat order, and each seat's bot level (None: a person)."""
    names, bots = [], []
    for i, seat in enumerate(seats):
        name = seat.get("name") if isinstance(seat, dict) else None
        if not isinstance(seat, dict) or seat.get("seat") != i or not isinstance(name, str) or not name.strip():
            raise ExportError(f"seat {i} of the export must be an object with `seat` {i} and a `name`.")
        if len(name) > MAX_NAME:
            raise ExportError(f"seat {i}, field `name` is {len(name)} characters long; a name has at most {MAX_NAME}.")
        names.append(name)
        bots.append(_optional(seat, "bot", str, f"seat {i}", "a bot level or null", None))
        _optional(seat, "resigned", bool, f"seat {i}", "true or false", False)
    return names, bots


def _lines(rows: list[Any], seats: int) -> list[Line]:
    """The log lines, numbered upwards, each of a seat the export has."""
    lines, last = [], 0
    for i, row in enumerate(rows):
        where = step(row, i)
        if not isinstance(row, dict):
            raise ExportError(f"{where} must be an object.")
        seq, seat, action = row.get("seq"), row.get("seat"), row.get("action")
        if not _whole(seq, last + 1, MAX_SEQ):
            raise ExportError(f"{where} needs a `seq` larger than the one before ({last}) and below {MAX_SEQ:,}.")
        if not _whole(seat, 0, seats):
            raise ExportError(f"{where} names seat {_shown(seat)}; the export has seats 0 to {seats - 1}.")
        if not isinstance(action, str) or not action.strip():
            raise ExportError(f"{where} has no `action` text.")
        if len(action) > MAX_ACTION:
            raise ExportError(
                f"{where}, field `action` is {len(action):,} characters long; an action has at most {MAX_ACTION}."
            )
        events = _optional(row, "events", list, where, "a list of texts", [])
        if not all(isinstance(e, str) for e in events):
            raise ExportError(f"{where}, field `events` must be a list of texts.")
        time = moment(row.get("time"), f"{where}, field `time`")
        via = _optional(row, "via", str, where, "a text", "")
        undone = _optional(row, "undone", bool, where, "true or false", False)
        lines.append(Line(seq, seat, action, time, via, undone, list(events)))
        last = seq
    return lines


def _table_number(value: Any) -> int | None:
    if value is None:
        return None
    if not _whole(value, 1, MAX_INT):
        raise ExportError("the export's `table` must be a game number (a whole number from 1) or null.")
    return int(value)


def _result(value: Any, seats: int) -> dict[str, Any] | None:
    """The recorded end: `reason`, and for a game played to its end one score per seat and
    the winners' seats (a replay compares them with the end it reaches)."""
    if value is None:
        return None
    shape = (
        f"the export's `result` must be null or an object with a `reason`, and `scores` ({seats} whole numbers) "
        "and `winners` (seat numbers) where the game ended"
    )
    if not isinstance(value, dict) or not isinstance(value.get("reason"), str):
        raise ExportError(shape + ".")
    scores, winners = value.get("scores"), value.get("winners")
    if scores is not None and (
        not isinstance(scores, list) or len(scores) != seats or not all(_whole(v, -MAX_INT, MAX_INT) for v in scores)
    ):
        raise ExportError(shape + ".")
    if winners is not None and (not isinstance(winners, list) or not all(_whole(v, 0, seats) for v in winners)):
        raise ExportError(shape + ".")
    return dict(value)


# ---- replaying --------------------------------------------------------------------------
@dataclass
class Replayed:
    """A position reached while replaying: after line `line` (None: the setup), by
    `action` (the line's, or the same words with the new players' names in a fork)."""

    line: Line | None
    state: Any
    events: list[str]
    action: str = ""

    @property
    def seq(self) -> int:
        return self.line.seq if self.line is not None else 0


def replay(
    game: Game, export: Export, *, to: int | None = None, names: Sequence[str] | None = None
) -> Iterator[Replayed]:
    """Every position of the export, checked against the engine: the setup first, then
    one after each live line (up to sequence number `to`). Raises ReplayError at the
    first step the engine does not accept — not that seat's turn, an action it refuses
    — or, at the end of a finished game, when the result differs from the recorded one.
    `names`: other players' names for the same seats (a fork with new players): an
    action that names a player (Cradle's `pass <player>`) is then read with the name
    of the player now on that seat."""
    if export.seed is None:
        raise ReplayError(
            0,
            "this is a public export of a running game: it holds no seed, so its shuffles and dice cannot be replayed.",
        )
    if export.game != game.id:
        raise ReplayError(0, f"the export is of {export.game!r}, not {game.id!r}.")
    players = list(names) if names is not None else list(export.names)
    if not game.min_players <= len(players) <= game.max_players:
        raise ReplayError(
            0, f"{game.title} takes {game.min_players}-{game.max_players} players; the export has {len(players)}."
        )
    try:
        state = game.setup(players, export.seed, export.options or None)
    except (IllegalAction, ValueError, KeyError, TypeError) as err:
        raise ReplayError(0, f"the game does not start with these options: {err}") from None
    yield Replayed(None, state, [])
    renames = {}
    if players != export.names:
        old = seat_words(game, game.setup(list(export.names), export.seed, export.options or None))
        new = seat_words(game, state)
        renames = {a: b for a, b in zip(old, new, strict=True) if a != b}  # the same seats, renamed
    for line in export.live(to):
        acting = game.to_act(state)
        if line.seat not in acting:
            who = ", ".join(players[s] for s in acting) or "nobody (the game is over)"
            raise ReplayError(line.seq, f"it is not {players[line.seat]}'s turn (seat {line.seat}); {who} must act.")
        # as `play` does: no legal action holds `@`, `<` or a backtick, so this changes no legal
        # action, and the engine's refusal can quote what it was given
        written = neutral(line.action)
        renamed = " ".join(renames.get(word, word) for word in written.split(" "))
        tries = [renamed, written] if renamed != written else [written]
        for action in tries:
            try:
                step = game.apply(state, line.seat, action)
                break
            except IllegalAction as err:
                refusal = err
            except Exception as err:  # noqa: BLE001 - an engine fault on text from a file: refused, and logged
                log.exception("%s: the engine failed on step %s of an export (%r)", game.id, line.seq, action)
                raise ReplayError(
                    line.seq, f"this Epochs' {game.title} fails on {action!r} ({type(err).__name__}); please report it"
                ) from None
        else:
            raise ReplayError(line.seq, f"the engine refuses {written!r} for {players[line.seat]}: {refusal}")
        state = step.state
        yield Replayed(line, state, list(step.events), action)
    if to is None and export.result is not None and export.result.get("reason") == "end" and not renames:
        if not game.is_over(state):
            raise ReplayError(
                export.lines[-1].seq if export.lines else 0,
                "the file says the game ended, but after its last step it goes on.",
            )
        scores, winners = game.scores(state), game.winners(state)
        if scores != export.result.get("scores") or winners != export.result.get("winners"):
            raise ReplayError(
                export.lines[-1].seq if export.lines else 0,
                f"the game ends with scores {scores} and winners {winners}; the file recorded "
                f"{export.result.get('scores')} and {export.result.get('winners')}.",
            )


def seat_words(game: Game, state: Any) -> list[str]:
    """The words actions name each seat by: the public view's `seat_words` when the game
    lists them, else each player's name as a slug."""
    view = game.view(state, None)
    words = view.get("seat_words")
    if isinstance(words, list) and all(isinstance(w, str) for w in words):
        return list(words)
    names = [p.get("name") for p in view.get("players", [])] if isinstance(view.get("players"), list) else []
    return [slug(str(n)) for n in names]
