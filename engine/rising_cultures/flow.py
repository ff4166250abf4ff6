"""The order of play: setup, rounds, phases, and the automatic steps between decisions.

`advance` runs after every action: it resolves everything that needs no decision
(dealing, the 4th card, the province winner, the progress marker, the coin limit,
the next round) and stops at the next decision, so `to_act` is never empty while
the game runs (law 6).
"""

from __future__ import annotations

from engine.core import count

from . import rules
from .data import DATA
from .decisions import choices
from .rules import BOARDS, CARDS, PROVINCES
from .scoring import result, totals
from .state import HAND, PLAYS, ROUNDS, Pending, Player, State


def name(s: State, seat: int) -> str:
    p = s.players[seat]
    return f"{p.name} ({BOARDS[p.civ].name})" if p.civ else p.name


def card_name(cid: str) -> str:
    return CARDS[cid].name


def takeable(s: State, n: int, returned: int = 0) -> int:
    """How many of `n` coins the general supply gives (all that is left if it runs short), once
    `returned` coins went back to it (a build's price is paid before its coins are taken). The
    choices' words quote it (issue 49), so they say what `gain` does."""
    return max(0, min(n, s.supply + returned))


def gain(s: State, seat: int, n: int) -> int:
    """Take up to `n` coins from the general supply (all that is left if it runs short)."""
    n = takeable(s, n)
    s.supply -= n
    s.players[seat].coins += n
    return n


def coins(got: int, wanted: int) -> str:
    """`2 coins`, or `0 coins (the general supply is empty)` when the 28 coins ran short."""
    return count(got, "coin") + (" (the general supply is empty)" if got < wanted else "")


def pay(s: State, seat: int, n: int) -> None:
    s.players[seat].coins -= n
    s.supply += n


def drawable(p: Player, n: int) -> int:
    """How many of `n` cards a draw takes: the deck may hold fewer (round 7 uses it up exactly).
    The choices' words quote it (issue 49)."""
    return min(n, len(p.deck))


def draw(p: Player, n: int) -> int:
    """Draw up to `n` cards from the top of the deck into the hand; returns how many."""
    n = drawable(p, n)
    if n:
        if p.known_top and p.known_top == p.deck[0]:
            p.known_top = ""
        drawn = p.deck[:n]
        p.hand.extend(drawn)
        del p.deck[:n]
        if p.known_bottom:  # as the deck runs down, the cards put at the bottom come back up
            p.known_bottom = [c for c in p.known_bottom if c not in drawn]
    return n


# ---- setup ---------------------------------------------------------------


def deal(s: State, events: list[str]) -> None:
    """Create the player decks (Setup): shuffle, 2 coins (+ printed board coins), draw 4."""
    s.phase = "opening"
    for seat, p in enumerate(s.players):
        board = BOARDS[p.civ]
        p.deck = s.rng.shuffled(DATA.decks[p.civ])
        gain(s, seat, 2)
        if board.printed.coin:
            gain(s, seat, board.printed.coin)
        draw(p, HAND)
        p.step = "opening"
    if any(BOARDS[p.civ].nile for p in s.players):
        s.nile_developed = [False] * len(DATA.nile)
        s.nile_coins = [[] for _ in DATA.nile]
    events.append(f"Decks are shuffled; each player draws 4 cards. {name(s, s.marker)} holds the progress marker.")


def start_round(s: State, number: int, events: list[str]) -> None:
    s.round = number
    s.phase = "draw"
    s.turn = s.marker
    for p in s.players:
        p.step = "income"
        p.paid_swaps = p.free_swaps = p.played = 0
    events.append(f"Round {number} begins: Phase I, income.")


def swap_possible(s: State, seat: int) -> bool:
    p = s.players[seat]
    if not p.deck:
        return False
    if p.paid_swaps == 0 and p.coins >= 1:
        return True
    return p.free_swaps < rules.free_swaps(s, seat)


# ---- Phase III --------------------------------------------------------------


