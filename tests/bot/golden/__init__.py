"""Golden transcripts: one `epochs script` per game, and the output it must print, byte for byte.

Each `<game>.script` here plays a table of that game through the lobby, moves, undo (one's own,
an asked undo approved and rejected), votes, fill-in bots, clocks and `wait`, `away`, exports and
a fork, and the commands around them; `<game>.out` is what `epochs script <game>.script` printed
on a fresh database (issue 47: the service is rebuilt under them, and must answer the same).

`run(script)` runs one exactly as a player would (`python -m bot script FILE`, a process of its
own in an empty folder, so a fresh database and no config), and returns its standard output with
that folder's path written `<dir>` (the images and exports are saved there). The log on standard
error is not compared.

Record them again after a change that means to change the output (then read the diff!):

    python -m tests.bot.golden record            # every game
    python -m tests.bot.golden record cradle     # one
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
#: The games, in the order they are run; each has `<game>.script` and `<game>.out` here.
GAMES = ("rising-cultures", "rise-of-empires", "cradle", "mosaic")


def script_path(game: str) -> Path:
    return HERE / f"{game}.script"


def expected_path(game: str) -> Path:
    return HERE / f"{game}.out"


def run(script: Path) -> str:
    """What `epochs script <script>` prints on a fresh database, its folder written `<dir>`."""
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN" and not k.startswith("EPOCHS_")}
    env["PYTHONPATH"] = str(ROOT)
    with tempfile.TemporaryDirectory(prefix="epochs-golden-") as tmp:
        folder = Path(tmp).resolve()
        done = subprocess.run(
            [sys.executable, "-m", "bot", "script", str(script)],
            capture_output=True,
            cwd=folder,
            env=env,
            timeout=600,
            stdin=subprocess.DEVNULL,
        )
        if done.returncode != 0:
            raise RuntimeError(f"epochs script {script.name} ended with {done.returncode}:\n{done.stderr.decode()}")
        return done.stdout.decode("utf-8", "surrogateescape").replace(str(folder), "<dir>")


def record(games: list[str]) -> None:
    """Write each game's `.out` from a run of its `.script`."""
    for game in games:
        expected_path(game).write_text(run(script_path(game)), encoding="utf-8", newline="")
        print(f"recorded {expected_path(game).relative_to(ROOT)}")
