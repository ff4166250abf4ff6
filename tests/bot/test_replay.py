"""`epochs replay FILE [--to N]` (issue 17 §2): exports of all four games replay step by step
against the engine, print the log and write the board image of the position reached;
a file that does not replay says at which step and why, with a non-zero exit."""

from __future__ import annotations

import io
import json

import pytest
from PIL import Image as PILImage

import engine
from bot.__main__ import main
from bot.replay import run

from .played import document, exported


def replay(path, **kw) -> tuple[int, str]:
    lines: list[str] = []
    code = run(path, write=lines.append, **kw)
    return code, "\n".join(lines)


@pytest.mark.parametrize("game_id", list(engine.GAMES))
async def test_an_export_of_every_game_replays_to_its_end_and_draws_the_board(game_id, tmp_path):
    data = await exported(game_id)
    doc = document(data)
    path = tmp_path / "game.json"
    path.write_bytes(data)
    out = tmp_path / "end.png"
    code, text = replay(path, out=out)
    assert code == 0, text
    last = doc["actions"][-1]
    assert f"#{last['seq']} {doc['seats'][last['seat']]['name']}: {last['action']}" in text
    assert f"Replayed {len(doc['actions'])} steps, up to #{last['seq']}; every one was legal." in text
    scores = doc["result"]["scores"]
    assert "Game over. Scores: " + ", ".join(f"{s['name']} {scores[s['seat']]}" for s in doc["seats"]) in text
    image = PILImage.open(io.BytesIO(out.read_bytes()))
    assert image.width >= 1200 and image.height > 600
    # part of the way: the position after step N, and who acts there
    middle = doc["actions"][len(doc["actions"]) // 2]["seq"]
    code, text = replay(path, to=middle, out=tmp_path / "middle.png")
    assert code == 0 and f"up to #{middle};" in text and "Next to act:" in text
    assert f"#{middle + 1} " not in text
    assert (tmp_path / "middle.png").stat().st_size > 1000


async def test_a_file_that_does_not_replay_says_at_which_step_and_why(tmp_path):
    doc = document(await exported("rise-of-empires"))
    step = doc["actions"][10]
    path = tmp_path / "bad.json"
    # an action the engine refuses
    bad = json.loads(json.dumps(doc))
    bad["actions"][10]["action"] = "conquer the moon"
    path.write_text(json.dumps(bad))
    code, text = replay(path)
    assert code == 1 and f"does not replay: step #{step['seq']}: the engine refuses 'conquer the moon'" in text
    # the right action by the wrong player
    wrong = json.loads(json.dumps(doc))
    wrong["actions"][10]["seat"] = (step["seat"] + 1) % len(doc["seats"])
    path.write_text(json.dumps(wrong))
    code, text = replay(path)
    assert code == 1 and f"step #{step['seq']}: it is not " in text and "must act" in text
    # another seed: the shuffles differ, so sooner or later a step is not legal, or the result differs
    reseeded = dict(doc, seed=doc["seed"] + 1)
    path.write_text(json.dumps(reseeded))
    code, text = replay(path)
    assert code == 1 and "does not replay: step #" in text
    # a result that the game does not reach
    cooked = dict(doc, result=dict(doc["result"], winners=[w + 1 for w in doc["result"]["winners"]]))
    path.write_text(json.dumps(cooked))
    code, text = replay(path)
    assert code == 1 and "the file recorded" in text


async def test_a_public_export_prints_its_log_but_does_not_replay(tmp_path):
    doc = document(await exported("mosaic"))
    public = dict(doc, seed=None, public=True)
    path = tmp_path / "public.json"
    path.write_text(json.dumps(public))
    code, text = replay(path)
    assert code == 1 and "does not replay: setup: it holds no seed" in text
    assert f"#{doc['actions'][-1]['seq']} " in text  # the log itself is printed


def test_a_file_that_is_no_export_is_refused_with_status_2(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("hello")
    assert replay(path) == (
        2,
        f"epochs replay: {path}: the file is not JSON (Expecting value: line 1 column 1 "
        "(char 0)), so it is not an Epochs export.",
    )
    code, text = replay(tmp_path / "missing.json")
    assert code == 2 and "cannot read" in text
    path.write_text(
        json.dumps(
            {
                "format": "epochs-game",
                "version": 1,
                "game": "chess",
                "seed": 1,
                "options": {},
                "seats": [],
                "actions": [],
            }
        )
    )
    code, text = replay(path)
    assert code == 2 and "'chess', which this Epochs does not have" in text


async def test_the_epochs_command_runs_replay(tmp_path, capsys, monkeypatch):
    path = tmp_path / "rc.json"
    path.write_bytes(await exported("rising-cultures"))
    monkeypatch.chdir(tmp_path)
    assert main(["replay", str(path), "--to", "5"]) == 0
    out = capsys.readouterr().out
    assert "up to #5;" in out and (tmp_path / "rc-at-5.png").exists()
    path.write_text("{}")
    assert main(["replay", str(path)]) == 2


async def test_hostile_files_end_with_status_2_and_a_reason_never_a_traceback(tmp_path, capsys, monkeypatch):
    """Issue 23: 100,000 levels of nesting printed a RecursionError traceback (status 1), and a
    lone surrogate a UnicodeEncodeError one. Both are "not an export" now (status 2)."""
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "hostile.json"
    path.write_bytes(b"[" * 100_000 + b"]" * 100_000)
    assert main(["replay", str(path)]) == 2
    captured = capsys.readouterr()
    assert "more than 16 deep, so it is not an Epochs export" in captured.out and "Traceback" not in captured.err
    doc = document(await exported("rising-cultures"))
    doc["seats"][1]["name"] = "b\udc80b"
    path.write_text(json.dumps(doc))
    assert main(["replay", str(path)]) == 2
    captured = capsys.readouterr()
    assert "seat 1, field `name` holds a broken character" in captured.out and not captured.err


async def test_a_board_that_cannot_be_written_is_said_so(tmp_path):
    path = tmp_path / "rc.json"
    path.write_bytes(await exported("rising-cultures"))
    code, text = replay(path, to=3, out=tmp_path / "no-such-folder" / "x.png")
    assert code == 2 and "cannot write the board image to" in text and "Replayed 3 steps" in text
