"""Shared helpers for the Mosaic tests: reach the first turn, act, inspect."""

from __future__ import annotations

from engine.mosaic import GAME
from engine.mosaic.data import load

D = load()


def new(n: int = 4, seed: int = 1):
    return GAME.setup([f"p{i}" for i in range(n)], seed)


def to_play(n: int = 4, seed: int = 1):
    """Setup played with the first legal choice everywhere, up to the start player's first action."""
    s = new(n, seed)
    while s.phase != "play" or s.pending:
        seat = GAME.to_act(s)[0]
        s = GAME.apply(s, seat, GAME.legal_actions(s, seat)[0]).state
    return s


def act(s, *actions):
    """Apply actions in order, each by the seat to act; returns (state, events)."""
    events = []
    for a in actions:
        seat = GAME.to_act(s)[0]
        step = GAME.apply(s, seat, a)
        s = step.state
        events += step.events
    return s, events


def blank_turn(s, seat: int = 0):
    """A clean play-phase state with `seat` to act: nothing pending, one action, resources zeroed."""
    s.pending.items.clear()
    s.phase = "play"
    s.stage = "main"
    s.seat = seat
    s.actions_left = 1
    s.action_open = False
    for p in s.players:
        p.food = p.stone = p.ideas = p.money = 0
    return s


def hexes(region: str, kind: str = "land"):
    return [h for h in D.region_hexes[region] if D.hexes[h].kind == kind]


def free_hex(s, region: str, kind: str = "land"):
    return next(h for h in hexes(region, kind) if h not in s.board)


def population(card: str = "") -> str:
    """The action taking population card `card` (by what it costs and gives); none: the empty-deck purchase."""
    from engine.mosaic.words import population_fallback_word, population_word

    return "population " + (population_word(D.population_cards[card]) if card else population_fallback_word(D))


def tax(card: str = "", kind: str = "tax") -> str:
    """The action taking tax & tariff card `card`; none: the empty-deck `kind` (tax or tariff)."""
    from engine.mosaic.words import tax_fallback_word, tax_word

    if card:
        return f"{D.tax_cards[card].kind} {tax_word(D.tax_cards[card])}"
    return f"{kind} {tax_fallback_word(D, kind)}"


def random_steps(n: int, seed: int, rng_seed: int):
    """Each position of one random game (`n` players): yields (state, seat to act, its legal actions)."""
    import random

    s = GAME.setup([f"p{i}" for i in range(n)], seed)
    rng = random.Random(rng_seed)
    while not GAME.is_over(s):
        seat = rng.choice(GAME.to_act(s))
        legal = GAME.legal_actions(s, seat)
        yield s, seat, legal
        s = GAME.apply(s, seat, rng.choice(legal)).state
