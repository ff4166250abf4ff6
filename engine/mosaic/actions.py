"""Carrying out the eight actions: placement, payment (money 2:1), and each action's effect.

Rulebook, "Gameplay": Work, Population, Build (city, port city, farm and
manufactory towns, project), Wonder, Technology, Tax & Tariff, Military,
Government; costs from the reference card.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..core import Decision, listing
from . import board, economy
from .data import Cost, Data
from .decks import check_tiles_end, refill
from .gains import can_play, play_tech, put_piece
from .options import build_purpose, military_options, wonder_cost
from .state import Player, State
from .words import FALLBACK, population_card, tax_card


def pay_then(d: Data, s: State, seat: int, costs: Sequence[Cost], then: Mapping[str, str], ev: list[str]) -> None:
    """Pay `costs`, then carry out the action; the log line after the action's own line says what
    was paid. Each currency is paid the usual way (its own currency first, money for the rest), or,
    after `spend money`, the way the player picks whenever there is more than one (N32)."""
    s.pending.push("pay", seat, costs=[[cur, amt] for cur, amt in costs if amt > 0], then=dict(then), paid={})
    go_on_paying(d, s, ev)


def go_on_paying(d: Data, s: State, ev: list[str]) -> None:
    """Pay each currency that has one way to be paid, or every one the usual way unless the player
    chose to spend money; stop at one with several ways (the player picks a `pay …`); once all is
    paid, carry out the action."""
    dec = s.pending.top
    assert dec is not None and dec.kind == "pay"
    p = s.players[dec.seat]
    costs = dec.data["costs"]
    while costs:
        ways = economy.splits(d, p, costs)
        if len(ways) > 1 and s.pay_by_choice:
            return
        pay_first(p, dec.data, *ways[0])
    s.pending.pop()
    then = dec.data["then"]
    paid = dec.data["paid"]
    money = paid.pop("money", 0)
    if money:
        paid["money"] = money  # money last in the log line
    pop = d.builds[then["card"]].population_cost if then["do"] == "build" else 0
    start = len(ev)
    _finish(d, s, dec.seat, then, ev)
    text = paid_text(paid, pop)
    if text:
        ev.insert(min(start + 1, len(ev)), f"{p.name} pays {text}.")


def pay_first(p: Player, data: dict[str, Any], own: int, money: int) -> None:
    """Pay the first cost of a pending payment: `own` units of its currency and `money` money."""
    cur, _amt = data["costs"].pop(0)
    paid = data["paid"]
    if own:
        economy.gain(p, cur, -own)
        paid[cur] = paid.get(cur, 0) + own
    if money:
        p.money -= money
        paid["money"] = paid.get("money", 0) + money


def pay_step(d: Data, s: State, dec: Decision, words: list[str], ev: list[str]) -> None:
    """`pay 4 ideas 2 money`: the player's way to pay the cost's current currency."""
    named = {words[i + 1]: int(words[i]) for i in range(1, len(words) - 1, 2)}
    cur = dec.data["costs"][0][0]
    pay_first(s.players[dec.seat], dec.data, named.get(cur, 0), named.get("money", 0))
    go_on_paying(d, s, ev)


def placed(d: Data, s: State, seat: int, data: Mapping[str, Any], h: str, ev: list[str]) -> None:
    """A hex was chosen for a pending placement."""
    purpose = data["purpose"]
    p = s.players[seat]
    where = f"{h} ({d.regions[d.hexes[h].region].name})"
    if purpose == "start-city":
        ev.append(f"{p.name} places the starting city on {where}.")
        put_piece(d, s, seat, h, "c", ev)
    elif purpose == "start-town":
        kind = "farm town" if data["code"] == "f" else "manufactory town"
        ev.append(f"{p.name} places the {d.leaders[p.leader].name}'s starting {kind} on {where}.")
        put_piece(d, s, seat, h, data["code"], ev)
    elif purpose == "free-city":
        ev.append(f"{p.name} places a free city on {where[:-1]}; City States golden age).")
        put_piece(d, s, seat, h, "c", ev)
    elif purpose == "wonder":
        pay_then(d, s, seat, wonder_cost(d, p), {"do": "wonder", "wonder": data["wonder"], "hex": h}, ev)
    else:
        card = d.builds[data["card"]]
        pay_then(d, s, seat, card.currency_cost, {"do": "build", "card": card.id, "hex": h}, ev)


def paid_text(paid: dict[str, int], population: int = 0) -> str:
    """ "8 money and 2 population": what left the player's board for this action."""
    parts = [f"{v} {'idea' if cur == 'ideas' and v == 1 else cur}" for cur, v in paid.items()]
    if population:
        parts.append(f"{population} population")
    return listing(parts)


