"""Alt text: the same view as the images, as plain lines for screen readers and slow links.

The public text is built only from public keys of the view; the private text
adds the viewer's own hand and known top card.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from renderers.common import alt_lines, join_alt, player_letter, seat_names, tables_header

from .board import contest, display_cards
from .labels import MILITARY, RESOURCES, amounts, card_line, header_for, province_effect, symbols_text
from .private import round_note
from .tables import player_lines


def _cards(n: int) -> str:
    return "1 card" if n == 1 else f"{n} cards"


def _player(view: Mapping[str, Any], p: Mapping[str, Any]) -> list[str]:
    seat = p.get("seat", 0)
    score = p.get("score") or {}
    scores = view.get("scores") or []
    total = score.get("total", 0)
    civ = p.get("civ_name") or "no civilization yet"
    match = f" (match total {scores[seat]})" if view.get("first_game_scores") and seat < len(scores) else ""
    head = (
        f"{p.get('name', '?')} ({player_letter(seat)}, {civ}): {total} VP{match} "
        f"(cards {score.get('buildings_leaders', 0)}, board {score.get('board', 0)}, "
        f"provinces {score.get('provinces', 0)}, marker {score.get('marker', 0)}); "
        f"{p.get('coins', 0)} coins"
        + (f" (limit {p['coin_limit']})" if p.get("coin_limit") else "")
        + f", income {p.get('income', 0)}; hand {_cards(p.get('hand_count', 0))}, deck {p.get('deck_count', 0)}, "
        f"discard {len(p.get('discard') or [])}"
    )
    if view.get("marker") == seat:
        head += "; holds the progress marker"
    lines = [head]
    cards = display_cards(p)
    if cards:
        lines.append(
            "  Display: "
            + "; ".join(
                card_line(c)
                + ((" covered, " + ("still scoring" if c.get("scores") else "not scoring")) if c.get("covered") else "")
                for c in cards
            )
        )
    else:
        lines.append("  Display: empty")
    mil = p.get("military") or {}
    strength = mil.get("strength") or {}
    bands = []
    for b in mil.get("bands") or []:
        sym = b.get("card_symbol")
        printed = b.get("printed")
        if sym:
            bands.append(f"band {b.get('band')}: {sym}" + (f" + printed {printed} (active)" if printed else ""))
        elif printed:
            bands.append(f"band {b.get('band')}: empty (printed {printed}, inactive)")
    lines.append(
        "  Military strength: "
        + ", ".join(f"{strength.get(s, 0)} {s}" for s in MILITARY)
        + (("; " + "; ".join(bands)) if bands else "")
    )
    area = p.get("resource_area") or []
    res = p.get("resources") or {}
    lines.append(
        "  Resources: "
        + ", ".join(f"{res.get(r, 0)} {r}" for r in RESOURCES)
        + f" from {_cards(len(area))}"
        + (f" (last-played: {area[-1].get('name')})" if area else "")
    )
    prog = p.get("progress") or {}
    nxt = next((u for u in prog.get("unlocks") or [] if not u.get("unlocked")), None)
    lines.append(
        f"  Progress: level {prog.get('level', 0)} of {prog.get('max', 7)}, "
        + ("Golden Age side" if p.get("golden_age") else "silver side")
        + (f"; next: {' '.join(nxt.get('texts') or [])}" if nxt else "")
    )
    provs = p.get("provinces") or []
    lines.append(
        "  Provinces won: "
        + (
            "; ".join(f"{q.get('name')} ({q.get('vp', 0)} VP, icon {q.get('icon', '')})" for q in provs)
            if provs
            else "none"
        )
    )
    return lines


def public(view: Mapping[str, Any]) -> str:
    lines = alt_lines(header_for(view))
    row = view.get("province_row") or []
    if row:
        first = view.get("rounds", 7) - len(row) + 1
        lines.append(
            "Provinces (leftmost is contested this round): "
            + "; ".join(
                f"{q.get('name')} (round {first + i}, {symbols_text(q.get('symbols'))}, {q.get('vp', 0)} VP, "
                f"icon {q.get('icon', '')}"
                + (f", {province_effect(q.get('text', ''))}" if province_effect(q.get("text", "")) else "")
                + ")"
                for i, q in enumerate(row)
            )
        )
    standing = contest(view)
    if standing:
        names = {seat: name for seat, name, _ in standing}
        lines.append(
            f"{row[0].get('name')} now: "
            + ", ".join(f"{name} {n}" for _, name, n in standing)
            + (
                f" (a tie goes to {names[view['marker']]}, who holds the progress marker)"
                if view.get("marker") in names
                else ""
            )
        )
    for p in view.get("players", []):
        lines += _player(view, p)
    nile = view.get("nile") or []
    if nile:
        names = seat_names(view)
        lines.append(
            "Nile: "
            + "; ".join(
                f"{n.get('name')} ({'developed: ' + n.get('effect', '') if n.get('developed') else 'not developed'}"
                + (
                    f"; coins: {', '.join(str(names.get(s, s)) for s in n.get('coins') or [])}"
                    if n.get("coins")
                    else ""
                )
                + ")"
                for n in nile
            )
        )
    return join_alt(lines)


def tables(view: Mapping[str, Any]) -> str:
    """The tables image's text: each player's figures in words, the Nile cards' effects."""
    lines = alt_lines(tables_header(header_for(view), "scores and details"))
    for p in view.get("players", []):
        lines.append(f"{p.get('name', '?')} ({player_letter(p.get('seat', 0))}): " + "; ".join(player_lines(view, p)))
    lines += [f"Nile: {n.get('name', '?')}: {n.get('effect', '')}" for n in view.get("nile") or []]
    return join_alt(lines)


