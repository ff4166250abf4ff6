"""Why an action is not legal now, in the player's terms (DESIGN: IllegalAction "says why").

`engine.core.match` already lists what would be legal; this module adds the reason a
player at the table would give: "Brewery requires 2 wood, 2 brick, 1 stone; you are
1 short, that costs 2 coins and you have 1". It reads the state only, and speaks only
of what the acting seat may know (its own hand, coins and areas, public facts): the
reply goes to that player alone, but it still never names a card of either deck.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.core import count, possessive

from . import rules
from .data import CIVS, DATA, RESOURCES
from .rules import BOARDS, CARDS, PROVINCES
from .state import PAID_SWAPS, PLAYS, ROUNDS, State

USES = ("coins", "military", "resources", "build")


def _list(names: list[str]) -> str:
    return ", ".join(names) if names else "nothing"


def _amounts(d: dict[str, int]) -> str:
    return ", ".join(f"{n} {r}" for r, n in d.items() if n) or "nothing"


def _hand(s: State, seat: int) -> str:
    return _list([CARDS[c].name for c in s.players[seat].hand])


def _progress_text(s: State, seat: int, whose: str) -> str:
    """Moving up flips the last-played resource card (Phase II, "Optional"): name it."""
    area = s.players[seat].resources
    last = f" (flips {CARDS[area[-1]].name} out of {whose} resources)" if area else ""
    return f"whether to move up 1 progress level{last}"


def decision(s: State, viewer: int | None = None) -> str:
    """What the open sub-decision asks, e.g. "whether to compete for Gaul" ("" if none).

    Said to `viewer`: the deciding player reads "your", everyone else (the public
    view, the opponent) reads the decider's name ("whether Xerxes I keeps ann's last
    military card").
    """
    if not s.pending:
        return ""
    d = s.pending[-1]
    whose = "your" if viewer == d.seat else possessive(s.players[d.seat].name)
    texts: dict[str, Callable[[], str]] = {
        "compete": lambda: f"whether to compete for {PROVINCES[s.row[0]].name}" if s.row else "the province",
        "keep": lambda: f"whether {CARDS[d.card].name} keeps {whose} last military card",
        "cover": lambda: (
            f"whether {CARDS[d.card].name} goes on {whose} free leader stack or covers one of {whose} leaders"
            if "" in rules.leader_places(s.players[d.seat])
            else f"which of {whose} leaders {CARDS[d.card].name} covers"
        ),
        "develop": lambda: "which Nile card to develop",
        "nile": lambda: "whether to place (more) coins on the Nile",
        "progress": lambda: (
            f"whether to move up a progress level with a card from {whose} discard pile (House of Wisdom)"
            if d.card == "wisdom"
            else _progress_text(s, d.seat, whose)
        ),
        "maghreb": lambda: f"which card Maghreb places in {whose} progress area",
    }
    what = texts.get(d.kind)
    return what() if what else ""


def _pending(s: State, seat: int) -> str | None:
    """The open sub-decision that has to be answered first."""
    if s.pending[-1].seat != seat:
        return None
    what = decision(s, seat)
    return f"First decide {what}." if what else None


def waiting(s: State, seat: int) -> str | None:
    """Why `seat` waits while the other player acts, in the rulebook's order of play."""
    if s.phase == "over":
        return None
    other = s.players[1 - seat].name
    if s.pending:
        d = s.pending[-1]
        if d.seat == seat:
            return None
        who = s.players[d.seat].name
        if d.kind == "compete" and s.row:
            prov = PROVINCES[s.row[0]]
            if any(x.kind == "compete" and x.seat == seat for x in s.pending):
                return (
                    f"{who} holds the progress marker and decides first whether to compete for {prov.name}; "
                    "then you decide."
                )
            return (
                f"{who} decides whether to compete for {prov.name}; you have none of its symbols "
                f"({' or '.join(prov.symbols)}), so you cannot compete."
            )
        return f"{who} first decides {decision(s, seat)}."
    if s.phase == "civ":
        return f"{other} chooses a civilization first."
    if s.phase in ("opening", "draw") and s.players[seat].step == "ready":
        rest = (
            f"{other} is still placing their opening cards."
            if s.phase == "opening"
            else f"{other} is still taking income, drawing and swapping."
        )
        if s.phase == "draw" and s.round == ROUNDS:
            rest += f" There are no swaps in round {ROUNDS}: your deck is empty."
        return "You are ready to play; " + rest
    if s.phase == "play":
        if s.players[seat].played >= PLAYS:
            return f"You have played your {PLAYS} cards this round; {other} is still playing."
        return f"Phase II alternates one card each, the progress marker holder first: {other} plays now, then you."
    return None


