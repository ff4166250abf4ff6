"""A throwaway PostgreSQL server for the tests and the benchmark.

`start()` makes a cluster in a temporary folder with the machine's own
PostgreSQL binaries (`initdb`, `pg_ctl` under /usr/lib/postgresql/*/bin, or on
PATH), listening on 127.0.0.1 only, on a free port, with its socket in that
folder; `stop()` ends it and removes the folder. PostgreSQL refuses to run as
root, so under root the server runs as the `postgres` system user (`runuser`),
the folder handed to it. `schema()` gives each test a fresh, empty schema of its
own (a URL with `?search_path=...`): far quicker than a database per test.

`EPOCHS_TEST_POSTGRES=postgresql://...` names an existing server to use instead
(tests then only create and drop their own schemas in it).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import glob
import itertools
import os
import shutil
import socket
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

ENV_URL = "EPOCHS_TEST_POSTGRES"
ENV_REQUIRE = "EPOCHS_REQUIRE_POSTGRES"
USER = "epochs"


class Unavailable(Exception):
    """No PostgreSQL server can be had here; the message says why and what would help."""


def binaries() -> Path | None:
    """The folder holding initdb and pg_ctl: the newest /usr/lib/postgresql version, else PATH."""
    found = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/initdb"),
        key=lambda p: [int(x) if x.isdigit() else 0 for x in Path(p).parts[-3].split(".")],
    )
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb and shutil.which("pg_ctl") else None


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@dataclass
class Server:
    """A running server: `url` of its `postgres` database; `folder` is None for one we did not start."""

    url: str
    folder: Path | None = None
    bindir: Path | None = None
    as_user: list[str] = field(default_factory=list)
    #: The `postgres` options it was started with (port included), to start it again.
    options: str = ""
    _names: itertools.count = field(default_factory=lambda: itertools.count(1), repr=False)

    def database(self, query: str = "") -> str:
        return self.url + (("&" if "?" in self.url else "?") + query if query else "")

    def schema(self, prefix: str = "t") -> str:
        """A new empty schema; returns a URL whose connections use it."""
        name = f"{prefix}_{os.getpid()}_{next(self._names)}"
        _sql(self.url, f'DROP SCHEMA IF EXISTS "{name}" CASCADE; CREATE SCHEMA "{name}"')
        return self.database(f"search_path={name}")

    def drop_schema(self, url: str) -> None:
        name = url.rsplit("search_path=", 1)[1].split("&")[0]
        _sql(self.url, f'DROP SCHEMA IF EXISTS "{name}" CASCADE')

    def halt(self) -> None:
        """Stop the server abruptly, as a crash would (`pg_ctl -m immediate`: every backend is
        killed, no shutdown checkpoint); its data stays for `resume` (which recovers it)."""
        self._ctl("-m", "immediate", "-w", "stop")

    def resume(self) -> None:
        """Start a halted server again, on the same port."""
        assert self.folder is not None
        self._ctl("-l", str(self.folder / "server.log"), "-o", self.options, "-w", "-t", "30", "start")

    def _ctl(self, *args: str) -> None:
        if self.folder is None or self.bindir is None:
            raise Unavailable(f"this server was not started here ({ENV_URL}): it cannot be stopped or started")
        done = subprocess.run(
            [*self.as_user, str(self.bindir / "pg_ctl"), "-D", str(self.folder / "data"), *args],
            capture_output=True,
            text=True,
        )
        if done.returncode != 0:
            raise RuntimeError(f"pg_ctl {' '.join(args)} failed: {done.stderr.strip()[-500:]}")

    def stop(self) -> None:
        if self.folder is None or self.bindir is None:
            return
        subprocess.run(
            [
                *self.as_user,
                str(self.bindir / "pg_ctl"),
                "-D",
                str(self.folder / "data"),
                "-m",
                "immediate",
                "-w",
                "stop",
            ],
            capture_output=True,
            check=False,
        )
        shutil.rmtree(self.folder, ignore_errors=True)
        self.folder = None


def _sql(url: str, sql: str) -> None:
    """Run statements on `url` (from sync code, whatever event loop may be around)."""
    import asyncpg

    async def run() -> None:
        conn = await asyncpg.connect(url)
        try:
            await conn.execute(sql)
        finally:
            await conn.close()

    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, run()).result()


def start(*, durable: bool = False) -> Server:
    """Start a throwaway cluster (or use EPOCHS_TEST_POSTGRES). `durable`: fsync on, as
    in production (the benchmark); tests run with fsync off, which loses nothing
    unless the machine itself crashes."""
    named = os.environ.get(ENV_URL, "").strip()
    if named:
        try:
            _sql(named, "SELECT 1")
        except Exception as err:  # noqa: BLE001 - any failure means the named server is unusable
            raise Unavailable(f"{ENV_URL}={named!r} cannot be reached: {err}") from None
        return Server(named)
    bindir = binaries()
    if bindir is None:
        raise Unavailable(
            "no PostgreSQL binaries (initdb, pg_ctl) in /usr/lib/postgresql/*/bin or on PATH: "
            "install PostgreSQL (e.g. `apt-get install postgresql`) or set "
            f"{ENV_URL}=postgresql://user@host:port/db"
        )
    as_user: list[str] = []
    folder = Path(tempfile.mkdtemp(prefix="epochs-pg-"))
    if os.geteuid() == 0:
        runuser = shutil.which("runuser")
        try:
            import pwd

            pwd.getpwnam("postgres")
        except KeyError:
            runuser = None
        if runuser is None:
            shutil.rmtree(folder, ignore_errors=True)
            raise Unavailable(
                "running as root, and PostgreSQL refuses root: no `postgres` user or no runuser "
                f"to run it as; set {ENV_URL} instead"
            )
        as_user = [runuser, "-u", "postgres", "--"]
        shutil.chown(folder, "postgres")
    data = folder / "data"
    init = subprocess.run(
        [
            *as_user,
            str(bindir / "initdb"),
            "-D",
            str(data),
            "-A",
            "trust",
            "-U",
            USER,
            "-E",
            "UTF8",
            "--no-sync",
            "--locale=C",
        ],
        capture_output=True,
        text=True,
    )
    if init.returncode != 0:
        shutil.rmtree(folder, ignore_errors=True)
        raise Unavailable(f"initdb failed: {init.stderr.strip()[-500:]}")
    options = (
        f"-c listen_addresses=127.0.0.1 -c unix_socket_directories={folder} -c max_connections=200 "
        f"-c fsync={'on' if durable else 'off'} -c full_page_writes={'on' if durable else 'off'}"
    )
    last = ""
    for _ in range(5):  # a port taken meanwhile: try another
        port = _free_port()
        run = subprocess.run(
            [
                *as_user,
                str(bindir / "pg_ctl"),
                "-D",
                str(data),
                "-l",
                str(folder / "server.log"),
                "-o",
                f"{options} -p {port}",
                "-w",
                "-t",
                "30",
                "start",
            ],
            capture_output=True,
            text=True,
        )
        if run.returncode == 0:
            return Server(
                f"postgresql://{USER}@127.0.0.1:{port}/postgres", folder, bindir, as_user, f"{options} -p {port}"
            )
        last = (folder / "server.log").read_text(errors="replace")[-500:] if (folder / "server.log").exists() else ""
    shutil.rmtree(folder, ignore_errors=True)
    raise Unavailable(f"the throwaway PostgreSQL server did not start: {last or run.stderr.strip()[-500:]}")


def required() -> bool:
    """CI sets EPOCHS_REQUIRE_POSTGRES=1: a missing server is then a failure, not a skip."""
    return os.environ.get(ENV_REQUIRE, "") not in ("", "0")


__all__ = ["ENV_REQUIRE", "ENV_URL", "Server", "Unavailable", "binaries", "required", "start"]
