"""Words checked against deeds (issue 49): every choice of every decision of 200 seeded random games
(2-5 players), applied, and each number and name its words claim compared with what it does.

The deed of a choice is the rules' own `resolve` on a copy of the position, without the flow that
follows (`advance` would run the Food, Income and VP phases into the goods after a turn's last
action); a B-turn action's payment is completed first (its first pick, each time), and what the
payment took is added back, so the action's own cost shows. Claims about the Food phase ("keep your
cities") are checked by running the Food phase after the choice.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from engine.core import Decision
from engine.rise_of_empires import GAME
from engine.rise_of_empires.actions import disc_upkeep, legal, resolve
from engine.rise_of_empires.display import holdings
from engine.rise_of_empires.payment import GOODS, read_pay
from engine.rise_of_empires.phases import food_phase
from engine.rise_of_empires.scoring import income_of
from engine.rise_of_empires.state import State
from tests.engine.deeds import PARTS, Deed, deeds, mismatches, share_of

from .helpers import COMP

GAMES = 200
PLAYERS = (2, 3, 4, 5)
#: A good as the words write it -> its index in payment.GOODS.
GOOD = {"gold": 0, "cube": 1, "cubes": 1, "resource disc": 2, "resource discs": 2, "food": 3, "VP": 4}
#: `food 20 → 20, 3 beyond the top: +1 gold`, `food 1 → 0, 2 short: -1 VP (never below 0 VP)`.
FOOD_WORDS = re.compile(
    r"food (\d+) → (\d+)"
    r"(?:, (\d+) short: -(\d+) VP(?: \(never below 0 VP\))?|, (\d+) beyond the top: \+(\d+) gold)?"
)
AMOUNT = re.compile(r"(\d+) (gold|cubes?|resource discs?|food|VP)\b")


def _amounts(text: str) -> list[int]:
    """`2 gold, 1 food` -> the split over GOODS."""
    split = [0] * len(GOODS)
    for k, good in AMOUNT.findall(text):
        split[GOOD[good]] += int(k)
    return split


def _act(before: State, d: Decision, action: str) -> tuple[State, list[int]]:
    """The action alone on a copy (no flow after it), its payment completed: (state, goods paid)."""
    state, paid, _ = _act_paying(before, d, action)
    return state, paid


def _act_paying(before: State, d: Decision, action: str) -> tuple[State, list[int], int]:
    """`_act`, and the cost the payment it asked was (0: none)."""
    state = before.clone()
    paid = [0] * len(GOODS)
    resolve(COMP, state, state.stack.top or d, action)
    top = state.stack.top
    asked = top.data["cost"] if top is not None and top.kind == "pay" and top.seat == d.seat else 0
    while (top := state.stack.top) is not None and top.kind == "pay" and top.seat == d.seat:
        pick = legal(COMP, state, top)[0]
        paid = [a + b for a, b in zip(paid, read_pay(pick)[0], strict=True)]
        resolve(COMP, state, top, pick)
    return state, paid, asked


def _own_effect(before: State, seat: int, after: State, paid: list[int]) -> list[int]:
    """What the action itself changed of each good, the disc's payment put back."""
    return [a - b + k for a, b, k in zip(holdings(after, seat), holdings(before, seat), paid, strict=True)]


def check(deed: Deed) -> list[str]:
    """The claims of one choice's words that its deed does not bear out (words that leave out
    what a claim needs, so they cannot be read, are one)."""
    try:
        return _check(deed)
    except (IndexError, ValueError, AttributeError) as err:
        return [f"the words leave out what they should say ({err!r})"]