def _finish(d: Data, s: State, seat: int, then: Mapping[str, str], ev: list[str]) -> None:
    p = s.players[seat]
    r = d.rules
    do = then["do"]
    if do == "build":
        card = d.builds[then["card"]]
        p.population -= card.population_cost
        slot = s.build_offer.index(card.id)
        p.builds.append(card.id)
        h = then.get("hex", "")
        ev.append(f"{p.name} builds {card.name} ({card.type.replace('_', ' ')})" + (f" on {h}." if h else "."))
        for cur, amt in card.gain.items():
            economy.gain(p, cur, amt)
        for track, amt in card.production.items():
            p.production[track] += amt
        if card.type == "city":
            put_piece(d, s, seat, h, "c", ev)
            s.holding += r.city_holding
            ev.append(f"{r.city_holding} money from the supply goes to the holding area (now {s.holding}).")
        elif card.type == "port_city":
            put_piece(d, s, seat, h, "p", ev)  # the fish tile comes with the hex
            s.holding += r.port_holding
            ev.append(f"{r.port_holding} money from the supply goes to the holding area (now {s.holding}).")
        elif card.type in ("farm_town", "manufactory_town"):
            put_piece(d, s, seat, h, "f" if card.type == "farm_town" else "m", ev)
        if p.leader == "engineer" and card.type in ("city", "port_city", "manufactory_town"):
            p.production["stone"] += 1
        refill(d, s, "build", slot, ev)
    elif do == "wonder":
        w = d.wonders[then["wonder"]]
        s.wonders.remove(w.id)
        p.wonders.append(w.id)
        s.wonder_hex[w.id] = then["hex"]
        ev.append(f"{p.name} builds the wonder {w.name} on {then['hex']}.")
        put_piece(d, s, seat, then["hex"], "w", ev)
        for q in s.players:
            if q.leader == "artist":
                q.money += 10
                ev.append(f"{q.name} (Artist) gains 10 money for the wonder.")
        if w.library_symbols:
            s.pending.push("library", seat)
        check_tiles_end(s, ev)
    elif do == "technology":
        t = then["card"]
        slot = s.tech_offer.index(t)
        if can_play(d, p, t) and not then.get("face_down"):
            play_tech(d, s, seat, t, ev)
        else:
            p.hidden.append(t)
            p.seen.append(t)  # taken from the face-up offer: the table saw which (N51)
            why = "by choice" if can_play(d, p, t) else "its pillars are not there yet"
            ev.append(f"{p.name} takes {d.technologies[t].name} face down ({why}).")
        refill(d, s, "technology", slot, ev)
    elif do == "population":
        card_id = then["card"]
        farmer = 1 if p.leader == "farmer" else 0
        if card_id == FALLBACK:
            gainp = r.population_fallback_gain
        else:
            gainp = d.population_cards[card_id].population + farmer
            slot = s.pop_offer.index(card_id)
            refill(d, s, "population", slot, ev)
        p.population += gainp
        ev.append(f"{p.name} grows by {gainp} population (now {p.population}).")
    elif do == "government":
        g = then["government"]
        if p.government:
            s.governments.append(p.government)
            ev.append(f"{p.name} returns {d.governments[p.government].name} to the board.")
        s.governments.remove(g)
        p.government = g
        gname = d.governments[g].name
        ev.append(f"{p.name} becomes {'an' if gname[0] in 'AEIOU' else 'a'} {gname}.")
    else:
        raise ValueError(do)


# ---- main actions
def act_work(d: Data, s: State, seat: int, words: list[str], ev: list[str]) -> None:
    p = s.players[seat]
    cur = words[1]
    prod = economy.production(d, p, cur)
    amt = p.population + prod
    economy.gain(p, cur, amt)
    track = "idea" if cur == "ideas" else cur
    ev.append(
        f"{p.name} works: +{amt} {track if amt == 1 else cur} ({p.population} population + {prod} {track} production)."
    )


def act_population(d: Data, s: State, seat: int, words: list[str], ev: list[str]) -> None:
    card = population_card(d, s, words[1], "".join(words[2:]))
    food = d.rules.population_fallback_food if card == FALLBACK else d.population_cards[card].food_cost
    pay_then(d, s, seat, [("food", food)], {"do": "population", "card": card}, ev)


def act_build(d: Data, s: State, seat: int, words: list[str], ev: list[str]) -> None:
    card = d.builds[words[1]]
    purpose = build_purpose(card.type)
    if purpose:
        s.pending.push("place", seat, purpose=purpose, card=card.id)
    else:
        costs = card.currency_cost
        pay_then(d, s, seat, costs, {"do": "build", "card": card.id}, ev)


def act_wonder(d: Data, s: State, seat: int, words: list[str], ev: list[str]) -> None:
    s.pending.push("place", seat, purpose="wonder", wonder=words[1])


