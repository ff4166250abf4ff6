"""Ratings (issue 27 §4): what a server's counted records say about each person's skill.

A person's rating in one game on one server is a fold over that server's counted
records of that game (played to the end or ended by resignation, not practice), in the
order of their end time, then their table id: OpenSkill's Plackett-Luce model, with its
defaults, updated by each game's final places among the people who played it.
`record_seats.mu`/`sigma` keep each person's rating *after* that game, so the current
rating is the one of their latest rated game, and the stored numbers can always be
checked against the fold (bot/DECISIONS.md, "Ratings").

This module is the fold itself, pure. Both backends run it inside the transaction that
changes the records (a game's end, `games forget`), from the changed record on, so a
crash never leaves a game in the records but not in the ratings or the reverse; and
`epochs ratings --rebuild` runs it over everything.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import groupby
from typing import Any, Protocol

from openskill.models import PlackettLuce

from .base import GameRecord, Recomputed, Skill

#: OpenSkill's Plackett-Luce model with its defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300.
MODEL = PlackettLuce()
#: A person's rating before their first rated game.
START = Skill(MODEL.mu, MODEL.sigma)

#: Where a rating lives: (server, engine game id). `None` is "no server" (the terminal).
Scope = tuple[int | None, str]
#: The order in which records update ratings: (end time, table id).
Key = tuple[float, int]

#: The columns, in this order, of a row the backends read for the fold (`games`):
#: the record's table and end time, then one seat's number, user, name, place,
#: resignation and stored rating (NULLs when not rated), and the bot that played it at the end.
COLUMNS = ("game", "ended", "seat", "user", "name", "place", "resigned", "mu", "sigma", "bot")


@dataclass(frozen=True)
class RatedSeat:
    """One seat of a counted record, as the fold reads it."""

    seat: int
    user: int
    name: str
    place: int | None
    resigned: bool
    #: The rating stored after this game; None when none is stored.
    stored: Skill | None
    #: The bot that played the seat when the game ended (a seated bot, or a stand-in); None: its person.
    bot: str | None = None


@dataclass(frozen=True)
class RatedGame:
    table: int
    ended: float
    seats: tuple[RatedSeat, ...]


def counted(reason: str, practice: bool) -> bool:
    """Whether a record counts (statistics and ratings alike): played to its end or ended by
    resignation, and not practice. The shared SQL says the same (`queries.COUNTED`)."""
    return reason in ("end", "resign") and not practice


def refold_from(table: int, record: GameRecord, replaced: Iterable[Sequence[Any]]) -> Key | None:
    """Where the fold must start again once `record` was written for `table`, replacing the
    `replaced` rows (`ended, reason, practice` of its earlier record, if it had one): the
    earlier of the two places that count; None when neither counts."""
    keys = [(float(ended), table) for ended, reason, practice in replaced if counted(reason, bool(practice))]
    if counted(record.reason, record.practice):
        keys.append((record.ended, table))
    return min(keys, default=None)


def is_person(seat: RatedSeat) -> bool:
    """Seated bots (`game bot`) have negative user ids; a person's seat stays theirs when a
    bot played part of it (they resigned, or the others voted to replace them)."""
    return seat.user > 0 and seat.place is not None


class Seated(Protocol):
    """A seat as a record or a table keeps it: whose, resigned or not, and the bot playing it."""

    @property
    def user(self) -> int: ...
    @property
    def resigned(self) -> bool: ...
    @property
    def bot(self) -> str | None: ...


def by_bots_alone(seats: Sequence[Seated]) -> bool:
    """Whether the game was finished by bots alone (issue 53; README, "Clocks"): when it ended,
    a stand-in bot played a person's seat (their clock ran out, or the others voted them out)
    and no person played their own. Such a game is not rated: the stand-ins' play says
    nothing of anyone's skill. (A game every person resigned from is still rated.)"""
    playing = [s for s in seats if s.user > 0 and not s.resigned]
    return bool(playing) and all(s.bot for s in playing)


def ranks(seats: Sequence[RatedSeat]) -> list[int]:
    """Each seat's rank for the model (1 best, equal ranks tie): the record's places, every
    resigned player behind everyone who did not resign. Only the order matters to the model,
    so the ranks are dense (1, 2, 2, 3)."""
    keys = [(s.resigned, s.place) for s in seats]
    order = sorted(set(keys))
    return [order.index(k) + 1 for k in keys]


def rate(game: RatedGame, current: Mapping[int, Skill]) -> dict[int, Skill]:
    """The ratings after `game` (by seat number) of the people in it, from `current` (by user;
    `START` for a first game). Bots are not rated and do not rate: a game with fewer than two
    people changes nobody's rating, nor does a game finished by bots alone."""
    people = [s for s in game.seats if is_person(s)]
    if len(people) < 2 or by_bots_alone(game.seats):
        return {}
    teams = [[MODEL.rating(mu=skill.mu, sigma=skill.sigma)] for skill in (current.get(s.user, START) for s in people)]
    rated = MODEL.rate(teams, ranks=[float(r) for r in ranks(people)])
    return {s.seat: Skill(team[0].mu, team[0].sigma) for s, team in zip(people, rated, strict=True)}


def fold(games: Iterable[RatedGame], before: Mapping[int, Skill]) -> list[Recomputed]:
    """Rate `games` in the order given, starting from the ratings `before` them (by user), and
    say for every seat what is stored and what the fold gives."""
    current = dict(before)
    out = []
    for game in games:
        after = rate(game, current)
        for seat in game.seats:
            computed = after.get(seat.seat)
            if computed is not None:
                current[seat.user] = computed
            out.append(Recomputed(game.table, seat.seat, seat.user, seat.name, seat.stored, computed))
    return out


def games(rows: Iterable[Sequence[Any]]) -> list[RatedGame]:
    """Rows of `COLUMNS`, ordered by (ended, game, seat), as games."""
    return [
        RatedGame(
            table,
            float(ended),
            tuple(
                RatedSeat(seat, user, name, place, bool(resigned), None if mu is None else Skill(mu, sigma), bot)
                for _, _, seat, user, name, place, resigned, mu, sigma, bot in seats
            ),
        )
        for (table, ended), seats in groupby(rows, key=lambda row: (row[0], row[1]))
    ]


def updates(results: Iterable[Recomputed]) -> list[tuple[float | None, float | None, int, int]]:
    """`(mu, sigma, table, seat)` of every seat whose stored rating is not the fold's: what a
    backend writes."""
    return [
        (None, None, r.table, r.seat) if r.computed is None else (r.computed.mu, r.computed.sigma, r.table, r.seat)
        for r in results
        if r.changed
    ]
