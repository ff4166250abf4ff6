"""Free actions on your turn (not the turn's action): claims, refresh, the Republic's look, leader powers.

Rulebook: golden ages and civilization achievements are claimed free, any
number; a face-down technology is played on any of your turns once its pillars
are there; a government's arrow side clears one offer once per tile; a Republic looks at
the top card of one deck before its action; the Magistrate's and Priestess's
once-per-game powers.
"""

from __future__ import annotations

from . import board, economy
from .data import Data
from .decks import OFFERS, draw
from .gains import flip, give_units
from .state import State


def free_claim(d: Data, s: State, seat: int, words: list[str], ev: list[str]) -> None:
    p = s.players[seat]
    tid = words[1]
    if tid in d.golden_ages:
        ga = d.golden_ages[tid]
        s.golden_ages.remove(tid)
        p.golden_ages.append(tid)
        ev.append(f"{p.name} claims the {ga.name} golden age ({ga.vp} VP).")
        if ga.benefit == "population":
            p.population += ga.amount
        elif ga.benefit == "production":
            p.production[ga.track] += ga.amount
        elif ga.benefit == "any_currency":
            s.pending.push("art", seat)
        elif ga.benefit == "free_city":
            if board.place_candidates(d, s, seat, "free-city"):
                s.pending.push("place", seat, purpose="free-city")
        elif ga.benefit == "military_units":
            give_units(d, s, seat, ga.amount, ev, ga.name)
    else:
        a = d.achievements[tid]
        s.achievements.remove(tid)
        p.achievements.append(tid)
        ev.append(f"{p.name} claims the {a.name} achievement ({a.vp} VP).")


def free_refresh(d: Data, s: State, seat: int, words: list[str], ev: list[str]) -> None:
    """Government arrow side, once per tile: clear one offer to the bottom of its deck and refill."""
    p = s.players[seat]
    s.gov_flipped.append(p.government)
    deck_attr, offer_attr = OFFERS[words[1]]
    offer: list[str] = getattr(s, offer_attr)
    deck: list[str] = getattr(s, deck_attr)
    deck.extend(c for c in offer if c)
    ev.append(f"{p.name} flips {d.governments[p.government].name} to clear the {words[1]} offer.")
    for i in range(len(offer)):
        offer[i] = ""
    for i in range(len(offer)):
        offer[i] = draw(d, s, deck_attr, ev)


def free_peek(d: Data, s: State, seat: int, words: list[str], ev: list[str]) -> None:
    """Republic: look at the top card of one deck before the action (RULES-NOTES N38); the card stays private."""
    deck_attr, _offer = OFFERS[words[1]]
    s.peeked = f"{words[1]} {getattr(s, deck_attr)[0]}"
    ev.append(f"{s.players[seat].name} (Republic) looks at the top card of the {words[1]} deck.")


def free_convert(d: Data, s: State, seat: int, words: list[str], ev: list[str]) -> None:
    p = s.players[seat]
    p.used.append("convert")
    p.population -= 1
    economy.gain(p, words[1], 20)
    ev.append(f"{p.name} (Magistrate) converts 1 population into 20 {words[1]}.")


def free_seize(d: Data, s: State, seat: int, words: list[str], ev: list[str]) -> None:
    """Priestess, once per game: choose the opponent (4+ cities), then which of their cities."""
    s.players[seat].used.append("seize")
    s.pending.push("seize", seat, target=int(words[1]))


def free_flip(d: Data, s: State, seat: int, words: list[str], ev: list[str]) -> None:
    """ "This can be played (flipped over) on any of your turns": a face-down technology whose
    pillars are there, when its owner chooses (N49)."""
    flip(d, s, seat, words[1], ev)


def free_spend(d: Data, s: State, seat: int, words: list[str], ev: list[str]) -> None:
    """`spend money`: this action's costs ask how much of each currency money pays (N32); without
    it they are paid the usual way, their own currency first. A question asked, not a rule step:
    nothing changes on the table, so the log stays quiet."""
    s.pay_by_choice = True


FREE = {
    "claim": free_claim,
    "spend": free_spend,
    "flip": free_flip,
    "refresh": free_refresh,
    "peek": free_peek,
    "convert": free_convert,
    "seize": free_seize,
}
