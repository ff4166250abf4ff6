"""Issue 22, point 3: every step that merges several rulebook steps into one choice reaches
exactly the positions the rulebook's separate steps reach (RULES-NOTES "What plays itself").

Each test writes the rulebook's steps out here, from the rulebook's words and the printed
data (cards, boards, the view's public figures), on a small model of one player's table, and
compares the set of tables they reach with the set the engine's merged choice reaches, on
positions of random games (random civilizations, both game modes).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace

import pytest

from engine.rising_cultures.data import DATA, RESOURCES
from engine.rising_cultures.rules import effects
from engine.rising_cultures.state import State

from .helpers import GAME, act, at_play, ids, lay_out

CARDS, BOARDS = DATA.cards, DATA.boards


@dataclass(frozen=True)
class Table:
    """What one step can change on one player's side of the table (and the coin supply)."""

    hand: frozenset[str]
    deck: tuple[str, ...]
    coins: int
    supply: int
    discard: tuple[str, ...] = ()
    military: tuple[str, ...] = ()
    resources: tuple[str, ...] = ()
    buildings: frozenset[str] = frozenset()
    leaders: tuple[tuple[str, ...], ...] = ()

    @classmethod
    def of(cls, s: State, seat: int) -> Table:
        p = s.players[seat]
        return cls(
            frozenset(p.hand),
            tuple(p.deck),
            p.coins,
            s.supply,
            tuple(p.discard),
            tuple(p.military),
            tuple(p.resources),
            frozenset(p.buildings),
            tuple(tuple(stack) for stack in p.leaders),
        )

    def take(self, n: int) -> Table:
        """Take up to `n` coins from the general supply (RULES-NOTES "28 coins")."""
        n = min(n, self.supply)
        return replace(self, coins=self.coins + n, supply=self.supply - n)

    def pay(self, n: int) -> Table:
        return replace(self, coins=self.coins - n, supply=self.supply + n)

    def draw(self, n: int) -> Table:
        return replace(self, hand=self.hand | set(self.deck[:n]), deck=self.deck[n:])

    def to_bottom(self, card: str) -> Table:
        return replace(self, hand=self.hand - {card}, deck=(*self.deck, card))


def positions(keep: Callable[[State, int], bool], wanted: int, seed: int) -> Iterator[tuple[State, int]]:
    """`wanted` positions of random games (civilizations drawn at random, every other game a
    two-game match) where `keep(state, seat)` holds for a seat that is to act."""
    rng = random.Random(seed)
    found = 0
    for game in range(1000):
        s = GAME.setup(["ann", "bob"], seed * 1000 + game, {"match": game % 2 == 1})
        while not GAME.is_over(s) and found < wanted:
            for seat in GAME.to_act(s):
                if keep(s, seat) and rng.random() < 0.5:
                    found += 1
                    yield s, seat
            seat = rng.choice(GAME.to_act(s))
            s = GAME.apply(s, seat, rng.choice(GAME.legal_actions(s, seat))).state
        if found >= wanted:
            return


# ---- Phase II: play a card, then immediately decide its use ------------------------------


def rulebook_uses(s: State, seat: int, card: str, t: Table) -> Iterator[Table]:
    """Use a card for one of the four options (Phase II, 1) to 4)), from the rulebook's words."""
    p = s.players[seat]
    c = CARDS[card]
    # 1) "Discard 1 card to immediately take 2 coins from the supply."
    yield replace(t.take(2), discard=(*t.discard, card))
    # 2) "... lines up with the highest free red band on your civilization board."
    if len(t.military) < len(BOARDS[p.civ].military_bands):
        yield replace(t, military=(*t.military, card))
    # 3) "When you play a card showing a coin icon, gain that coin once immediately."
    yield replace(t, resources=(*t.resources, card)).take(c.strip.coin)
    # 4) "If you're short, pay 2 coins to the general supply per missing resource" - each
    # discount in use: "Once per construction, pay 1 coin (instead of 2) for one missing resource."
    have = GAME.view(s, seat)["players"][seat]["resources"]
    short = sum(max(0, getattr(c.cost, r) - have[r]) for r in RESOURCES)
    discounts = sum(1 for e in effects(s, seat) if e.type == "shortfall_discount")
    price = 2 * short - min(short, discounts)
    if price > t.coins:
        return
    built = t.pay(price)
    built = built.take(sum(e.amount for e in c.effects if e.type == "on_build_coins"))  # "When constructed"
    if c.kind == "building":
        yield replace(built, buildings=built.buildings | {card})
        return
    # "You may have one leader in play at a time; when you play a new leader, place it on top
    # of (cover) the previous one" - Persia's board has 2 leader stacks (RULES-NOTES "Leaders").
    stacks = built.leaders
    if len(stacks) < BOARDS[p.civ].leader_slots:
        yield replace(built, leaders=(*stacks, (card,)))
    for i in range(len(stacks)):
        yield replace(built, leaders=stacks[:i] + ((*stacks[i], card),) + stacks[i + 1 :])


