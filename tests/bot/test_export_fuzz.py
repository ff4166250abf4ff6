"""Hostile export files (issue 23 §2): a fixed, seeded set of mutations of real exports of
every game — types, encodings, nesting, sizes, times, seats, versions — each read by
`epochs replay` and by `game new from=<file> at=<N>`.

Each file must get a clear refusal or a correct result: a replay that exits 0, 1 or 2 and
prints only text that encodes (a strict UTF-8 writer stands in for the terminal), a fork
that opens a lobby whose position, once started, is the file's position at step N, or
refuses and stores nothing. Never a traceback (an exception escaping either path fails
the test), never a hang (each case has a time bound). Mutations marked `ok` must be
accepted (the reader is not too strict), those marked `no` refused, and `any` (a change
of meaning the engine judges, such as another seed) may go either way.
"""

from __future__ import annotations

import asyncio
import copy
import json
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

import engine
from bot import replay as replay_command
from bot.service import Service, Settings, export, intake
from bot.storage import open_storage

from .conftest import GAMES, GUILD, Clock, Table
from .played import exported

#: The step every fork starts from and every replay goes to (a mutated step lies before it).
AT = 6
#: Seconds one case may take before it counts as a hang.
BOUND = 30.0
CHANNEL = 900

Doc = dict[str, Any]


@dataclass
class Mutation:
    name: str
    expect: str  # "ok", "no" or "any"
    make: Callable[[Doc, bytes, random.Random], bytes]
    #: A refusal must say this (where the fault is), when given.
    says: str = ""
    #: The file itself is sound and replays; only the fork refuses (it needs step AT).
    replays: bool = False


def as_json(doc: Doc) -> bytes:
    """The document as JSON text; a lone surrogate is written as the escape `\\udc80`, legal JSON."""
    return json.dumps(doc).encode("ascii")


def edit(change: Callable[[Doc, random.Random], Any]) -> Callable[[Doc, bytes, random.Random], bytes]:
    """A mutation of the document: `change` edits a deep copy in place."""

    def make(doc: Doc, raw: bytes, rng: random.Random) -> bytes:
        mutated = copy.deepcopy(doc)
        change(mutated, rng)
        return as_json(mutated)

    return make


def raw(change: Callable[[bytes], bytes]) -> Callable[[Doc, bytes, random.Random], bytes]:
    return lambda doc, data, rng: change(data)


def early(doc: Doc, rng: random.Random) -> Doc:
    """One of the actions up to step AT (the ones a fork at AT replays)."""
    return doc["actions"][rng.randrange(AT)]


def put(path: tuple[Any, ...], value: Any) -> Callable[[Doc, random.Random], None]:
    def change(doc: Doc, rng: random.Random) -> None:
        target: Any = doc
        for key in path[:-1]:
            target = early(doc, rng) if key == "early" else target[key]
        target[path[-1]] = value

    return change


def nested(depth: int) -> Any:
    value: Any = "deep"
    for _ in range(depth):
        value = [value]
    return value


def rename_seats(doc: Doc, rng: random.Random) -> None:
    for i, seat in enumerate(doc["seats"]):
        seat["name"] = f"player {i} @everyone"


def drop_seat(doc: Doc, rng: random.Random) -> None:
    doc["seats"], doc["result"] = doc["seats"][:1], None


def extra_seats(doc: Doc, rng: random.Random) -> None:
    doc["seats"] += [{"seat": len(doc["seats"]) + i, "name": f"extra{i}", "bot": None} for i in range(7)]
    doc["result"] = None


def swap_seat_numbers(doc: Doc, rng: random.Random) -> None:
    doc["seats"][0]["seat"], doc["seats"][1]["seat"] = 1, 0


def same_names(doc: Doc, rng: random.Random) -> None:
    for seat in doc["seats"]:
        seat["name"] = "ann"


def another_game(doc: Doc, rng: random.Random) -> None:
    doc["game"] = next(g for g in engine.GAMES if g != doc["game"])


def reseed(doc: Doc, rng: random.Random) -> None:
    doc["seed"] = doc["seed"] + 1 + rng.randrange(1000)


def repeat_seq(doc: Doc, rng: random.Random) -> None:
    doc["actions"][3]["seq"] = doc["actions"][2]["seq"]


def many_actions(doc: Doc, rng: random.Random) -> None:
    doc["actions"] += [dict(doc["actions"][-1], seq=doc["actions"][-1]["seq"] + 1 + i) for i in range(2_000)]