def use_lines(card: Mapping[str, Any]) -> list[str]:
    """The four uses of a hand card, as words."""
    uses = card.get("uses") or {}
    out = [f"coins: +{uses.get('coins', 2)}"]
    mil = uses.get("military") or {}
    if mil.get("possible"):
        out.append(
            f"military: {mil.get('symbol')} on band {mil.get('band')}"
            + (f", activates printed {mil['printed']}" if mil.get("printed") else "")
        )
    else:
        out.append("military: no free band")
    out.append(f"resources: {amounts(uses.get('resources'))}")
    b = uses.get("build") or {}
    verb = "place leader" if card.get("kind") == "leader" else "construct"
    if b.get("met"):
        out.append(f"{verb}: requirement met")
    elif b.get("possible"):
        out.append(f"{verb}: short {amounts(b.get('missing'))}, pay {b.get('coins', 0)} coins")
    else:
        out.append(f"{verb}: short {amounts(b.get('missing'))}, needs {b.get('coins', 0)} coins (not enough)")
    return out


def private(view: Mapping[str, Any], seat: int) -> str:
    players = view.get("players", [])
    me = players[seat] if 0 <= seat < len(players) else {}
    lines = alt_lines(header_for(view, subtitle=f"{me.get('name', '?')}'s hand (private)"))
    hand = me.get("hand")
    if hand is None:
        lines.append("No hand is visible in this view.")
        return join_alt(lines)
    res = me.get("resources") or {}
    lines.append(
        f"You have {me.get('coins', 0)} coins; resources: " + ", ".join(f"{res.get(r, 0)} {r}" for r in RESOURCES)
    )
    note = round_note(view, me)
    if note:
        lines.append(note[0].upper() + note[1:] + ".")
    if not hand:
        lines.append("Your hand is empty.")
    for card in hand:
        cost = amounts(card.get("cost"), RESOURCES)
        effects = " ".join(card.get("effects") or []) or "no effect"
        lines.append(
            f"{card_line(card)}: needs {cost}; military symbol {card.get('military')}; "
            f"resource part {amounts(card.get('strip'))}; effect: {effects}"
        )
        lines.append("  Uses — " + "; ".join(use_lines(card)))
    top = me.get("known_top")
    lines.append(f"Known top card of your deck: {card_line(top)}" if top else "Top card of your deck: unknown")
    return join_alt(lines)
