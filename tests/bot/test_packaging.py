"""Packaging and the two Quick start commands (issue 3 §1)."""

from __future__ import annotations

import shutil
import subprocess
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RUN = "python3 -m venv .venv && .venv/bin/pip install -q -e . && .venv/bin/epochs"
#: Lint, format and type checks first (issue 18), so CI fails on a new finding; the tests on
#: the CI machine's two cores, the slowest listed at the end.
TEST = (
    "python3 -m venv .venv && .venv/bin/pip install -q -e '.[test]' && .venv/bin/ruff check . "
    "&& .venv/bin/ruff format --check . && .venv/bin/mypy && .venv/bin/python -m pytest -q -n 2 --durations=15"
)


def quick_start_commands() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    return [line[4:] for line in section.splitlines() if line.startswith("    ") and line.strip()]


def test_quick_start_has_exactly_the_two_commands():
    assert quick_start_commands() == [RUN, TEST]


def test_pyproject_declares_the_distribution_script_and_extras():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert project["project"]["name"] == "epochs"
    deps = " ".join(project["project"]["dependencies"])
    assert all(name in deps for name in ("discord.py", "aiosqlite", "Pillow"))
    assert {d.split(">")[0] for d in project["project"]["optional-dependencies"]["test"]} >= {
        "pytest",
        "pytest-asyncio",
        "pytest-xdist",
    }
    assert project["project"]["scripts"]["epochs"] == "bot.__main__:main"
    assert "rules/*.txt" in project["tool"]["setuptools"]["package-data"]["bot"]


def test_ci_runs_the_readme_test_command():
    done = subprocess.run(
        [str(ROOT / ".ci/run")],
        env={"CI_PRINT_ONLY": "1", "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode == 0 and done.stdout.strip() == "+ " + TEST


def test_ci_fails_when_the_test_command_fails(tmp_path):
    (tmp_path / ".ci").mkdir()
    shutil.copy(ROOT / ".ci/run", tmp_path / ".ci/run")
    readme = "## Quick start\n\nRun the whole test suite:\n\n    {}\n"
    (tmp_path / "README.md").write_text(readme.format("python3 -c 'raise SystemExit(3)'"))
    failed = subprocess.run([str(tmp_path / ".ci/run")], capture_output=True, text=True, timeout=30)
    assert failed.returncode == 3
    (tmp_path / "README.md").write_text(readme.format("true && python3 -c 'pass'"))
    passed = subprocess.run([str(tmp_path / ".ci/run")], capture_output=True, text=True, timeout=30)
    assert passed.returncode == 0
    (tmp_path / "README.md").write_text("no command here\n")
    missing = subprocess.run([str(tmp_path / ".ci/run")], capture_output=True, text=True, timeout=30)
    assert missing.returncode == 2


def test_rulebooks_ship_inside_the_package():
    from bot.service.rules import RULEBOOKS, RULES_DIR

    assert RULES_DIR.is_relative_to(ROOT / "bot")
    for name in RULEBOOKS.values():
        assert (RULES_DIR / name).stat().st_size > 10_000
