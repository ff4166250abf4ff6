"""The terminal table and `python -m bot` (issue 3 §1, §4)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bot.config import ConfigError, load_config
from bot.local import Terminal, user_id
from bot.local.terminal import listed_names
from bot.service import Settings

from .conftest import GAMES

ROOT = Path(__file__).resolve().parents[2]


async def test_script_mode_plays_and_prints_every_reply(table, tmp_path):
    out: list[str] = []
    terminal = Terminal(table.service, out=out.append, images_dir=tmp_path / "img", channel=table.channel)
    refused = await terminal.run_script(
        [
            "# a comment",
            "ann game new fake-race seed=7 pile=3",
            "bob game join",
            "ann game start fixed",
            "bob take 1",  # not bob's turn
            "ann take 2",  # bare action = play
            "bob hand",
            "bob: play take 1",
            "lonely",
        ]
    )
    text = "\n".join(out)
    assert refused == 2
    assert "> ann: take 2\nbob — your turn · Fake Race\n• ann took 2; 1 left.\n• Scores: ann 0 → 2\n" in text
    assert "! It is not your turn; waiting for ann." in text
    assert "--- private to bob (others look away) ---" in text
    # the choices in words with what to type, grouped, listed once per decision (issue 25 §2)
    assert (
        "Take from the pile:\n  1 from the pile — +1 · 2 left  [take 1]\n  2 from the pile — +2 · 1 left  [take 2]"
        in text
    )
    assert text.count("The die — +1 to +6  [roll]") == 2  # ann's first decision, bob's
    assert (
        "Game over · Fake Race" in text
        and "Final standings:\n1. ann (A) 2\n2. bob (B) 1" in text
        and "Winner: ann." in text
    )
    assert "a line is `<user> <command>`" in text
    rec = await table.storage.latest_table(table.channel)
    assert {s.user for s in rec.seats} == {user_id("ann"), user_id("bob")}


async def test_hot_seat_prompts_whose_turn_and_legal_actions(table, tmp_path):
    out: list[str] = []
    answers = iter(["fake-race", "ann bob", "take 1", "ann: board", "roll", "quit"])
    prompts: list[str] = []

    def ask(prompt: str) -> str:
        prompts.append(prompt)
        return next(answers)

    terminal = Terminal(table.service, out=out.append, images_dir=tmp_path / "img", channel=table.channel)
    await terminal.run_interactive(ask)
    text = "\n".join(out)
    first = prompts[2][:-2]  # the seat order is shuffled at start
    second = ({"ann", "bob"} - {first}).pop()
    assert f"[Fake Race] {first} to act." in text
    # each decision's choices once, though `board` offers the second again: three decisions
    assert text.count("  1 from the pile — +1 · 9 left  [take 1]") == 1 and text.count("[roll]") == 3
    assert "Legal:" not in text
    assert prompts[2:] == [f"{first}> ", f"{second}> ", f"{second}> ", f"{first}> "]
    assert f"• {first} took 1; 9 left." in text and f"• {second} rolled " in text
    assert "pile: 9" in text  # ann's `board`, whoever's turn it was
    # a second run resumes the same table
    out.clear()
    answers = iter(["quit"])
    await Terminal(table.service, out=out.append, channel=table.channel).run_interactive(ask)
    assert f"Resuming the Fake Race game of {first} and {second}." in "\n".join(out)


async def test_49_4_play_asks_for_the_panel_and_shows_it_whole_every_time(table, tmp_path):
    out: list[str] = []
    terminal = Terminal(table.service, out=out.append, images_dir=tmp_path / "img", channel=table.channel)
    script = ["ann game new fake-race seed=7 pile=3", "bob game join", "ann game start fixed", "ann play", "ann play"]
    assert await terminal.run_script(script) == 0
    asked = "\n".join(out).split("> ann: play\n")[1:]
    assert len(asked) == 2 and all("Now: Take from the pile" in a and "[roll]" in a for a in asked)


async def test_49_4_players_are_typed_with_commas_or_spaces(table, tmp_path):
    assert listed_names("ann, bot, bot") == listed_names("ann bot bot") == ["ann", "bot", "bot"]
    assert listed_names(" ann,bob ,  bot:easy,") == ["ann", "bob", "bot:easy"]
    answers = iter(["fake-race", "ann, bob", "quit"])
    out: list[str] = []
    terminal = Terminal(table.service, out=out.append, images_dir=tmp_path / "img", channel=table.channel)
    await terminal.run_interactive(lambda prompt: next(answers))
    rec = await table.storage.latest_table(table.channel)
    assert sorted(s.name for s in rec.players) == ["ann", "bob"]


async def test_hot_seat_ends_quietly_at_end_of_input(table):
    def ask(prompt: str) -> str:
        raise EOFError

    out: list[str] = []
    await Terminal(table.service, out=out.append, channel=table.channel).run_interactive(ask)


async def test_images_are_written_and_their_paths_printed(table, tmp_path):
    from bot.service import Service, Settings

    class Drawn:
        png = b"\x89PNG fake"
        alt = "a picture of the pile"

    service = Service(
        table.storage,
        clock=table.clock,
        games=GAMES,
        settings=Settings(images=True),
        renderer=lambda game, view, seat=None, part=None, highlight=(): Drawn(),
    )
    out: list[str] = []
    terminal = Terminal(service, out=out.append, images_dir=tmp_path / "img")
    await terminal.run_script(["ann game new fake-race", "bob game join", "ann game start fixed", "ann board"])
    paths = [line.split(": ", 1)[1].rstrip("]") for line in out if line.startswith("[board image")]
    assert paths and all(Path(p).read_bytes() == b"\x89PNG fake" for p in paths)
    assert any("a picture of the pile" in line for line in out)


def run_bot(*args: str, stdin: str | None = None, cwd: Path, env_extra: dict | None = None):
    import os

    env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "EPOCHS_CONFIG", "EPOCHS_DATABASE")}
    env["PYTHONPATH"] = str(ROOT)
    env.update(env_extra or {})
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        timeout=60,
        stdin=None if stdin is not None else subprocess.DEVNULL,
    )


def test_python_m_bot_without_a_token_and_without_stdin_does_not_hang(tmp_path):
    done = run_bot(cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "(all commands accepted)" in done.stdout


def test_python_m_bot_reads_commands_from_stdin(tmp_path):
    script = "ann game new fake-race\nann game status\n"
    done = run_bot(
        "script", "-", stdin="ann game new rising-cultures seed=1\nbob game join\nann game status\n", cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    assert "Rising Cultures table, waiting to start: ann and bob" in done.stdout
    assert script  # the fake game is not registered outside the tests


def test_discord_mode_without_token_explains_itself(tmp_path):
    done = run_bot("discord", cwd=tmp_path)
    assert done.returncode == 2 and "no Discord token" in done.stderr


def test_config_reads_file_and_environment(tmp_path):
    path = tmp_path / "c.toml"
    path.write_text(
        '[discord]\ntoken = "s3cr3t"\ndev_guild = 42\n[storage]\ndatabase = "x.sqlite"\n'
        '[reminders]\nevery_hours = 6\nabsent_after = 2\n[engine]\ndata_dir = "d"\n[log]\nlevel = "debug"\n'
    )
    config = load_config(path, env={})
    assert (
        config.token,
        config.dev_guild,
        config.database,
        config.remind_hours,
        config.absent_after,
        config.data_dir,
        config.log_level,
    ) == ("s3cr3t", 42, "x.sqlite", 6.0, 2, "d", "DEBUG")
    assert load_config(path, env={"DISCORD_TOKEN": "env"}).token == "env"
    assert "s3cr3t" not in repr(config)  # the token never shows in logs or tracebacks
    assert not load_config(None, env={}).has_token or Path("config.toml").is_file()


def test_config_errors_are_clear(tmp_path):
    with pytest.raises(ConfigError, match="no config file"):
        load_config(tmp_path / "missing.toml", env={})
    bad = tmp_path / "bad.toml"
    bad.write_text("[reminders]\nevery_hours = -1\n")
    with pytest.raises(ConfigError, match="every_hours"):
        load_config(bad, env={})


def test_the_example_config_loads():
    config = load_config(ROOT / "config.example.toml", env={})
    assert config.database == "epochs.sqlite" and config.remind_hours == 12 and not config.has_token
    assert config.render_timeout == 10 and Settings.from_config(config).render_timeout == 10


def test_the_drawing_time_limit_is_configurable_and_checked(tmp_path):
    """[drawing] timeout_seconds (issue 23): how long a picture may hold a reply."""
    path = tmp_path / "c.toml"
    path.write_text("[drawing]\ntimeout_seconds = 4.5\n")
    assert Settings.from_config(load_config(path, env={})).render_timeout == 4.5
    path.write_text("[drawing]\ntimeout_seconds = 0\n")
    with pytest.raises(ConfigError, match="drawing.timeout_seconds must be a number >= 1"):
        load_config(path, env={})


def test_main_reads_the_config_and_points_the_engine_at_data_dir(tmp_path, monkeypatch, capsys):
    from bot.__main__ import main

    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.delenv("EPOCHS_DATA_DIR", raising=False)
    config = tmp_path / "c.toml"
    config.write_text(f'[engine]\ndata_dir = "{tmp_path / "data"}"\n[log]\nlevel = "WARNING"\n')
    script = tmp_path / "moves.txt"
    script.write_text("ann game new rising-cultures\nbob game join\nann game status\n")
    assert main(["--config", str(config), "--db", str(tmp_path / "x.sqlite"), "script", str(script)]) == 0
    import os

    assert os.environ["EPOCHS_DATA_DIR"] == str(tmp_path / "data")
    assert "waiting to start: ann and bob" in capsys.readouterr().out
    assert (tmp_path / "x.sqlite").is_file()


def test_main_refuses_a_broken_config(tmp_path, capsys):
    from bot.__main__ import main

    bad = tmp_path / "bad.toml"
    bad.write_text("[log]\nlevel = 'LOUD'\n")
    assert main(["--config", str(bad), "script", "-"]) == 2
    assert "log.level" in capsys.readouterr().err


def test_db_may_come_before_or_after_the_mode(tmp_path):
    """`epochs script --db FILE` works as well as `epochs --db FILE script` (issue 11 §6)."""
    db = tmp_path / "kept.sqlite"
    first = run_bot("script", "--db", str(db), "-", stdin="ann game new rising-cultures seed=1\n", cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    again = run_bot("--db", str(db), "script", stdin="bob game join\nann game status\n", cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert "waiting to start: ann and bob" in again.stdout


async def test_one_person_plays_solo_with_bots_at_the_terminal(table, tmp_path):
    """`bot` among the names seats a fill-in bot (issue 14 §3): the hot seat then asks only
    the person, and the bots' turns are printed as they are played."""
    out: list[str] = []
    moves = iter(["1"] * 200)

    def ask(prompt: str) -> str:
        if prompt.startswith("Game"):
            return "rising-cultures"
        if prompt.startswith("Players"):
            return "ann bot:easy"
        if prompt != "ann> ":
            raise AssertionError(f"asked {prompt!r}: only ann is a person")
        return "quit" if sum("[bot]" in line for line in out) >= 2 else next(moves)

    terminal = Terminal(table.service, out=out.append, images_dir=tmp_path / "img", channel=table.channel)
    original = terminal.current

    async def first_legal():  # ann always plays her first legal action
        title, acting, decision = await original()
        nonlocal moves
        moves = iter([decision.choices[0].action] * 200) if decision else moves
        return title, acting, decision

    terminal.current = first_legal
    await terminal.run_interactive(ask)
    text = "\n".join(out)
    assert "ann seated Bot Cyrus (easy)" in text and "[bot]" in text
    rec = await table.storage.latest_table(table.channel)
    assert [s.bot for s in rec.players].count("easy") == 1


