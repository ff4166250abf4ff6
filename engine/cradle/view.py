"""What each seat may see (law 5): the board is public; during allocation the
cards dealt this Epoch are concealed — a drawer sees the card in hand, a passer
remembers what it passed, a receiver of a passed card sees nothing until all
are revealed (rulebook 3.0). `summary` is the Epoch Civilization Summary Card
(1.5): public facts about the Epoch's Civilizations, for deciding to keep or pass."""
from __future__ import annotations

from typing import Any

from .allocation import seat_slugs
from .board import C, DUMMY, armies_of_seat, areas_of, civ_name, owner
from .scoring import region_status, score_seat
from .state import State, is_raider


def _civ_info(state: State, civ: str) -> dict[str, Any]:
    c = C.civs[civ]
    return {"id": civ, "card": c.card, "name": c.name, "epoch": c.epoch, "order": c.order,
            "marker": c.marker, "armies": c.armies, "start_area": c.start_area, "bonus_area": c.bonus_area,
            "traits": list(c.traits), "gone": civ in state.gone, "current": c.epoch == state.epoch,
            "areas": len(areas_of(state, civ))}


def make_view(game, state: State, seat: int | None) -> dict:
    rnd = state.rnd
    active = rnd.civ if rnd is not None else None
    board = {}
    for a, civ in state.civ_at.items():
        raider = is_raider(civ)
        board[a] = {"civ": civ, "owner": owner(state, civ), "armies": state.count[a], "raider": raider,
                    "epoch": None if raider else C.civs[civ].epoch, "active": civ == active,
                    "label": civ_name(civ, state)}
    cards: dict[str, list[dict]] = {str(s): [] for s in range(state.n)}
    if state.non_player:
        cards[str(DUMMY)] = []
    for card, holder in sorted(state.cards.items()):
        cards[str(holder)].append({"card": card, "name": C.card_name(card),
                                   "civs": [_civ_info(state, civ) for civ in C.civs_of_card[card]]})
    players = []
    for s, name in enumerate(state.players):
        players.append({"seat": s, "name": name, "vp": state.vp[s], "armies": armies_of_seat(state, s),
                        "regions": {r: st for r, (st, _) in region_status(state, s).items()},
                        "projected": score_seat(state, s).total})
    alloc = None
    if state.alloc is not None:
        a = state.alloc
        alloc = {"order": list(a.order), "drawer": a.order[a.index] if a.index < len(a.order) else None,
                 "received": sorted(a.dealt), "kept": list(a.kept),
                 "passed": {str(to): frm for to, frm in a.passed.items()}, "cards_left": len(state.deck),
                 "concealed": True}
        if seat is not None:
            mine = {}
            if a.drawn and a.order[a.index] == seat:
                mine["drawn"] = {"card": a.drawn, "name": C.card_name(a.drawn)}
            if seat in a.kept:
                mine["kept"] = {"card": a.dealt[seat], "name": C.card_name(a.dealt[seat])}
            gave = {str(to): {"card": a.dealt[to], "name": C.card_name(a.dealt[to])}
                    for to, frm in a.passed.items() if frm == seat}
            if gave:
                mine["passed"] = gave
            alloc["private"] = mine
    round_view = None
    if rnd is not None:
        round_view = {"civ": rnd.civ, "name": civ_name(rnd.civ, state), "seat": rnd.seat, "current": rnd.current,
                      "pool": rnd.pool, "step": rnd.step, "bonus": rnd.bonus,
                      "bonus_result": C.bonus[rnd.bonus].result if rnd.bonus else None,
                      "military": rnd.military, "seafaring": rnd.seafaring, "desert_guides": rnd.guides,
                      "battle": rnd.area or None, "persia_doubles": list(rnd.doubles),
                      "displacing": rnd.disp_civ or None, "start": rnd.start or None}
    ev = None
    if state.ev_step is not None:
        ev = {"kind": state.ev_step.kind, "civ": state.ev_step.civ, "left": state.ev_step.left}
    summary = [{"id": c.id, "card": c.card, "name": c.name, "start_area": c.start_area, "armies": c.armies,
                "bonus_area": c.bonus_area, "traits": list(c.traits)} for c in C.civs_of_epoch[state.epoch]]
    to_act = game.to_act(state)
    return {
        "game": "cradle", "epoch": state.epoch, "epoch_name": C.epochs[state.epoch - 1].name,
        "epoch_roman": C.epochs[state.epoch - 1].roman, "phase": state.phase, "non_player": state.non_player,
        "players": players, "seat_words": seat_slugs(state), "to_act": to_act,
        "order": list(state.order), "turn": state.turn, "board": board,
        "cities": {a: [C.cities[c].name for c in v] for a, v in state.cities.items()},
        "wonders": {w: a for w, a in state.wonders.items()}, "lost_wonders": list(state.lost_wonders),
        "cards": cards, "allocation": alloc, "summary": summary, "round": round_view, "event": ev,
        "last_place": state.last_place, "last_move": list(state.last), "over": state.phase == "over",
        "winners": game.winners(state), "you": seat,
        "legal": game.legal_actions(state, seat) if seat is not None and seat in to_act else [],
    }