def begin_phase3(s: State, events: list[str]) -> None:
    """End of Phase II: the 4th card goes back on top of the deck (after round 7: to the box)."""
    for seat, p in enumerate(s.players):
        for cid in p.hand:
            if s.round < ROUNDS:
                p.deck.insert(0, cid)
                p.known_top = cid
            # after the last round the card goes to the box
        n = len(p.hand)
        p.hand.clear()
        if n:
            where = "the top of their deck" if s.round < ROUNDS else "the box"
            events.append(f"{name(s, seat)} returns their last card to {where}.")
    s.phase = "province"
    s.competing = []
    s.winner = -1
    s.spare = False
    if not s.row:
        return
    pid = s.row[0]
    order = [s.marker, 1 - s.marker]
    asks = [seat for seat in order if rules.province_strength(s, seat, pid) > 0]
    events.append(province_event(s, pid, asks))
    for seat in reversed(asks):
        s.pending.append(Pending("compete", seat))


def province_event(s: State, pid: int, asks: list[int]) -> str:
    """Phase III opens: which Province, the symbols it counts, each player's count, and
    who now decides whether to compete - the context for the `province` decisions."""
    prov = PROVINCES[pid]
    counts = ", ".join(
        f"{s.players[seat].name} {rules.province_strength(s, seat, pid)}" for seat in range(len(s.players))
    )
    line = f"Phase III: {prov.name} goes to the most {' + '.join(prov.symbols)} symbols ({counts})"
    if not any(rules.has(rules.effects(s, seat), "province_tie_win") for seat in range(len(s.players))):
        line += f"; a tie goes to {s.players[s.marker].name}, who holds the progress marker"
    if not asks:
        return line + ". Nobody has any of those symbols."
    who = [s.players[seat].name for seat in asks]
    if len(who) == 1:
        return line + f". {who[0]} decides whether to compete."
    return line + f". {who[0]} decides first whether to compete, then {who[1]}."


def resolve_province(s: State, events: list[str]) -> None:
    """Phase III, 1) Province Card: most symbols wins, ties to the marker holder."""
    s.phase = "cost"
    if not s.row:
        return
    pid = s.row.pop(0)
    prov = PROVINCES[pid]
    if not s.competing:
        s.boxed.append(pid)
        events.append(f"Nobody competes for {prov.name}: it goes back to the box.")
        return
    strength = {seat: rules.province_strength(s, seat, pid) for seat in s.competing}
    top = max(strength.values())
    tied = [seat for seat in s.competing if strength[seat] == top]
    winner = tied[0] if len(tied) == 1 else rules.tie_winner(s, tied)
    s.winner = winner
    p = s.players[winner]
    p.provinces.append(pid)
    shown = ", ".join(f"{name(s, seat)} {strength[seat]}" for seat in s.competing)
    events.append(f"{name(s, winner)} wins {prov.name} ({'/'.join(prov.symbols)}: {shown}).")
    if prov.effect == "coins":
        got = gain(s, winner, prov.amount)
        events.append(f"{name(s, winner)} takes {coins(got, prov.amount)} from {prov.name}.")
    elif prov.effect == "keep_military":
        s.spare = True
        events.append(f"{prov.name}: {name(s, winner)} does not discard their last military card.")
    elif prov.effect == "maghreb":
        s.pending.append(Pending("maghreb", winner))
    # per source, so the log names it (cards; anything else is the board or the Nile)
    sources = [
        (CARDS[cid].name, sum(e.amount for e in CARDS[cid].effects if e.type == "on_province_coins"))
        for cid in rules.active_cards(p)
    ]
    rest = rules.count(rules.effects(s, winner), "on_province_coins") - sum(n for _, n in sources)
    for source, bonus in sources + [("their board", rest)]:
        if bonus > 0:
            got = gain(s, winner, bonus)
            events.append(f"{name(s, winner)} takes {coins(got, bonus)} from {source} for winning a province.")


def keep_cards(s: State, seat: int) -> list[str]:
    """Display cards whose once-per-game "keep your last military card" is still unused."""
    p = s.players[seat]
    return [
        cid
        for cid in rules.active_cards(p)
        if cid not in p.keep_used and any(e.type == "province_keep_military" for e in CARDS[cid].effects)
    ]


def pay_province_cost(s: State, events: list[str]) -> None:
    """The cost of winning: discard the last-played military card (unless spared)."""
    s.phase = "marker"
    if s.winner < 0 or s.spare:
        return
    p = s.players[s.winner]
    if not p.military:
        return
    ability = keep_cards(s, s.winner)
    if ability:
        s.pending.append(Pending("keep", s.winner, ability[0]))
        return
    discard_military(s, s.winner, events)


