"""Words checked against deeds (issue 49): every choice of every decision of 200 seeded random games
(Rising Cultures is for 2), applied, and each number and name its words claim compared with what
it does: the coins a play, swap, income or Nile coin leaves (`(5 → 3)`), the resources a card adds,
the military band and a Province's count, the leader a new one covers or that its stack is chosen
next, the progress level reached.

The deed is the rules' own `perform` on a copy of the position without the flow that follows
(flow.advance would run Phase III, and its coin limit, into the coins after a round's last play).
"""

from __future__ import annotations

import re
from unittest import mock

import pytest

from engine.rising_cultures import GAME, flow, rules
from engine.rising_cultures.actions import perform
from engine.rising_cultures.data import DATA, RESOURCES
from engine.rising_cultures.rules import CARDS, PROVINCES
from engine.rising_cultures.state import State
from tests.engine.deeds import PARTS, Deed, deeds, mismatches, share_of

GAMES = 200
PLAYERS = (2,)
#: `(5 → 3)`: the coins before and after, as every coin count of the words reads.
COINS = re.compile(r"\((\d+) → (\d+)")


def _act(before: State, seat: int, action: str) -> State:
    """The action alone, on a copy: what it does before the flow moves on."""
    after = before.copy()
    with mock.patch.object(flow, "advance", lambda s, events: None):
        perform(after, seat, action)
    return after


def check(deed: Deed) -> list[str]:
    """The claims of one choice's words that its deed does not bear out (words that leave out what
    a claim needs, so they cannot be read, are one)."""
    try:
        return _check(deed)
    except (IndexError, ValueError, AttributeError, StopIteration) as err:
        return [f"the words leave out what they should say ({err!r})"]


def _check(deed: Deed) -> list[str]:
    before: State = deed.before
    seat, c = deed.seat, deed.choice
    words = c.action.split(" ")
    if words[0] == "province":
        return _check_province(deed)
    if words[0] not in (
        "play",
        "swap",
        "income",
        "nile",
        "resource",
        "top",
        "cover",
        "progress",
        "maghreb",
        "military",
    ):
        return []
    after = _act(before, seat, c.action)
    p0, p = before.players[seat], after.players[seat]
    out = []
    coins = COINS.findall(c.detail)
    if coins and words[0] != "military":
        said = int(coins[-1][1])
        if p.coins != said:
            out.append(f"leaves {p.coins} coins, the words say {said}")
    elif "no coin: the supply is empty" in c.detail and p.coins != p0.coins:
        out.append(f"coins {p0.coins} → {p.coins}, the words say none from the supply")
    elif words[0] in ("play", "resource") and not coins and p.coins > p0.coins:
        out.append(f"gains {p.coins - p0.coins} coins the words do not name")
    if words[0] == "play":
        out += _check_play(before, after, seat, words, c.detail)
    if words[0] == "cover":
        under = c.label.removeprefix("On top of ")
        stack = next(st for st in p.leaders if st[-1] == before.pending[-1].card)
        covered = CARDS[stack[-2]].name if len(stack) > 1 else ""
        if covered != ("" if c.label == "Free leader stack" else under):
            out.append(f"the leader covers {covered or 'nothing'}")
        active = any(CARDS[x].name == covered for x in rules.active_cards(p))
        if covered and active and c.detail.startswith("loses"):
            out.append(f"{covered}'s effects stay in play")
    if words[0] == "top":  # `... · Forum to the bottom`
        card = CARDS[p.deck[0]].name
        bottom = CARDS[p.deck[-1]].name
        if card != c.label or (
            c.detail.endswith(" to the bottom") and not c.detail.endswith(f"{bottom} to the bottom")
        ):
            out.append(f"{card} goes on top, {bottom} to the bottom")
    if words[0] in ("progress", "maghreb") and words[1] != "no":
        m = re.search(r"level (\d+)", c.detail)
        if m is None or len(p.progress) != int(m.group(1)):
            out.append(f"reaches level {len(p.progress)}")
    if c.action == "progress yes":  # `loses Market's 1 wood, 1 brick, 1 gold`
        lost = dict.fromkeys(RESOURCES, 0) | {
            r: int(k) for k, r in re.findall(r"(\d+) (\w+)", c.detail.split("loses ")[1])
        }
        strip = CARDS[p0.resources[-1]].strip
        if any(getattr(strip, r) != lost[r] for r in RESOURCES):
            out.append(f"the card leaves with {strip}, the words say {lost}")
    if words[0] in ("income", "swap"):
        out += _check_draw(p0.hand, p.hand, c.detail)
    if c.detail.endswith("…"):
        out.append("the words are cut")
    if words[0] == "military":
        kept = len(p.military) == len(p0.military)
        if kept != (words[1] == "keep"):
            out.append(f"the military card is {'kept' if kept else 'discarded'}")
    return out


