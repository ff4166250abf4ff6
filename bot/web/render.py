"""HTML from the service's data (issue 28 §2): Jinja2 templates, escaped throughout.

The pages draw `TableView` (bot/service/pages.py): the headline, players and scores, the
log grouped by period, and for a seat its decision and private view. Nothing here knows
a game: groups, labels, details and story entries are the service's, shown as they come.
A page is whole without its script (forms post, links go); the script (static/table.js)
adds live updates, moves without reloading and the board's zoom.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from typing import Any

import jinja2

from ..service import Entry, Headline, Image
from ..service.clocks import short
from ..service.pages import TableView
from ..service.reply import END, MOVE, PERIOD, SCORE
from ..service.sandbox import SandboxView
from ..service.text import sentences
from ..service.turns import VIA_MARKS

ENV = jinja2.Environment(
    loader=jinja2.PackageLoader("bot.web", "templates"),
    autoescape=True,
    undefined=jinja2.StrictUndefined,
    trim_blocks=True,
    lstrip_blocks=True,
)


@dataclass
class Line:
    """One line of the log as a page shows it: what happened, and (for a move) the step it
    follows so the step-through can show the board after it. `subject`: the mover's name
    begins the sentence ("**ann** chooses the Farmer."), so it is not said again before it."""

    kind: str
    text: str
    name: str = ""
    seq: int | None = None
    mark: str = ""
    subject: bool = False


@dataclass
class Period:
    """A period of the log (a round, an epoch, a game turn) and its lines, oldest first."""

    title: str
    lines: list[Line] = field(default_factory=list)
    current: bool = False


def standings(scores: list[int] | None, players: list[str]) -> str:
    if scores is None:
        return ""
    return ", ".join(f"{players[i] if i < len(players) else i} {v}" for i, v in enumerate(scores))


def line(entry: Entry, players: list[str]) -> Line:
    """An entry in words: a move by its events (the engine's public log lines) or its label."""
    if entry.kind == MOVE:
        told = sentences(entry.events) if entry.events else entry.label
        subject = bool(entry.name) and told.startswith(entry.name + " ")
        text = told[len(entry.name) + 1 :] if subject else told
        return Line(MOVE, text, entry.name, entry.seq, VIA_MARKS.get(entry.via, ""), subject)
    if entry.kind == SCORE:
        before, after = entry.before or [], entry.after or []
        changed = [
            f"{players[i] if i < len(players) else i} {b} → {a}"
            for i, (b, a) in enumerate(zip(before, after, strict=False))
            if a != b
        ]
        return Line(SCORE, "Scores: " + ", ".join(changed), seq=entry.seq)
    if entry.kind == PERIOD:
        return Line(PERIOD, f"End of {entry.stage}: {standings(entry.after, players)}", seq=entry.seq)
    if entry.kind == END:
        return Line(END, f"Game over. Final scores: {standings(entry.after, players)}", seq=entry.seq)
    return Line(entry.kind, "")


def periods(story: list[Entry], players: list[str], stage: str) -> list[Period]:
    """The log grouped by period, newest period first: a period closes at its end's entry
    (which names it); what follows the last end is the period now running (`stage`)."""
    out: list[Period] = []
    current = Period("")
    for entry in story:
        current.lines.append(line(entry, players))
        if entry.kind == PERIOD:
            current.title = entry.stage
            out.append(current)
            current = Period("")
    if current.lines or not out:
        current.title = stage or ("Moves" if not out else "Since then")
        current.current = True
        out.append(current)
    return list(reversed(out))


def when(moment: float) -> dict[str, str]:
    """A moment for a `<time>` element: machine form and a plain UTC text (the script
    shows it in the reader's own time); the same bytes for every reader."""
    stamp = datetime.datetime.fromtimestamp(moment, datetime.UTC)
    return {"iso": stamp.strftime("%Y-%m-%dT%H:%M:%SZ"), "text": stamp.strftime("%Y-%m-%d %H:%M UTC")}


def clock_notes(head: Headline) -> list[dict[str, Any]]:
    """Each seat to act with a clock or a time away (issue 27): its time left ("2d 4h") and
    until when its player is away, for the page to show beside whose turn it is."""
    return [
        {
            "name": a.name,
            "seat": a.seat,
            "left": short(a.time_left) if a.time_left is not None else "",
            "away": when(a.away_until) if a.away_until is not None else None,
            "note": a.away_note,
        }
        for a in head.acting
        if a.time_left is not None or a.away_until is not None
    ]


def decision_places(view: TableView, board: Image | None) -> list[dict[str, Any]]:
    """The places the seat's choices name (`Choice.refers`), in the choices' order, with their
    words and where the map draws them (the renderers give them with the picture, issue 52):
    what the page lays over the map. None before the map is drawn, or without a decision."""
    if view.decision is None or board is None or not board.places:
        return []
    out: dict[str, dict[str, Any]] = {}
    for _, choices in view.decision.groups:
        for choice in choices:
            for ref in choice.refers:
                place = board.places.get(ref)
                if place is not None and ref not in out:
                    out[ref] = {"id": ref, "name": place.name, "boxes": place.boxes}
    return list(out.values())


def alt_lines(image: Image | None) -> list[str]:
    return [text for text in (image.alt.splitlines() if image is not None else []) if text.strip()]


def page_context(
    view: TableView,
    *,
    base: str,
    table_base: str,
    form_token: str = "",
    board: Image | None = None,
    private: Image | None = None,
    drawn: bool = False,
    said: str = "",
    said_error: bool = False,
) -> dict[str, Any]:
    """Everything a table page's templates read. `base`: this page's path (its parts live
    under it); `table_base`: the public page's (the step-through reads public views only);
    `drawn`: the pictures the page describes in words are drawn (else the script asks again
    once they are)."""
    players = [p.name for p in view.players]
    head = view.headline
    acting = [a.name for a in head.acting]
    return {
        "view": view,
        "head": head,
        "title": head.title,
        "stage": head.stage,
        "acting": acting,
        "acting_seats": {a.seat for a in head.acting},
        "clocks": clock_notes(head),
        "left_by_seat": {note["seat"]: note["left"] for note in clock_notes(head)},
        "since": when(view.since),
        "players": view.players,
        "periods": periods(view.story, players, head.stage),
        "base": base,
        "table_base": table_base,
        "form_token": form_token,
        "board_alt": alt_lines(board),
        "places": decision_places(view, board),
        "board_size": (board.width, board.height) if board is not None else (0, 0),
        "slot": "both",
        "private_alt": alt_lines(private),
        "drawn": drawn,
        "decision": view.decision,
        "my_left": short(view.decision.time_left) if view.decision and view.decision.time_left is not None else "",
        "groups": view.decision.groups if view.decision is not None else [],
        "turn": [line(e, players) for e in (view.decision.turn if view.decision else view.turn)],
        "news": [line(e, players) for e in (view.decision.story if view.decision else [])],
        "said": said,
        "said_error": said_error,
        "seat_page": view.seat is not None,
        "tryable": view.tryable,
    }


def page(view: TableView, **context: Any) -> str:
    """The whole page."""
    return ENV.get_template("table.html").render(page_context(view, **context))


def live(view: TableView, **context: Any) -> str:
    """The part of the page a live update replaces."""
    return ENV.get_template("live.html").render(page_context(view, **context))


def step_page(view: TableView, seq: int, *, table_base: str, back: str, image: Image | None, steps: list[int]) -> str:
    """The board after one step, with that step's lines and the way to the steps around it."""
    players = [p.name for p in view.players]
    told = [line(e, players) for e in view.story if e.seq == seq]
    at = steps.index(seq) if seq in steps else -1
    return ENV.get_template("step.html").render(
        {
            "view": view,
            "title": view.headline.title,
            "seq": seq,
            "number": at + 1,
            "count": len(steps),
            "told": told,
            "previous": steps[at - 1] if at > 0 else (0 if at == 0 else None),
            "following": steps[at + 1] if 0 <= at + 1 < len(steps) else None,
            "table_base": table_base,
            "back": back,
            "board_alt": alt_lines(image),
        }
    )


def sandbox_page(
    sandbox: SandboxView,
    *,
    title: str,
    base: str,
    form_token: str,
    moves: str,
    outcome: str = "",
    failed: bool = False,
    board: Image | None = None,
    private: Image | None = None,
    pictures: str = "",
) -> str:
    """A seat's sandbox (issue 52 §4): the moves tried, the board of the position they make
    (its map and the seat's own private picture, with their words), the next decision, "Plan
    these moves". `moves`: the moves tried as the page carries them back (sandbox_moves's
    text); `pictures`: the query naming the position (`?v=N&m=...`) the pictures' addresses
    end with. No picture (pictures off, none for this game): the words alone, as ever."""
    groups: dict[str, list[Any]] = {}
    for choice in sandbox.choices:
        groups.setdefault(choice.group, []).append(choice)
    return ENV.get_template("sandbox.html").render(
        {
            "sandbox": sandbox,
            "title": title,
            "names": sandbox.names,
            "groups": list(groups.items()),
            "own": sandbox.own_moves(),
            "base": base,
            "form_token": form_token,
            "moves": moves,
            "outcome": outcome,
            "failed": failed,
            "board": board,
            "board_alt": alt_lines(board),
            "private": private,
            "private_alt": alt_lines(private),
            "pictures": pictures,
            "last": sandbox.moves[-1] if sandbox.moves else None,
        }
    )


def refusal_page(status: int, text: str) -> str:
    return ENV.get_template("refusal.html").render({"status": status, "text": text, "title": "Epochs"})
