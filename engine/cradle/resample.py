"""Cradle of Civilization for the fill-in bot (engine/ai): what a seat cannot see, redrawn; a position's worth.

The board is public (view.py). Hidden are only the Civilization cards of the
Allocation in progress (3.0) and the generator's future (every die roll):

- the undrawn cards of the Epoch's deck, in order;
- the card the drawer is looking at (its drawer sees it);
- the cards dealt so far: a keeper knows its own, a passer knows the one it
  passed, a receiver of a passed card knows nothing until all are revealed.

`resample` keeps every card the seat knows where it is, and deals the rest of
the Epoch's cards — the Epoch's list minus the revealed ones (the non-player
civilization's, dealt face up) and minus those the seat knows — into the dealt
cards it does not know, the drawer's hand when that is someone else, and the
deck. Those are exactly the Epoch's cards not yet revealed, so the deal always
fits. Outside an Allocation only the generator is redrawn.
"""

from __future__ import annotations

from engine.ai.pools import Dealer, fresh_rng, without
from engine.ai.value import shares
from engine.core import Rng

from .board import BONUS_AREA, EPOCH, REGION, C, has_trait, owner
from .flow import queue_for
from .rounds import previous_pool
from .state import State

#: Points that make a lead count (in random play the winner leads by about 20; spreads fitted per
#: Epoch to who won predicted the winner better but played no better, engine/ai/README.md).
SPREAD = 8.0
#: What the armies on the map now may score again in a later Epoch, per Epoch.
LATER = 0.5
EPOCHS = 6
#: What an Army still to be placed this Epoch adds to its player's scoring: one more Army on the
#: map added 1.33 VP to a Player Scoring in random play (720 scorings), less what combat costs.
ARMY = 1.0
#: The Civilization Bonus Chart's expected extra Armies (5.2, 2d6).
BONUS_ARMIES = sum(C.bonus[a + b].armies for a in range(1, 7) for b in range(1, 7)) / 36


def known_cards(state: State, seat: int) -> list[str]:
    """The cards of this Allocation `seat` has seen: its kept card, those it passed, the one it draws."""
    a = state.allocation_now()
    out = [a.dealt[seat]] if seat in a.kept else []
    out += [a.dealt[to] for to, giver in a.passed.items() if giver == seat]
    if a.drawn and a.order[a.index] == seat:
        out.append(a.drawn)
    return out


def resample(state: State, seat: int, rng: Rng) -> State:
    s = state.copy()
    a = s.alloc
    if a is not None:
        mine = known_cards(s, seat)
        pool = without(C.cards_of_epoch[s.epoch], list(s.cards) + mine)
        dealer = Dealer(pool, rng)
        for to in list(a.dealt):
            if a.dealt[to] not in mine:
                a.dealt[to] = dealer.deal(1)[0]
        if a.drawn and a.drawn not in mine:
            a.drawn = dealer.deal(1)[0]
        s.deck = dealer.deal(len(s.deck))
    s.rng = fresh_rng(rng)
    return s


def scorings_left(state: State, seat: int) -> tuple[int, int]:
    """(this Epoch's Player Scoring still to come: 0 or 1, later Epochs' scorings)."""
    later = EPOCHS - state.epoch
    if state.phase == "over":
        return 0, 0
    if state.phase == "strategy":
        done = state.order[: state.turn]
        return (0 if seat in done else 1), later
    if state.phase == "allocate":
        return 1, later
    return 0, later  # End of Epoch events: everyone has scored this Epoch


