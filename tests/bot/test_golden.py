"""The golden transcripts (issue 47): each game's `epochs script` prints, byte for byte, what it
printed when recorded, so a change inside the service that means to change nothing is checked
against every command family at once.

Each script runs as `epochs script FILE` does, in a process of its own on a fresh database
(tests/bot/golden/__init__.py). On a difference the test prints a unified diff, expected first.
After a change that is meant to change the output, record them again and read the diff:

    python -m tests.bot.golden record [game ...]
"""

from __future__ import annotations

import difflib

import pytest

from .golden import GAMES, expected_path, run, script_path


@pytest.mark.parametrize("game", GAMES)
def test_the_script_prints_its_golden_transcript(game):
    expected = expected_path(game).read_text(encoding="utf-8")
    got = run(script_path(game))
    if got != expected:
        diff = difflib.unified_diff(
            expected.splitlines(keepends=True),
            got.splitlines(keepends=True),
            fromfile=f"golden/{game}.out",
            tofile=f"epochs script golden/{game}.script",
        )
        pytest.fail("the transcript changed:\n" + "".join(diff), pytrace=False)
