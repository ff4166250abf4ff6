"""Legal actions and what each one does.

Actions read the way a player says them (issue 2): `civ rome`, `resource market`,
`top forum`, `income`, `swap 1`, `swap 2`, `swap free`, `bottom villa`, `done`,
`play brewery build`, `play market resources`, `play chariot military`,
`play granary coins`, `cover trajan`, `cover nothing`, `progress yes`, `progress no`,
`progress <discard card>`, `develop inundation`, `province compete`,
`province decline`, `maghreb discard <card>`, `maghreb military`,
`military keep`, `military discard`, `nile <nile card>`.
"""

from __future__ import annotations

from engine.core import count

from . import flow, rules
from .data import CIVS, DATA, RESOURCES
from .decisions import FREE_STACK, SLUG, choices
from .flow import card_name, coins, gain, name, pay
from .rules import BOARDS, CARDS, PROVINCES
from .state import COINS_USE, PAID_SWAPS, PLAYS, Pending, State

USES = ("coins", "military", "resources", "build")
VERBS = (
    "civ",
    "resource",
    "top",
    "income",
    "bottom",
    "swap",
    "done",
    "play",
    "cover",
    "progress",
    "develop",
    "province",
    "maghreb",
    "military",
    "nile",
)


def _card(s: State, seat: int, slug: str) -> str:
    return DATA.by_slug[s.players[seat].civ][slug]


# ---- what may be chosen ----------------------------------------------------------


def legal_actions(s: State, seat: int) -> list[str]:
    if s.phase == "over":
        return []
    if s.pending:
        d = s.pending[-1]
        if d.seat != seat:
            return []
        out = choices(s, d)
        if d.kind == "progress":
            out.append("progress no")
        elif d.kind == "nile":
            out.append("done")
        return out
    p = s.players[seat]
    phase = s.phase
    if phase == "civ":
        if seat != next(i for i, q in enumerate(s.players) if not q.civ):
            return []
        taken = {q.civ for q in s.players}
        return [f"civ {c}" for c in CIVS if c not in taken]
    if phase in ("opening", "draw"):
        step = p.step
        if step == "opening":
            verb = "resource" if len(p.resources) < 2 else "top"
            return [f"{verb} {SLUG[c]}" for c in p.hand]
        if step == "income":
            return ["income"]
        if step == "bottom":
            return [f"bottom {SLUG[c]}" for c in p.hand]
        if step == "swap":
            out = []
            if p.deck:
                if p.paid_swaps == 0 and p.coins >= 1:
                    out.append("swap 1")
                if p.paid_swaps == 0 and p.coins >= PAID_SWAPS and len(p.deck) >= PAID_SWAPS:
                    out.append(f"swap {PAID_SWAPS}")
                if p.free_swaps < rules.free_swaps(s, seat):
                    out.append("swap free")
            out.append("done")
            return out
        return []
    if phase == "play" and seat == s.turn and p.played < PLAYS:
        effs = rules.effects(s, seat)
        have = rules.resources(s, seat, effs)
        bands = len(BOARDS[p.civ].military_bands)
        out = []
        for cid in p.hand:
            sl = SLUG[cid]
            out.append(f"play {sl} coins")
            if len(p.military) < bands:
                out.append(f"play {sl} military")
            out.append(f"play {sl} resources")
            if rules.build_price(s, seat, CARDS[cid], effs, have)[1] <= p.coins:
                out.append(f"play {sl} build")
        return out
    return []


# ---- doing it ----------------------------------------------------------------------


