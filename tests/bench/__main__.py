"""Run one benchmark: `python -m tests.bench <kind> [args]`.

Each kind is a module `tests/bench/<kind>.py` with `main(argv: list[str]) -> int`;
it prints its figures and the targets they are measured against.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
from pathlib import Path


def kinds() -> list[str]:
    here = Path(__file__).parent
    return sorted(m.name for m in pkgutil.iter_modules([str(here)]) if not m.name.startswith("_"))


def main(argv: list[str]) -> int:
    if not argv or argv[0] in ("-h", "--help") or argv[0] not in kinds():
        print(f"usage: python -m tests.bench <{'|'.join(kinds())}> [args]")
        return 0 if argv[:1] in ([], ["-h"], ["--help"]) else 2
    module = importlib.import_module(f"tests.bench.{argv[0]}")
    return module.main(argv[1:])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
