"""What the service answers: plain data any transport can deliver.

No Discord types here (shared/DESIGN.md, "Discord types never leave bot/discord*").
A `Reply` says what to post publicly, which image to attach, exactly which users
to mention, and what is private to whom; the adapter (Discord, terminal, tests)
decides how to deliver it. Everything is JSON-safe except image bytes, so a
reply can sit in the outbox table until it is delivered.

Besides its text, a reply carries the turn as data (issue 25 §2; bot/DECISIONS.md,
"The turn as data"), so no front end parses the service's prose: the `Headline`
(who must act, in which game, at which stage), the `story` its post tells as
`Entry`s (each move; each period end and each scoring an entry of its own), and a
`Decision` per user who must act (prompt, the described choices grouped, the decision
key, the rule behind it, whether their private view belongs beside it, and their
story since their last turn).
"""

from __future__ import annotations

import base64
from dataclasses import dataclass, field
from typing import Any

from engine.core import Choice, grouped


@dataclass
class Image:
    """A rendered PNG and the alt text that describes it for screen readers; a map's
    `places` too (the renderers' `Place`s by name, issue 52: the web lays them over the
    picture, scaled from `width` x `height`). Only the PNG and alt text are stored with a post."""

    png: bytes
    alt: str
    filename: str = "board.png"
    width: int = 0
    height: int = 0
    places: dict[str, Any] = field(default_factory=dict)

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
    #: The player's name at this table, for front ends that head the part with it
    #: (the terminal: "--- private to bob ---"; never the user id, issue 22 §5).
    name: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "user": self.user,
            "text": self.text,
            "dm": self.dm,
            "image": self.image.to_json() if self.image else None,
            "name": self.name,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Private:
        image = Image.from_json(data["image"]) if data.get("image") else None
        return cls(int(data["user"]), data["text"], image, bool(data.get("dm", False)), str(data.get("name", "")))


def _time(value: Any) -> float | None:
    return None if value is None else float(value)


@dataclass
class Actor:
    """A seat that must act: its player's name, seat and user id (None for a bot).

    Issue 27: `time_left` on the seat's clock, in seconds, when the reply was made (None:
    the table has no clock, or a bot plays the seat); `away_until`: the player is away until
    then (their clock stands still), with their `away_note`."""

    name: str
    seat: int
    user: int | None = None
    time_left: float | None = None
    away_until: float | None = None
    away_note: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "seat": self.seat,
            "user": self.user,
            "time_left": self.time_left,
            "away_until": self.away_until,
            "away_note": self.away_note,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Actor:
        user = data.get("user")
        return cls(
            str(data["name"]),
            int(data["seat"]),
            None if user is None else int(user),
            _time(data.get("time_left")),
            _time(data.get("away_until")),
            str(data.get("away_note", "")),
        )


@dataclass
class Headline:
    """Who must act, in which game, at which stage: the first line of a post, as data.

    - `acting`: the seats to act now ([] when the game is over or paused).
    - `players`: every seat's name, in seat order (score entries are lists by seat).
    - `period`, `number`, `stage`: the stage the public view shows (bot/service/story.py,
      PERIODS): "epoch", 3, "Epoch III"; "", None, "" for a game without one.
    - `status`: the table's ("active", "paused", "finished"); `over`: the game has ended.
    - `table_url`: the table's public page on the web table (issue 28), "" when the web is off.
    - `at`: when the headline was made (the moment its actors' clocks were read, issue 27).
    """

    game_id: str
    title: str
    acting: list[Actor] = field(default_factory=list)
    players: list[str] = field(default_factory=list)
    period: str = ""
    number: int | None = None
    stage: str = ""
    status: str = "active"
    over: bool = False
    table_url: str = ""
    at: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "game_id": self.game_id,
            "title": self.title,
            "acting": [a.to_json() for a in self.acting],
            "players": list(self.players),
            "period": self.period,
            "number": self.number,
            "stage": self.stage,
            "status": self.status,
            "over": self.over,
            "table_url": self.table_url,
            "at": self.at,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Headline:
        number = data.get("number")
        return cls(
            str(data["game_id"]),
            str(data["title"]),
            [Actor.from_json(a) for a in data.get("acting", [])],
            [str(p) for p in data.get("players", [])],
            str(data.get("period", "")),
            None if number is None else int(number),
            str(data.get("stage", "")),
            str(data.get("status", "active")),
            bool(data.get("over", False)),
            str(data.get("table_url", "")),
            float(data.get("at", 0.0)),
        )


