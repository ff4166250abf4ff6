"""What the service answers: plain data any transport can deliver.

No Discord types here (shared/DESIGN.md, "Discord types never leave bot/discord*").
A `Reply` says what to post publicly, which image to attach, exactly which users
to mention, and what is private to whom; the adapter (Discord, terminal, tests)
decides how to deliver it. Everything is JSON-safe except image bytes, so a
reply can sit in the outbox table until it is delivered.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Image:
    """A rendered PNG and the alt text that describes it for screen readers."""

    png: bytes
    alt: str
    filename: str = "board.png"

    def to_json(self) -> dict[str, Any]:
        return {"png": base64.b64encode(self.png).decode("ascii"), "alt": self.alt, "filename": self.filename}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Image:
        return cls(base64.b64decode(data["png"]), data["alt"], data.get("filename", "board.png"))


@dataclass
class Attachment:
    """A file sent with a message besides its board: a score chart, an exported game.

    `description` is the alt text of an image (or says what the file is); `kind`
    names what it is ("chart", "export") so a transport that holds the message in
    the outbox can leave a chart out and have it drawn again (`Service.prepare`)."""

    data: bytes
    filename: str
    description: str = ""
    kind: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "data": base64.b64encode(self.data).decode("ascii"),
            "filename": self.filename,
            "description": self.description,
            "kind": self.kind,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Attachment:
        return cls(
            base64.b64decode(data["data"]),
            str(data["filename"]),
            str(data.get("description", "")),
            str(data.get("kind", "")),
        )


@dataclass
class Private:
    """Something only `user` may see (a hand, a "since your last turn" summary).

    `dm` is the player's own preference (`settings dm on`): deliver by direct
    message rather than ephemerally. Only ever send it to `user`.
    """

    user: int
    text: str
    image: Image | None = None
    dm: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "user": self.user,
            "text": self.text,
            "dm": self.dm,
            "image": self.image.to_json() if self.image else None,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Private:
        image = Image.from_json(data["image"]) if data.get("image") else None
        return cls(int(data["user"]), data["text"], image, bool(data.get("dm", False)))


@dataclass
class Reply:
    """The answer to one command (or one notification from the outbox).

    - `text`: the public message ("" when there is nothing public to say, e.g. `hand`).
    - `image`: the board image for `text`, or None (no renderer for this game, or
      the service was built with `images=False`; see `Service.render_board`).
    - `mentions`: the only user ids the message may ping (the players who must act
      now, or the player reminded). Names typed by users are never mentions.
    - `private`: parts addressed to single users; deliver each only to its user.
    - `error`: the command was refused; `text` says why and what is allowed.
      Transports usually show an error only to the caller (ephemeral).
    - `game_id`: the engine's game id ("rising-cultures") of the table concerned.
    - `table_id`: the storage id of that table (a game in one channel).
    - `version`: the table's state version after this command. A button made for
      this reply carries it back as `expected_version`; once the table moved on the
      press is refused.
    - `choices`: for each user who must act now, their legal actions (for buttons,
      select menus); the caller's list for autocomplete is `Service.legal_actions_for`.
      A user's choices may reveal their hand: show them only to that user
      (ephemerally), never in the public message.
    - `stale`: the command was refused because the game moved on underneath it.
    - `keys`: for each user in `choices`, the key of the decision they make
      (`expected_choice` of a pick from their panel).
    - `turn_steps`: how many steps the caller chose in the turn their panel shows
      (a panel offers "undo my last step" only when there is one).
    - `panel`: the caller's turn goes on (bot/DECISIONS.md, "Turns"): nothing is
      posted; their private part and `choices` replace their turn panel in place.
    - `files`: more files for the public message, after the board: the score chart
      of a finished game, an exported game (bot/DECISIONS.md, "Records").
    """

    text: str = ""
    image: Image | None = None
    mentions: list[int] = field(default_factory=list)
    private: list[Private] = field(default_factory=list)
    error: bool = False
    game_id: str | None = None
    table_id: int | None = None
    version: int | None = None
    choices: dict[int, list[str]] = field(default_factory=dict)
    stale: bool = False
    panel: bool = False
    keys: dict[int, str] = field(default_factory=dict)
    turn_steps: int = 0
    files: list[Attachment] = field(default_factory=list)

    def private_for(self, user: int) -> list[Private]:
        return [p for p in self.private if p.user == user]

    def to_json(self) -> dict[str, Any]:
        return {
            "text": self.text,
            "image": self.image.to_json() if self.image else None,
            "mentions": list(self.mentions),
            "private": [p.to_json() for p in self.private],
            "error": self.error,
            "game_id": self.game_id,
            "table_id": self.table_id,
            "version": self.version,
            "choices": {str(k): v for k, v in self.choices.items()},
            "stale": self.stale,
            "panel": self.panel,
            "keys": {str(k): v for k, v in self.keys.items()},
            "turn_steps": self.turn_steps,
            "files": [f.to_json() for f in self.files],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Reply:
        return cls(
            text=data.get("text", ""),
            image=Image.from_json(data["image"]) if data.get("image") else None,
            mentions=[int(m) for m in data.get("mentions", [])],
            private=[Private.from_json(p) for p in data.get("private", [])],
            error=bool(data.get("error", False)),
            game_id=data.get("game_id"),
            table_id=data.get("table_id"),
            version=data.get("version"),
            choices={int(k): list(v) for k, v in data.get("choices", {}).items()},
            stale=bool(data.get("stale", False)),
            panel=bool(data.get("panel", False)),
            keys={int(k): str(v) for k, v in data.get("keys", {}).items()},
            turn_steps=int(data.get("turn_steps", 0)),
            files=[Attachment.from_json(f) for f in data.get("files", [])],
        )


@dataclass
class Notice:
    """A message the service wants delivered unprompted (a reminder, a vote result),
    or one a transport could not deliver at once and handed back (`Service.enqueue`).

    Notices live in the outbox table until `Service.delivered(notice.id)` is
    called, so a restart never loses one. `channel` is where `reply` goes;
    `reply.private` parts go to their users (by DM when they opted in).
    """

    id: int
    channel: int
    reply: Reply
    created: float = 0.0
    #: The reply's board image was not stored: draw it at send time (`Service.prepare`).
    board: bool = False
    #: A reply a transport could not deliver at once (`Service.enqueue`), not a notice
    #: of the service's own: `Service.prepare` checks whether its game moved on.
    held: bool = False
    #: The transport's own notes, stored with the notice and handed back untouched
    #: (e.g. which buttons go under the message); the service never reads them.
    tags: dict[str, Any] = field(default_factory=dict)
    #: The reply's score chart was not stored either: draw it at send time too.
    chart: bool = False
