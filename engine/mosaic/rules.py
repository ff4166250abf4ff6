"""The turn: one action (Work, Population, Build, Wonder, Technology, Tax &
Tariff, Military, Government), free claims and flips, and every pending
sub-decision (where to place, how to pay, where units go).

Each compound action is a short sequence of small choices kept on
`State.pending` (DESIGN.md law 2). `settle` moves the game on once nothing is
pending: Empire Scorings waiting for the revealer's action to end (rulebook,
"Empire Scoring"), the end of the turn, the end-game rounds and the Scribe's
extra actions.
"""
from __future__ import annotations

from . import board, economy, scoring
from .data import PILLARS, TRACKS, Data
from .state import Player, State

OFFERS = {"build": ("build_deck", "build_offer"), "population": ("pop_deck", "pop_offer"),
          "technology": ("tech_deck", "tech_offer"), "tax": ("tax_deck", "tax_offer")}
KIND_CODE = {"city": "c", "start-city": "c", "free-city": "c", "port": "p", "farm": "f",
             "manufactory": "m", "start-town": "", "wonder": "w"}
SCORING = "scoring"


# ---------------------------------------------------------------- decks
def draw(d: Data, s: State, deck_attr: str, ev: list[str]) -> str:
    """Top card of a deck; a revealed Empire Scoring card is set aside and scored after the action."""
    deck = getattr(s, deck_attr)
    while deck:
        card = deck.pop(0)
        if card != SCORING:
            return card
        s.scorings += 1
        s.scoring_due += 1
        ev.append(f"An Empire Scoring card is revealed ({s.scorings} of 3 to end the game).")
        if s.scorings >= 3:
            trigger_end(s, ev, "the third Empire Scoring card")
    return ""


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


# ---------------------------------------------------------------- gains
def add_good(d: Data, p: Player, good: str) -> None:
    p.goods[good] = p.goods.get(good, 0) + 1
    g = d.trade_goods[good]
    if g.track:
        p.production[g.track] += g.bonus


def take_hex_contents(d: Data, s: State, seat: int, h: str, ev: list[str]) -> None:
    """Cache tile (benefit now, tile to the box) and trade good tile (to the player board)."""
    p = s.players[seat]
    good = s.goods_on.pop(h, "")
    if good:
        add_good(d, p, good)
        ev.append(f"{p.name} takes the {d.trade_goods[good].name} trade good.")
    cache = s.cache_on.pop(h, "")
    if cache:
        apply_cache(d, s, seat, cache, d.hexes[h].region, ev)


def apply_cache(d: Data, s: State, seat: int, cache_id: str, region: str, ev: list[str]) -> None:
    p = s.players[seat]
    c = next(c for c in d.caches if c.id == cache_id)
    b = c.benefit
    if b in ("money", "food", "stone", "ideas"):
        economy.gain(p, b, c.amount)
        ev.append(f"{p.name} finds a cache: {c.amount} {b}.")
    elif b == "population":
        p.population += c.amount
        ev.append(f"{p.name} finds a cache: +{c.amount} population.")
    elif b.endswith("_production"):
        track = b[: -len("_production")]
        p.production[track] += c.amount
        ev.append(f"{p.name} finds a cache: +{c.amount} {track} production.")
    elif b == "military_unit":
        p.units[region] = p.units.get(region, 0) + c.amount
        ev.append(f"{p.name} finds a cache: {c.amount} military unit in {d.regions[region].name}.")
    elif b == "technology_card_face_down":
        card = draw(d, s, "tech_deck", ev)
        if card:
            p.hidden.append(card)
            ev.append(f"{p.name} finds a cache: a face-down technology card.")
    else:
        raise ValueError(b)


def put_piece(d: Data, s: State, seat: int, h: str, code: str, ev: list[str]) -> None:
    s.board[h] = f"{code}{seat}"
    take_hex_contents(d, s, seat, h, ev)