def _check(deed: Deed) -> list[str]:
    if deed.choice.detail.endswith("…"):
        return ["the words are cut"]
    before: State = deed.before
    d = before.stack.top
    assert d is not None
    c, seat = deed.choice, deed.seat
    parts = c.detail.split(" · ")
    action = c.action
    if action.startswith("use "):
        return _check_free_action(before, d, c.action, c.detail)
    if d.kind in ("action", "b-row", "empire-tile") and not action.startswith(("pass", "remove", "done")):
        return _check_row(before, d, action, c.label, parts)
    if action.startswith("remove ") and d.kind == "action":
        return _check_disc_cost(_act_paying(before, d, action)[2], parts[0])
    if d.kind == "pay":
        return _check_pay(before, d, action, c.label, parts)
    if d.kind in ("place", "battle") and action != "done":
        return _check_cubes(before, d, action, c.label, parts)
    if d.kind == "weapon":
        after, _ = _act(before, d, action)
        region, colour = action.split(" ")[1:3]
        who = next(i for i, q in enumerate(before.players) if q.colour == colour)
        said = int(c.detail.split(" → ")[1])
        return [] if after.cubes[region][who] == said else [f"{colour} has {after.cubes[region][who]} there"]
    if d.kind == "food-upkeep":  # keep cities, or discard one and keep the rest
        out = _check_food(before, d, action, next(p for p in parts if p.startswith("food ")))
        after, _ = _act(before, d, action)
        city = action.split(" ")[-1]
        return out + ([f"{city} still held"] if action != "keep cities" and city in after.players[seat].cities else [])
    if d.kind == "resource-upkeep" and action == "pay upkeep":
        after, _ = _act(before, d, action)
        said = int(c.detail.split(" → ")[1])
        return [] if after.players[seat].resources == said else [f"{after.players[seat].resources} discs left"]
    if d.kind == "resource-upkeep":  # discard <city>
        after, _ = _act(before, d, action)
        city = action.split(" ")[1]
        return [f"{city} still held"] if city in after.players[seat].cities else []
    if d.kind == "era-end" and action != "done":
        after, _ = _act(before, d, action)
        effect = _own_effect(before, seat, after, [0] * len(GOODS))
        want = [-1, 0, 0, 0, 0] if action.startswith("keep progress") else [0, -1, 0, 0, 0]
        return [] if effect == want else [f"keeping changed the goods by {effect}"]
    if d.kind == "order":
        after, _ = _act(before, d, action)
        k = int(action.split(" ")[2])
        return [] if after.new_order[k - 1] == seat else [f"position {k} holds seat {after.new_order[k - 1]}"]
    return []


def _check_disc_cost(asked: int, said: str) -> list[str]:
    """`your disc there costs 2` / `costs 2` / `free`: the payment the removal asked."""
    k = int(m.group(1)) if (m := re.search(r"costs (\d+)", said)) else 0
    return [] if asked == k else [f"the disc costs {asked}, the words say {k}"]


def _check_row(before: State, d: Decision, action: str, label: str, parts: list[str]) -> list[str]:
    """A row action: the disc's cost (B turn), the tile's own cost, a trade, a withdrawal, a wonder's VP."""
    seat = d.seat
    out = []
    after, paid, asked = _act_paying(before, d, action)
    if d.kind == "action" and before.half == "B":
        out += _check_disc_cost(asked, parts[0])
        parts = parts[1:]
    effect = _own_effect(before, seat, after, paid)
    words = action.split(" ")
    want = [0] * len(GOODS)
    if words[0] == "trade":  # `Trade 2 discs → 4 gold`
        give, get = label.removeprefix("Trade ").split(" → ")
        want = _amounts(get)
        want[2] -= int(give.split(" ")[0])
    elif words[0] == "withdraw":
        want[1] = int(parts[0].split(" ")[0])
    elif words[1] == "progress":
        surcharge = next((p for p in parts if p.endswith("gold (earlier era)")), "0 gold")
        want[0] = -_amounts(surcharge)[0]
    elif words[1] == "city":
        cost = [-k for k in _amounts(parts[0])]
        want = cost
        if label.endswith("(wonder)"):
            want[4] = int(parts[1].split(" ")[0])
    elif words[1] == "empire":
        top = after.stack.top
        regions = int(parts[0].split(" ")[0])
        if top is not None and top.kind == "place" and top.data["limit"] != regions:
            out.append(f"{top.data['limit']} regions, the words say {regions}")
    if effect != want:
        out.append(f"the action changed gold, cubes, discs, food, VP by {effect}, the words say {want}")
    taken = _taken(before.players[seat], after.players[seat], before.era)
    if words[0] == "take" and not label.endswith("(wonder)") and taken != [label.removeprefix("Empire tile ")]:
        out.append(f"the action takes {taken}")
    return out


