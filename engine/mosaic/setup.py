"""Setup (rulebook, "Setup"): regions by player count, tiles on the map, the
four decks with their scoring cards, the leader draft (passing right), the
starting technology draft (pick 1 of 5, pass left), start cities clockwise,
leader start benefits and the playable starting technologies.
"""

from __future__ import annotations

from engine.core import Rng

from . import board
from .data import Data, DeckRules, Leader
from .decks import SCORING, draw
from .gains import flip_ready
from .state import Player, State
from .turns import start_turn


def deck_size(deck: DeckRules, n: int) -> int:
    return deck.size_2_3_players if n <= 3 else deck.size_4_5_players if n <= 5 else deck.size_6_players


def insert_in_part(rng: Rng, cards: list[str], parts: int, which: int) -> list[str]:
    """Split `cards` into `parts` near-equal piles and shuffle the scoring card into pile `which` (1-based)."""
    size = len(cards)
    bounds = [round(size * i / parts) for i in range(parts + 1)]
    piles = [cards[bounds[i] : bounds[i + 1]] for i in range(parts)]
    pile = piles[which - 1] + [SCORING]
    rng.shuffle(pile)
    piles[which - 1] = pile
    return [c for pl in piles for c in pl]


def new_game(d: Data, players: list[str], seed: int) -> State:
    n = len(players)
    rng = Rng.from_seed(seed, "mosaic")
    regions = [r for r in d.regions if d.regions[r].in_play_from_players <= n]
    s = State(
        players=[Player(name=x, population=d.rules.start_population) for x in players],
        rng=rng,
        start=rng.below(n),
        regions=regions,
    )
    # Map tiles: fish on every port, caches face down on cache hexes, trade goods on open hexes (X tiles removed).
    s.fish_on = [h for h, x in d.hexes.items() if x.kind == "port"]
    caches = [c.id for c in d.caches for _ in range(c.copies)]
    rng.shuffle(caches)
    cache_hexes = [h for h, x in d.hexes.items() if x.kind == "cache"]
    for h, c in zip(cache_hexes, caches, strict=True):  # one tile per cache hex (checked at load)
        if d.hexes[h].region in regions:
            s.cache_on[h] = c
    goods = [g.id for g in d.trade_goods.values() if not g.on_ports for _ in range(g.count)]
    rng.shuffle(goods)
    open_hexes = [h for h, x in d.hexes.items() if x.kind == "land" and x.region in regions]
    for h, g in zip(open_hexes, goods, strict=False):  # N39: the tiles left over are unused
        if not d.trade_goods[g].blank:
            s.goods_on[h] = g
    # Technologies: 5 starting cards dealt to each player, the rest shuffled into the deck.
    starting = [t for t, c in d.technologies.items() if c.starting]
    rng.shuffle(starting)
    dealt = d.tech_deck.starting_dealt
    for i, p in enumerate(s.players):
        p.hand = starting[i * dealt : (i + 1) * dealt]
    rest = starting[n * dealt :] + [t for t, c in d.technologies.items() if not c.starting]
    rng.shuffle(rest)
    third = d.tech_deck.scoring_third_2_3_players if n <= 3 else d.tech_deck.scoring_third_4_6_players
    s.tech_deck = insert_in_part(rng, rest, 3, third)
    builds = list(d.builds)
    rng.shuffle(builds)
    s.build_deck = insert_in_part(rng, builds, 2, 2)
    for attr, deck, cards in (
        ("pop_deck", d.population_deck, d.population_cards),
        ("tax_deck", d.tax_deck, d.tax_cards),
    ):
        pool = list(cards)
        rng.shuffle(pool)
        setattr(s, attr, insert_in_part(rng, pool[: deck_size(deck, n)], 2, 2))
    ev: list[str] = []
    s.tech_offer = [draw(d, s, "tech_deck", ev) for _ in range(d.tech_deck.offer)]
    s.build_offer = [draw(d, s, "build_deck", ev) for _ in range(d.build_deck.offer)]
    s.pop_offer = [draw(d, s, "pop_deck", ev) for _ in range(d.population_deck.offer)]
    s.tax_offer = [draw(d, s, "tax_deck", ev) for _ in range(d.tax_deck.offer)]
    s.wonders = list(d.wonders)
    s.golden_ages = list(d.golden_ages)
    s.achievements_in_play = sorted(
        rng.sample(list(d.achievements), d.rules.achievements_in_play), key=list(d.achievements).index
    )
    s.achievements = list(s.achievements_in_play)
    s.governments = list(d.governments)
    s.leader_pool = list(d.leaders)
    s.leader_order = [(s.start - 1 - i) % n for i in range(n)]
    s.phase = "leaders"
    return s