def give_units(d: Data, s: State, seat: int, count: int, ev: list[str], why: str) -> None:
    """Free military units go to a region holding one of your cities (one choice per unit when several)."""
    regs = board.city_regions(d, s, seat)
    p = s.players[seat]
    if not regs:
        ev.append(f"{p.name} has no city, so the {count} free unit(s) from {why} are lost.")
        return
    if len(regs) == 1:
        p.units[regs[0]] = p.units.get(regs[0], 0) + count
        ev.append(f"{p.name} gains {count} military unit(s) in {d.regions[regs[0]].name} ({why}).")
        return
    s.pending.push("unit", seat, count=count, why=why)


def play_tech(d: Data, s: State, seat: int, t: str, ev: list[str]) -> None:
    """A technology goes face up: its pillars count from now on and its effect happens (1x or ongoing)."""
    p = s.players[seat]
    c = d.technologies[t]
    p.techs.append(t)
    ev.append(f"{p.name} plays {c.name} face up ({c.text})")
    for cur, amt in c.gain.items():
        economy.gain(p, cur, amt)
    p.population += c.population
    for track, amt in c.production.items():
        p.production[track] += amt
    if c.military_units:
        give_units(d, s, seat, c.military_units, ev, c.name)


def can_play(d: Data, p: Player, t: str, sym=None) -> bool:
    sym = sym if sym is not None else board.symbols(d, p)
    return board.meets(d.technologies[t].requires, sym)


# ---------------------------------------------------------------- checks
def achievement_met(d: Data, s: State, seat: int, aid: str, sym, cache: dict | None = None) -> bool:
    a = d.achievements[aid]
    p = s.players[seat]
    need = a.threshold_2_3_players if scoring.small_game(s) else a.threshold
    m = a.measure
    if m == "population":
        v = p.population
    elif m == "projects_and_wonders":
        v = len(p.wonders) + sum(1 for b in p.builds if d.builds[b].type == "project")
    elif m == "port_cities":
        v = len(board.pieces(s, seat, "p"))
    elif m == "regions_controlled":
        cache = cache if cache is not None else {}
        if "inf" not in cache:
            cache["inf"] = board.influence(d, s)
        v = len(board.controlled(d, s, seat, cache["inf"]))
    elif m == "cities":
        v = len(board.cities_of(s, seat))
    elif m == "military_units":
        v = board.unit_total(p)
    elif m == "unique_trade_goods":
        v = board.unique_goods(p)
    elif m == "money":
        v = p.money
    elif m == "pillar_kinds":
        v = board.symbol_kinds(sym)
    elif m == "tech_cards":
        v = len(p.techs)
    elif m.endswith("_production"):
        track = m[: -len("_production")]
        v = economy.production(d, p, "ideas" if track == "idea" else track)
    else:
        raise ValueError(m)
    return v >= need


def free_actions(d: Data, s: State, seat: int) -> list[str]:
    """Not the turn's action: claims, flips, the government refresh, once-per-game leader powers."""
    p = s.players[seat]
    sym = board.symbols(d, p)
    out = []
    for g in s.golden_ages:
        ga = d.golden_ages[g]
        if sym[ga.pillar] >= ga.symbols:
            out.append(f"claim {g}")
    cache: dict = {}
    for a in s.achievements:
        if achievement_met(d, s, seat, a, sym, cache):
            out.append(f"claim {a}")
    for t in p.hidden:
        if can_play(d, p, t, sym):
            out.append(f"flip {t}")
    if p.government and p.government not in s.gov_flipped:
        for name, (_deck, offer) in OFFERS.items():
            if any(getattr(s, offer)):
                out.append(f"refresh {name}")
    if p.leader == "magistrate" and "convert" not in p.used and p.population >= 1:
        out += [f"convert {c}" for c in ("food", "stone", "ideas", "money")]
    if p.leader == "priestess" and "seize" not in p.used:
        for other in range(len(s.players)):
            if other != seat:
                cities = board.cities_of(s, other)
                if len(cities) >= 4:
                    out += [f"seize {h}" for h in cities]
    return out


def wonder_cost(d: Data, p: Player) -> list[list]:
    r = d.rules
    k = len(p.wonders)
    return [["stone", r.wonder_stone + k * r.wonder_step_stone], ["food", r.wonder_food + k * r.wonder_step_food]]