def _taken(before: Any, after: Any, era: int) -> list[str]:
    """The names of the tiles a player gained: progress, territories, cities, empire tiles."""
    names = []
    for field, table in (("progress", COMP.progress), ("territories", COMP.territories), ("cities", COMP.cities)):
        gained = list(getattr(after, field))
        for t in getattr(before, field):
            gained.remove(t)
        names += [table[t].name for t in gained]
    return names + [COMP.empire(t, era).name for t in after.empires if t not in before.empires]


def _check_pay(before: State, d: Decision, action: str, label: str, parts: list[str]) -> list[str]:
    """A payment: what it takes, what it leaves, and for a part what the next pick may take."""
    split, whole = read_pay(action)
    out = []
    said = _amounts(label.split(" now")[0])
    if said != list(split):
        out.append(f"pays {split}, the words say {said}")
    left = [h - k for h, k in zip(holdings(before, d.seat), split, strict=True)]
    said_left = _amounts(parts[0].removeprefix("leaves "))
    if any(said_left[g] != left[g] for g in range(len(GOODS)) if split[g]):
        out.append(f"leaves {left}, the words say {said_left}")
    out += _check_forecasts(before, d, action, parts)
    rest = next((p for p in parts if p.endswith(" next")), "")
    if not whole and rest:
        after = before.clone()
        resolve(COMP, after, after.stack.top or d, action)
        top = after.stack.top
        assert top is not None and top.kind == "pay"
        k = int(rest.split(" ")[0])
        used = {GOODS[g] for pick in legal(COMP, after, top) for g, n in enumerate(read_pay(pick)[0]) if n}
        named = rest.split(" from ")[1].removesuffix(" next").replace(" or ", ", ").split(", ")
        named_goods = {{"cubes": "cube", "resource discs": "resource", "VP": "vp"}.get(n, n) for n in named}
        if top.data["cost"] != k:
            out.append(f"{top.data['cost']} more to pay, the words say {k}")
        if used != named_goods:
            out.append(f"the rest can come from {sorted(used)}, the words say {sorted(named_goods)}")
    return out


def _check_forecasts(before: State, d: Decision, action: str, parts: list[str]) -> list[str]:
    """What a payment keeps or gives up: `keeps 4 gold for Rome`, `Food phase 5 short (1 VP each)`,
    `keeps 3 food for the Food phase` (the Food phase run after the payment and its action)."""
    after, _ = _act(before, d, action)
    p = after.players[d.seat]
    out = []
    for part in parts:
        if m := re.fullmatch(r"keeps (\d+) gold for (.+)", part):
            then = d.data["then"]
            chosen = then.startswith("take city") and COMP.cities[then.split(" ")[2]].name == m.group(2)
            # the city chosen with the disc takes the gold kept for it; any other city needs it left over
            gold = before.players[d.seat].gold - read_pay(action)[0][0] if chosen else p.gold
            if gold < int(m.group(1)):
                out.append(f"{gold} gold left, the words say {part!r}")
        if m := re.fullmatch(r"keeps (\d+) resource discs? for upkeep|upkeep (\d+) resource discs? short", part):
            need = disc_upkeep(COMP, after, d.seat)
            coming = p.resources + income_of(COMP, after, d.seat)["resources"]
            short = max(0, need - coming)
            if short != int(m.group(2) or 0) or (m.group(1) and need != int(m.group(1))):
                out.append(f"upkeep {need}, {coming} discs coming, the words say {part!r}")
        m = re.fullmatch(r"Food phase (\d+) short \(1 VP each\)", part)
        if m or re.fullmatch(r"keeps \d+ food for the Food phase|food the Food phase can spare", part):
            fed = after.clone()
            vp = fed.players[d.seat].vp
            food_phase(COMP, fed)
            lost = vp - fed.players[d.seat].vp
            want = min(vp, int(m.group(1))) if m else 0
            if lost != want:
                out.append(f"the Food phase then costs {lost} VP, the words say {part!r}")
    return out