def legal(d: Data, s: State, seat: int) -> list[str]:
    if s.phase == "leaders":
        return [f"leader {x}" for x in s.leader_pool] if s.leader_order and seat == s.leader_order[0] else []
    if s.phase == "draft":
        # by position in the hand: the action text goes to the public action log, the card must not (N45)
        return [f"draft {i}" for i in range(1, len(s.players[seat].hand) + 1)] if seat in s.draft_waiting else []
    return []


def play(d: Data, s: State, seat: int, words: list[str]) -> list[str]:
    ev: list[str] = []
    p = s.players[seat]
    if words[0] == "leader":
        s.leader_pool.remove(words[1])
        p.leader = words[1]
        s.leader_order.pop(0)
        ev.append(f"{p.name} chooses the {d.leaders[words[1]].name}.")
        if not s.leader_order:
            s.phase = "draft"
            s.draft_waiting = list(range(len(s.players)))
            ev.append("Starting technology draft: each player keeps 1 card and passes the rest to the left.")
        return ev
    # draft: the pick is private; the log only says a pick was made.
    p.picks.append(p.hand.pop(int(words[1]) - 1))
    s.draft_waiting.remove(seat)
    ev.append(f"{p.name} drafts a starting technology.")
    if not s.draft_waiting:
        n = len(s.players)
        hands = [q.hand for q in s.players]
        if any(hands):
            for i, q in enumerate(s.players):
                q.hand = hands[(i - 1) % n]
            s.draft_waiting = list(range(n))
        else:
            s.phase = "setup"
            s.stage = "cities"
            for i in reversed(range(n)):
                s.pending.push("place", (s.start + i) % n, purpose="start-city")
            ev.append("Each player places a starting city, beginning with the start player.")
    return ev


def setup_flow(d: Data, s: State, ev: list[str]) -> bool:
    """Advance setup when nothing is pending; True when something changed."""
    n = len(s.players)
    order = [(s.start + i) % n for i in range(n)]
    if s.stage == "cities":
        s.stage = "leaders"
        for seat in reversed(order):
            leader_start(d, s, seat, ev)
        return True
    # stage "leaders": everything the leaders asked for is settled; the starting technologies are played.
    s.phase = "play"
    for seat in order:
        p = s.players[seat]
        p.hidden += p.picks
        p.picks = []
        extra = draw(d, s, "tech_deck", ev) if d.leaders[p.leader].start.get("random_tech") else ""
        if extra:  # the Philosopher's random technology comes after the drafted ones (N17)
            p.hidden.append(extra)
        while flip_ready(d, s, seat, ev, verb="plays"):  # in draft order, and any a later card made playable
            pass
        if extra in p.hidden:
            ev.append(f"{p.name} (Philosopher) takes a random technology face down.")
    start_turn(d, s, s.start)
    ev.append(f"{s.players[s.start].name} starts the game.")
    return True


def start_text(lead: Leader) -> str:
    """A leader's production and start bonuses in words: "+5 tariff production, 30 money, a manufactory town"."""
    words = {
        "population": "+{} population",
        "military_units": "{} military unit",
        "random_tech": "a random technology",
        "farm_town": "a farm town",
        "manufactory_town": "a manufactory town",
    }
    parts = [f"+{v} {'idea' if t == 'ideas' else t} production" for t, v in lead.production.items() if v]
    parts += [
        words.get(k, "{} " + k).format(v) + ("s" if k == "military_units" and v != 1 else "")
        for k, v in lead.start.items()
        if v
    ]
    if lead.choose_production:
        parts.append(f"+{lead.choose_production} to a production of their choice")
    return ", ".join(parts) or "nothing"


def leader_start(d: Data, s: State, seat: int, ev: list[str]) -> None:
    """Leader production, start bonuses and the choices they ask for (pushed so they resolve in seat order)."""
    p = s.players[seat]
    lead = d.leaders[p.leader]
    for track, v in lead.production.items():
        p.production[track] += v
    st = lead.start
    for cur in ("food", "stone", "ideas", "money"):
        setattr(p, cur, getattr(p, cur) + st.get(cur, 0))
    p.population += st.get("population", 0)
    if st.get("military_units"):
        regs = board.city_regions(d, s, seat)
        if regs:
            p.units[regs[0]] = p.units.get(regs[0], 0) + st["military_units"]
    ev.append(f"{p.name} takes the {lead.name}'s starting benefits: {start_text(lead)}.")
    for kind, code in (("farm_town", "f"), ("manufactory_town", "m")):
        if st.get(kind) and board.place_candidates(d, s, seat, "start-town"):
            s.pending.push("place", seat, purpose="start-town", code=code)
            ev.append(f"{p.name} now chooses a hex next to their city for the starting {kind.replace('_', ' ')}.")
        elif st.get(kind):  # RULES-NOTES N16: no free hex next to the city, no town
            ev.append(
                f"{p.name} has no free hex next to their city: the starting {kind.replace('_', ' ')} is not placed."
            )
    if lead.choose_production:
        exclude = [t for t in lead.production]
        s.pending.push("production", seat, amount=lead.choose_production, exclude=exclude)
