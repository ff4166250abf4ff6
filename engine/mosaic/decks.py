"""The four decks and their offers; Empire Scoring cards and the game-end triggers.

Rulebook: an Empire Scoring card revealed from a deck is scored once the
revealer's action is over; the third one, or two of the three tile kinds
(wonders, achievements, golden ages) all taken, starts the end: finish the
round, then one more round.
"""

from __future__ import annotations

from .data import Data
from .state import State

OFFERS = {
    "build": ("build_deck", "build_offer"),
    "population": ("pop_deck", "pop_offer"),
    "technology": ("tech_deck", "tech_offer"),
    "tax": ("tax_deck", "tax_offer"),
}
SCORING = "scoring"


# ---------------------------------------------------------------- decks
def draw(d: Data, s: State, deck_attr: str, ev: list[str]) -> str:
    """Top card of a deck; a revealed Empire Scoring card is set aside and scored after the action:
    "the player who revealed it finishes their action, then scoring takes place". Revealed before
    the turn's action (a government's arrow side, a cache's card), it waits for that action (N53)."""
    deck: list[str] = getattr(s, deck_attr)
    while deck:
        card = deck.pop(0)
        if card != SCORING:
            return card
        s.scorings += 1
        if before_the_action(s):
            s.scoring_after_action += 1
        else:
            s.scoring_due += 1
        ev.append(
            f"An Empire Scoring card is revealed ({s.scorings} of 3 to end the game)."
            if s.scorings <= 3
            else f"An Empire Scoring card is revealed (number {s.scorings}; the game is already ending)."
        )
        if s.scorings >= 3:
            trigger_end(s, ev, "the third Empire Scoring card")
    return ""


def before_the_action(s: State) -> bool:
    """Whether the turn's action (the Scribe's next one) is still to come: a free action before it."""
    return s.phase == "play" and s.stage == "main" and not s.action_open


def refill(d: Data, s: State, offer_name: str, slot: int, ev: list[str]) -> None:
    deck_attr, offer_attr = OFFERS[offer_name]
    getattr(s, offer_attr)[slot] = draw(d, s, deck_attr, ev)


def trigger_end(s: State, ev: list[str], why: str) -> None:
    """Game end trigger: finish the round, then one more round (rulebook, game end)."""
    if s.end_stage:
        return
    s.end_stage = "rounds"
    s.rounds_left = 2
    ev.append(f"The end is near ({why}): the round is finished, then one final round is played.")


def check_tiles_end(s: State, ev: list[str]) -> None:
    """Two of the three tile kinds (wonders, achievements, golden ages) all taken: Empire Scoring and the end."""
    if s.end_stage:
        return
    gone = sum(1 for kind in (s.wonders, s.achievements, s.golden_ages) if not kind)
    if gone >= 2:
        s.scoring_due += 1
        trigger_end(s, ev, "two kinds of tiles are all taken")
