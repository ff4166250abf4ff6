"""Empire Scoring (each revealed scoring card) and final scoring (game end).

Rulebook, "Empire Scoring": influence per region; most influence scores
3 + 1 per city and wonder in the region (all tied score it); second most
scores 2 (tied seconds score 0); plus the government bonuses.
Rulebook, "Scoring": every line of the final tally, unrest subtracted; ties to
most wonders, then most money.
"""

from __future__ import annotations

from engine.core import best, winners_by

from ..core import count, listing
from . import board
from .data import Data
from .state import Player, State


def small_game(s: State) -> bool:
    return len(s.players) <= 3


def empire_scoring(d: Data, s: State) -> list[str]:
    """Score every in-play region, then governments; VP go to `Player.vp`."""
    inf = board.influence(d, s)
    lines: list[str] = []
    gained = region_places(d, s, inf, lines)
    for seat, p in enumerate(s.players):
        g = government_bonus(d, s, seat, inf)
        if g:
            gained[seat] += g
            lines.append(f"{p.name}'s {d.governments[p.government].name}: +{g}")
    for seat, p in enumerate(s.players):
        p.vp += gained[seat]
    return ["Empire scoring: " + (" | ".join(lines) if lines else "nobody has influence")]


def empire_gains(d: Data, s: State, inf: dict[str, list[int]]) -> list[int]:
    """What an Empire Scoring would give each seat now, changing nothing: the bots' look ahead."""
    gained = region_places(d, s, inf)
    return [g + government_bonus(d, s, seat, inf) for seat, g in enumerate(gained)]


def region_places(d: Data, s: State, inf: dict[str, list[int]], lines: list[str] | None = None) -> list[int]:
    """Each seat's VP from first and second places in every in-play region; a line per region
    goes to `lines` when given (the search's look ahead needs no words)."""
    r = d.rules
    gained = [0] * len(s.players)
    for reg in s.regions:
        vals = inf[reg]
        firsts = board.first_places(vals)
        if not firsts:
            continue
        bonus = r.first_place_vp + board.cities_in(d, s, reg) + board.wonders_in(d, s, reg)
        for seat in firsts:
            gained[seat] += bonus
        rest = [v for i, v in enumerate(vals) if i not in firsts and v > 0]
        second = max(rest, default=0)
        seconds = [i for i, v in enumerate(vals) if second and v == second and i not in firsts]
        if len(seconds) == 1:
            gained[seconds[0]] += r.second_place_vp
        if lines is None:
            continue
        each = " each" if len(firsts) > 1 else ""
        part = [f"{d.regions[reg].name}: first {listing([s.players[x].name for x in firsts])} +{bonus}{each}"]
        if len(seconds) == 1:
            part.append(f"second {s.players[seconds[0]].name} +{r.second_place_vp}")
        elif seconds:
            part.append(f"second {listing([s.players[x].name for x in seconds])} tied, 0")
        lines.append("; ".join(part))
    return gained


