"""The table's meta as a typed record (issue 47 §4): `TableMeta` reads the JSON the service
stored before it existed, and writes back exactly what it read."""

from __future__ import annotations

from bot.service.meta import TableMeta
from bot.storage.base import Change

from .conftest import CHANNEL

#: A running Rise of Empires table's meta as the service stored it before issue 47: a plain
#: dict written in many places (a clock, a pending undo request, votes, marks, a fork's origin).
STORED = {
    "creator": 2,
    "practice": {"seed": 21},
    "stand_in": "easy",
    "clock": {
        "control": {"bank": 259200.0, "bonus": 86400.0, "cap": 259200.0},
        "seats": {"0": {"left": 259200.0, "at": 1767603600.0, "running": True, "warn": [86400.0]}},
    },
    "last_seq": {"0": 3, "1": 2},
    "seq": 3,
    "started": 1767603600.0,
    "posted": 3,
    "acting": {"0": 1767603700.0},
    "marks": {"3": {"round": 1}},
    "highlight": {"posted": 3, "places": ["near-east"]},
    "places": {"4": ["nw-africa"]},
    "undo": {"by": 1, "seq": 3, "approvals": [1], "created": 1.0, "expires": 2.0},
    "votes": {"target": 2, "skip": [1], "pause": [], "replace": []},
    "fork": {"from": 7, "at": 3, "copied": 3},
    "result": {"scores": [3, 0], "winners": [0], "reason": "resign"},
}


def test_old_stored_meta_reads_into_its_fields_and_writes_back_the_same():
    meta = TableMeta.from_json(STORED)
    assert meta.creator == 2 and meta.seq == 3 and meta.posted == 3 and meta.stand_in == "easy"
    assert meta.last_seq == {"0": 3, "1": 2} and meta.undo is not None and meta.undo["by"] == 1
    assert meta.votes == STORED["votes"] and meta.result == STORED["result"] and meta.other == {}
    clock = meta.table_clock()
    assert clock is not None and clock.control.bank == 259200.0
    assert meta.to_json() == STORED


def test_a_lobby_s_meta_and_keys_it_does_not_know_read_and_write_as_stored():
    """A lobby's meta holds only what its options gave; a key of a later version (or of a
    tool) is kept as it is; nothing is added."""
    assert TableMeta.from_json({}).to_json() == {}
    assert TableMeta.from_json({}).seq is None and TableMeta.from_json({}).table_clock() is None
    later = {"practice": {"seed": 5}, "notes": {"by": "a tool"}}
    meta = TableMeta.from_json(later)
    assert meta.practice == {"seed": 5} and meta.other == {"notes": {"by": "a tool"}}
    assert meta.to_json() == later


def test_a_field_set_to_none_is_no_longer_stored():
    meta = TableMeta.from_json(STORED)
    meta.undo = meta.votes = None
    assert "undo" not in meta.to_json() and "votes" not in meta.to_json()


async def test_a_table_whose_meta_was_stored_as_a_dict_plays_on(table):
    """A game started, its meta written back as the old code wrote it (a plain dict, keys in
    another order): the service reads it and the game goes on."""
    await table.started()
    rec = await table.storage.open_table(CHANNEL)
    old = dict(reversed(list(rec.meta.items())))
    await table.storage.commit(rec, Change(meta=old, bump=False), table.clock.now)
    rec = await table.storage.open_table(CHANNEL)
    assert TableMeta.of(rec).to_json() == old
    status = await table.ok(1, "game status")
    assert "waiting for" in status.text