def _play(s: State, seat: int, words: list[str]) -> str | None:
    """Phase II, a `play <card> <use>` that is not allowed."""
    p = s.players[seat]
    if len(words) < 2:
        return "Say which card and how to use it: `play <card> coins|military|resources|build`."
    slug = words[1]
    cid = DATA.by_slug[p.civ].get(slug)
    if cid is None:
        return f"There is no card `{slug}` in the {BOARDS[p.civ].name} deck. Your hand: {_hand(s, seat)}."
    card = CARDS[cid]
    if cid not in p.hand:
        return f"{card.name} is not in your hand. Your hand: {_hand(s, seat)}."
    use = words[2] if len(words) > 2 else ""
    if use not in USES:
        return f"Say how to use {card.name}: coins, military, resources or build."
    if use == "military":
        bands = len(BOARDS[p.civ].military_bands)
        if len(p.military) >= bands:
            return f"All {bands} red bands of your military area are taken."
    if use == "build":
        have = rules.resources(s, seat)
        short, price = rules.build_price(s, seat, card, None, have)
        if price <= p.coins:
            return None
        need = {r: getattr(card.cost, r) for r in RESOURCES}
        return (
            f"{card.name} requires {_amounts(need)}; you have {_amounts(have)}: "
            f"{count(short, 'missing resource')} cost {count(price, 'coin')} and you have {p.coins}."
        )
    return None


def _swap(s: State, seat: int, words: list[str]) -> str | None:
    p = s.players[seat]
    how = words[1] if len(words) > 1 else ""
    if not p.deck:
        return _no_deck(s)
    if how == "free":
        free = rules.free_swaps(s, seat)
        if not free:
            return "You have no free swap (Mauretania, some cards and board levels give one per round)."
        used = "your free swap" if free == 1 else f"all {free} of your free swaps"
        return f"You have used {used} this round."
    if how not in ("1", "2"):
        return "Say `swap 1` or `swap 2` (1 coin per card), or `swap free`."
    n = int(how)
    if p.paid_swaps:
        return (
            f"You have made your paid swap this round ({count(p.paid_swaps, 'card')}): the number of cards, "
            f"1 or {PAID_SWAPS}, is chosen once, before drawing."
        )
    if p.coins < n:
        return f"Swapping {count(n, 'card')} costs {count(n, 'coin')}; you have {p.coins}."
    if len(p.deck) < n:
        return f"Your deck has only {count(len(p.deck), 'card')} left."
    return None


def _no_deck(s: State) -> str:
    """A swap draws a new card: none is left in round 7 (the deck is used up exactly)."""
    if s.round == ROUNDS:
        return (
            f"There are no swaps in round {ROUNDS}: your deck is empty (its last 4 cards were drawn this "
            "round), and a swap draws a new card."
        )
    return "Your deck is empty, so there is no card to swap with."


def _step(s: State, seat: int, verb: str, words: list[str]) -> str | None:
    """The simultaneous steps: opening placement, income and draw, bottom placements, swaps."""
    p = s.players[seat]
    step = p.step
    if step == "opening":
        if len(p.resources) < 2:
            return (
                f"Put 2 of your 4 opening cards into your resource area first (`resource <card>`); "
                f"{len(p.resources)} placed so far."
            )
        return "Choose the opening card for the top of your deck (`top <card>`); the other goes to the bottom."
    if step == "income":
        later = (
            f" (there are no swaps in round {ROUNDS}: your deck runs out)"
            if verb == "swap" and s.round == ROUNDS
            else ""
        )
        return f"Take your income and draw your 4 cards first: `income`{later}."
    if step == "bottom":
        if verb == "bottom" and len(words) > 1:
            cid = DATA.by_slug[p.civ].get(words[1])
            if cid is None or cid not in p.hand:
                return f"Only a card from your hand can go to the bottom. Your hand: {_hand(s, seat)}."
        return f"Place {count(p.to_bottom, 'card')} from your hand at the bottom of your deck first (`bottom <card>`)."
    if step == "swap":
        if verb == "swap":
            return _swap(s, seat, words)
        if verb == "play":
            return "Cards are played once both players have finished swapping; `done` keeps your hand."
        return "You may swap cards now (`swap 1`, `swap 2`, `swap free`) or keep your hand (`done`)."
    if step == "ready":
        return "You are ready to play; waiting for the other player to finish income and swaps."
    return None


def why(s: State, seat: int, text: str) -> str | None:
    """A one-sentence reason `text` (a game action, canonical form) is refused now, or None."""
    words = text.split(" ")
    verb = words[0]
    if s.phase == "over":
        return None
    if s.pending:
        return _pending(s, seat)
    if verb == "civ":
        if s.phase != "civ":
            return "The civilizations are already chosen."
        want = words[1] if len(words) > 1 else ""
        taken = {q.civ: q.name for q in s.players if q.civ}
        free = [c for c in CIVS if c not in taken]
        if want in taken:
            return f"{BOARDS[want].name} is already taken by {taken[want]}; choose one of {_list(free)}."
        return f"Choose one of the civilizations {_list(free)}."
    if s.phase == "civ":
        return "First choose a civilization (`civ <name>`)."
    if s.phase in ("opening", "draw"):
        return _step(s, seat, verb, words)
    if s.phase == "play":
        p = s.players[seat]
        if p.played >= PLAYS:
            return f"You have played your {PLAYS} cards this round; the other player is still playing."
        if verb == "play":
            return _play(s, seat, words)
        if verb == "swap":
            if not p.deck:
                return _no_deck(s)
            return (
                "Swaps are made at the start of Phase II, before the first card is played; now play a card "
                "from your hand (`play <card> <use>`)."
            )
        return "It is your turn in Phase II: play a card from your hand (`play <card> <use>`)."
    return None


__all__ = ["decision", "waiting", "why"]