def recruit_limit(d: Data, p: Player) -> int:
    lim = d.leaders[p.leader].recruit_limit if p.leader else 0
    return lim or d.rules.recruit_limit


def can_move(d: Data, s: State, p: Player, arrived: dict | None = None) -> list[tuple[str, str]]:
    if p.money < d.rules.move_money:
        return []
    arrived = arrived or {}
    out = []
    for reg in s.regions:
        if p.units.get(reg, 0) - arrived.get(reg, 0) > 0:
            out += [(reg, to) for to in d.adjacency[reg] if to in s.regions]
    return out


def main_actions(d: Data, s: State, seat: int) -> list[str]:
    r = d.rules
    p = s.players[seat]
    out = ["work ideas", "work food", "work stone"]
    # Population
    cards = [c for c in s.pop_offer if c]
    if cards:
        out += [f"population {c}" for c in cards
                if economy.affordable(d, p, [["food", d.population_cards[c].food_cost]])]
    elif not s.pop_deck and economy.affordable(d, p, [["food", r.population_fallback_food]]):
        out.append("population fallback")
    # Build
    spots: dict[str, bool] = {}
    for c in s.build_offer:
        if c and can_build(d, s, seat, c, spots):
            out.append(f"build {c}")
    # Wonder
    if s.wonders and economy.affordable(d, p, wonder_cost(d, p)):
        for w in s.wonders:
            rule = "wonder-" + d.wonders[w].placement
            if rule not in spots:
                spots[rule] = bool(board.place_candidates(d, s, seat, "wonder", w))
            if spots[rule]:
                out.append(f"wonder {w}")
    # Technology
    if economy.affordable(d, p, [["ideas", r.technology_ideas]]):
        out += [f"technology {t}" for t in s.tech_offer if t]
    # Tax & Tariff
    taxes = [c for c in s.tax_offer if c]
    if taxes:
        out += [f"{d.tax_cards[c].kind} {c}" for c in taxes]
    elif not s.tax_deck:
        out += ["tax fallback", "tariff fallback"]
    # Military
    if (p.money >= r.recruit_money and board.city_regions(d, s, seat)) or can_move(d, s, p):
        out.append("military")
    # Government
    sym = board.symbols(d, p)
    for g in s.governments:
        gov = d.governments[g]
        if board.meets(gov.requires, sym) and economy.affordable(d, p, [["ideas", gov.cost_ideas]]):
            out.append(f"government {g}")
    return out


def build_purpose(kind: str) -> str:
    return {"city": "city", "port_city": "port", "farm_town": "farm", "manufactory_town": "manufactory"}.get(kind, "")


def can_build(d: Data, s: State, seat: int, c: str, spots: dict | None = None) -> bool:
    card = d.builds[c]
    p = s.players[seat]
    costs = [[k, v] for k, v in card.cost.items() if k != "population"]
    if not economy.affordable(d, p, costs, card.cost.get("population", 0)):
        return False
    purpose = build_purpose(card.type)
    if not purpose:
        return True
    spots = spots if spots is not None else {}
    if purpose not in spots:
        spots[purpose] = bool(board.place_candidates(d, s, seat, purpose))
    return spots[purpose]


# ---------------------------------------------------------------- legal
def legal(d: Data, s: State, seat: int) -> list[str]:
    top = s.pending.top
    if top is not None:
        return decision_legal(d, s, top) if top.seat == seat else []
    if s.phase != "play" or seat != s.seat:
        return []
    if s.stage == "main":
        return main_actions(d, s, seat) + free_actions(d, s, seat)
    return free_actions(d, s, seat) + ["end"]


