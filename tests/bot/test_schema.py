"""One schema (issue 48): a new database is made from schema.py, an old one climbs the
migrations, and both end with the same columns, keys and indexes, on both backends."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from bot.storage import migrations, open_storage
from bot.storage.schema import LATEST, TABLES
from bot.storage.sql import POSTGRES, SQLITE, numbered
from bot.storage.transfer import TABLES as COPIED
from tests.conftest import database_url

from .test_upgrade import made_before


def sqlite_schema(path: str) -> dict[str, Any]:
    """Every table's columns (type, NOT NULL, default, key), foreign keys and indexes."""
    conn = sqlite3.connect(path)
    try:
        out: dict[str, Any] = {}
        names = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        for name in names:
            columns = {r[1]: (r[2], r[3], r[4], r[5]) for r in conn.execute(f"PRAGMA table_info({name})")}
            keys = {r[2:5] + (r[6],) for r in conn.execute(f"PRAGMA foreign_key_list({name})")}
            out[name] = (columns, keys)
        for name, sql in conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL"):
            out[f"index {name}"] = re.sub(r"\s+", " ", sql.replace('"', ""))
        return out
    finally:
        conn.close()


async def postgres_schema(url: str) -> dict[str, Any]:
    name = url.rsplit("search_path=", 1)[1]
    conn = await asyncpg.connect(url)
    try:
        out: dict[str, Any] = {}
        for r in await conn.fetch(
            "SELECT table_name, column_name, data_type, is_nullable, column_default, is_identity "
            "FROM information_schema.columns WHERE table_schema = $1",
            name,
        ):
            out.setdefault(r[0], {})[r[1]] = tuple(r[2:])
        for r in await conn.fetch(
            "SELECT conrelid::regclass::text, pg_get_constraintdef(oid) FROM pg_constraint "
            "WHERE connamespace = $1::regnamespace",
            name,
        ):
            out.setdefault(f"constraints {r[0]}", set()).add(r[1])
        for r in await conn.fetch("SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = $1", name):
            out[f"index {r[0]}"] = r[1].replace(f"{name}.", "")
        return out
    finally:
        await conn.close()


async def fresh(request: pytest.FixtureRequest, backend: str, tmp_path: Path) -> str:
    database = database_url(request, backend, tmp_path, "fresh")
    storage = open_storage(database)
    await storage.open()
    await storage.close()
    return database


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
async def test_an_upgraded_database_has_exactly_the_schema_of_a_new_one(request, tmp_path, backend):
    new, old = await fresh(request, backend, tmp_path), await made_before(request, backend, tmp_path)
    storage = open_storage(old)
    await storage.open()
    await storage.close()
    if backend == "sqlite":
        upgraded, made = sqlite_schema(old), sqlite_schema(new)
    else:
        upgraded, made = await postgres_schema(old), await postgres_schema(new)
    assert upgraded == made
    tables = {t.name for t in TABLES}
    assert {k for k in made if " " not in k} - {"sqlite_sequence", "schema_migrations"} == tables


async def test_a_new_postgres_schema_records_every_migration_number(request, tmp_path):
    url = await fresh(request, "postgres", tmp_path)
    conn = await asyncpg.connect(url)
    try:
        numbers = [r[0] for r in await conn.fetch("SELECT number FROM schema_migrations ORDER BY number")]
    finally:
        await conn.close()
    assert numbers == [n for n, _ in migrations.STEPS] == list(range(1, LATEST + 1))


def test_every_column_of_the_schema_is_copied_but_claims_and_seat_positions():
    left_out = {(t.name, c) for t in TABLES for c in t.names} - {(t, c) for t, cs in COPIED for c in cs}
    assert left_out == {("outbox", "claimed_by"), ("outbox", "claimed_until"), ("seats", "pos")}


def test_both_dialects_declare_every_table_from_the_one_description():
    for dialect in (SQLITE, POSTGRES):
        made = dialect.create_statements()
        assert [s.split()[2] for s in made if s.startswith("CREATE TABLE")] == [t.name for t in TABLES]
    assert "user_id BIGINT NOT NULL" in POSTGRES.create_table(TABLES[1])
    assert "user_id INTEGER NOT NULL" in SQLITE.create_table(TABLES[1])


def test_placeholders_are_numbered_for_postgres_in_order():
    assert numbered("SELECT a FROM t WHERE b = ? AND c IN (?, ?)") == "SELECT a FROM t WHERE b = $1 AND c IN ($2, $3)"
    assert SQLITE.text("SELECT ? {ordered_join} x") == "SELECT ? CROSS JOIN x"
    assert POSTGRES.text("SELECT ? {ordered_join} x") == "SELECT $1 JOIN x"
