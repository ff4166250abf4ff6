"""What each seat may see (law 5): the board is public; during allocation the
cards dealt this Epoch are concealed — a drawer sees the card in hand, a passer
remembers what it passed, a receiver of a passed card sees nothing until all
are revealed (rulebook 3.0). `summary` is the Epoch Civilization Summary Card
(1.5): public facts about the Epoch's Civilizations, for deciding to keep or pass."""

from __future__ import annotations

from typing import Any, Protocol

from ..core import count, possessive
from .allocation import seat_slugs
from .board import C, area_name, area_owners, areas_of, armies_of_seat, civ_name, owner
from .rounds import only_attacks_left
from .scoring import score_seat
from .state import DUMMY, State, is_raider


class Seats(Protocol):
    """What a view asks the game object (game.py, which imports this module): who acts, what is legal, who won."""

    def to_act(self, state: State) -> list[int]: ...
    def legal_actions(self, state: State, seat: int) -> list[str]: ...
    def winners(self, state: State) -> list[int]: ...


def _civ_info(state: State, civ: str) -> dict[str, Any]:
    c = C.civs[civ]
    return {
        "id": civ,
        "card": c.card,
        "name": c.name,
        "epoch": c.epoch,
        "order": c.order,
        "marker": c.marker,
        "armies": c.armies,
        "start_area": c.start_area,
        "bonus_area": c.bonus_area,
        "traits": list(c.traits),
        "gone": civ in state.gone,
        "current": c.epoch == state.epoch,
        "areas": len(areas_of(state, civ)),
    }


EVENT_WORDS = {
    "raid": ("Barbarian Raids strike", "places a raiding Army in a border Area of"),
    "revolt": ("Civil War strikes", "places a rebel Army in an Area of"),
    "ruin": ("Disaster strikes", "picks the City that is destroyed in"),
}


def prompt(game: Seats, state: State) -> str:
    """What the player to act is deciding now and why, with the rule's section (one sentence)."""
    seats = game.to_act(state)
    if not seats:
        return ""
    who = state.players[seats[0]] if seats[0] != DUMMY else "the non-player civilization"
    if state.phase == "allocate":
        a = state.allocation_now()
        era = C.epochs[state.epoch - 1].roman
        if seats[0] in a.dealt:
            return (
                f"{who} already holds a passed card: pass the drawn Epoch {era} card face down "
                f"to a player without one (3.0)."
            )
        return f"{who} looks at the drawn Epoch {era} card: keep it or pass it face down to a player without one (3.0)."
    if state.phase == "events":
        ev = state.event_now()
        title, doing = EVENT_WORDS[ev.kind]
        more = f" ({count(ev.left, 'Area')} to pick)" if ev.left > 1 else ""
        return f"{title} {civ_name(ev.civ)}: {who}, in last place, {doing} it{more} (8.0)."
    rnd = state.rnd
    if rnd is None:
        return ""
    civ = civ_name(rnd.civ, state)
    if rnd.step == "displace":
        return (
            f"{civ} arrives in its Start Area {area_name(rnd.start)}: {who} moves "
            f"{count(rnd.disp_left, 'Army')} of {civ_name(rnd.disp_civ, state)} to adjacent vacant or "
            f"friendly Areas (5.3)."
        )
    if rnd.step == "start":
        return f"{who} picks the Area next to 5-4 Neo Assyria where {civ} enters the map (6.3)."
    if rnd.step == "combat":
        return (
            f"Battle for {area_name(rnd.area)}: {possessive(civ)} attacking Army still stands, so the combat "
            f"goes on until the Area is taken or the Army is lost (5.5)."
        )
    if only_attacks_left(state):
        return (
            f"{who} grows {civ}: only hostile Areas are left to grow into, so each Army placed must attack "
            f"({count(rnd.pool, 'Army')} left in the Army Pool) (5.4, 5.5)."
        )
    if rnd.current and rnd.seat != DUMMY:
        return (
            f"{who} grows {civ}: {count(rnd.pool, 'Army')} left in the Army Pool; place or attack "
            f"until it is empty, or use one for Non-Combat Expansion (5.4-5.6)."
        )
    if rnd.seat == DUMMY:
        return f"{who} places for {civ}: {count(rnd.pool, 'Army')} left in the Army Pool (5.4, 9.0)."
    return (
        f"{who} grows {civ}, a previous-Epoch Civilization: {count(rnd.pool, 'Army')} left in the "
        f"Army Pool; place or attack until it is empty (5.1, 5.4)."
    )