def discard_military(s: State, seat: int, events: list[str]) -> None:
    p = s.players[seat]
    cid = p.military.pop()
    p.discard.append(cid)
    events.append(f"{name(s, seat)} discards {card_name(cid)} from their military area as the cost.")


def pass_marker(s: State, events: list[str]) -> None:
    """Phase III, 2) Progress Marker: more progress cards takes it; a tie passes it on."""
    a, b = (len(p.progress) for p in s.players)
    before = s.marker
    if a > b:
        s.marker = 0
    elif b > a:
        s.marker = 1
    else:
        s.marker = 1 - s.marker
    verb = "keeps" if s.marker == before else "takes"
    if a == b:
        events.append(
            f"{name(s, s.marker)} takes the progress marker: a tie at {count(a, 'progress card')} "
            f"each passes it to the other player."
        )
    else:
        counts = ", ".join(f"{p.name} {n}" for p, n in zip(s.players, (a, b), strict=True))
        events.append(f"{name(s, s.marker)} {verb} the progress marker (progress cards: {counts}).")
    s.phase = "nile"
    if s.nile_developed and any(s.nile_developed):
        for seat in (1 - s.marker, s.marker):
            s.pending.append(Pending("nile", seat))


def coin_limit(s: State, events: list[str]) -> None:
    """Phase III, 3) Coin Limit: return coins above 7 (Egypt 5)."""
    for seat, p in enumerate(s.players):
        limit = rules.coin_limit(s, seat)
        if p.coins > limit:
            extra = p.coins - limit
            pay(s, seat, extra)
            events.append(f"{name(s, seat)} returns {count(extra, 'coin')} above their limit of {limit}.")


def end_round(s: State, events: list[str]) -> None:
    coin_limit(s, events)
    if s.round < ROUNDS:
        start_round(s, s.round + 1, events)
        return
    if s.match and s.game_no == 1:
        first = totals(s)
        events.append(
            "Game 1 of the match is over: "
            + ", ".join(f"{name(s, i)} {v} VP" for i, v in enumerate(first))
            + ". The players swap civilizations for game 2 (same provinces)."
        )
        start_second_game(s, first, events)
        return
    s.phase = "over"
    s.pending.clear()
    game = "Game 2 of the match" if s.match else "The game"
    events.append(f"{game} is over: " + ", ".join(f"{name(s, i)} {v} VP" for i, v in enumerate(totals(s))) + ".")
    events.append(result(s))


def start_second_game(s: State, first: list[int], events: list[str]) -> None:
    """Optional: a second game with swapped civilizations and the same provinces."""
    civs = [p.civ for p in s.players]
    s.first_scores = first
    s.first_civs = civs
    s.players = [Player(name=p.name, civ=civs[1 - i]) for i, p in enumerate(s.players)]
    s.row = s.chosen[:]
    s.boxed = []
    s.supply = 28
    s.round = 0
    s.game_no = 2
    s.nile_developed = []
    s.nile_coins = []
    s.marker = s.rng.below(2)
    deal(s, events)


# ---- the driver ---------------------------------------------------------------


def advance(s: State, events: list[str]) -> None:
    """Resolve automatic steps until someone must decide (or the game is over)."""
    while True:
        while s.pending and not choices(s, s.pending[-1]):
            s.pending.pop()
        if s.pending:
            return
        phase = s.phase
        if phase == "civ":
            if all(p.civ for p in s.players):
                deal(s, events)
                continue
            return
        if phase == "opening":
            if all(p.step == "ready" for p in s.players):
                start_round(s, 1, events)
                continue
            return
        if phase == "draw":
            if all(p.step == "ready" for p in s.players):
                s.phase = "play"
                s.turn = s.marker
                s.turn_open = False
                events.append(f"Phase II: {name(s, s.turn)} plays first.")
            return
        if phase == "play":
            if s.turn_open:
                s.turn_open = False
                other = 1 - s.turn
                if s.players[other].played < PLAYS:
                    s.turn = other
            if all(p.played >= PLAYS for p in s.players):
                begin_phase3(s, events)
                continue
            return
        if phase == "province":
            resolve_province(s, events)
            continue
        if phase == "cost":
            pay_province_cost(s, events)
            continue
        if phase == "marker":
            pass_marker(s, events)
            continue
        if phase == "nile":
            end_round(s, events)
            continue
        return
