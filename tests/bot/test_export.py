"""`game export` (issue 17 §2, §4): the versioned JSON format (a golden file), the public
export of a running game (no seed, no hidden parts), and what an export never holds."""

from __future__ import annotations

import json
import os
import random
import re
from pathlib import Path

import pytest

import engine
from bot.service import export

from .conftest import CHANNEL, GUILD, NAMES
from .played import exported

GOLDEN = Path(__file__).parent / "golden" / "export-fake-race.json"


async def test_the_export_of_a_finished_game_matches_the_golden_file(table):
    """The format, field by field: game, data version, seed, options, seats and names, every
    log line with its seat, time, `via` and whether it was undone. Regenerate after an
    intended change of the format with EPOCHS_GOLDEN=update (and raise VERSION if readers
    of the old files would be misled)."""
    await table.ok(1, "game new fake-race seed=7 pile=8")
    await table.ok(2, "game join")
    await table.ok(3, "game join")
    await table.ok(1, "game start fixed")
    for user, line in (
        (1, "play take 2"),
        (2, "play take 1"),
        (2, "undo"),
        (2, "play take 2"),
        (3, "resign"),
        (1, "play take 2"),
        (2, "play take 1"),
    ):
        table.clock.advance(1)
        await table.ok(user, line)
    reply = await table.ok(3, "game export")
    (file,) = reply.files
    assert (file.filename, file.kind) == ("epochs-fake-race-1.json", "export")
    assert "seed, options, seats and all 6 log lines" in reply.text and "epochs replay" in reply.text
    if os.environ.get("EPOCHS_GOLDEN") == "update":
        GOLDEN.parent.mkdir(exist_ok=True)
        GOLDEN.write_bytes(file.data)
    assert file.data.decode("utf-8") == GOLDEN.read_text(encoding="utf-8")
    doc = json.loads(file.data)
    assert [(a["seq"], a["via"], a["undone"]) for a in doc["actions"]] == [
        (1, "", False),
        (2, "", True),
        (3, "", False),
        (4, "auto", False),
        (5, "", False),
        (6, "", False),
    ]
    assert doc["actions"][3]["action"] == "take 1"  # cy's turn, played for the resigned seat
    parsed = export.parse(file.data)
    assert (parsed.game, parsed.seed, parsed.options, parsed.names) == (
        "fake-race",
        7,
        {"pile": 8},
        ["ann", "bob", "cy"],
    )


def test_the_export_format_is_read_back_with_clear_refusals():
    good = GOLDEN.read_bytes()
    assert export.parse(good).result == {"scores": [4, 3, 1], "winners": [0], "reason": "end"}
    cases = {
        b"not json": "not JSON",
        b'{"format": "something-else"}': "not an Epochs export",
        good.replace(b'"version": 1', b'"version": 2'): "format version 2; this Epochs reads up to 1",
        good.replace(b'"seq": 3', b'"seq": 1'): "larger than the one before",
        good.replace(b'"seat": 2, "action"', b'"seat": 7, "action"'): "names seat 7",
        good.replace(b'"seed": 7', b'"seed": "seven"'): "`seed` must be a whole number",
        b"\xff\xfe": "not text",
    }
    for data, message in cases.items():
        with pytest.raises(export.ExportError, match=re.escape(message)):
            export.parse(data)


def test_hostile_texts_are_refused_naming_the_place_never_quoting_them():
    """Issue 23: a lone surrogate (legal in JSON, `"\\udc80"`) is refused with where it is,
    and the refusal itself prints on any terminal; 100,000 levels of nesting are "not an
    export", not a RecursionError."""
    doc = json.loads(GOLDEN.read_bytes())
    doc["actions"][4]["action"] = "take \udc80"
    with pytest.raises(export.ExportError) as refused:
        export.parse(json.dumps(doc))
    assert str(refused.value).startswith("step 5, field `action` holds a broken character")
    str(refused.value).encode("ascii")
    with pytest.raises(export.ExportError, match="more than 16 deep, so it is not an Epochs export"):
        export.parse(b"[" * 100_000 + b"]" * 100_000)


@pytest.mark.parametrize(
    "time, accepted",
    [
        ("2026-01-01T12:00:00Z", 1767268800.0),
        ("2026-01-01T12:00:00", 1767268800.0),  # no zone: UTC, as the bot writes them
        ("2026-01-01T13:00:00+01:00", 1767268800.0),
        (None, None),  # a time the exporting bot did not know
        ("0001-01-01T00:00:00+23:59", "outside the times an export can hold"),
        ("9999-12-31T23:59:59-23:59", "outside the times an export can hold"),
        ("1999-12-31T23:59:59Z", "outside the times an export can hold"),
        ("2026-02-30T12:00:00Z", "must be a time such as"),
        (1767268800, "must be a time such as"),
    ],
)
def test_times_must_be_real_times_within_2000_to_2100(time, accepted):
    doc = json.loads(GOLDEN.read_bytes())
    doc["actions"][0]["time"] = time
    if isinstance(accepted, str):
        with pytest.raises(export.ExportError, match=re.escape("step 1, field `time`")) as refused:
            export.parse(json.dumps(doc))
        assert accepted in str(refused.value)
    else:
        assert export.parse(json.dumps(doc)).lines[0].time == accepted