def act_technology(d: Data, s: State, seat: int, words: list[str], ev: list[str]) -> None:
    """`technology <card>`: face up when its pillars are there; `… face-down`: kept face down (N28)."""
    then = {"do": "technology", "card": words[1]} | ({"face_down": "yes"} if words[2:] == ["face-down"] else {})
    pay_then(d, s, seat, [("ideas", d.rules.technology_ideas)], then, ev)


def act_tax(d: Data, s: State, seat: int, words: list[str], ev: list[str]) -> None:
    """`tax <word>` / `tariff <word>`: the card on offer with those numbers, `… right` the right one
    of two alike cards (N50)."""
    collect(d, s, seat, words[0], tax_card(d, s, words[0], words[1], "".join(words[2:])), ev)


def collect(d: Data, s: State, seat: int, kind: str, card_id: str, ev: list[str]) -> None:
    """Tax & Tariff with card `card_id` (or FALLBACK): the card's formula plus the holding area;
    unrest from the card (rulebook)."""
    p = s.players[seat]
    terms, unrest = tax_terms(d, s, seat, kind, card_id)
    amt = sum(v for v, _ in terms)
    how = " + ".join(what for v, what in terms if v)
    held = s.holding
    s.holding = 0
    p.money += amt + held
    p.unrest += unrest
    ev.append(
        f"{p.name} collects {kind}: {amt} money"
        + (f" ({how})" if how else "")
        + f" + {held} from the holding area"
        + (f", +{unrest} unrest." if unrest else ".")
    )
    if card_id != FALLBACK:
        refill(d, s, "tax", s.tax_offer.index(card_id), ev)


def tax_terms(d: Data, s: State, seat: int, kind: str, card_id: str) -> tuple[list[tuple[int, str]], int]:
    """What a tax or tariff card (or FALLBACK) pays `seat` now, term by term (money, words), and
    its unrest: the board's formula with the card's multiplier (RULES-NOTES, Reconstructed)."""
    r = d.rules
    p = s.players[seat]
    if card_id == FALLBACK:
        mult = r.tax_fallback_per_population if kind == "tax" else r.tariff_fallback_per_trade_good
        unrest = r.fallback_unrest
    else:
        card = d.tax_cards[card_id]
        mult, unrest = card.multiplier, card.unrest
    if kind == "tax":
        gov, prod = board.symbols(d, p)["government"], economy.production(d, p, "tax")
        terms = [
            (mult * p.population, f"{mult}×{p.population} population"),
            (gov, f"{gov} Government symbol{'s' * (gov != 1)}"),
            (prod, f"{prod} tax production"),
        ]
        if p.leader == "merchant" and card_id != FALLBACK:
            goods = board.unique_goods(p)
            terms.append((2 * goods, f"Merchant 2×{goods} unique goods"))
    else:
        goods, cities, prod = board.unique_goods(p), len(board.cities_of(s, seat)), economy.production(d, p, "tariff")
        terms = [
            (mult * goods, f"{mult}×{goods} unique goods"),
            (cities, f"{cities} cit{'y' if cities == 1 else 'ies'}"),
            (prod, f"{prod} tariff production"),
        ]
    return terms, unrest


def act_military(d: Data, s: State, seat: int, words: list[str], ev: list[str]) -> None:
    s.pending.push("military", seat, acted=False)


def military_step(d: Data, s: State, dec: Decision, words: list[str], ev: list[str]) -> None:
    """One recruit or move of a military action; the limits are per turn (N48), kept on the state."""
    p = s.players[dec.seat]
    r = d.rules
    if words[0] == "done":
        s.pending.pop()
        return
    dec.data["acted"] = True
    if words[0] == "recruit":
        reg = words[1]
        p.money -= r.recruit_money
        p.units[reg] = p.units.get(reg, 0) + 1
        s.turn_recruits += 1
        ev.append(f"{p.name} recruits a military unit in {d.regions[reg].name}.")
    else:
        a, b = words[1], words[2]
        p.money -= r.move_money
        p.units[a] -= 1
        p.units[b] = p.units.get(b, 0) + 1
        s.turn_arrived[b] = s.turn_arrived.get(b, 0) + 1
        ev.append(f"{p.name} moves a military unit from {d.regions[a].name} to {d.regions[b].name}.")
    if military_options(d, s, dec.seat, True) == ["done"]:
        s.pending.pop()


def act_government(d: Data, s: State, seat: int, words: list[str], ev: list[str]) -> None:
    pay_then(
        d, s, seat, [("ideas", d.governments[words[1]].cost_ideas)], {"do": "government", "government": words[1]}, ev
    )


MAIN = {
    "work": act_work,
    "population": act_population,
    "build": act_build,
    "wonder": act_wonder,
    "technology": act_technology,
    "tax": act_tax,
    "tariff": act_tax,
    "military": act_military,
    "government": act_government,
}