#: The kinds of story entries: a step, a scoring, the end of a period, the end of the game.
MOVE, SCORE, PERIOD, END = "move", "score", "period", "end"


def _scores(value: Any) -> list[int] | None:
    return None if value is None else [int(v) for v in value]


@dataclass
class Entry:
    """One entry of a story, everything in it as the reader may see it.

    - a move (`MOVE`): `seat` and `name` of who moved, `action` (the action text, in
      public form unless the reader made the move), `label` (what it was, in words:
      the choice's label where that is public, else the action text), `via` (how it
      came to be: "" chosen, "forced", "bot", "auto", "skip", "fork") and `events`
      (the engine's public log lines);
    - a scoring (`SCORE`): the public scores `before` and `after` the step `seq`;
    - the end of a period (`PERIOD`): `stage` names the period that ended ("Round 3"),
      with the scores before and after its closing step;
    - the end of the game (`END`): the final scores in `after`.
    Scores are lists by seat (`Headline.players` names them).
    """

    kind: str
    seq: int
    seat: int | None = None
    name: str = ""
    action: str = ""
    label: str = ""
    via: str = ""
    events: list[str] = field(default_factory=list)
    stage: str = ""
    before: list[int] | None = None
    after: list[int] | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "seq": self.seq,
            "seat": self.seat,
            "name": self.name,
            "action": self.action,
            "label": self.label,
            "via": self.via,
            "events": list(self.events),
            "stage": self.stage,
            "before": self.before,
            "after": self.after,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Entry:
        seat = data.get("seat")
        return cls(
            str(data["kind"]),
            int(data["seq"]),
            None if seat is None else int(seat),
            str(data.get("name", "")),
            str(data.get("action", "")),
            str(data.get("label", "")),
            str(data.get("via", "")),
            [str(e) for e in data.get("events", [])],
            str(data.get("stage", "")),
            _scores(data.get("before")),
            _scores(data.get("after")),
        )


