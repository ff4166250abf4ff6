"""Component data in TOML, validated at load.

Each game keeps its cards, tiles and maps under `engine/<game>/data/*.toml`.
A file is read into dataclasses; anything that does not fit raises DataError
naming the file, the entry and the field, so a server owner editing the data
(config `data_dir`) sees exactly what to fix.

Every entry carries `source`: "rulebook", "published" or "reconstructed"
(shared/research/README.md), so nobody mistakes a stand-in for the real thing.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from .serial import StructureError, structure

T = TypeVar("T")

SOURCES = ("rulebook", "published", "reconstructed")

#: Where an owner's corrected data lives: `<data_dir>/<game id>/<file>.toml`.
#: Set by the bot from config (`data_dir`) or the EPOCHS_DATA_DIR variable.
_override_dir: Path | None = None


class DataError(ValueError):
    """A component data file that cannot be used, with where and why."""


def set_data_dir(path: str | os.PathLike[str] | None) -> None:
    """Prefer files under `path` over the shipped ones (None: shipped only)."""
    global _override_dir
    _override_dir = Path(path) if path else None


def data_path(package_dir: Path, game_id: str, filename: str) -> Path:
    """The file to read: an owner's override if present, else the shipped one."""
    roots = [_override_dir] if _override_dir else []
    env = os.environ.get("EPOCHS_DATA_DIR")
    if env:
        roots.append(Path(env))
    for root in roots:
        candidate = root / game_id / filename
        if candidate.is_file():
            return candidate
    return package_dir / "data" / filename


def read_toml(path: Path) -> dict[str, Any]:
    try:
        with open(path, "rb") as fh:
            return tomllib.load(fh)
    except FileNotFoundError:
        raise DataError(f"{path}: file not found") from None
    except tomllib.TOMLDecodeError as err:
        raise DataError(f"{path}: not valid TOML: {err}") from None


def load_entries(
    path: Path, table: str, cls: type[T], *, key: str = "id", check: Callable[[T], str | None] | None = None
) -> list[T]:
    """Read the array of tables `[[table]]` from `path` as `cls` instances.

    Checks every entry's fields and types, that `source` is one of SOURCES,
    that `key` values are unique, and runs `check` (returning an error text or
    None) for rules a type cannot express.
    """
    doc = read_toml(path)
    raw = doc.get(table)
    if not isinstance(raw, list):
        raise DataError(f"{path}: expected an array of tables [[{table}]]")
    out: list[T] = []
    seen: set[Any] = set()
    for i, entry in enumerate(raw):
        label = f"[[{table}]] #{i + 1}"
        if isinstance(entry, dict) and key in entry:
            label += f" ({key} = {entry[key]!r})"
        try:
            item = structure(cls, entry)
        except StructureError as err:
            raise DataError(f"{path}: {label}: field {err.where}: {err.detail}") from None
        source = getattr(item, "source", None)
        if source not in SOURCES:
            raise DataError(f"{path}: {label}: field source: expected one of {', '.join(SOURCES)}, got {source!r}")
        ident = getattr(item, key, None)
        if ident is not None:
            if ident in seen:
                raise DataError(f"{path}: {label}: duplicate {key} {ident!r}")
            seen.add(ident)
        if check:
            problem = check(item)
            if problem:
                raise DataError(f"{path}: {label}: {problem}")
        out.append(item)
    return out


def load_table(path: Path, table: str, cls: type[T]) -> T:
    """Read the single table `[table]` from `path` as a `cls` instance."""
    doc = read_toml(path)
    raw = doc.get(table)
    if not isinstance(raw, dict):
        raise DataError(f"{path}: expected a table [{table}]")
    try:
        return structure(cls, raw)
    except StructureError as err:
        raise DataError(f"{path}: [{table}]: field {err.where}: {err.detail}") from None
