"""A second `Storage`, in memory, written only from bot/storage/base.py (and the pure
fold of bot/storage/ratings.py, which every backend runs).

It exists to prove the claim of issue 3 §3: the interface is small and free
of SQL, so another backend (PostgreSQL) can be added without touching the
service. The same service flows run on it in test_storage_protocol.py.
"""

from __future__ import annotations

import asyncio
import copy
import itertools

from bot.storage.base import (
    OPEN_STATUSES,
    ActionRecord,
    AwayRecord,
    Change,
    ChannelBusy,
    Claim,
    GameRecord,
    NoticeRecord,
    PlayerPrefs,
    Rating,
    ReminderRecord,
    Shards,
    StaleWrite,
    Standing,
    TableRecord,
)
from bot.storage.ratings import RatedGame, RatedSeat, fold


class MemoryStorage:
    def __init__(self) -> None:
        self.tables_: dict[int, TableRecord] = {}
        self.snapshots: dict[int, tuple[int, str]] = {}
        self.logs: dict[int, list[ActionRecord]] = {}
        self.reminders_: dict[int, list[ReminderRecord]] = {}
        self.outbox: list[tuple[NoticeRecord, float | None]] = []
        self.players: dict[int, PlayerPrefs] = {}
        self.claims: dict[int, tuple[str, float]] = {}  # notice id -> (owner, until)
        self.records: dict[int, GameRecord] = {}
        self.secrets: dict[str, str] = {}
        self.links: dict[tuple[int, int], int] = {}
        self.away_: list[AwayRecord] = []
        self.posts_: dict[int, int] = {}
        self.ids = itertools.count(1)
        self.notice_ids = itertools.count(1)

    async def open(self) -> None: ...

    async def close(self) -> None: ...

    async def create_table(self, *, guild, channel, game, creator, options, seed, seats, remind_every, now, meta=None):
        if await self.open_table(channel) is not None:
            raise ChannelBusy(str(channel))
        rec = TableRecord(
            next(self.ids),
            guild,
            channel,
            game,
            "lobby",
            creator,
            dict(options),
            seed,
            1,
            now,
            now,
            remind_every,
            copy.deepcopy(meta or {}),
            [copy.copy(s) for s in seats],
        )
        self.tables_[rec.id] = rec
        self.logs[rec.id] = []
        return copy.deepcopy(rec)

    async def open_table(self, channel: int) -> TableRecord | None:
        found = [copy.deepcopy(t) for t in self.tables_.values() if t.channel == channel and t.status in OPEN_STATUSES]
        await asyncio.sleep(0)  # a real database answers later: other commands run meanwhile
        return found[0] if found else None

    async def latest_table(self, channel: int) -> TableRecord | None:
        found = [t for t in self.tables_.values() if t.channel == channel]
        return copy.deepcopy(max(found, key=lambda t: t.id)) if found else None

    async def table(self, table_id: int) -> TableRecord | None:
        return copy.deepcopy(self.tables_.get(table_id))

    async def tables(self, guild, *, include_closed: bool = False) -> list[TableRecord]:
        return [
            copy.deepcopy(t)
            for t in sorted(self.tables_.values(), key=lambda t: -t.id)
            if t.guild == guild and (include_closed or t.status in OPEN_STATUSES)
        ]

    async def snapshot(self, table_id: int):
        return self.snapshots.get(table_id)

    async def actions(self, table_id: int, after: int = 0) -> list[ActionRecord]:
        return [copy.deepcopy(a) for a in self.logs.get(table_id, []) if a.seq > after]

    async def commit(self, table: TableRecord, change: Change, now: float) -> int:
        stored = self.tables_.get(table.id)
        if stored is None or stored.revision != table.revision:
            raise StaleWrite(table.id, table.revision, None if stored is None else stored.revision)
        if {a.seq for a in change.actions} & {a.seq for a in self.logs[table.id]}:
            raise ValueError("duplicate sequence number")
        version = stored.version + (1 if change.bump else 0)
        for name in ("status", "options", "remind_every", "meta"):
            value = getattr(change, name)
            if value is not None:
                setattr(stored, name, copy.deepcopy(value))
        if change.seats is not None:
            stored.seats = [copy.copy(s) for s in change.seats]
        if change.undo_from is not None:
            for a in self.logs[table.id]:
                if a.seq >= change.undo_from:
                    a.undone = True
        self.logs[table.id].extend(copy.deepcopy(change.actions))
        if change.snapshot is not None:
            self.snapshots[table.id] = (version, change.snapshot)
        if change.reminders is not None:
            self.reminders_[table.id] = [copy.copy(r) for r in change.reminders]
        for channel, payload in change.notices:
            self.outbox.append(
                (NoticeRecord(next(self.notice_ids), table.id, channel, copy.deepcopy(payload), now), None)
            )
        if change.record is not None:
            self.records[table.id] = copy.deepcopy(change.record)
        stored.version, stored.revision, stored.updated = version, stored.revision + 1, now
        table.version, table.revision = version, stored.revision
        return version

    async def due_reminders(self, now: float, shards: Shards | None = None) -> list[ReminderRecord]:
        return sorted(
            (
                copy.copy(r)
                for rs in self.reminders_.values()
                for r in rs
                if r.due <= now and (shards is None or shards.owns(self.tables_[r.table].guild))
            ),
            key=lambda r: r.due,
        )

    async def reminders(self, table_id: int) -> list[ReminderRecord]:
        return sorted((copy.copy(r) for r in self.reminders_.get(table_id, [])), key=lambda r: r.user)

    async def notices(self) -> list[NoticeRecord]:
        return [copy.deepcopy(n) for n, sent in self.outbox if sent is None]

    async def claim_notices(self, claim: Claim, now: float) -> list[NoticeRecord]:
        held = []
        for notice, sent in self.outbox:
            owner, until = self.claims.get(notice.id, (None, 0.0))
            ours = claim.shards is None or notice.table is None or claim.shards.owns(self.tables_[notice.table].guild)
            if sent is None and ours and (owner is None or until <= now or owner == claim.owner):
                if owner != claim.owner or until < now + claim.lease / 2:
                    self.claims[notice.id] = (claim.owner, now + claim.lease)
                held.append(copy.deepcopy(notice))
        return held

    async def release_notices(self, owner: str) -> None:
        self.claims = {i: c for i, c in self.claims.items() if c[0] != owner}

    async def add_notice(self, table_id, channel: int, payload: dict, now: float) -> int:
        notice = NoticeRecord(next(self.notice_ids), table_id, channel, copy.deepcopy(payload), now)
        self.outbox.append((notice, None))
        return notice.id

    async def mark_sent(self, notice_id: int, now: float) -> None:
        self.outbox = [(n, now if n.id == notice_id and sent is None else sent) for n, sent in self.outbox]

    async def prefs(self, user: int) -> PlayerPrefs:
        return copy.copy(self.players.get(user, PlayerPrefs(user)))

    async def set_prefs(self, prefs: PlayerPrefs) -> None:
        self.players[prefs.user] = copy.copy(prefs)

    async def history(self, guild, *, game=None, limit=10) -> list[GameRecord]:
        found = [r for r in self.records.values() if r.guild == guild and (game is None or r.game == game)]
        found.sort(key=lambda r: (r.ended, r.table), reverse=True)
        return [copy.deepcopy(r) for r in found[:limit]]

    async def standings(self, guild, *, game=None, user=None) -> list[Standing]:
        groups: dict[tuple, list] = {}
        for r in sorted(self.records.values(), key=lambda r: (r.ended, r.table)):
            if r.guild != guild or r.practice or r.reason not in ("end", "resign") or game not in (None, r.game):
                continue
            for s in r.seats:
                if user is None or s.user == user:
                    groups.setdefault((r.game, s.user, s.bot), []).append(s)
        out = []
        for (kind, uid, bot), seats in groups.items():
            scores = [s.score for s in seats if s.score is not None]
            places = [s.place for s in seats if s.place is not None]
            out.append(
                Standing(
                    kind,
                    uid,
                    bot,
                    seats[-1].name,
                    len(seats),
                    sum(s.winner for s in seats),
                    sum(scores),
                    len(scores),
                    sum(places),
                    len(places),
                )
            )
        return sorted(out, key=lambda s: (s.game, s.user, s.bot is not None, s.bot or ""))

    async def ratings(self, guild, *, game=None, user=None) -> list[Rating]:
        """Folded from the records at every call (bot/storage/ratings.py): nothing is kept
        that could fall out of step with them."""
        out: list[Rating] = []
        for kind in sorted({r.game for r in self.records.values() if game in (None, r.game)}):
            counted = sorted(
                (
                    r
                    for r in self.records.values()
                    if r.guild == guild and r.game == kind and not r.practice and r.reason in ("end", "resign")
                ),
                key=lambda r: (r.ended, r.table),
            )
            games = [
                RatedGame(
                    r.table,
                    r.ended,
                    tuple(RatedSeat(s.seat, s.user, s.name, s.place, s.resigned, None) for s in r.seats),
                )
                for r in counted
            ]
            latest: dict[int, Rating] = {}
            for seat in fold(games, {}):
                if seat.computed is not None:
                    games_before = latest[seat.user].games if seat.user in latest else 0
                    latest[seat.user] = Rating(kind, seat.user, seat.name, seat.computed, games_before + 1)
            out.extend(r for uid, r in sorted(latest.items()) if user in (None, uid))
        return out

    async def forget(self, table_id: int) -> bool:
        if self.tables_.pop(table_id, None) is None:
            return False
        for store in (self.snapshots, self.logs, self.reminders_, self.records):
            store.pop(table_id, None)
        self.links = {key: n for key, n in self.links.items() if key[0] != table_id}
        return True

    async def secret(self, name, make, now) -> str:
        return self.secrets.setdefault(name, make())

    async def link_generation(self, table_id: int, user: int) -> int:
        return self.links.get((table_id, user), 0)

    async def reset_link(self, table_id: int, user: int) -> int:
        self.links[(table_id, user)] = self.links.get((table_id, user), 0) + 1
        return self.links[(table_id, user)]

    async def versions(self, table_ids) -> dict[int, int]:
        return {i: self.tables_[i].version for i in table_ids if i in self.tables_}

    async def away(self, user: int, since: float) -> list[AwayRecord]:
        return sorted((copy.copy(a) for a in self.away_ if a.user == user and a.ends > since), key=lambda a: a.begins)

    async def set_away(self, away: AwayRecord, *, forget_before: float) -> None:
        self.away_ = [
            a for a in self.away_ if not (a.user == away.user and (a.ends < forget_before or a.begins == away.begins))
        ]
        self.away_.append(copy.copy(away))

    async def seated_tables(self, user: int) -> list[TableRecord]:
        return [
            copy.deepcopy(t)
            for t in sorted(self.tables_.values(), key=lambda t: t.id)
            if t.status in ("active", "paused") and t.seat_of(user) is not None
        ]

    async def set_post(self, table_id: int, message: int, now: float) -> None:
        if table_id in self.tables_:
            self.posts_[table_id] = message

    async def posts(self, table_ids) -> dict[int, int]:
        return {i: self.posts_[i] for i in table_ids if i in self.posts_}