async def test_a_table_stored_with_impossible_times_still_exports(table):
    """A table stored by an earlier build may hold a time no export can hold (a fork of year 1):
    its export writes such a time as null (not known) and reads back, replays and forks."""
    import sqlite3

    await table.ok(1, "game new fake-race seed=7 pile=6")
    await table.ok(2, "game join")
    await table.ok(1, "game start fixed")
    await table.ok(1, "play take 2")
    await table.ok(2, "play take 2")
    conn = sqlite3.connect(table.path)
    conn.execute("UPDATE actions SET time = -62135679540.0 WHERE seq = 1")
    conn.execute("UPDATE actions SET time = ? WHERE seq = 2", (float("inf"),))
    conn.commit()
    conn.close()
    await table.ok(1, "game cancel")
    reply = await table.ok(1, "game export")
    data = reply.files[0].data
    assert [a["time"] for a in json.loads(data)["actions"]] == [None, None]
    record = export.parse(data)
    assert [line.time for line in record.lines] == [None, None]
    assert len(list(export.replay(table.service.games["fake-race"], record))) == 3
    opened = await table.say(1, "game new from=x.json at=1", files={"x.json": data}, channel=CHANNEL + 1)
    assert not opened.error, opened.text


def test_the_data_version_is_a_stable_hash_of_the_game_data_files():
    for game in engine.GAMES.values():
        version = export.data_version(game)
        assert re.fullmatch(r"sha256:[0-9a-f]{16}", version) and version == export.data_version(game)
    assert len({export.data_version(g) for g in engine.GAMES.values()}) == len(engine.GAMES)


def test_the_data_version_follows_an_owners_corrected_files(tmp_path, monkeypatch):
    game = engine.GAMES["mosaic"]
    shipped = export.data_version(game)
    corrected = tmp_path / "mosaic"
    corrected.mkdir()
    source = Path(engine.__file__).parent / "mosaic" / "data" / "map.toml"
    (corrected / "map.toml").write_bytes(source.read_bytes() + b"\n# corrected\n")
    monkeypatch.setenv("EPOCHS_DATA_DIR", str(tmp_path))
    assert export.data_version(game) != shipped


@pytest.mark.skipif("rising-cultures" not in engine.GAMES, reason="Rising Cultures engine not registered")
async def test_a_running_game_exports_only_its_public_log(table, monkeypatch):
    """Rising Cultures' `top <card>` puts a card face down: the public export names no such
    card and holds no seed, says so in the file and the reply; once the game is over, the
    whole record is exported. No export holds a Discord id."""
    ann, bob = 987654321001, 987654321002
    monkeypatch.setitem(NAMES, ann, "amy")
    monkeypatch.setitem(NAMES, bob, "ben")
    await table.ok(ann, "game new rising-cultures")
    await table.ok(bob, "game join")
    await table.ok(ann, "game start fixed")
    rng = random.Random(4)
    hidden = None
    game = engine.GAMES["rising-cultures"]
    while hidden is None:
        rec, state = await table.state()
        seat = game.to_act(state)[0]
        user = rec.user_at(seat).user
        await table.ok(user, "play " + rng.choice(await table.service.legal_actions_for(CHANNEL, user)))
        rows = await table.storage.actions(rec.id)
        hidden = next((r.action.split(" ", 1)[1] for r in rows if r.action.split(" ")[0] in ("top", "bottom")), None)
    reply = await table.ok(bob, "game export")
    assert "still running, so this is its public log only" in reply.text and "cannot be replayed" in reply.text
    (file,) = reply.files
    assert file.filename == "epochs-rising-cultures-1-public.json"
    text = file.data.decode("utf-8")
    doc = json.loads(text)
    assert doc["public"] is True and doc["seed"] is None and doc["stripped"] == ["seed", "hidden parts of actions"]
    assert "left out" in doc["note"] and doc["result"] is None
    assert hidden not in text and "(a hidden card)" in text
    assert len(doc["actions"]) == len(await table.storage.actions(1))
    assert with_pytest_raises_replay(doc)
    await table.ok(ann, "game cancel")
    whole = (await table.ok(bob, "game export")).files[0].data.decode("utf-8")
    assert hidden in whole and json.loads(whole)["seed"] == rec.seed and json.loads(whole)["status"] == "cancelled"
    for data in (text, whole):
        assert str(ann) not in data and str(bob) not in data and "user" not in json.loads(data)["seats"][0]


def with_pytest_raises_replay(doc: dict) -> bool:
    parsed = export.parse(json.dumps(doc))
    with pytest.raises(export.ReplayError, match="public export of a running game"):
        list(export.replay(engine.GAMES[parsed.game], parsed))
    return True


async def test_export_names_a_game_of_this_server_and_refuses_what_has_no_record(table):
    await table.ok(1, "game new fake-race pile=2")
    await table.refused(1, "game export", contains="never started")
    await table.ok(2, "game join")
    await table.ok(1, "game start fixed")
    await table.ok(1, "play take 2")
    elsewhere = await table.service.handle(CHANNEL + 1, 2, "bob", "game export #1", guild=GUILD)
    assert not elsewhere.error and elsewhere.files[0].filename == "epochs-fake-race-1.json"
    other = await table.service.handle(CHANNEL + 2, 2, "bob", "game export #1", guild=GUILD + 1)
    assert other.error and "no game #1 on this server" in other.text
    await table.refused(1, "game export 1 2", contains="the id of a game of this server")
    empty = await table.service.handle(CHANNEL + 3, 2, "bob", "game export", guild=GUILD)
    assert empty.error and "no game in this channel" in empty.text


async def test_exports_of_all_four_games_hold_their_whole_log():
    for game_id in engine.GAMES:
        doc = json.loads(await exported(game_id))
        assert doc["game"] == game_id and doc["status"] == "finished" and doc["public"] is False
        assert doc["data_version"] == export.data_version(engine.GAMES[game_id])
        assert doc["result"]["reason"] == "end" and len(doc["actions"]) > 20