def perform(s: State, seat: int, action: str) -> list[str]:
    """Carry out a legal action on `s` (a private copy); returns public log lines."""
    ev: list[str] = []
    words = action.split(" ")
    verb = words[0]
    p = s.players[seat]
    d = s.pending[-1] if s.pending else None
    if verb == "civ":
        p.civ = words[1]
        ev.append(f"{p.name} chooses {BOARDS[p.civ].name}.")
    elif verb == "resource":
        cid = _card(s, seat, words[1])
        p.hand.remove(cid)
        place_resource(s, seat, cid, ev)
    elif verb == "top":
        cid = _card(s, seat, words[1])
        p.hand.remove(cid)
        p.deck.insert(0, cid)
        p.known_top = cid
        p.deck.extend(p.hand)
        p.known_bottom.extend(p.hand)
        p.hand.clear()
        p.step = "ready"
        ev.append(f"{name(s, seat)} returns one card to the top of their deck and one to the bottom.")
    elif verb == "income":
        do_income(s, seat, ev)
    elif verb == "swap":
        do_swap(s, seat, words[1], ev)
    elif verb == "bottom":
        cid = _card(s, seat, words[1])
        p.hand.remove(cid)
        p.deck.append(cid)
        p.known_bottom.append(cid)
        p.to_bottom -= 1
        ev.append(f"{name(s, seat)} places a card at the bottom of their deck.")
        if p.to_bottom <= 0:
            p.step = "swap" if flow.swap_possible(s, seat) else "ready"
            if p.step == "ready":
                ev.append(f"{name(s, seat)} is ready to play.")
    elif verb == "done":
        if d is not None:  # finished placing coins on the Nile
            s.pending.pop()
            ev.append(f"{name(s, seat)} places no more coins on the Nile.")
        else:
            p.step = "ready"
            kept = "has finished swapping" if p.paid_swaps or p.free_swaps else "keeps their hand"
            ev.append(f"{name(s, seat)} {kept} and is ready to play.")
    elif verb == "play":
        do_play(s, seat, _card(s, seat, words[1]), words[2], ev)
    elif verb == "cover":
        d = s.pending.pop()
        place_leader(s, seat, d.card, "" if words[1] == FREE_STACK else _card(s, seat, words[1]), ev)
        after_build(s, seat, d.card, ev)
    elif verb == "progress":
        s.pending.pop()
        if words[1] == "yes":
            cid = p.resources.pop()
            move_up(s, seat, cid, f"their last-played resource card, {card_name(cid)}", ev)
        elif words[1] == "no":
            ev.append(f"{name(s, seat)} does not move up a progress level.")
        else:
            cid = _card(s, seat, words[1])
            p.discard.remove(cid)
            move_up(s, seat, cid, f"{card_name(cid)} from their discard pile", ev)
    elif verb == "develop":
        s.pending.pop()
        i = DATA.nile_by_slug[words[1]]
        s.nile_developed[i] = True
        ev.append(f"{name(s, seat)} develops the Nile card {DATA.nile[i].name}.")
    elif verb == "province":
        s.pending.pop()
        if words[1] == "compete":
            s.competing.append(seat)
            ev.append(f"{name(s, seat)} competes for {PROVINCES[s.row[0]].name}.")
        else:
            ev.append(f"{name(s, seat)} declines to compete for {PROVINCES[s.row[0]].name}.")
    elif verb == "maghreb":
        s.pending.pop()
        if words[1] == "military":
            cid = p.military.pop()
            s.spare = True
            move_up(s, seat, cid, f"{card_name(cid)} from their military area (Maghreb)", ev)
        else:
            cid = _card(s, seat, words[2])
            p.discard.remove(cid)
            move_up(s, seat, cid, f"{card_name(cid)} from their discard pile (Maghreb)", ev)
    elif verb == "military":
        d = s.pending.pop()
        if words[1] == "keep":
            p.keep_used.append(d.card)
            ev.append(f"{name(s, seat)} uses {card_name(d.card)} and keeps their last military card.")
        else:
            flow.discard_military(s, seat, ev)
    elif verb == "nile":
        i = DATA.nile_by_slug[words[1]]
        p.coins -= 1
        s.nile_coins[i].append(seat)
        ev.append(f"{name(s, seat)} places a coin on the Nile card {DATA.nile[i].name}.")
    else:  # pragma: no cover - match() only lets legal actions through
        raise ValueError(action)
    flow.advance(s, ev)
    return ev


def place_resource(s: State, seat: int, cid: str, ev: list[str]) -> None:
    """3) Increase Your Resources: the card joins the resource area; its coin is paid once."""
    p = s.players[seat]
    p.resources.append(cid)
    strip = CARDS[cid].strip
    got = gain(s, seat, strip.coin) if strip.coin else 0
    shown = ", ".join(f"{getattr(strip, r)} {r}" for r in RESOURCES if getattr(strip, r))
    ev.append(
        f"{name(s, seat)} puts {card_name(cid)} into their resource area ({shown or 'nothing'}"
        + (f"; takes {got} coin" if got else "")
        + ")."
    )


def do_income(s: State, seat: int, ev: list[str]) -> None:
    """Phase I income, then the Phase II draw of 4 (plus extra draws) for this seat."""
    p = s.players[seat]
    effs = rules.effects(s, seat)
    income = rules.income(s, seat, effs)
    got = gain(s, seat, income)
    n = flow.draw(p, 4)
    extra = flow.draw(p, rules.count(effs, "extra_draw"))
    ev.append(f"{name(s, seat)} takes {coins(got, income)} income and draws {count(n + extra, 'card')}.")
    if extra:
        p.to_bottom = extra
        p.step = "bottom"
    else:
        p.step = "swap" if flow.swap_possible(s, seat) else "ready"


