"""Building Rising Cultures positions for rule tests.

Tests start a real game through the contract, bring it to the step a rule is
about, then lay out the table with named cards (`ids`), so each test reads like
the rulebook situation it checks.
"""

from __future__ import annotations

from engine.rising_cultures import GAME
from engine.rising_cultures.data import DATA
from engine.rising_cultures.state import Pending, State


def cid(civ: str, slug: str) -> str:
    return DATA.by_slug[civ][slug]


def ids(s: State, seat: int, *slugs: str) -> list[str]:
    civ = s.players[seat].civ
    return [cid(civ, sl) for sl in slugs]


def act(s: State, seat: int, action: str) -> tuple[State, list[str]]:
    step = GAME.apply(s, seat, action)
    return step.state, step.events


def first_legal(s: State, seat: int) -> State:
    return GAME.apply(s, seat, GAME.legal_actions(s, seat)[0]).state


def new_game(civs=("rome", "persia"), seed: int = 1, marker: int = 0, match: bool = False) -> State:
    """A game right after the civilization choice (opening decisions pending)."""
    s = GAME.setup(["ann", "bob"], seed, {"civs": list(civs), "match": match})
    s.marker = marker
    return s


def finish_opening(s: State) -> State:
    while s.phase == "opening":
        s = first_legal(s, GAME.to_act(s)[0])
    return s


def at_play(civs=("rome", "persia"), seed: int = 1, marker: int = 0, coins=(0, 0)) -> State:
    """A game in round 1's Phase II, marker holder to play, with the given coins."""
    s = finish_opening(new_game(civs, seed, marker))
    for seat in (0, 1):
        s, _ = act(s, seat, "income")
        if s.players[seat].step == "bottom":
            s = first_legal(s, seat)
        if s.players[seat].step == "swap":
            s, _ = act(s, seat, "done")
    assert s.phase == "play" and s.turn == marker
    for seat, n in enumerate(coins):
        set_coins(s, seat, n)
    return s


def set_coins(s: State, seat: int, n: int) -> None:
    p = s.players[seat]
    s.supply += p.coins - n
    p.coins = n


def lay_out(
    s: State,
    seat: int,
    *,
    hand=None,
    resources=None,
    military=None,
    buildings=None,
    leaders=None,
    progress=None,
    discard=None,
    provinces=None,
    deck=None,
) -> None:
    """Put named cards into a player's areas (replacing what was there)."""
    p = s.players[seat]
    if hand is not None:
        p.hand = ids(s, seat, *hand)
    if resources is not None:
        p.resources = ids(s, seat, *resources)
    if military is not None:
        p.military = ids(s, seat, *military)
    if buildings is not None:
        p.buildings = ids(s, seat, *buildings)
    if leaders is not None:
        p.leaders = [ids(s, seat, *stack) for stack in leaders]
    if progress is not None:
        p.progress = ids(s, seat, *progress)
    if discard is not None:
        p.discard = ids(s, seat, *discard)
    if provinces is not None:
        p.provinces = list(provinces)
    if deck is not None:
        p.deck = ids(s, seat, *deck)


def filler_progress(s: State, seat: int, n: int) -> None:
    """n progress cards (any of the player's deck cards not used elsewhere)."""
    p = s.players[seat]
    used = set(p.hand + p.resources + p.military + p.buildings + p.discard + sum(p.leaders, []))
    free = [c for c in DATA.decks[p.civ] if c not in used]
    p.progress = free[:n]


def at_phase3(s: State, province: int, events: list[str] | None = None) -> State:
    """Put `province` first in the row and go to Phase III's province step (asks pushed);
    the public log lines of what runs automatically are added to `events`."""
    from engine.rising_cultures import flow

    s = s.copy()
    s.row = [province] + [p for p in s.row if p != province][: 6 - s.round]
    for p in s.players:
        p.hand = []
        p.played = 3
    s.phase = "play"
    s.turn_open = False
    flow.advance(s, events if events is not None else [])
    return s


__all__ = [
    "GAME",
    "DATA",
    "Pending",
    "act",
    "at_play",
    "at_phase3",
    "cid",
    "filler_progress",
    "first_legal",
    "ids",
    "lay_out",
    "new_game",
    "finish_opening",
    "set_coins",
]