def closed_early(args: list[str], stdin: bytes, cwd: Path) -> tuple[int, str]:
    """Run `python -m bot ARGS` with its output read for one line only and then closed, as
    `| head -1` does: (exit status, what it wrote to stderr)."""
    import os

    env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "EPOCHS_CONFIG", "EPOCHS_DATABASE")}
    env["PYTHONPATH"] = str(ROOT)
    process = subprocess.Popen(
        [sys.executable, "-m", "bot", *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=cwd,
        env=env,
    )
    assert process.stdin is not None and process.stdout is not None and process.stderr is not None
    process.stdin.write(stdin)
    process.stdin.close()
    assert process.stdout.readline()
    process.stdout.close()
    err = process.stderr.read().decode("utf-8", "replace")
    return process.wait(60), err


async def test_script_and_replay_end_quietly_when_their_output_is_closed(tmp_path):
    """`epochs script ... | head` and `epochs replay ... | head` (issue 23): no BrokenPipeError
    traceback, and the exit status a shell shows for a pipe closed early (128 + SIGPIPE)."""
    import signal

    from .played import exported

    lines = b"ann game new rising-cultures seed=1\n" + b"ann help\n" * 200
    code, err = closed_early(["script", "-"], lines, tmp_path)
    assert (code, err) == (128 + signal.SIGPIPE, "")
    export = tmp_path / "rc.json"
    export.write_bytes(await exported("rising-cultures"))
    code, err = closed_early(["replay", str(export), "--out", str(tmp_path / "end.png")], b"", tmp_path)
    assert (code, err) == (128 + signal.SIGPIPE, "")


async def test_a_script_goes_on_past_hostile_export_files_and_lines_that_are_not_utf8(tmp_path):
    """Issue 23: `game new from=FILE at=5` with a lone surrogate in the file killed the whole
    script process (its refusal quoted the character, and printing it failed). Now the
    refusal names the place, a line of the script that is not UTF-8 is skipped saying so,
    and the script runs to its end."""
    import json

    from .played import exported

    doc = json.loads(await exported("rising-cultures"))
    doc["actions"][2]["action"] = "civ \udc80"
    (tmp_path / "broken.json").write_text(json.dumps(doc))
    (tmp_path / "deep.json").write_bytes(b"[" * 100_000 + b"]" * 100_000)
    script = (
        b"ann game new from=broken.json at=5\n"
        b"ann game new from=deep.json at=5\n"
        b"ann caf\xe9 au lait\n"
        b"ann game new rising-cultures\n"
    )
    (tmp_path / "moves.txt").write_bytes(script)
    import os

    env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "EPOCHS_CONFIG", "EPOCHS_DATABASE")}
    env.update(PYTHONPATH=str(ROOT), PYTHONIOENCODING="utf-8")
    for args, stdin in ((["script", "moves.txt"], b""), (["script", "-"], script)):  # a file, then stdin
        done = subprocess.run(
            [sys.executable, "-m", "bot", *args], input=stdin, capture_output=True, cwd=tmp_path, env=env, timeout=60
        )
        out, err = done.stdout.decode("utf-8"), done.stderr.decode("utf-8")
        assert done.returncode == 0 and "Traceback" not in err, err
        assert "! That file cannot be forked: step 3, field `action` holds a broken character" in out
        assert "! That file cannot be forked: the file nests lists and objects more than 16 deep" in out
        assert "! line 3 is not UTF-8 text" in out
        assert "ann opened a Rising Cultures table" in out and "(3 command(s) refused)" in out