def make_view(game: Seats, state: State, seat: int | None) -> dict[str, Any]:
    rnd = state.rnd
    active = rnd.civ if rnd is not None else None
    board: dict[str, dict[str, Any]] = {}
    for area, civ in state.civ_at.items():
        raider = is_raider(civ)
        board[area] = {
            "civ": civ,
            "owner": owner(state, civ),
            "armies": state.count[area],
            "raider": raider,
            "epoch": None if raider else C.civs[civ].epoch,
            "active": civ == active,
            "label": civ_name(civ, state),
        }
    cards: dict[str, list[dict[str, Any]]] = {str(s): [] for s in range(state.n)}
    if state.non_player:
        cards[str(DUMMY)] = []
    for card, holder in sorted(state.cards.items()):
        cards[str(holder)].append(
            {"card": card, "name": C.card_name(card), "civs": [_civ_info(state, civ) for civ in C.civs_of_card[card]]}
        )
    players = []
    owners = area_owners(state)  # once for every seat's score (most of a view's time otherwise)
    for s, name in enumerate(state.players):
        score = score_seat(state, s, owners)
        players.append(
            {
                "seat": s,
                "name": name,
                "vp": state.vp[s],
                "armies": armies_of_seat(state, s),
                "regions": {r: st for r, (st, _) in score.regions.items()},
                "projected": score.total,
            }
        )
    alloc: dict[str, Any] | None = None
    if state.alloc is not None:
        a = state.alloc
        alloc = {
            "order": list(a.order),
            "drawer": a.order[a.index] if a.index < len(a.order) else None,
            "received": sorted(a.dealt),
            "kept": list(a.kept),
            "passed": {str(to): frm for to, frm in a.passed.items()},
            "cards_left": len(state.deck),
            "concealed": True,
        }
        if seat is not None:
            mine: dict[str, Any] = {}
            if a.drawn and a.order[a.index] == seat:
                mine["drawn"] = {"card": a.drawn, "name": C.card_name(a.drawn)}
            if seat in a.kept:
                mine["kept"] = {"card": a.dealt[seat], "name": C.card_name(a.dealt[seat])}
            gave = {
                str(to): {"card": a.dealt[to], "name": C.card_name(a.dealt[to])}
                for to, frm in a.passed.items()
                if frm == seat
            }
            if gave:
                mine["passed"] = gave
            alloc["private"] = mine
    round_view = None
    if rnd is not None:
        round_view = {
            "civ": rnd.civ,
            "name": civ_name(rnd.civ, state),
            "seat": rnd.seat,
            "current": rnd.current,
            "pool": rnd.pool,
            "step": rnd.step,
            "bonus": rnd.bonus,
            "bonus_result": C.bonus[rnd.bonus].result if rnd.bonus else None,
            "military": rnd.military,
            "seafaring": rnd.seafaring,
            "desert_guides": rnd.guides,
            "battle": rnd.area or None,
            "persia_doubles": list(rnd.doubles),
            "displacing": rnd.disp_civ or None,
            "start": rnd.start or None,
        }
    ev = None
    if state.ev_step is not None:
        ev = {"kind": state.ev_step.kind, "civ": state.ev_step.civ, "left": state.ev_step.left}
    summary = [
        {
            "id": c.id,
            "card": c.card,
            "name": c.name,
            "start_area": c.start_area,
            "armies": c.armies,
            "bonus_area": c.bonus_area,
            "traits": list(c.traits),
        }
        for c in C.civs_of_epoch[state.epoch]
    ]
    to_act = game.to_act(state)
    return {
        "game": "cradle",
        "epoch": state.epoch,
        "epoch_name": C.epochs[state.epoch - 1].name,
        "epoch_roman": C.epochs[state.epoch - 1].roman,
        "phase": state.phase,
        "non_player": state.non_player,
        "players": players,
        "seat_words": seat_slugs(state),
        "to_act": to_act,
        "order": list(state.order),
        "turn": state.turn,
        "board": board,
        "cities": {a: [C.cities[c].name for c in v] for a, v in state.cities.items()},
        "wonders": {w: a for w, a in state.wonders.items()},
        "lost_wonders": list(state.lost_wonders),
        "cards": cards,
        "allocation": alloc,
        "summary": summary,
        "round": round_view,
        "event": ev,
        "last_place": state.last_place,
        "last_move": list(state.last),
        "over": state.phase == "over",
        "winners": game.winners(state),
        "you": seat,
        "prompt": prompt(game, state),
        "legal": game.legal_actions(state, seat) if seat is not None and seat in to_act else [],
    }