def _check_cubes(before: State, d: Decision, action: str, label: str, parts: list[str]) -> list[str]:
    """Placing (`SW Europe ×2`, `you 1 → 3`) and battles (`red loses 1, you 1`)."""
    after, _ = _act(before, d, action)
    seat, words = d.seat, action.split(" ")
    region = words[1] if words[0] == "battle" else words[2]
    mine = after.cubes[region][seat]
    out = []
    you = next(p for p in parts if "you " in p and " → " in p)
    said = int(re.search(r"you \d+ → (\d+)", you).group(1))  # type: ignore[union-attr]
    if mine != said:
        out.append(f"you have {mine} there, the words say {said}")
    if words[0] == "battle":
        who = next(i for i, q in enumerate(before.players) if q.colour == words[2])
        m = re.search(r"(\w+) loses (\d+), you (\d+)", parts[0] if "loses" in parts[0] else parts[1])
        assert m is not None
        lost = before.cubes[region][who] - after.cubes[region][who]
        own = before.cubes[region][seat] - mine
        if (lost, own) != (int(m.group(2)), int(m.group(3))):
            out.append(f"{words[2]} loses {lost}, you {own}; the words say {m.group(2)}, {m.group(3)}")
    else:
        if before.cubes[region][seat] + int(label.split("×")[1]) != mine:
            out.append(f"placed {mine - before.cubes[region][seat]}, the label says {label}")
        note = next((p for p in parts if p.startswith("region ")), "")  # `region 2 of 3`: a new one
        top = after.stack.top
        if top is not None and top.kind == "place":
            used, limit = top.data["used"], top.data["limit"]
            if note and note != f"region {len(used)} of {limit}":
                out.append(f"region {len(used)} of {limit}, the words say {note!r}")
            if not note and len(used) != len(d.data["used"]):
                out.append("a region of the tile's count is used, the words say none")
    return out


def _check_food(before: State, d: Decision, action: str, said: str) -> list[str]:
    """`food 20 → 20, 3 beyond the top: +1 gold` / `food 2 → 0, 3 short: -3 VP`: the Food phase."""
    after, _ = _act(before, d, action)
    p0 = after.players[d.seat]
    gold, vp = p0.gold, p0.vp
    food_phase(COMP, after)
    p = after.players[d.seat]
    m = FOOD_WORDS.fullmatch(said)
    if m is None:
        return [f"unreadable food words {said!r}"]
    want_vp = -int(m.group(4) or 0)
    want_gold = int(m.group(6) or 0)
    got = (p.food, p.gold - gold, p.vp - vp)
    if got != (int(m.group(2)), want_gold, want_vp):
        return [f"the Food phase leaves food, +gold, +VP {got}, the words say {(int(m.group(2)), want_gold, want_vp)}"]
    return []


def _check_free_action(before: State, d: Decision, action: str, detail: str) -> list[str]:
    """An exchange tile: `1 gold → 1 resource disc`."""
    if " → " not in detail:
        return []
    after, _ = _act(before, d, action)
    pay, gain = detail.split(" → ")
    want = [g - p for p, g in zip(_amounts(pay), _amounts(gain), strict=True)]
    effect = _own_effect(before, d.seat, after, [0] * len(GOODS))
    return [] if effect == want else [f"the exchange changed the goods by {effect}, the words say {want}"]


@pytest.mark.parametrize("share", range(PARTS))
def test_issue_49_every_choice_does_what_its_words_say(share: int) -> None:
    checked, wrong, first = mismatches(deeds(GAME, share_of(range(GAMES), share), PLAYERS), check)
    assert checked > 0
    assert not wrong, f"{wrong} of {checked} choices say what they do not do; the first:\n" + "\n".join(first)