def rulebook_play_steps(s: State, seat: int) -> set[Table]:
    """ "Players alternate playing 1 card. Immediately decide how to use each card after you
    play it." Step 1 plays a card of the hand; step 2 decides its use."""
    out: set[Table] = set()
    t = Table.of(s, seat)
    for card in t.hand:
        played = replace(t, hand=t.hand - {card})
        out.update(rulebook_uses(s, seat, card, played))
    return out


def engine_plays(s: State, seat: int) -> set[Table]:
    """Every `play <card> <use>`, and after a leader the engine's `cover` choice where it asks."""
    out: set[Table] = set()
    todo = [GAME.apply(s, seat, a).state for a in GAME.legal_actions(s, seat) if a.startswith("play ")]
    while todo:
        after = todo.pop()
        if after.pending and after.pending[-1].kind == "cover":
            todo.extend(GAME.apply(after, seat, a).state for a in GAME.legal_actions(after, seat))
        else:
            out.add(Table.of(after, seat))
    return out


def last_play_of_the_round(s: State, seat: int) -> bool:
    """A play after which Phase III begins (the 4th card leaves the hand, a province is won)."""
    return s.players[seat].played == 2 and s.players[1 - seat].played == 3


@pytest.mark.parametrize("seed", range(3))
def test_phase_2_play_a_card_and_decide_its_use_reach_what_the_two_steps_reach(seed):
    checked = 0
    for s, seat in positions(
        lambda s, seat: s.phase == "play" and not s.pending and not last_play_of_the_round(s, seat), 40, seed
    ):
        assert engine_plays(s, seat) == rulebook_play_steps(s, seat)
        checked += 1
    assert checked == 40


def test_use_4_persia_with_a_free_leader_stack_may_still_cover_a_leader():
    """RULES-NOTES "Leaders": the placement is a choice whenever there is more than one place
    for the new leader; both places are reached, as the rulebook's steps reach them."""
    s = at_play(("persia", "rome"), coins=(9, 0))  # Darius I: 4 resources short, 8 coins
    lay_out(s, 0, hand=["darius-i", "xerxes-i", "atossa", "qanat"], leaders=[["cambyses-ii"]])
    reached = {t.leaders for t in engine_plays(s, 0)}
    darius, cambyses = ids(s, 0, "darius-i", "cambyses-ii")
    assert ((cambyses,), (darius,)) in reached and ((cambyses, darius),) in reached
    assert engine_plays(s, 0) == rulebook_play_steps(s, 0)


def test_use_4_one_leader_stack_the_new_leader_covers_the_old_by_itself():
    """Every board but Persia's: "place it on top of (cover) the previous one" is the one
    place, so nothing is asked."""
    s = at_play(("rome", "persia"), coins=(10, 0))
    lay_out(s, 0, hand=["trajan", "forum", "villa", "castra"], leaders=[["julius-caesar"]])
    s, ev = act(s, 0, "play trajan build")
    assert s.players[0].leaders == [ids(s, 0, "julius-caesar", "trajan")]
    assert "covers Julius Caesar with Trajan" in " ".join(ev)
    assert not s.pending or s.pending[-1].kind != "cover"


# ---- Phase I income and the Phase II draw -----------------------------------------------------


@pytest.mark.parametrize("seed", range(2))
def test_phase_1_income_and_phase_2_draw_reach_what_the_two_steps_reach(seed):
    """`income` is one action for "take a number of coins ... equal to their income" (Phase I)
    and "draw the top 4 cards of their player deck" (Phase II), plus a card's extra draw."""
    for s, seat in positions(lambda s, seat: s.players[seat].step == "income", 30, seed):
        assert GAME.legal_actions(s, seat) == ["income"]
        t = Table.of(s, seat)
        income = GAME.view(s, seat)["players"][seat]["income"]
        extra = sum(e.amount for e in effects(s, seat) if e.type == "extra_draw")
        rulebook = t.take(income).draw(4).draw(extra)
        assert {Table.of(GAME.apply(s, seat, "income").state, seat)} == {rulebook}