def government_bonus(d: Data, s: State, seat: int, inf: dict[str, list[int]]) -> int:
    """Government tile bonus at Empire Scoring (quick reference, Governments)."""
    p = s.players[seat]
    if not p.government:
        return 0
    g = d.governments[p.government]
    per = g.vp_2_3_players if small_game(s) else g.vp
    if g.scoring == "cities_in_one_region":  # the region of the player's choice (N37)
        counts = board.cities_per_region(d, s, seat)
        chosen = s.city_state_region
        return per * (counts.get(chosen, 0) if chosen else max(counts.values(), default=0))
    if g.scoring == "per_wonder":
        return per * len(p.wonders)
    if g.scoring == "per_tile":
        return per * (len(p.golden_ages) + len(p.achievements))
    if g.scoring == "per_two_population":
        return per * (p.population // 2)
    if g.scoring == "per_region_with_city":
        return per * len(board.city_regions(d, s, seat))
    if g.scoring == "per_region_controlled":
        return per * len(board.controlled(d, s, seat, inf))
    raise ValueError(g.scoring)


def wonder_vp(d: Data, s: State, seat: int, wid: str, inf: dict[str, list[int]]) -> int:
    """VP printed on a wonder tile (quick reference, Wonders); RULES-NOTES for whose pieces count."""
    w = d.wonders[wid]
    p = s.players[seat]
    h = s.wonder_hex.get(wid, "")
    reg = d.hexes[h].region if h else ""
    k = w.vp_kind
    if k == "fixed":
        return w.vp
    if k == "per_region_majority":
        return w.vp * len(board.controlled(d, s, seat, inf))
    if k == "per_adjacent_city":
        return w.vp * sum(1 for nb in d.neighbours[h] if s.board.get(nb, "x")[0] in board.CITY_KINDS) if h else 0
    if k == "per_two_population":
        return w.vp * (p.population // 2)
    if k == "per_city_in_region":
        return w.vp * board.cities_in(d, s, reg) if reg else 0
    if k == "per_unique_trade_good":
        return w.vp * board.unique_goods(p)
    if k == "per_unit_in_region":
        return w.vp * sum(q.units.get(reg, 0) for q in s.players) if reg else 0
    if k == "per_wonder_in_region":
        return w.vp * board.wonders_in(d, s, reg) if reg else 0
    raise ValueError(k)


def unrest_cancel(d: Data, p: Player) -> int:
    c = d.leaders[p.leader].unrest_cancel if p.leader else 0
    c += sum(d.wonders[w].unrest_cancel for w in p.wonders)
    c += sum(d.technologies[t].unrest_cancel for t in p.techs)
    return c


def net_unrest(d: Data, p: Player) -> int:
    """Unrest minus cancellations, never below 0 (RULES-NOTES: cancelling gives no VP)."""
    return max(0, p.unrest - unrest_cancel(d, p))


def breakdown(d: Data, s: State, seat: int, inf: dict[str, list[int]] | None = None) -> dict[str, int]:
    """Every line of the final tally for one seat (running value during play)."""
    r = d.rules
    p = s.players[seat]
    inf = inf if inf is not None else board.influence(d, s)
    sym = board.symbols(d, p)
    out = {
        "during play": p.vp,
        "cities": r.final_city_vp * len(board.cities_of(s, seat)),
        "towns": r.final_town_vp * len(board.towns_of(s, seat)),
        "wonders": sum(wonder_vp(d, s, seat, w, inf) for w in p.wonders),
        "golden ages": sum(d.golden_ages[g].vp for g in p.golden_ages),
        "achievements": sum(d.achievements[a].vp for a in p.achievements),
        "projects": sum(sym[d.builds[b].vp_pillar] for b in p.builds if d.builds[b].type == "project"),
        "technologies": 0,
        "manufactory towns": 0,
        "leader": 0,
        "unrest": -net_unrest(d, p),
    }
    for t in p.techs:
        tech = d.technologies[t]
        if tech.vp_kind == "fixed":
            out["technologies"] += tech.vp
        elif tech.vp_kind == "per_symbol":
            out["technologies"] += tech.vp * sym[tech.vp_pillar]
    for b in p.builds:
        build = d.builds[b]
        if build.type == "manufactory_town" and all(p.goods.get(g, 0) > 0 for g in build.trade_goods):
            out["manufactory towns"] += build.trade_goods_vp or r.manufactory_set_vp
    if p.leader == "artist":
        out["leader"] = sym["culture"]
    return out


def totals(d: Data, s: State, inf: dict[str, list[int]] | None = None) -> list[int]:
    inf = inf if inf is not None else board.influence(d, s)
    return [sum(breakdown(d, s, i, inf).values()) for i in range(len(s.players))]


def tie_breaks(s: State) -> list[tuple[str, list[int], str]]:
    """Most points; ties to most wonders, then most money (rulebook, Scoring): (what, per seat, unit)."""
    return [
        ("points", list(s.final), "point"),
        ("wonders", [len(p.wonders) for p in s.players], "wonder"),
        ("money", [p.money for p in s.players], ""),
    ]


def winners(s: State) -> list[int]:
    return winners_by(*(vals for _what, vals, _unit in tie_breaks(s)))


def result_text(s: State) -> str:
    """Who wins, and the tie-break that decided when one did: "a and b tie on 50 points; a wins
    with the most wonders (a 3, b 2)." (issue 13, results)."""

    def name(i: int) -> str:
        return s.players[i].name

    tied = list(range(len(s.players)))
    clauses: list[tuple[str, str, list[str]]] = []  # (who, what they lead on, what they still share)
    for k, (what, vals, unit) in enumerate(tie_breaks(s)):
        top = best(tied, key=vals.__getitem__)
        if len(top) == 1:
            if k == 0:
                return f"{name(top[0])} wins."
            tail = ", ".join(f"{name(i)} {vals[i]}" for i in tied)
            return _clauses(clauses) + f"; {name(top[0])} wins with the most {what} ({tail})."
        shared = count(vals[top[0]], unit) if unit else f"{vals[top[0]]} money"
        if k == 0:
            clauses.append((listing([name(i) for i in top]), "", [shared]))
        elif len(top) < len(tied):
            clauses.append((listing([name(i) for i in top]), f"have the most {what} ({vals[top[0]]})", []))
        else:
            clauses[-1][2].append(shared)
        tied = top
    return _clauses(clauses) + "; they share the win."


def _clauses(clauses: list[tuple[str, str, list[str]]]) -> str:
    """ "a, b and c tie on 50 points; a and b have the most wonders (2) and tie on 40 money"."""
    out = []
    for who, lead, shared in clauses:
        text = f"{who} {lead}" if lead else who
        if shared:
            text += f"{' and' if lead else ''} tie on {listing(shared)}"
        out.append(text)
    return "; ".join(out)