@dataclass
class Decision:
    """What one user decides now, for them alone (it may name their hidden cards).

    - `prompt`: one plain sentence ("Choose a row for your action disc.").
    - `choices`: the seat's legal actions in their order, each described
      (`engine.core.Choice`); `groups` has them by group (`engine.core.grouped`: groups
      in the order they first appear), as a menu per group shows them.
    - `key`: the decision key (`Tables.choice_key`; a pick carries it back).
    - `rule`: the rulebook section(s) behind the decision ("6.0"; `rules 6.0` shows it), or "".
    - `private_view`: the decision depends on what only this seat sees: show its
      private view beside it (the panel's private part carries the picture).
    - `story`: what happened since this seat's last turn, up to the start of this turn;
      `turn`: this turn's steps so far (the seat's own in its own words).
    - `seat_url`: this seat's own page on the web table (issue 28; private: it acts for the
      seat), "" when the web is off.
    - `time_left`: what is left on this seat's clock, in seconds (issue 27), None without one.
    - `plannable`: the seat's next decision of this turn is known whatever it picks now, so
      it may plan it ("Plan my next move", issue 51: `Service.next_choices_for`).
    - `planned`: the moves this user planned for their coming decisions (issue 51; theirs alone,
      as the whole decision is), shown in their panel.
    """

    user: int
    seat: int
    name: str
    prompt: str
    choices: list[Choice]
    key: str
    rule: str = ""
    private_view: bool = False
    story: list[Entry] = field(default_factory=list)
    turn: list[Entry] = field(default_factory=list)
    seat_url: str = ""
    time_left: float | None = None
    plannable: bool = False
    planned: list[str] = field(default_factory=list)

    @property
    def groups(self) -> list[tuple[str, list[Choice]]]:
        return grouped(self.choices)

    def to_json(self) -> dict[str, Any]:
        return {
            "user": self.user,
            "seat": self.seat,
            "name": self.name,
            "prompt": self.prompt,
            "choices": [c.to_json() for c in self.choices],
            # the same choices by group, named by their actions (for a front end that shows a menu per group)
            "groups": [{"group": group, "actions": [c.action for c in members]} for group, members in self.groups],
            "key": self.key,
            "rule": self.rule,
            "private_view": self.private_view,
            "story": [e.to_json() for e in self.story],
            "turn": [e.to_json() for e in self.turn],
            "seat_url": self.seat_url,
            "time_left": self.time_left,
            "plannable": self.plannable,
            "planned": list(self.planned),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Decision:
        return cls(
            int(data["user"]),
            int(data["seat"]),
            str(data.get("name", "")),
            str(data.get("prompt", "")),
            [Choice.from_json(c) for c in data.get("choices", [])],
            str(data.get("key", "")),
            str(data.get("rule", "")),
            bool(data.get("private_view", False)),
            [Entry.from_json(e) for e in data.get("story", [])],
            [Entry.from_json(e) for e in data.get("turn", [])],
            str(data.get("seat_url", "")),
            _time(data.get("time_left")),
            bool(data.get("plannable", False)),
            [str(a) for a in data.get("planned", [])],
        )


@dataclass
class FinalScore:
    """One seat at the end of a game: its place (1 = a winner; equal standing shares a
    place), score and how it was made (`parts`: the rulebook's scoring categories with
    their points, when the game gives them), and whether a person resigned from it or a
    bot played it (`bot`: the bot's level)."""

    seat: int
    name: str
    score: int
    place: int
    winner: bool = False
    resigned: bool = False
    bot: str | None = None
    parts: list[tuple[str, int]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "name": self.name,
            "score": self.score,
            "place": self.place,
            "winner": self.winner,
            "resigned": self.resigned,
            "bot": self.bot,
            "parts": [[label, points] for label, points in self.parts],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> FinalScore:
        bot = data.get("bot")
        return cls(
            int(data["seat"]),
            str(data["name"]),
            int(data["score"]),
            int(data["place"]),
            bool(data.get("winner", False)),
            bool(data.get("resigned", False)),
            None if bot is None else str(bot),
            [(str(label), int(points)) for label, points in data.get("parts", [])],
        )


@dataclass
class HeadsUp:
    """A person told that their turn comes soon (`settings heads-up on`): they play after
    `after` (the seat whose turn starts, then any bots between)."""

    user: int
    name: str
    after: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"user": self.user, "name": self.name, "after": list(self.after)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> HeadsUp:
        return cls(int(data["user"]), str(data["name"]), [str(a) for a in data.get("after", [])])


@dataclass
class MyTurn:
    """A table where the reader must act (`games mine`, issue 27 §3), wherever it is.

    `waited`: seconds since their turn began there; `time_left` on their clock (None: no
    clock); `post`: the transport's id of the table's latest public post (Discord's message
    id, when the adapter recorded it), `table_url` the web table's page; `bot`: instead of
    a turn, a bot plays their seat there (their clock ran out, or the others voted), at
    this level, until they say `game back`."""

    table_id: int
    game_id: str
    title: str
    stage: str
    guild: int | None
    channel: int
    waited: float
    time_left: float | None = None
    post: int | None = None
    table_url: str = ""
    bot: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "table_id": self.table_id,
            "game_id": self.game_id,
            "title": self.title,
            "stage": self.stage,
            "guild": self.guild,
            "channel": self.channel,
            "waited": self.waited,
            "time_left": self.time_left,
            "post": self.post,
            "table_url": self.table_url,
            "bot": self.bot,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> MyTurn:
        guild, post, bot = data.get("guild"), data.get("post"), data.get("bot")
        return cls(
            int(data["table_id"]),
            str(data["game_id"]),
            str(data["title"]),
            str(data.get("stage", "")),
            None if guild is None else int(guild),
            int(data["channel"]),
            float(data.get("waited", 0.0)),
            _time(data.get("time_left")),
            None if post is None else int(post),
            str(data.get("table_url", "")),
            None if bot is None else str(bot),
        )


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
    - `headline`: who must act, in which game, at which stage (a reply about a
      running or finished game's position); `story`: the entries its public message
      tells (public: every seat may read them).
    - `decisions`: for each user in `choices`, their decision as data (`Decision`);
      private to that user like their choices.
    - `bots_moving`: the caller's turn passed to these bots (their names): nothing is
      posted now; the bots move first and one post tells everything up to the next
      person (bot/DECISIONS.md, "Bots move first").
    - `heads_up`: the people this post warns that their turn comes soon (they are among
      `mentions`).
    - `head`: what the command did, in its own words ("ann resigned; a bot plays their
      seat"), and `note` a line below the rest (an open practice game, a post sent late):
      the parts of `text` besides the headline and the story, for a front end that lays
      a post out itself.
    - `standings`: the final scores, best first, once the game is over.
    - `page`, `pages`: which page of how many a paged answer is (`log page 2`), else 0.
    - `turns`: the caller's tables where they must act, in every server (`games mine`).
    - `calls`: the people whose turn this post tells (pinged, or told by DM), each with the
      version at which they were called to act: the key of that one notification, so a post
      that goes late still notifies those it called and who still must act, and nobody
      else (issue 50; `Outbox.prepare`).
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
    headline: Headline | None = None
    story: list[Entry] = field(default_factory=list)
    decisions: dict[int, Decision] = field(default_factory=dict)
    bots_moving: list[str] = field(default_factory=list)
    heads_up: list[HeadsUp] = field(default_factory=list)
    head: str = ""
    note: str = ""
    standings: list[FinalScore] = field(default_factory=list)
    page: int = 0
    pages: int = 0
    turns: list[MyTurn] = field(default_factory=list)
    calls: dict[int, int] = field(default_factory=dict)

    def private_for(self, user: int) -> list[Private]:
        return [p for p in self.private if p.user == user]

    def offer(self, decision: Decision) -> None:
        """Offer `decision` to its user: their choices (action texts), key and decision as data."""
        self.choices[decision.user] = [c.action for c in decision.choices]
        self.keys[decision.user] = decision.key
        self.decisions[decision.user] = decision

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
            "headline": self.headline.to_json() if self.headline else None,
            "story": [e.to_json() for e in self.story],
            "decisions": {str(k): v.to_json() for k, v in self.decisions.items()},
            "bots_moving": list(self.bots_moving),
            "heads_up": [h.to_json() for h in self.heads_up],
            "head": self.head,
            "note": self.note,
            "standings": [f.to_json() for f in self.standings],
            "page": self.page,
            "pages": self.pages,
            "turns": [t.to_json() for t in self.turns],
            "calls": {str(k): v for k, v in self.calls.items()},
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
            headline=Headline.from_json(data["headline"]) if data.get("headline") else None,
            story=[Entry.from_json(e) for e in data.get("story", [])],
            decisions={int(k): Decision.from_json(v) for k, v in data.get("decisions", {}).items()},
            bots_moving=[str(n) for n in data.get("bots_moving", [])],
            heads_up=[HeadsUp.from_json(h) for h in data.get("heads_up", [])],
            head=str(data.get("head", "")),
            note=str(data.get("note", "")),
            standings=[FinalScore.from_json(f) for f in data.get("standings", [])],
            page=int(data.get("page", 0)),
            pages=int(data.get("pages", 0)),
            turns=[MyTurn.from_json(t) for t in data.get("turns", [])],
            calls={int(k): int(v) for k, v in data.get("calls", {}).items()},
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