def shuffle_steps(doc: Doc, rng: random.Random) -> None:
    head = doc["actions"][:AT]
    actions = [a["action"] for a in head]
    rng.shuffle(actions)
    for row, action in zip(head, actions, strict=True):
        row["action"] = action


MUTATIONS = [
    # --- encodings
    Mutation("unchanged", "ok", raw(lambda b: b)),
    Mutation("byte order mark", "ok", raw(lambda b: b"\xef\xbb\xbf" + b)),
    Mutation("utf-16", "no", raw(lambda b: b.decode("utf-8").encode("utf-16")), "not text (UTF-8)"),
    Mutation("utf-32", "no", raw(lambda b: b.decode("utf-8").encode("utf-32")), "not text (UTF-8)"),
    Mutation("latin-1 byte", "no", raw(lambda b: b.replace(b'"seed"', b'"s\xe9ed"', 1)), "not text (UTF-8)"),
    Mutation("encoded surrogate", "no", raw(lambda b: b.replace(b'"ann"', b'"a\xed\xb2\x80n"', 1)), "not text"),
    Mutation("lone surrogate in an action", "no", edit(put(("early", "action"), "take \udc80")), "field `action`"),
    Mutation("lone surrogate in a name", "no", edit(put(("seats", 1, "name"), "b\udc80b")), "seat 1, field `name`"),
    Mutation("lone surrogate in an event", "no", edit(put(("early", "events"), ["ok", "\ud800"])), "field `events`"),
    Mutation("lone surrogate in a key", "no", edit(put(("options", "x\udc80"), 1)), "a field name in the field"),
    Mutation("lone surrogate in the game", "no", edit(put(("game",), "\udc80")), "the field `game`"),
    Mutation("escaped surrogate text", "no", raw(lambda b: b.replace(b'"ann"', b'"\\udc80"', 1)), "broken character"),
    Mutation("nul in a name", "no", edit(put(("seats", 0, "name"), "an\x00n")), "control character"),
    Mutation("escape sequence in a name", "no", edit(put(("seats", 0, "name"), "\x1b[2Jann")), "control character"),
    Mutation("mentions in names", "ok", edit(rename_seats)),
    Mutation("truncated", "no", raw(lambda b: b[: len(b) // 2]), "not JSON"),
    Mutation("not json at all", "no", raw(lambda b: b"\x00\x01\x02binary"), "not JSON"),
    Mutation("empty file", "no", raw(lambda b: b""), "not JSON"),
    # --- nesting
    Mutation("100000 deep", "no", raw(lambda b: b"[" * 100_000 + b"]" * 100_000), "more than 16 deep"),
    Mutation("deep object", "no", raw(lambda b: b'{"a":' * 5000 + b"1" + b"}" * 5000), "more than 16 deep"),
    Mutation("deep option", "no", edit(put(("options", "x"), nested(40))), "more than 16 deep"),
    Mutation("deep events", "no", edit(put(("early", "events"), nested(30))), "more than 16 deep"),
    Mutation("list of an action", "no", edit(put(("early", "action"), ["take 1"])), "no `action` text"),
    # --- types
    Mutation("version as text", "no", edit(put(("version",), "1")), "`version` must be a whole number"),
    Mutation("version as float", "no", edit(put(("version",), 1.0)), "`version` must be a whole number"),
    Mutation("version true", "no", edit(put(("version",), True)), "`version` must be a whole number"),
    Mutation("seed as text", "no", edit(put(("seed",), "3")), "`seed` must be a whole number"),
    Mutation("seed too large", "no", edit(put(("seed",), 2**63)), "`seed` must be a whole number"),
    Mutation("seed negative", "no", edit(put(("seed",), -1)), "`seed` must be a whole number"),
    Mutation(
        "5000-digit number", "no", raw(lambda b: b.replace(b'"table": ', b'"table": ' + b"9" * 5000, 1)), "digits"
    ),
    Mutation("NaN", "no", raw(lambda b: b.replace(b'"version": 1', b'"version": NaN', 1)), "NaN"),
    Mutation("options a list", "no", edit(put(("options",), [])), "`options` must be an object"),
    Mutation("option an object", "no", edit(put(("options", "x"), {"y": 1})), "option 'x'"),
    Mutation("option key with space", "no", edit(put(("options", "a b"), 1)), "option 'a b'"),
    Mutation("unknown option", "any", edit(put(("options", "colour"), "blue"))),
    Mutation("seat as text", "no", edit(put(("early", "seat"), "0")), "names seat '0'"),
    Mutation("seat out of range", "no", edit(put(("early", "seat"), 9)), "names seat 9"),
    Mutation("seq as float", "no", edit(put(("actions", 0, "seq"), 1.0)), "needs a `seq`"),
    Mutation("seq repeated", "no", edit(repeat_seq), "needs a `seq` larger than the one before"),
    Mutation("seq huge", "no", edit(put(("actions", 0, "seq"), 10**15)), "needs a `seq`"),
    Mutation("undone as text", "no", edit(put(("early", "undone"), "no")), "field `undone` must be true or false"),
    Mutation("via a number", "no", edit(put(("early", "via"), 3)), "field `via` must be a text"),
    Mutation("events a text", "no", edit(put(("early", "events"), "x")), "field `events` must be a list"),
    Mutation("result a list", "no", edit(put(("result",), [1])), "`result` must be null or an object"),
    Mutation("result scores short", "no", edit(put(("result", "scores"), [1])), "`result` must be"),
    Mutation("table a text", "no", edit(put(("table",), "1")), "`table` must be a game number"),
    Mutation("public a text", "no", edit(put(("public",), "no")), "`public` must be true or false"),
    Mutation("unknown field", "ok", edit(put(("comment",), "hello"))),
    Mutation("no title", "ok", edit(lambda doc, rng: doc.pop("title"))),
    # --- sizes
    Mutation("17 MB of spaces", "no", raw(lambda b: b + b" " * (17 * 1024 * 1024)), "at most 16 MB"),
    Mutation("long action", "no", edit(put(("early", "action"), "take " + "1" * 3000)), "an action has at most"),
    Mutation("long name", "no", edit(put(("seats", 0, "name"), "a" * 65)), "a name has at most 64"),
    Mutation("long note", "no", edit(put(("note",), "n" * 5000)), "the field `note` is 5,000 characters"),
    Mutation("empty action", "no", edit(put(("early", "action"), " ")), "has no `action` text"),
    Mutation("no actions", "no", edit(put(("actions",), [])), "From which step?", replays=True),
    Mutation("2000 more actions", "any", edit(many_actions)),
    # --- times
    Mutation("year 1", "no", edit(put(("early", "time"), "0001-01-01T00:00:00+23:59")), "field `time` is 0001"),
    Mutation("year 9999", "no", edit(put(("early", "time"), "9999-12-31T23:59:59-23:59")), "outside the times"),
    Mutation("1970", "no", edit(put(("early", "time"), "1970-01-01T00:00:00Z")), "outside the times"),
    Mutation("not a time", "no", edit(put(("early", "time"), "yesterday")), "must be a time such as"),
    Mutation("time a number", "no", edit(put(("early", "time"), 1767268800)), "must be a time such as"),
    Mutation("exported in year 1", "no", edit(put(("exported_at",), "0001-01-01T00:00:00Z")), "`exported_at`"),
    Mutation("time unknown", "ok", edit(put(("early", "time"), None))),
    Mutation("time without zone", "ok", edit(put(("early", "time"), "2026-03-01T10:00:00"))),
    Mutation("time with offset", "ok", edit(put(("early", "time"), "2026-03-01T10:00:00+05:30"))),
    # --- seats
    Mutation("one seat", "no", edit(drop_seat), "names seat"),
    Mutation("seven more seats", "no", edit(extra_seats), "players; the export has"),
    Mutation("seat numbers swapped", "no", edit(swap_seat_numbers), "seat 0 of the export must be"),
    Mutation("same names", "any", edit(same_names)),
    Mutation("seats an object", "no", edit(put(("seats",), {"0": "ann"})), "`seats` must be a list"),
    Mutation("bot a number", "no", edit(put(("seats", 0, "bot"), 1)), "seat 0, field `bot`"),
    # --- versions and games
    Mutation("version 0", "no", edit(put(("version",), 0)), "`version` must be a whole number from 1"),
    Mutation("version 2", "no", edit(put(("version",), 2)), "format version 2"),
    Mutation("no version", "no", edit(lambda doc, rng: doc.pop("version")), "`version` must be"),
    Mutation("another format", "no", edit(put(("format",), "chess-pgn")), "not an Epochs export"),
    Mutation("unknown game", "no", edit(put(("game",), "chess")), "chess"),
    Mutation("game id with capitals", "no", edit(put(("game",), "Mosaic")), "must be a game id"),
    Mutation("another game", "no", edit(another_game), ""),
    Mutation("public export", "no", edit(put(("seed",), None)), "no seed"),
    Mutation("other data version", "ok", edit(put(("data_version",), "sha256:0000000000000000"))),
    # --- meaning
    Mutation("another seed", "any", edit(reseed)),
    Mutation("steps shuffled", "any", edit(shuffle_steps)),
    Mutation("another action", "any", edit(put(("early", "action"), "pass"))),
    *(
        Mutation(f"action {text!r}", "any", edit(put(("early", "action"), text)))
        for text in (
            "take -1",
            "take 99999999999999999999999999",
            "take \u0661",
            "\uff54\uff41\uff4b\uff45 \uff11",
            "@everyone",
            "`take 1`",
            "x" * 500,
            "civ ../../etc/passwd",
            "1e308 nan inf",
            "pass pass pass pass",
            "place 0 0 0 0 0 0 0 0 0 0 0",
            "\u202etake 1",
        )
    ),
]


@pytest.fixture
async def table(database: str, clock: Clock):
    """The usual table, on a database that does not wait for the disk: a few hundred
    forks are opened and cancelled here, and durability has its own tests."""
    storage = open_storage(database, durable=False)
    await storage.open()
    t = Table(Service(storage, clock=clock, games=GAMES, settings=Settings(images=False)), storage, clock, database)
    yield t
    await t.storage.close()


def test_the_mutations_have_distinct_names():
    assert len({m.name for m in MUTATIONS}) == len(MUTATIONS)


class Strict:
    """A terminal that can show only what encodes as UTF-8: printing a broken character
    fails here as it failed on the real terminal."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def __call__(self, text: str) -> None:
        text.encode("utf-8")
        self.lines.append(text)

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


@pytest.mark.parametrize("game_id", list(engine.GAMES))
async def test_hostile_exports_are_refused_clearly_or_replay_and_fork_correctly(table, game_id, tmp_path, monkeypatch):
    monkeypatch.setattr(replay_command, "_board", lambda game, state: None)  # pictures have their own tests
    data = await exported(game_id)
    doc = json.loads(data)
    rng = random.Random(f"issue 23 {game_id}")
    path = tmp_path / "hostile.json"
    tables = len(await table.storage.tables(GUILD, include_closed=True))
    outcomes = {}
    for mutation in MUTATIONS:
        mutated = mutation.make(doc, data, rng)
        path.write_bytes(mutated)
        out = Strict()
        code = await asyncio.wait_for(asyncio.to_thread(replay_command.run, path, to=AT, write=out), BOUND)
        assert code in (0, 1, 2) and "Traceback" not in out.text, (mutation.name, code, out.text)
        reply = await asyncio.wait_for(
            table.say(1, f"game new from=x.json at={AT}", channel=CHANNEL, files={"x.json": mutated}), BOUND
        )
        assert "went wrong" not in reply.text, (mutation.name, reply.text)
        reply.text.encode("utf-8")
        if reply.error:
            assert await table.storage.open_table(CHANNEL) is None, mutation.name  # nothing stored
            assert len(await table.storage.tables(GUILD, include_closed=True)) == tables, mutation.name
            assert mutation.says in reply.text, (mutation.name, reply.text)
            if not mutation.replays and mutation.expect == "no":
                assert code != 0 and mutation.says in out.text, (mutation.name, code, out.text)
        else:
            assert code == 0, (mutation.name, out.text)
            await started_fork_is_the_files_position(table, game_id, mutated)
            tables += 1
        outcomes[mutation.name] = "no" if reply.error else "ok"
    wrong = {m.name: outcomes[m.name] for m in MUTATIONS if m.expect != "any" and outcomes[m.name] != m.expect}
    assert not wrong, f"accepted or refused against expectation: {wrong}"


async def started_fork_is_the_files_position(table, game_id: str, data: bytes) -> None:
    """The forked lobby, filled and started, stands where the file's step AT stands; then
    it is cancelled to free the channel."""
    record = export.parse(data)
    for user in range(32, 32 + len(record.names) - 1):  # user 1 opened the fork and sits already
        await table.ok(user, "game join", channel=CHANNEL)
    start = await table.say(1, "game start", channel=CHANNEL)
    assert not start.error, start.text
    rec = await table.storage.open_table(CHANNEL)
    game = engine.GAMES[game_id]
    *_, reached = export.replay(game, record, to=AT, names=[p.name for p in rec.players])
    assert game.dumps(await table.service.tables.state(rec)) == game.dumps(reached.state)
    rows = await table.storage.actions(rec.id)
    assert all(intake.writable(r.time) for r in rows)  # every copied step has a real time
    await table.ok(1, "game cancel", channel=CHANNEL)
