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
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from engine.core import Game, IllegalAction, data_path, slug

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


class ExportError(ValueError):
    """A file that is not a usable export; the message says what is wrong."""


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
    time: float
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
def iso(moment: float | None) -> str | None:
    """Unix seconds as an ISO 8601 UTC time, to the second."""
    if moment is None:
        return None
    return datetime.fromtimestamp(moment, UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def unix(text: Any) -> float:
    """An ISO 8601 time of an export as Unix seconds (0 when absent or unreadable)."""
    if not isinstance(text, str):
        return 0.0
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        return 0.0
    return (moment if moment.tzinfo else moment.replace(tzinfo=UTC)).timestamp()


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
def _need(doc: dict[str, Any], key: str, kind: type, what: str) -> Any:
    value = doc.get(key)
    if not isinstance(value, kind):
        raise ExportError(f"the export's `{key}` must be {what}.")
    return value


def parse(data: bytes | str) -> Export:
    """An export read from its bytes, checked field by field; ExportError says what is wrong."""
    try:
        doc = json.loads(data.decode("utf-8") if isinstance(data, bytes) else data)
    except UnicodeDecodeError:
        raise ExportError("the file is not text (UTF-8), so it is not an Epochs export.") from None
    except ValueError as err:
        raise ExportError(f"the file is not JSON ({err}), so it is not an Epochs export.") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise ExportError(f"the file is not an Epochs export (its `format` is not {FORMAT!r}).")
    version = doc.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise ExportError("the export's `version` must be a whole number from 1.")
    if version > VERSION:
        raise ExportError(f"the export is of format version {version}; this Epochs reads up to {VERSION}.")
    game = _need(doc, "game", str, "a game id")
    seed = doc.get("seed")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
        raise ExportError("the export's `seed` must be a whole number (or null in a public export).")
    options = _need(doc, "options", dict, "an object of options")
    seats = _need(doc, "seats", list, "a list of seats")
    names, bots = [], []
    for i, seat in enumerate(seats):
        if not isinstance(seat, dict) or seat.get("seat") != i or not isinstance(seat.get("name"), str):
            raise ExportError(f"seat {i} of the export must be an object with `seat` {i} and a `name`.")
        names.append(seat["name"])
        bots.append(seat.get("bot") if isinstance(seat.get("bot"), str) else None)
    lines, last = [], 0
    for i, row in enumerate(_need(doc, "actions", list, "a list of actions")):
        where = f"action {i + 1} of the export"
        if not isinstance(row, dict):
            raise ExportError(f"{where} must be an object.")
        seq, seat, action = row.get("seq"), row.get("seat"), row.get("action")
        if not isinstance(seq, int) or isinstance(seq, bool) or seq <= last:
            raise ExportError(f"{where} needs a `seq` larger than the one before ({last}).")
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(names):
            raise ExportError(f"{where} (#{seq}) names seat {seat!r}; the export has seats 0 to {len(names) - 1}.")
        if not isinstance(action, str) or not action:
            raise ExportError(f"{where} (#{seq}) has no `action` text.")
        events = row.get("events") or []
        if not isinstance(events, list) or not all(isinstance(e, str) for e in events):
            raise ExportError(f"{where} (#{seq}): `events` must be a list of texts.")
        lines.append(
            Line(
                seq,
                seat,
                action,
                unix(row.get("time")),
                str(row.get("via") or ""),
                bool(row.get("undone", False)),
                list(events),
            )
        )
        last = seq
    result = doc.get("result") if isinstance(doc.get("result"), dict) else None
    table = doc.get("table") if isinstance(doc.get("table"), int) else None
    return Export(
        game,
        names,
        dict(options),
        seed,
        lines,
        table,
        str(doc.get("data_version") or ""),
        bool(doc.get("public", False)) or seed is None,
        result,
        bots,
    )


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
        renamed = " ".join(renames.get(word, word) for word in line.action.split(" "))
        tries = [renamed, line.action] if renamed != line.action else [line.action]
        for action in tries:
            try:
                step = game.apply(state, line.seat, action)
                break
            except IllegalAction as err:
                refusal = err
        else:
            raise ReplayError(line.seq, f"the engine refuses {line.action!r} for {players[line.seat]}: {refusal}")
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