# ---- Setup: the 2 opening cards left, one on top and one at the bottom ----------------------------


@pytest.mark.parametrize("seed", range(2))
def test_setup_top_card_reaches_what_top_then_bottom_reach(seed):
    """`top <card>`: "Return the remaining 2 cards to your deck face down, placing 1 of your
    choice at the top and 1 at the bottom" - the bottom card is the one left."""

    def two_left(s: State, seat: int) -> bool:
        return s.players[seat].step == "opening" and len(s.players[seat].resources) == 2

    for s, seat in positions(two_left, 20, seed):
        t = Table.of(s, seat)
        rulebook = set()
        for top in t.hand:  # step 1: the card of your choice on top
            on_top = replace(t, hand=t.hand - {top}, deck=(top, *t.deck))
            for bottom in on_top.hand:  # step 2: the other one at the bottom
                rulebook.add(on_top.to_bottom(bottom))
        reached = {Table.of(GAME.apply(s, seat, a).state, seat) for a in GAME.legal_actions(s, seat)}
        assert reached == rulebook and len(reached) == 2


# ---- Phase II swaps: the paid swap's size chosen once -----------------------------------------------


@dataclass(frozen=True)
class Swapping:
    """A player in the swap step: their table, cards swapped for coins so far, free swaps left,
    cards still to place at the bottom."""

    table: Table
    paid: int
    free: int
    to_place: int = 0


def rulebook_swaps(start: Swapping, paid_one_at_a_time: bool) -> set[Table]:
    """ "Swap up to 2 cards for 1 coin each: ... return 1 or 2 coins to the general supply and
    draw a new card for each coin you return. For each new card you draw, place one card from
    your hand at the bottom of your deck. This may also be the newly-drawn card." A free swap
    (Mauretania, cards, board levels) swaps 1 card. `paid_one_at_a_time` reads the paid swap as
    up to two separate acts of 1 coin, each seen before the next is paid for."""
    seen, done, todo = {start}, set(), [start]
    while todo:
        x = todo.pop()
        t = x.table
        nxt: list[Swapping] = []
        if x.to_place:
            nxt = [replace(x, table=t.to_bottom(card), to_place=x.to_place - 1) for card in t.hand]
        else:
            done.add(t)  # keep the hand
            sizes = (1,) if paid_one_at_a_time else (1, 2)
            for n in sizes:
                may = x.paid + n <= 2 if paid_one_at_a_time else x.paid == 0
                if may and t.coins >= n and len(t.deck) >= n:
                    nxt.append(Swapping(t.pay(n).draw(n), x.paid + n, x.free, n))
            if x.free and t.deck:
                nxt.append(Swapping(t.draw(1), x.paid, x.free - 1, 1))
        for y in nxt:
            if y not in seen:
                seen.add(y)
                todo.append(y)
    return done


def engine_swaps(s: State, seat: int) -> set[Table]:
    """Every sequence of the engine's swap step (`swap 1|2|free`, `bottom <card>`, `done`)."""
    seen, done, todo = set(), set(), [s]
    while todo:
        x = todo.pop()
        if x.players[seat].step not in ("swap", "bottom"):
            done.add(Table.of(x, seat))
            continue
        for a in GAME.legal_actions(x, seat):
            y = GAME.apply(x, seat, a).state
            p = y.players[seat]
            key = (Table.of(y, seat), p.paid_swaps, p.free_swaps, p.to_bottom, p.step)
            if key not in seen:
                seen.add(key)
                todo.append(y)
    return done


@pytest.mark.parametrize("seed", range(2))
def test_phase_2_swap_1_or_2_reaches_every_position_of_the_separate_steps(seed):
    """The paid swap is one rulebook act, its size chosen before drawing (RULES-NOTES "Swaps"):
    the engine reaches exactly what the text's steps reach, and from the start of the step
    every position of the card-by-card reading too (what that reading adds is seeing a card
    before paying for the next, not a position)."""
    starts = 0
    for s, seat in positions(lambda s, seat: s.players[seat].step == "swap", 40, seed):
        swaps = GAME.view(s, seat)["players"][seat]["swaps"]
        start = Swapping(Table.of(s, seat), swaps["paid"], swaps["free"] - swaps["free_used"])
        reached = engine_swaps(s, seat)
        assert reached == rulebook_swaps(start, paid_one_at_a_time=False)
        if swaps["paid"] == swaps["free_used"] == 0:
            assert rulebook_swaps(start, paid_one_at_a_time=True) <= reached
            starts += 1
    assert starts >= 10
