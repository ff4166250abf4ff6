"""`epochs migrate FROM TO`: move a community's games to another database.

    epochs migrate epochs.sqlite postgresql://epochs@db.example/epochs
    epochs migrate postgresql://epochs@db.example/epochs back.sqlite

Copies every table, seat, log line, snapshot, reminder, outbox row and player
preference (bot/storage/transfer.py), ids kept, in one transaction on the
target, and then checks the copy before saying it worked:

1. the target held nothing before (a copy never mixes with other games);
2. both databases are at the same schema version (each was brought up to date
   when opened, as the bot does at start);
3. afterwards, every table's row count, and every row, equal the source's;
4. every game with a stored position replays from its log to exactly that
   position (`Service.replay`, the service's own audit), on the target.

Stop the bot first: rows written to the source during the copy are not copied
(the source is read in one consistent snapshot).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from engine.core import Game

from .storage import StorageError, is_postgres, open_storage
from .storage.transfer import TABLES, counts


class MigrateError(Exception):
    """The copy was refused before anything was written (the reason says why)."""


@dataclass
class Outcome:
    """What was copied and what the check found (`problems` empty: all is well)."""

    counts: dict[str, int]
    replayed: int = 0
    without_position: int = 0
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def _label(database: str) -> str:
    from .storage.postgres import redact

    return redact(database) if is_postgres(database) else database


async def migrate(
    source: str, target: str, *, games: Mapping[str, Game] | None = None, say: Callable[[str], None] = print
) -> Outcome:
    """Copy `source` into the empty `target` and verify the copy (see the module doc).

    MigrateError when the copy is refused (nothing written); otherwise the
    `Outcome`, whose `problems` list what the verification found wrong."""
    from .service import Service, Settings

    if str(source) == str(target):
        raise MigrateError("FROM and TO are the same database")
    if not is_postgres(source) and not Path(str(source).removeprefix("sqlite:///")).is_file():
        raise MigrateError(f"no SQLite database at {source}")
    src, dst = open_storage(source), open_storage(target)
    try:
        await src.open()
        await dst.open()
        if await src.schema_version() != await dst.schema_version():
            raise MigrateError(
                f"schema versions differ: {await src.schema_version()} in {_label(source)}, "
                f"{await dst.schema_version()} in {_label(target)}; run the same build on both"
            )
        held = {t: n for t, n in (await dst.row_counts()).items() if n}
        if held:
            listed = ", ".join(f"{n} {t}" for t, n in held.items())
            raise MigrateError(
                f"{_label(target)} is not empty ({listed}); epochs migrate writes only into an "
                "empty database, so a copy never mixes with other games"
            )
        rows = await src.export_rows()
        outcome = Outcome(counts(rows))
        say(
            f"copying {', '.join(f'{n} {t}' for t, n in outcome.counts.items())} "
            f"from {_label(source)} to {_label(target)}"
        )
        await dst.import_rows(rows)

        # ---- verify, on what the target now holds
        found = await dst.row_counts()
        for table, _ in TABLES:
            if found[table] != outcome.counts[table]:
                outcome.problems.append(f"{table}: {outcome.counts[table]} rows in the source, {found[table]} copied")
        copied = await dst.export_rows()
        for table, _ in TABLES:
            # strict=False: a table whose count differs was reported just above; compare the rows both have
            differing = sum(a != b for a, b in zip(rows[table], copied[table], strict=False))
            if differing:
                outcome.problems.append(f"{table}: {differing} rows differ from the source")
        service = Service(dst, settings=Settings(images=False), games=games)
        for rec_id, game_id in ((r[0], r[3]) for r in rows["games"]):
            snap = await dst.snapshot(rec_id)
            if snap is None:
                outcome.without_position += 1  # a lobby: nothing played, nothing to replay
                continue
            if game_id not in service.games:
                outcome.problems.append(
                    f"table {rec_id}: game {game_id!r} is not in this build; its replay cannot be checked"
                )
                continue
            try:
                replayed = service.games[game_id].dumps(await service.replay(rec_id))
            except Exception as err:  # noqa: BLE001 - a log that does not replay is what we look for
                outcome.problems.append(f"table {rec_id}: its log does not replay ({type(err).__name__}: {err})")
                continue
            if replayed != snap[1]:
                outcome.problems.append(f"table {rec_id}: replaying its log does not give its stored position")
            else:
                outcome.replayed += 1
        return outcome
    finally:
        await src.close()
        await dst.close()


def report(outcome: Outcome, say: Callable[[str], None] = print) -> None:
    say("rows copied: " + ", ".join(f"{t} {n}" for t, n in outcome.counts.items()))
    say(
        f"replayed {outcome.replayed} games to their stored position ({outcome.without_position} lobbies have none yet)"
    )
    if outcome.ok:
        say("verified: counts, every row and every replay match")
    else:
        for problem in outcome.problems:
            say(f"PROBLEM: {problem}")
        say(
            f"verification FAILED ({len(outcome.problems)} problems): the target keeps what was written, for "
            "inspection; empty it before trying again"
        )


async def run(
    source: str, target: str, say: Callable[[str], None] = print, warn: Callable[[str], None] | None = None
) -> int:
    """The command: 0 copied and verified, 1 copied but the check failed, 2 refused."""
    warn = warn or say
    try:
        outcome = await migrate(source, target, say=say)
    except (MigrateError, StorageError, OSError) as err:
        warn(f"epochs migrate: {err}")
        return 2
    report(outcome, say)
    return 0 if outcome.ok else 1


__all__ = ["MigrateError", "Outcome", "migrate", "report", "run"]
