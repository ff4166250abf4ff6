"""End of the Game: victory points from the display, the board, provinces and the marker.

1. Buildings and leaders: printed VP plus their "game end" effects. Covered leaders
   score nothing, except for a civilization whose reached progress level unlocks
   `covered_leaders_score` (Persia and Rome, "the relevant progress level").
2. Civilization board: Golden Age 3 VP, level 6 2 VP, level 7 1 VP (cumulative),
   plus Egypt's Nile (1 VP per opponent coin on it; RULES-NOTES).
3. Provinces: printed VP plus their game-end rules.
4. The progress marker: 3 VP.
"""

from __future__ import annotations

from . import rules
from .data import Card
from .rules import BOARDS, CARDS, PROVINCES
from .state import MARKER_VP, State


def counter(s: State, seat: int, name: str) -> int:
    p = s.players[seat]
    if name == "province":
        return len(p.provinces)
    if name.startswith("province_icon:"):
        icon = name.split(":", 1)[1]
        return sum(1 for pid in p.provinces if PROVINCES[pid].icon == icon)
    if name == "progress_card":
        return len(p.progress)
    if name == "horse_symbol":
        return rules.military_area(p)["horse"]
    if name == "leader_in_display":
        return sum(len(stack) for stack in p.leaders)
    if name == "building_cost_stone":
        return sum(CARDS[c].cost.stone for c in p.buildings)
    if name == "coin":
        return p.coins
    raise ValueError(f"unknown counter {name!r}")


def card_vp(s: State, seat: int, card: Card) -> int:
    vp = card.vp
    for e in card.effects:
        if e.type == "vp_per":
            extra = counter(s, seat, e.counter) // e.per * e.vp
            vp += min(extra, e.max) if e.max else extra
    return vp


def scoring_cards(s: State, seat: int) -> list[str]:
    """Display cards that score: buildings, uncovered leaders, covered ones when allowed."""
    p = s.players[seat]
    if rules.covered_leaders_score(p):
        return p.buildings + [c for stack in p.leaders for c in stack]
    return rules.active_cards(p)


def province_vp(s: State, seat: int, pid: int) -> int:
    p = s.players[seat]
    prov = PROVINCES[pid]
    vp = prov.vp
    rule = prov.end_rule
    if rule == "pairs":
        vp += min(len(p.progress), len(p.military)) * (prov.end_amount or 1)
    elif rule == "golden_age":
        vp += prov.end_amount if rules.golden_age(p) else 0
    elif rule == "coins":
        vp += (p.coins + rules.nile_coins_of(s, seat)) * (prov.end_amount or 1)
    elif rule == "marker":
        vp += prov.end_amount if s.marker == seat else 0
    return vp


def board_vp(s: State, seat: int) -> int:
    p = s.players[seat]
    board = BOARDS[p.civ]
    vp = board.golden_age_vp if rules.golden_age(p) else 0
    for lv in board.levels[: len(p.progress)]:
        vp += sum(e.amount for e in lv if e.type == "vp")
    if board.nile and s.nile_coins:
        vp += sum(owners.count(1 - seat) for owners in s.nile_coins)
    return vp


def breakdown(s: State, seat: int) -> dict[str, int]:
    """The score pad's four lines and their total for this game."""
    out = {
        "buildings_leaders": sum(card_vp(s, seat, CARDS[c]) for c in scoring_cards(s, seat)),
        "board": board_vp(s, seat),
        "provinces": sum(province_vp(s, seat, pid) for pid in s.players[seat].provinces),
        "marker": MARKER_VP if s.marker == seat else 0,
    }
    out["total"] = sum(out.values())
    return out


#: The score pad's lines in the rulebook's words (Game End: "Persia scoring example").
PAD_LINES = {
    "buildings_leaders": "Buildings and leaders",
    "board": "Civilization board",
    "provinces": "Provinces",
    "marker": "Progress marker",
}


def score_pad(s: State) -> list[list[tuple[str, int]]]:
    """Each seat's score as the score pad writes it (Game End), and the first game of a
    two-game match as a line of its own: the parts add up to `match_totals`."""
    pads = []
    for seat in range(len(s.players)):
        lines = breakdown(s, seat)
        pad = [(label, lines[key]) for key, label in PAD_LINES.items()]
        if s.first_scores:
            pad.append(("First game of the match", s.first_scores[seat]))
        pads.append(pad)
    return pads


def totals(s: State) -> list[int]:
    """This game's totals per seat."""
    return [breakdown(s, seat)["total"] for seat in range(len(s.players))]


def match_totals(s: State) -> list[int]:
    """Running totals: this game, plus game 1 in a two-game match."""
    now = totals(s)
    if s.first_scores:
        return [a + b for a, b in zip(now, s.first_scores, strict=True)]
    return now


def winners(s: State) -> list[int]:
    """Most VP wins; a tie goes to the player holding the progress marker."""
    if s.phase != "over":
        return []
    score = match_totals(s)
    top = max(score)
    tied = [i for i, v in enumerate(score) if v == top]
    return tied if len(tied) == 1 else [s.marker]


def result(s: State) -> str:
    """The game's last line: who won, with what, and the tie-break when it decided.

    In a two-game match it gives the match totals (both games), which decide.
    """
    score = match_totals(s)
    (winner,) = winners(s)
    name = s.players[winner].name
    what = "the match" if s.first_scores else "the game"
    totals = ""
    if s.first_scores:
        totals = (
            "Match totals (both games): "
            + ", ".join(f"{p.name} {v} VP" for p, v in zip(s.players, score, strict=True))
            + ". "
        )
    if score.count(score[winner]) > 1:
        at = " at the end of game 2" if s.first_scores else ""
        return (
            f"{totals}{name} wins {what}: a tie at {score[winner]} VP goes to the player holding the "
            f"progress marker{at}, {name}."
        )
    return f"{totals}{name} wins {what} with {score[winner]} VP."