def decision_legal(d: Data, s: State, dec) -> list[str]:
    k = dec.kind
    data = dec.data
    p = s.players[dec.seat]
    if k == "place":
        cands = board.place_candidates(d, s, dec.seat, data["purpose"], data.get("wonder", ""))
        if not cands:  # a leader's start town whose hexes another start town just took
            return ["skip"]
        reg = data.get("region", "")
        if reg:
            return [f"hex {h}" for h in cands if d.hexes[h].region == reg]
        regs = []
        for h in cands:
            rr = d.hexes[h].region
            if rr not in regs:
                regs.append(rr)
        if len(cands) <= 15 or len(regs) == 1:
            return [f"hex {h}" for h in cands]
        return [f"region {rr}" for rr in regs]
    if k == "pay":
        costs = data["costs"]
        i = data["i"]
        cur, amt = costs[i]
        lo, hi = economy.money_range(d, p, costs, i)
        return [f"pay {amt - y} {cur} {2 * y} money" for y in economy.pay_options(lo, hi)]
    if k == "military":
        r = d.rules
        out = []
        if data["recruited"] < recruit_limit(d, p) and p.money >= r.recruit_money:
            out += [f"recruit {reg}" for reg in board.city_regions(d, s, dec.seat)]
        out += [f"move {a} {b}" for a, b in can_move(d, s, p, data["arrived"])]
        if data["acted"]:
            out.append("done")
        return out
    if k == "unit":
        return [f"unit {reg}" for reg in board.city_regions(d, s, dec.seat)]
    if k == "eliminate":
        return eliminate_options(d, s, dec.seat) + ["eliminate none"]
    if k == "library":
        return [f"library {x}" for x in PILLARS]
    if k == "art":
        return [f"art {c}" for c in ("food", "stone", "ideas", "money")]
    if k == "production":
        return [f"production {t}" for t in TRACKS if t not in data.get("exclude", [])]
    raise ValueError(k)


def eliminate_options(d: Data, s: State, seat: int) -> list[str]:
    me = s.players[seat]
    out = []
    for reg in s.regions:
        if me.units.get(reg, 0) > 0:
            for other, q in enumerate(s.players):
                if other != seat and q.units.get(reg, 0) > 0:
                    out.append(f"eliminate {reg} {other}")
    return out


# ---------------------------------------------------------------- play
def play(d: Data, s: State, seat: int, action: str) -> list[str]:
    ev: list[str] = []
    words = action.split(" ")
    top = s.pending.top
    if top is not None:
        resolve(d, s, top, words, ev)
    elif s.stage == "post" and words[0] == "end":
        end_turn(d, s, ev)
    elif words[0] in FREE:
        FREE[words[0]](d, s, seat, words, ev)
        check_tiles_end(s, ev)
    else:
        s.action_open = True
        MAIN[words[0]](d, s, seat, words, ev)
    settle(d, s, ev)
    return ev


def pay_then(d: Data, s: State, seat: int, costs: list[list], then: dict, ev: list[str]) -> None:
    """Pay `costs` (money may stand in 2:1), asking only where there is a real choice, then finish."""
    costs = [c for c in costs if c[1] > 0]
    s.pending.push("pay", seat, costs=costs, i=0, then=then)
    advance_pay(d, s, s.pending.top, ev)


def advance_pay(d: Data, s: State, dec, ev: list[str]) -> None:
    p = s.players[dec.seat]
    costs = dec.data["costs"]
    while dec.data["i"] < len(costs):
        i = dec.data["i"]
        cur, amt = costs[i]
        if cur == "money":
            p.money -= amt
            dec.data["i"] += 1
            continue
        lo, hi = economy.money_range(d, p, costs, i)
        if lo != hi:
            return
        pay_item(p, cur, amt, lo, d.rules.money_per_currency)
        dec.data["i"] += 1
    s.pending.pop()
    finish(d, s, dec.seat, dec.data["then"], ev)


def pay_item(p: Player, cur: str, amt: int, by_money: int, rate: int) -> None:
    economy.gain(p, cur, -(amt - by_money))
    p.money -= rate * by_money