def do_swap(s: State, seat: int, how: str, ev: list[str]) -> None:
    """Swap up to 2 cards for 1 coin each, the number chosen at once (RULES-NOTES, "Swaps");
    a free swap from an ability is 1 card and costs nothing."""
    p = s.players[seat]
    if how == "free":
        p.free_swaps += 1
        n = flow.draw(p, 1)
        ev.append(f"{name(s, seat)} swaps a card for free.")
    else:
        n = int(how)
        pay(s, seat, n)
        p.paid_swaps += n
        n = flow.draw(p, n)
        ev.append(f"{name(s, seat)} pays {count(n, 'coin')} and swaps {count(n, 'card')}.")
    p.to_bottom = n
    p.step = "bottom"


def do_play(s: State, seat: int, cid: str, use: str, ev: list[str]) -> None:
    p = s.players[seat]
    card = CARDS[cid]
    p.hand.remove(cid)
    p.played += 1
    s.turn_open = True
    if use == "coins":
        got = gain(s, seat, COINS_USE)
        p.discard.append(cid)
        ev.append(f"{name(s, seat)} discards {card.name} for {coins(got, COINS_USE)}.")
    elif use == "military":
        band = len(p.military)
        printed = BOARDS[p.civ].military_bands[band]
        p.military.append(cid)
        extra = f" and activates the printed {printed}" if printed else ""
        ev.append(f"{name(s, seat)} plays {card.name} to military band {band + 1}: 1 {card.military}{extra}.")
    elif use == "resources":
        place_resource(s, seat, cid, ev)
    else:
        short, price = rules.build_price(s, seat, card)
        if price:
            pay(s, seat, price)
        what = "constructs" if card.kind == "building" else "places the leader"
        paid = f", paying {count(price, 'coin')} for {count(short, 'missing resource')}" if short else ""
        ev.append(f"{name(s, seat)} {what} {card.name}{paid}.")
        places = rules.leader_places(p)
        if card.kind == "building":
            p.buildings.append(cid)
        elif len(places) > 1:  # Persia: a free leader stack or on top of a leader (`cover`)
            s.pending.append(Pending("cover", seat, cid))
            return
        else:
            place_leader(s, seat, cid, places[0], ev)
        after_build(s, seat, cid, ev)


def place_leader(s: State, seat: int, cid: str, covered: str, ev: list[str]) -> None:
    """The leader `cid` goes on top of `covered`, or on a free leader stack when `covered` is ""."""
    p = s.players[seat]
    if not covered:
        if p.leaders:
            ev.append(f"{name(s, seat)} places {card_name(cid)} on their free leader stack.")
        p.leaders.append([cid])
        return
    stack = next(st for st in p.leaders if st[-1] == covered)
    stack.append(cid)
    ev.append(f"{name(s, seat)} covers {card_name(covered)} with {card_name(cid)}.")


def after_build(s: State, seat: int, cid: str, ev: list[str]) -> None:
    """On-build effects, then the optional progress move (and House of Wisdom's bonus move)."""
    card = CARDS[cid]
    for e in card.effects:
        if e.type == "on_build_coins":
            got = gain(s, seat, e.amount)
            ev.append(f"{name(s, seat)} takes {coins(got, e.amount)} from {card.name}.")
    for e in card.effects:
        if e.type == "on_build_progress_from_discard":
            s.pending.append(Pending("progress", seat, "wisdom"))
    s.pending.append(Pending("progress", seat))
    for e in card.effects:
        if e.type == "develop_nile":
            for _ in range(e.amount):
                s.pending.append(Pending("develop", seat))


def move_up(s: State, seat: int, cid: str, what: str, ev: list[str]) -> None:
    """Move up 1 progress level: the card goes face down onto the highest free green band."""
    p = s.players[seat]
    p.progress.append(cid)
    lv = len(p.progress)
    ev.append(f"{name(s, seat)} moves up to progress level {lv} with {what}.")
    for e in BOARDS[p.civ].levels[lv - 1]:
        if e.type == "golden_age":
            ev.append(f"{name(s, seat)} flips their board to its Golden Age side.")
        elif e.type == "develop_nile":
            for _ in range(e.amount):
                s.pending.append(Pending("develop", seat))
