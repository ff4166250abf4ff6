"""Cradle of Civilization for the fill-in bot's rollouts (engine/ai): a random legal action, quickly.

`draw(state, seat, rand)` has the distribution of a uniform choice among
`legal_actions(state, seat)`. Most rollout steps are growth (5.4-5.6), whose
list holds one `place` action per number of Armies that fit each target Area
(`place uruk`, `place 2 uruk`, ...), one `attack` per hostile Area and the
Non-Combat Expansion attempts (rounds.grow_actions). Here the targets are
found by the rules' own `growth_targets`, the actions counted per target,
one index drawn among them all and only that action written out. Every other
step (combat rolls, displacement, allocation, events) lists few actions and
is drawn from `legal_actions` itself. tests/engine/ai/test_playout.py
compares the two on random positions.

`guided(state, seat, rand)` is a rollout move that knows a little of the game
(issue 24): a uniform choice among the listed actions puts most Armies back
into Areas already held, since each count in each own Area is an action of
its own, and attacks as readily where the dice favour the defender as where
they do not. The guided move first picks a target, an Area or an expansion
attempt, by weight (a neutral Area twice an own one, an attack by the chance
that one Army takes the Area, from the Terrain Chart), then a count.
"""

from __future__ import annotations

import random
from functools import cache

from .board import C, areas_of, counted, growth_targets
from .game import CradleGame
from .rounds import can_colonize, wonder_sites
from .state import DUMMY, Round, State

GAME = CradleGame()


def draw(state: State, seat: int, rand: random.Random) -> str:
    rnd = state.rnd
    if state.phase != "strategy" or rnd is None or rnd.step != "grow":
        legal = GAME.legal_actions(state, seat)
        return legal[rand.randrange(len(legal))]
    own = areas_of(state, rnd.civ)
    place, attack = growth_targets(state, rnd, own)
    if rnd.seat == DUMMY:  # 9.0: one Army at a time, no Non-Combat Expansion
        k = rand.randrange(len(place) + len(attack))
        return f"place {place[k]}" if k < len(place) else f"attack {attack[k - len(place)]}"
    pool, armies, stacking = rnd.pool, state.count, C.stacking  # rounds.placeable, for each Area at once
    sizes = [min(pool, stacking[a] - armies.get(a, 0)) for a in place]
    expansion = ["colonize"] if can_colonize(state, rnd, own) else []
    expansion += [f"wonder {a}" for a in wonder_sites(state, rnd, own)]
    if rnd.current and not rnd.tried_culture:
        expansion.append("culture")
    if not place and not attack and expansion:
        expansion.append("done")  # as in rounds.grow_actions (RULES-NOTES 5.4)
    k = rand.randrange(sum(sizes) + len(attack) + len(expansion))
    for area, size in zip(place, sizes, strict=True):
        if k < size:
            return counted("place", k + 1, area)
        k -= size
    if k < len(attack):
        return f"attack {attack[k]}"
    return expansion[k - len(attack)]


#: Guided rollouts (`guided`): a target's weight. Expansion into a neutral Area is what gains
#: Areas for Player Scoring (7.2), so it counts twice a reinforcement of an Area held.
OWN, NEUTRAL, EXPANSION = 1.0, 2.0, 1.0


@cache
def take_chance(terrain: str, modifiers: bool, guides: bool, defenders: int) -> float:
    """The chance that one attacking Army takes an Area held by `defenders` Armies (5.5, Terrain Chart).

    Each roll: the attacker keeps the higher of two dice, the defender rolls one (two
    on a Mountain with modifiers); the lower loses an Army, a tie costs the attacking
    Army (and on all but Rough the defending one too); in a Desert a 1-3 also costs the
    attacker its Army. The Army fights on while it stands (`combat.combat_roll`), so it
    must win one roll per defender.
    """
    mountain = terrain == "mountain" and modifiers
    desert = terrain == "desert" and not guides
    faces = range(1, 7)
    rolls = win = 0  # win: rolls the attacker wins and stands after
    for a in faces:
        for b in faces:
            att = max(a, b)
            for c in faces:
                for d in faces if mountain else (c,):
                    rolls += 1
                    dv = max(c, d)
                    if att > dv and not (desert and att <= 3):
                        win += 1
    return (win / rolls) ** defenders


def weighted_targets(state: State, rnd: Round) -> list[tuple[float, str, int]]:
    """A growth step's targets for `guided`: (weight, Area or action, Armies that fit; 0 for an attack
    or an expansion attempt), the same targets `rounds.grow_actions` lists actions for."""
    own = areas_of(state, rnd.civ)
    place, attack = growth_targets(state, rnd, own)
    pool, armies, stacking, areas = rnd.pool, state.count, C.stacking, C.areas
    held, modifiers = state.civ_at, not rnd.military
    targets = [
        (OWN if held.get(a) == rnd.civ else NEUTRAL, a, min(pool, stacking[a] - armies.get(a, 0))) for a in place
    ]
    for a in attack:
        targets.append((NEUTRAL * take_chance(areas[a].terrain, modifiers, rnd.guides, armies[a]), f"attack {a}", 0))
    expansion = ["colonize"] if can_colonize(state, rnd, own) else []
    expansion += [f"wonder {a}" for a in wonder_sites(state, rnd, own)]
    if rnd.current and not rnd.tried_culture:
        expansion.append("culture")
    if not place and not attack and expansion:
        expansion.append("done")
    return targets + [(EXPANSION, e, 0) for e in expansion]


def guided(state: State, seat: int, rand: random.Random) -> str:
    """A rollout move weighted by what it may gain (the module's docstring): a target by
    `weighted_targets`, then for a placement a count of Armies, each as likely."""
    rnd = state.rnd
    if state.phase != "strategy" or rnd is None or rnd.step != "grow" or rnd.seat == DUMMY:
        return draw(state, seat, rand)
    targets = weighted_targets(state, rnd)
    _, target, fits = rand.choices(targets, weights=[w for w, _, _ in targets])[0]
    return counted("place", rand.randint(1, fits), target) if fits else target