def player_scorings(state: State) -> list[int]:
    """Each seat's Player Scoring now (7.2-7.3): `scoring.score_seat(state, seat).total` for every
    seat, in one pass over the occupied Areas, each Civilization's owner and traits asked once,
    instead of one pass over the map and one over the Regions per seat (`evaluate` runs at the end
    of every iteration of the search, and scoring seat by seat was a sixth of a decision).
    tests/engine/ai/test_resample.py checks that the two agree."""
    n = state.n
    vp = C.vp
    cities_at = state.cities
    areas = [0] * n
    total = [0] * n
    commerce: dict[tuple[int, str], int] = {}
    owners: dict[str, int | None] = {}
    held: dict[str, dict[int | None, int]] = {}  # scoring.region_holders
    facts: dict[str, tuple[int | None, bool, bool, bool, str | None]] = {}
    for area, civ in state.civ_at.items():
        known = facts.get(civ)
        if known is None:
            seat = owner(state, civ)
            scores = seat is not None and 0 <= seat < n  # the non-player civilization scores nothing (9.0)
            known = facts[civ] = (
                seat,
                scores,
                not has_trait(state, civ, "no-city-bonus"),
                has_trait(state, civ, "commerce"),
                BONUS_AREA.get(civ),
            )
        seat, scores, city_bonus, trades, bonus_area = known
        owners[area] = seat
        in_region = held.setdefault(REGION[area], {})
        in_region[seat] = in_region.get(seat, 0) + 1
        if not scores:
            continue
        assert seat is not None
        areas[seat] += 1
        cities = len(cities_at.get(area, ()))
        if cities and city_bonus:
            total[seat] += vp.per_city * cities
            if trades:
                commerce[seat, civ] = commerce.get((seat, civ), 0) + cities
        if bonus_area == area:
            total[seat] += vp.per_bonus_area
    for (seat, _), cities in commerce.items():
        total[seat] += vp.commerce_per_two_cities * (cities // 2)
    for area in state.wonders.values():
        seat = owners.get(area)
        if seat is not None and 0 <= seat < n:
            total[seat] += vp.per_wonder_controlled
    for seat in range(n):
        total[seat] += vp.per_two_areas * (areas[seat] // 2)
    for rid, holders in held.items():  # 7.3: only the highest status scores
        # scoring.status for every holder at once: Control is 2+ Areas and the only most
        region, size = C.regions[rid], len(C.region_areas[rid])
        most = max(holders.values())
        alone = sum(1 for k in holders.values() if k == most) == 1
        for seat, mine in holders.items():
            if seat is None or not 0 <= seat < n:
                continue
            if mine == size:
                total[seat] += region.domination
            elif mine >= 2 and mine == most and alone:
                total[seat] += region.control
            else:
                total[seat] += region.presence
    return total


def armies_to_come(state: State) -> list[float]:
    """The Armies each seat will still take into its Army Pools this Epoch (5.1): the pool of the
    round in progress, each Previous Epoch Civilization's growth and the current Epoch's card with
    its expected Civilization Bonus (5.2). In an Allocation a seat without a card yet is given the
    mean of the cards still to come. A seat's rounds come after its turn in the order, far beyond
    what a rollout reaches, so without this a seat still to play looks as poor as its board."""
    out = [0.0] * state.n
    if state.phase not in ("allocate", "strategy"):
        return out
    held: dict[str, int] = {}  # Civilization -> Areas
    on_map: dict[tuple[int | None, int], int] = {}  # (seat, Epoch) -> Armies, for the counter mix
    for area, civ in state.civ_at.items():
        held[civ] = held.get(civ, 0) + 1
        if civ in EPOCH:  # not raiders
            key = (owner(state, civ), EPOCH[civ])
            on_map[key] = on_map.get(key, 0) + state.count[area]

    def pool(seat: int, civ: str) -> float:
        epoch = EPOCH[civ]
        if epoch == state.epoch:
            return C.civs[civ].armies + BONUS_ARMIES
        return previous_pool(held.get(civ, 0), C.counter_mix - on_map.get((seat, epoch), 0))

    if state.phase == "allocate":
        a = state.allocation_now()
        left = state.deck + ([a.drawn] if a.drawn else [])
        unknown = sum(card_pool(c) for c in left) / len(left) if left else 0.0
        for seat in range(state.n):
            card = a.dealt.get(seat)
            out[seat] = sum(pool(seat, civ) for civ in queue_for(state, seat))
            out[seat] += card_pool(card) if card else unknown
        return out
    for i, seat in enumerate(state.order[state.turn :]):
        if not 0 <= seat < state.n:
            continue  # the non-player civilization scores nothing (9.0)
        if i == 0:
            rnd = state.rnd
            out[seat] = (rnd.pool if rnd is not None else 0) + sum(pool(seat, civ) for civ in state.queue)
        else:
            out[seat] = sum(pool(seat, civ) for civ in queue_for(state, seat))
    return out


def card_pool(card: str) -> float:
    """A current Epoch card's Army Pools: each of its Civilizations' Armies and expected bonus."""
    return sum(C.civs[civ].armies + BONUS_ARMIES for civ in C.civs_of_card[card])


def estimated_scores(state: State, army: float = ARMY) -> list[float]:
    """Each seat's final score as far as the board and the Armies to come tell: its VP plus what its
    Areas score now, once more this Epoch if still due and partly in each later Epoch (the armies
    stay, but new Civilizations arrive); the Armies it will still place this Epoch count as if on
    the map, at `army` points each."""
    projected = player_scorings(state)
    coming = armies_to_come(state) if army else [0.0] * state.n
    out = []
    for seat in range(state.n):
        now, later = scorings_left(state, seat)
        out.append(state.vp[seat] + (projected[seat] + army * coming[seat]) * (now + LATER * later))
    return out


def evaluate(state: State) -> list[float]:
    """Shares of the estimated final scores, the Armies to come included (the bot's evaluation)."""
    return shares(estimated_scores(state), SPREAD)


def evaluate_board(state: State) -> list[float]:
    """Issue 14's evaluate, the bench's baseline: the board alone, without the Armies to come."""
    return shares(estimated_scores(state, army=0.0), SPREAD)
