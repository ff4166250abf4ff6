"""The story of a game as numbers: every player's score after each round (issue 17 §3).

The log is replayed and the *public* view of each position is read — never the
raw state or `scores()` — so a chart drawn while the game runs shows only what
everyone may see (a game that hid its scores during play gives no points until
it has ended; then nothing of it is hidden any more and `scores()` fills in).
The period a point closes is the one each game's public view names:

| game | period | read from the public view |
|---|---|---|
| Rising Cultures | round | `round` (1-7; a match's second game goes on counting) |
| Rise of Empires | game turn | `turn` (1-6, two per era) |
| Cradle of Civilization | epoch | `epoch` (1-6) |
| Mosaic | round | `turn` (every player's turn counts one), a round being one turn each |
| any other game | move | every step |

A point is taken when the period changes, from the position right after the
change (the step that closes a round also scores it), and at the end; a running
game's last point is "so far". Pure: no storage, no asyncio.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from engine.core import Game

#: Per game: the word for its period and how to read the period from a public view
#: (a number, or None before the first period starts).
Reader = Callable[[dict[str, Any], int], "int | None"]


def _round(view: dict[str, Any], players: int) -> int | None:
    game_no = view.get("game_no")
    game = game_no if isinstance(game_no, int) else 1
    number = view.get("round")
    return (game - 1) * int(view.get("rounds") or 0) + number if isinstance(number, int) and number > 0 else None


def _key(name: str) -> Reader:
    def read(view: dict[str, Any], players: int) -> int | None:
        value = view.get(name)
        return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None

    return read


def _turns_round(view: dict[str, Any], players: int) -> int | None:
    turn = view.get("turn")
    return (turn - 1) // players + 1 if isinstance(turn, int) and not isinstance(turn, bool) and turn > 0 else None


PERIODS: dict[str, tuple[str, Reader]] = {
    "rising-cultures": ("round", _round),
    "rise-of-empires": ("game turn", _key("turn")),
    "cradle": ("epoch", _key("epoch")),
    "mosaic": ("round", _turns_round),
}
#: Games whose rulebook numbers its periods in Roman numerals ("Epoch III").
ROMAN = frozenset({"cradle"})
_NUMERALS = ((10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I"))


def roman(number: int) -> str:
    """3 -> "III" (the small numbers periods have; 0 and below as digits)."""
    if number <= 0:
        return str(number)
    out = ""
    for value, numeral in _NUMERALS:
        while number >= value:
            out, number = out + numeral, number - value
    return out


def stage(game_id: str, word: str, number: int | None) -> str:
    """The period as the rulebook names it: "Epoch III", "Game turn 3", "Round 2"; "" without one."""
    if not word or number is None:
        return ""
    return f"{word.capitalize()} {roman(number) if game_id in ROMAN else number}"


def public_scores(view: dict[str, Any], players: int) -> list[int] | None:
    """The scores a public view shows: its `scores` list, else each player's `vp`;
    None when it shows none (hidden during play, or a game without scores)."""

    def numbers(values: list[Any]) -> bool:
        return len(values) == players and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values)

    listed = view.get("scores")
    if isinstance(listed, list) and numbers(listed):
        return [int(v) for v in listed]
    seats = view.get("players")
    if isinstance(seats, list) and len(seats) == players and all(isinstance(p, dict) for p in seats):
        vps = [p.get("vp") for p in seats]
        if numbers(vps) and all(p.get("seat", i) == i for i, p in enumerate(seats)):
            return [int(v) for v in vps]
    return None


@dataclass
class Story:
    """Scores at each point: `labels[i]` ("start", "1", "2", ..., "4 so far") and
    `scores[i]` (one number per seat). `word` names the period ("round")."""

    word: str
    labels: list[str] = field(default_factory=list)
    scores: list[list[int]] = field(default_factory=list)
    finished: bool = False

    def add(self, label: str, scores: list[int] | None) -> None:
        if scores is not None:
            self.labels.append(label)
            self.scores.append(list(scores))


def story(game: Game, states: Iterable[Any], players: int, *, ended: bool = False) -> Story:
    """The score story of the positions `states` (the setup first, then one per step).

    Scores come from the public views. `ended`: the game is over (finished or
    cancelled), so nothing of it is hidden any more (its export holds the seed):
    where a public view showed no scores, the game's `scores()` fill in."""
    word, period = PERIODS.get(game.id, ("move", None))
    out = Story(word)
    current: int | None = None
    last_scores: list[int] | None = None
    state = None
    for index, state in enumerate(states):
        view = game.view(state, None)
        scores = public_scores(view, players)
        if scores is None and ended:
            scores = [int(v) for v in game.scores(state)]
        if index == 0:
            out.add("start", scores)
        elif period is None:
            out.add(str(index), scores)  # every move is a point of its own
            continue
        now = period(view, players) if period is not None else None
        if now != current and current is not None:
            out.add(str(current), scores)  # the step that closed the period scored it too
        current = now if now is not None else current
        last_scores = scores
    if state is None:
        return out
    out.finished = ended or bool(game.is_over(state))
    if current is not None and out.labels[-1:] != [str(current)]:
        out.add(str(current) if out.finished else f"{current} so far", last_scores)
    return out