def _check_province(deed: Deed) -> list[str]:
    """Phase III: where the Province goes once both have answered (`goes to bob`, `goes back to the
    box`; competing: the counts, who wins a tie), the coins it gives and what winning costs
    (`costs Market`, `keeps Market`, `costs no card`), read from the game once the flow resolved it
    (the deed played on: `after`)."""
    before, after, c, seat = deed.before, deed.after, deed.choice, deed.seat
    pid = before.row[0]
    other = 1 - seat
    if after.row[:1] == [pid]:  # the other player still decides
        return []
    winner = next((x for x in (0, 1) if pid in after.players[x].provinces), -1)
    name = after.players[other].name
    if c.action == "province decline":
        said = {f"goes to {name}": other, "goes back to the box": -1}.get(c.detail)
        return [] if said is None or said == winner else [f"the Province goes to seat {winner}"]
    m = re.match(r"you (\d+), \S+ (\d+)(?: \((.*?)\))?", c.detail)
    assert m is not None
    mine, theirs, notes = int(m.group(1)), int(m.group(2)), m.group(3) or ""
    if "competes" in notes:
        said = seat if mine > theirs or (mine == theirs and "tie: you" in notes) else other
    else:
        said = seat
    out = [] if said == winner else [f"the Province goes to seat {winner}, the words say seat {said}"]
    if winner == seat and not after.pending:
        p0, p = before.players[seat], after.players[seat]
        lost = [CARDS[x].name for x in p0.military if x not in p.military]
        cost = re.search(r"(costs|keeps) ([^·]+?)(?: ·|$)", c.detail)
        says_lost = [cost.group(2)] if cost and cost.group(1) == "costs" and cost.group(2) != "no card" else []
        if lost != says_lost:
            out.append(f"winning loses {lost or 'no card'}, the words say {says_lost or 'none'}")
    return out


def _check_draw(hand0: list[str], hand: list[str], detail: str) -> list[str]:
    """`draw 4 cards`, `draw 4 + 1, then 1 card to the bottom`, `draw the top 2 cards`, `draw Forum
    and an unknown card`: how many cards come into the hand."""
    said_draw = next(p for p in detail.split(" · ") if p.startswith("draw "))
    if m := re.fullmatch(r"draw (\d+)(?: \+ (\d+)|( cards?))(?:, then .*)?", said_draw):
        said = int(m.group(1)) + int(m.group(2) or 0)
    elif m := re.fullmatch(r"draw the top (\d+) cards", said_draw):
        said = int(m.group(1))
    else:  # `draw the top card`, or named cards
        said = said_draw.count(" and ") + 1
    drawn = len(hand) - len(hand0)
    return [] if drawn == said else [f"draws {drawn} cards, the words say {said}"]


def _check_play(before: State, after: State, seat: int, words: list[str], detail: str) -> list[str]:
    """A card played: the resources it adds, its military band and a Province's count, the leader
    it covers or that its stack is chosen next."""
    p0, p = before.players[seat], after.players[seat]
    cid = DATA.by_slug[p0.civ][words[1]]
    card, use, out = CARDS[cid], words[2], []
    if use == "coins":
        if p.discard[-1:] != [cid]:
            out.append("the card does not go to the discard pile")
    elif use == "resources":
        have0, have = rules.resources(before, seat), rules.resources(after, seat)
        said = detail.split(" · ")[-1].removeprefix("then ")
        got = ", ".join(f"{have[r]} {r}" for r in RESOURCES)
        if said != got:
            out.append(f"then {got}, the words say {said!r}")
        if any(have[r] - have0[r] < getattr(card.strip, r) for r in RESOURCES):
            out.append("adds less than the card's strip")
    elif use == "military":
        m = re.match(r"band (\d+)", detail)
        if m is None or len(p.military) != int(m.group(1)):
            out.append(f"goes to band {len(p.military)}")
        if before.row and (m := re.search(r": you \d+ → (\d+)", detail)):
            strength = rules.province_strength(after, seat, PROVINCES[before.row[0]].id)
            if strength != int(m.group(1)):
                out.append(f"{PROVINCES[before.row[0]].name}: you {strength}")
    elif card.kind == "leader":
        pending = bool(after.pending) and after.pending[-1].kind == "cover"
        if pending != ("then choose its stack" in detail):
            out.append("its stack is chosen next" if pending else "its stack is not chosen next")
        if not pending:
            stack = next(st for st in p.leaders if st[-1] == cid)
            covered = CARDS[stack[-2]].name if len(stack) > 1 else ""
            said = m.group(1) if (m := re.search(r"covers ([^·]+?)(?: ·|$)", detail)) else ""
            if covered != said:
                out.append(f"covers {covered or 'nothing'}, the words say {said or 'nothing'}")
    elif cid not in p.buildings:
        out.append("the building is not built")
    return out


@pytest.mark.parametrize("share", range(PARTS))
def test_issue_49_every_choice_does_what_its_words_say(share: int) -> None:
    checked, wrong, first = mismatches(deeds(GAME, share_of(range(GAMES), share), PLAYERS), check)
    assert checked > 0
    assert not wrong, f"{wrong} of {checked} choices say what they do not do; the first:\n" + "\n".join(first)
