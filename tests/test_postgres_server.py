"""The test session's PostgreSQL (tests/postgres_server.py): a missing server skips the
PostgreSQL tests with the reason on a developer's machine, and fails them where
EPOCHS_REQUIRE_POSTGRES=1 (.ci/run), so CI never passes without them."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.postgres_server import _free_port

ROOT = Path(__file__).resolve().parents[1]
A_POSTGRES_TEST = "tests/bot/test_storage.py::test_two_postgres_processes_starting_together_migrate_once"


def run_without_a_server(**env: str) -> subprocess.CompletedProcess:
    nowhere = f"postgresql://epochs@127.0.0.1:{_free_port()}/epochs"
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-rs", A_POSTGRES_TEST],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "EPOCHS_TEST_POSTGRES": nowhere, "EPOCHS_REQUIRE_POSTGRES": "", **env},
    )


def test_without_a_server_the_postgres_tests_skip_saying_why():
    done = run_without_a_server()
    assert done.returncode == 0, done.stdout
    assert "1 skipped" in done.stdout and "cannot be reached" in done.stdout


def test_where_postgres_is_required_a_missing_server_fails():
    done = run_without_a_server(EPOCHS_REQUIRE_POSTGRES="1")
    assert done.returncode == 1, done.stdout
    assert "PostgreSQL is required here (EPOCHS_REQUIRE_POSTGRES=1)" in done.stdout


def test_ci_requires_postgres():
    assert "export EPOCHS_REQUIRE_POSTGRES=1" in (ROOT / ".ci/run").read_text()