def script_terminal(table, tmp_path: Path, out: list[str]) -> Terminal:
    """A terminal in script mode on the test's table: its own clock, moved by `wait` lines,
    from the table's moment; what it prints goes to `out`."""
    from bot.local import ScriptClock

    clock = ScriptClock(table.clock.now)
    table.service.clock = clock
    return Terminal(table.service, out=out.append, images_dir=tmp_path / "img", channel=table.channel, clock=clock)


async def test_5_a_script_waits_and_what_falls_due_on_the_way_is_printed_in_order(table, tmp_path):
    """Issue 27 §5: `wait 2d` moves the script's clock on, running every reminder, warning and
    hand-over at its own moment; the clock otherwise stands still."""
    out: list[str] = []
    terminal = script_terminal(table, tmp_path, out)
    clock = terminal.clock
    refused = await terminal.run_script(
        [
            "ann game new fake-race seed=7 pile=20 clock=1d12h clock_bonus=6h remind=10 stand_in=easy",
            "bob game join",
            "ann game start fixed",
            "wait 1d",
            "ann game status",
            "bob away 1d",
            "wait 14h",
            "ann take 1",
            "bob games mine",
            "wait 2x",
        ]
    )
    text = "\n".join(out)
    assert refused == 2 and "! `2x`: `wait` takes a time with its unit" in text
    assert text.index("Reminder 1: ann") < text.index("⏳ ann, 1d left") < text.index("Reminder 2: ann")
    assert "(the clock reads Friday 12:00 UTC)" in text
    assert "ann (A) 12h (running), bob (B) 1d 12h." in text
    assert text.index("Reminder 3: ann") < text.index("⏳ ann, 2h left") < text.index("ann's clock ran out")
    assert "• ann took 1; 19 left. [bot]" in text  # the stand-in's move, marked
    assert "! A bot plays your seat now (easy). Say `game back` to take it back." in text
    # bob's turn came when the bot moved (Saturday 00:00); he is away, so his clock has stood still
    assert "Your turn at 1 table:\n• Fake Race — channel 100: waiting 2 hours, 1d 12h left on your clock" in text
    assert clock.now == table.clock.now + 38 * 3600


async def test_5_the_hot_seat_table_keeps_real_time(table, tmp_path):
    out: list[str] = []
    terminal = Terminal(table.service, out=out.append, images_dir=tmp_path / "img", channel=table.channel)
    assert not await terminal.wait("2d")
    assert "this table keeps real time" in out[0]


def test_5_epochs_script_runs_a_clock_to_its_end_and_reads_the_same_every_run(tmp_path):
    """On its fresh database a script's clock starts at a fixed moment (Monday 5 January 2026,
    09:00 UTC), so the moments it prints are the same every run."""
    lines = (
        "ann game new rising-cultures seed=5 clock=1d stand_in=easy\nbob game join\nann game start fixed\n"
        "wait 23h\nann game status\nwait 1h\n"
    )
    done = run_bot("script", "-", stdin=lines, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "ann's clock ran out in the Rising Cultures game here: a bot (easy) plays their seat" in done.stdout
    assert "(the clock reads Tuesday 08:00 UTC)" in done.stdout and "it runs out Tuesday 09:00 UTC" in done.stdout
    assert run_bot("script", "-", stdin=lines, cwd=tmp_path).stdout == done.stdout