def resolve(d: Data, s: State, dec, words: list[str], ev: list[str]) -> None:
    k = dec.kind
    p = s.players[dec.seat]
    if k == "place":
        if words[0] == "skip":
            s.pending.pop()
            ev.append(f"{p.name} has no free hex for the piece; it is not placed.")
            return
        if words[0] == "region":
            dec.data["region"] = words[1]
            return
        s.pending.pop()
        placed(d, s, dec.seat, dec.data, words[1], ev)
    elif k == "pay":
        cur = dec.data["costs"][dec.data["i"]][0]
        amt = dec.data["costs"][dec.data["i"]][1]
        pay_item(p, cur, amt, int(words[3]) // d.rules.money_per_currency, d.rules.money_per_currency)
        dec.data["i"] += 1
        advance_pay(d, s, dec, ev)
    elif k == "military":
        military_step(d, s, dec, words, ev)
    elif k == "unit":
        reg = words[1]
        p.units[reg] = p.units.get(reg, 0) + 1
        ev.append(f"{p.name} places a military unit in {d.regions[reg].name} ({dec.data['why']}).")
        dec.data["count"] -= 1
        if dec.data["count"] <= 0:
            s.pending.pop()
    elif k == "eliminate":
        s.pending.pop()
        s.general_done = True
        if words[1] != "none":
            reg, other = words[1], int(words[2])
            q = s.players[other]
            q.units[reg] -= 1
            ev.append(f"{p.name} (General) eliminates one of {q.name}'s units in {d.regions[reg].name}.")
    elif k == "library":
        s.pending.pop()
        p.library = words[1]
        ev.append(f"{p.name} takes 2 {words[1].title()} symbols from the Great Library.")
    elif k == "art":
        s.pending.pop()
        economy.gain(p, words[1], 10)
        ev.append(f"{p.name} gains 10 {words[1]} from the Art golden age.")
    elif k == "production":
        s.pending.pop()
        p.production[words[1]] += dec.data["amount"]
        ev.append(f"{p.name} ({d.leaders[p.leader].name}) adds +{dec.data['amount']} {words[1]} production.")
    else:
        raise ValueError(k)


def placed(d: Data, s: State, seat: int, data: dict, h: str, ev: list[str]) -> None:
    """A hex was chosen for a pending placement."""
    purpose = data["purpose"]
    p = s.players[seat]
    where = f"{h} ({d.regions[d.hexes[h].region].name})"
    if purpose == "start-city":
        ev.append(f"{p.name} places the starting city on {where}.")
        put_piece(d, s, seat, h, "c", ev)
    elif purpose == "start-town":
        ev.append(f"{p.name} places the leader's starting town on {where}.")
        put_piece(d, s, seat, h, data["code"], ev)
    elif purpose == "free-city":
        ev.append(f"{p.name} places a free city on {where} (City States).")
        put_piece(d, s, seat, h, "c", ev)
    elif purpose == "wonder":
        costs = wonder_cost(d, p)
        pay_then(d, s, seat, costs, {"do": "wonder", "wonder": data["wonder"], "hex": h}, ev)
    else:
        card = d.builds[data["card"]]
        costs = [[k, v] for k, v in card.cost.items() if k != "population"]
        pay_then(d, s, seat, costs, {"do": "build", "card": card.id, "hex": h}, ev)


def finish(d: Data, s: State, seat: int, then: dict, ev: list[str]) -> None:
    """An action's cost is paid: carry out its effect."""
    p = s.players[seat]
    r = d.rules
    do = then["do"]
    if do == "build":
        card = d.builds[then["card"]]
        p.population -= card.cost.get("population", 0)
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
        elif card.type == "port_city":
            s.board[h] = f"p{seat}"
            if h in s.fish_on:
                s.fish_on.remove(h)
                add_good(d, p, "fish")
                ev.append(f"{p.name} takes the fish tile (+{d.trade_goods['fish'].bonus} food production).")
            take_hex_contents(d, s, seat, h, ev)
            s.holding += r.port_holding
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
        for i, q in enumerate(s.players):
            if q.leader == "artist":
                q.money += 10
                ev.append(f"{q.name} (Artist) gains 10 money for the wonder.")
        if w.library_symbols:
            s.pending.push("library", seat)
        check_tiles_end(s, ev)
    elif do == "technology":
        t = then["card"]
        slot = s.tech_offer.index(t)
        if can_play(d, p, t):
            play_tech(d, s, seat, t, ev)
        else:
            p.hidden.append(t)
            ev.append(f"{p.name} takes a technology face down (its pillars are not there yet).")
        refill(d, s, "technology", slot, ev)
    elif do == "population":
        card = then["card"]
        farmer = 1 if p.leader == "farmer" else 0
        if card == "fallback":
            gainp = r.population_fallback_gain
        else:
            gainp = d.population_cards[card].population + farmer
            slot = s.pop_offer.index(card)
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
        ev.append(f"{p.name} becomes a {d.governments[g].name}.")
    else:
        raise ValueError(do)


# ---- main actions
def act_work(d, s, seat, words, ev):
    p = s.players[seat]
    cur = words[1]
    amt = p.population + economy.production(d, p, cur)
    economy.gain(p, cur, amt)
    ev.append(f"{p.name} works: +{amt} {cur}.")


def act_population(d, s, seat, words, ev):
    if words[1] == "fallback":
        pay_then(d, s, seat, [["food", d.rules.population_fallback_food]], {"do": "population", "card": "fallback"}, ev)
    else:
        pay_then(d, s, seat, [["food", d.population_cards[words[1]].food_cost]], {"do": "population", "card": words[1]}, ev)


def act_build(d, s, seat, words, ev):
    card = d.builds[words[1]]
    purpose = build_purpose(card.type)
    if purpose:
        s.pending.push("place", seat, purpose=purpose, card=card.id)
    else:
        costs = [[k, v] for k, v in card.cost.items() if k != "population"]
        pay_then(d, s, seat, costs, {"do": "build", "card": card.id}, ev)


def act_wonder(d, s, seat, words, ev):
    s.pending.push("place", seat, purpose="wonder", wonder=words[1])


def act_technology(d, s, seat, words, ev):
    pay_then(d, s, seat, [["ideas", d.rules.technology_ideas]], {"do": "technology", "card": words[1]}, ev)


def act_tax(d, s, seat, words, ev):
    """Tax & Tariff: the card's formula plus the holding area; unrest from the card (rulebook)."""
    r = d.rules
    p = s.players[seat]
    kind = words[0]
    sym = board.symbols(d, p)
    if words[1] == "fallback":
        mult = r.tax_fallback_per_population if kind == "tax" else r.tariff_fallback_per_trade_good
        unrest = r.fallback_unrest
    else:
        card = d.tax_cards[words[1]]
        mult, unrest = card.multiplier, card.unrest
    if kind == "tax":
        amt = mult * p.population + economy.production(d, p, "tax") + sym["government"]
        if p.leader == "merchant" and words[1] != "fallback":
            amt += 2 * board.unique_goods(p)
    else:
        amt = mult * board.unique_goods(p) + len(board.cities_of(s, seat)) + economy.production(d, p, "tariff")
    held = s.holding
    s.holding = 0
    p.money += amt + held
    p.unrest += unrest
    ev.append(f"{p.name} collects {kind}: {amt} money + {held} from the holding area" + (f", +{unrest} unrest." if unrest else "."))
    if words[1] != "fallback":
        refill(d, s, "tax", s.tax_offer.index(words[1]), ev)


def act_military(d, s, seat, words, ev):
    s.pending.push("military", seat, recruited=0, arrived={}, acted=False)


def military_step(d, s, dec, words, ev):
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
        dec.data["recruited"] += 1
        ev.append(f"{p.name} recruits a military unit in {d.regions[reg].name}.")
    else:
        a, b = words[1], words[2]
        p.money -= r.move_money
        p.units[a] -= 1
        p.units[b] = p.units.get(b, 0) + 1
        dec.data["arrived"][b] = dec.data["arrived"].get(b, 0) + 1
        ev.append(f"{p.name} moves a military unit from {d.regions[a].name} to {d.regions[b].name}.")
    if not decision_legal(d, s, dec) or decision_legal(d, s, dec) == ["done"]:
        s.pending.pop()


def act_government(d, s, seat, words, ev):
    pay_then(d, s, seat, [["ideas", d.governments[words[1]].cost_ideas]], {"do": "government", "government": words[1]}, ev)


MAIN = {"work": act_work, "population": act_population, "build": act_build, "wonder": act_wonder,
        "technology": act_technology, "tax": act_tax, "tariff": act_tax, "military": act_military,
        "government": act_government}


# ---- free actions
def free_claim(d, s, seat, words, ev):
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


def free_flip(d, s, seat, words, ev):
    p = s.players[seat]
    p.hidden.remove(words[1])
    play_tech(d, s, seat, words[1], ev)


def free_refresh(d, s, seat, words, ev):
    """Government arrow side, once per tile: clear one offer to the bottom of its deck and refill."""
    p = s.players[seat]
    s.gov_flipped.append(p.government)
    deck_attr, offer_attr = OFFERS[words[1]]
    offer = getattr(s, offer_attr)
    deck = getattr(s, deck_attr)
    deck.extend(c for c in offer if c)
    ev.append(f"{p.name} flips {d.governments[p.government].name} to clear the {words[1]} offer.")
    for i in range(len(offer)):
        offer[i] = ""
    for i in range(len(offer)):
        offer[i] = draw(d, s, deck_attr, ev)


def free_convert(d, s, seat, words, ev):
    p = s.players[seat]
    p.used.append("convert")
    p.population -= 1
    economy.gain(p, words[1], 20)
    ev.append(f"{p.name} (Magistrate) converts 1 population into 20 {words[1]}.")


def free_seize(d, s, seat, words, ev):
    p = s.players[seat]
    h = words[1]
    old = board.owner(s.board[h])
    p.used.append("seize")
    s.board[h] = s.board[h][0] + str(seat)
    ev.append(f"{p.name} (Priestess) takes the city on {h} from {s.players[old].name}.")


FREE = {"claim": free_claim, "flip": free_flip, "refresh": free_refresh, "convert": free_convert, "seize": free_seize}


# ---------------------------------------------------------------- flow
def settle(d: Data, s: State, ev: list[str]) -> None:
    """Move on once nothing is pending: scorings, end of the action, end of the turn."""
    from .setup import setup_flow  # setup phases share the pending machinery
    while True:
        if s.pending:
            return
        if s.phase == "setup":
            if setup_flow(d, s, ev):
                continue
            return
        if s.phase != "play":
            return
        if s.scoring_due > 0:
            if not s.general_done:
                s.general_done = True
                for g, q in enumerate(s.players):
                    if q.leader == "general" and eliminate_options(d, s, g):
                        s.pending.push("eliminate", g)
                if s.pending:
                    return
            ev += scoring.empire_scoring(d, s)
            s.scoring_due -= 1
            s.general_done = False
            continue
        if s.action_open:
            s.action_open = False
            s.actions_left -= 1
            check_tiles_end(s, ev)
            if s.scoring_due:
                continue
            if s.actions_left > 0:
                s.stage = "main"
                return
            s.stage = "post"
        if s.stage == "post" and not free_actions(d, s, s.seat):
            end_turn(d, s, ev)
            if s.phase != "play":
                return
            continue
        return


def start_turn(d: Data, s: State, seat: int) -> None:
    s.seat = seat
    s.stage = "main"
    p = s.players[seat]
    s.actions_left = 2 if (p.leader == "scribe" and p.turns == 0) else 1


def end_turn(d: Data, s: State, ev: list[str]) -> None:
    n = len(s.players)
    s.players[s.seat].turns += 1
    s.turn_no += 1
    if s.scribe_turn:
        game_over(d, s, ev)
        return
    if s.end_stage == "rounds" and s.seat == (s.start - 1) % n:
        s.rounds_left -= 1
        if s.rounds_left <= 0:
            scribes = [i for i, q in enumerate(s.players) if q.leader == "scribe"]
            if scribes:
                s.scribe_turn = True
                s.end_stage = "scribe"
                start_turn(d, s, scribes[0])
                s.actions_left = d.rules.scribe_end_actions
                ev.append(f"{s.players[scribes[0]].name} (Scribe) takes {d.rules.scribe_end_actions} extra actions.")
                return
            game_over(d, s, ev)
            return
    start_turn(d, s, (s.seat + 1) % n)


def game_over(d: Data, s: State, ev: list[str]) -> None:
    s.phase = "over"
    s.final = scoring.totals(d, s)
    ranking = ", ".join(f"{p.name} {v}" for p, v in sorted(zip(s.players, s.final), key=lambda x: -x[1]))
    ev.append(f"Game over. Final scores: {ranking}.")
