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

from .board import BONUS_AREA, REGION, C, has_trait, owner
from .state import State

#: Points that make a lead count (in random play the winner leads by about 20).
SPREAD = 8.0
#: What the armies on the map now may score again in a later Epoch, per Epoch.
LATER = 0.5
EPOCHS = 6


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


def evaluate(state: State) -> list[float]:
    """Shares of VP plus what each seat's Areas score now, once more this Epoch if still due and
    partly in each later Epoch (the armies stay, but new Civilizations arrive)."""
    projected = player_scorings(state)
    estimates = []
    for seat in range(state.n):
        now, later = scorings_left(state, seat)
        estimates.append(state.vp[seat] + projected[seat] * (now + LATER * later))
    return shares(estimates, SPREAD)
