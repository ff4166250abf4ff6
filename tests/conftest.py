"""Fixtures every test folder may use: the test session's PostgreSQL server, and a
database URL on either backend.

The server is started once per session (tests/postgres_server.py), only when a
test asks for PostgreSQL. Without one, those tests skip with the reason; under
EPOCHS_REQUIRE_POSTGRES=1 (.ci/run sets it) they fail instead, so CI never
passes without having run them.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests import postgres_server

BACKENDS = ("sqlite", "postgres")


def start_postgres() -> postgres_server.Server:
    """A throwaway server; without one the test skips, saying why (fails where it is required)."""
    try:
        return postgres_server.start()
    except postgres_server.Unavailable as err:
        if postgres_server.required():
            pytest.fail(f"PostgreSQL is required here ({postgres_server.ENV_REQUIRE}=1) but {err}", pytrace=False)
        pytest.skip(f"PostgreSQL tests skipped: {err}")


@pytest.fixture(scope="session")
def postgres():
    """The session's PostgreSQL server (started on first use, stopped at the end)."""
    server = start_postgres()
    yield server
    server.stop()


def database_url(request: pytest.FixtureRequest, backend: str, tmp_path: Path, name: str = "epochs") -> str:
    """A fresh, empty database on `backend`: a SQLite file in tmp_path, or a new PostgreSQL
    schema (dropped after the test)."""
    if backend == "sqlite":
        return str(tmp_path / f"{name}.sqlite")
    server = request.getfixturevalue("postgres")
    url = server.schema()
    request.addfinalizer(lambda: server.drop_schema(url))
    return url


@pytest.fixture(params=BACKENDS)
def any_database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh database URL, once per backend."""
    return database_url(request, request.param, tmp_path)
