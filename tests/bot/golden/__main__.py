"""`python -m tests.bot.golden record [game ...]`: record the golden transcripts again (see
tests/bot/golden/__init__.py)."""

from __future__ import annotations

import sys

from . import GAMES, record


def main(argv: list[str]) -> int:
    if not argv or argv[0] != "record" or any(game not in GAMES for game in argv[1:]):
        print(f"usage: python -m tests.bot.golden record [{' | '.join(GAMES)} ...]", file=sys.stderr)
        return 2
    record(argv[1:] or list(GAMES))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
