"""The turn: one action (Work, Population, Build, Wonder, Technology, Tax &
Tariff, Military, Government), the free actions beside it, and every pending
sub-decision (where to place, where units go).

Each compound action is a short sequence of small choices kept on
`State.pending` (DESIGN.md law 2). `settle` moves the game on once nothing is
pending: Empire Scorings waiting for the revealer's action to end (rulebook,
"Empire Scoring"), the end of the turn, the end-game rounds and the Scribe's
extra actions.
"""

from __future__ import annotations

from ..core import Decision
from . import board, economy
from .achievements import achievement_met
from .actions import MAIN, military_step, pay_step, placed
from .data import PILLARS, TRACKS, Data
from .decks import OFFERS, SCORING, check_tiles_end, draw, refill, trigger_end
from .flow import settle
from .free import FREE
from .gains import add_good, apply_cache, can_play, give_units, play_tech, put_piece, take_hex_contents
from .options import (
    can_build,
    can_move,
    city_state_options,
    eliminate_options,
    free_actions,
    main_actions,
    military_options,
    pay_options,
    recruit_limit,
    spend_money,
    wonder_cost,
)
from .state import State
from .turns import end_turn, game_over, start_turn
from .words import production_name


def legal(d: Data, s: State, seat: int, verb: str = "") -> list[str]:
    """Every legal action of `seat`; with `verb`, only the part that actions starting with that
    word can be in (the turn's actions, the free actions and `end` never share a first word),
    which is all `MosaicGame.apply` needs to look at."""
    top = s.pending.top
    if top is not None:
        return decision_legal(d, s, top) if top.seat == seat else []
    if s.phase != "play" or seat != s.seat:
        return []
    sym = board.symbols(d, s.players[seat])
    if s.stage == "main":
        if verb in MAIN:
            return main_actions(d, s, seat, sym)
        if verb == "spend":
            return spend_money(d, s, seat, main_actions(d, s, seat, sym))
        if verb:
            return free_actions(d, s, seat, sym)
        main = main_actions(d, s, seat, sym)
        return main + free_actions(d, s, seat, sym) + spend_money(d, s, seat, main)
    if verb == "end":
        return ["end"]
    return free_actions(d, s, seat, sym) + ([] if verb else ["end"])


def decision_legal(d: Data, s: State, dec: Decision) -> list[str]:
    k = dec.kind
    data = dec.data
    if k == "place":
        cands = board.place_candidates(d, s, dec.seat, data["purpose"], data.get("wonder", ""))
        if not cands:  # a leader's start town whose hexes another start town just took
            return ["skip"]
        reg = data.get("region", "")
        if reg:
            return [f"hex {h}" for h in cands if d.hexes[h].region == reg]
        regs = []
        for h in cands:
            rr = d.hexes[h].region
            if rr not in regs:
                regs.append(rr)
        if len(cands) <= 15 or len(regs) == 1:
            return [f"hex {h}" for h in cands]
        return [f"region {rr}" for rr in regs]
    if k == "pay":
        return pay_options(d, s.players[dec.seat], data["costs"])
    if k == "military":
        return military_options(d, s, dec.seat, data["acted"])
    if k == "unit":
        return [f"unit {reg}" for reg in board.city_regions(d, s, dec.seat)]
    if k == "seize":
        return [f"hex {h}" for h in board.cities_of(s, data["target"])]
    if k == "eliminate":
        return eliminate_options(d, s, dec.seat) + ["eliminate none"]
    if k == "city-state":
        return city_state_options(d, s, dec.seat)
    if k == "library":
        return [f"library {x}" for x in PILLARS]
    if k == "art":
        return [f"art {c}" for c in ("food", "stone", "ideas", "money")]
    if k == "production":
        return [f"production {t}" for t in TRACKS if t not in data.get("exclude", [])]
    raise ValueError(k)


def play(d: Data, s: State, seat: int, action: str) -> list[str]:
    ev: list[str] = []
    words = action.split(" ")
    top = s.pending.top
    if top is not None:
        resolve(d, s, top, words, ev)
    elif s.stage == "post" and words[0] == "end":
        end_turn(d, s, ev)
    elif words[0] in FREE:
        FREE[words[0]](d, s, seat, words, ev)
        check_tiles_end(s, ev)
    else:
        s.action_open = True
        MAIN[words[0]](d, s, seat, words, ev)
    settle(d, s, ev)
    return ev


def resolve(d: Data, s: State, dec: Decision, words: list[str], ev: list[str]) -> None:
    k = dec.kind
    p = s.players[dec.seat]
    if k == "place":
        if words[0] == "skip":
            s.pending.pop()
            ev.append(f"{p.name} has no free hex for the piece; it is not placed.")
            return
        if words[0] == "region":
            dec.data["region"] = words[1]
            return
        s.pending.pop()
        placed(d, s, dec.seat, dec.data, words[1], ev)
    elif k == "pay":
        pay_step(d, s, dec, words, ev)
    elif k == "military":
        military_step(d, s, dec, words, ev)
    elif k == "city-state":
        s.pending.pop()
        s.city_state_region = words[1]
        ev.append(f"{p.name}'s City State scores its cities in {d.regions[words[1]].name}.")
    elif k == "seize":
        s.pending.pop()
        h = words[1]
        s.board[h] = s.board[h][0] + str(dec.seat)
        ev.append(f"{p.name} (Priestess) takes the city on {h} from {s.players[dec.data['target']].name}.")
    elif k == "unit":
        reg = words[1]
        p.units[reg] = p.units.get(reg, 0) + 1
        ev.append(f"{p.name} places a military unit in {d.regions[reg].name} ({dec.data['why']}).")
        dec.data["count"] -= 1
        if dec.data["count"] <= 0:
            s.pending.pop()
    elif k == "eliminate":
        s.pending.pop()
        s.general_done = True
        if words[1] != "none":
            reg, other = words[1], int(words[2])
            q = s.players[other]
            q.units[reg] -= 1
            ev.append(f"{p.name} (General) eliminates one of {q.name}'s units in {d.regions[reg].name}.")
    elif k == "library":
        s.pending.pop()
        p.library = words[1]
        ev.append(f"{p.name} takes 2 {words[1].title()} symbols from the Great Library.")
    elif k == "art":
        s.pending.pop()
        economy.gain(p, words[1], 10)
        ev.append(f"{p.name} gains 10 {words[1]} from the Art golden age.")
    elif k == "production":
        s.pending.pop()
        p.production[words[1]] += dec.data["amount"]
        ev.append(
            f"{p.name} ({d.leaders[p.leader].name}) adds +{dec.data['amount']} {production_name(words[1])} production."
        )
    else:
        raise ValueError(k)


#: Re-exported so callers (tests) have one place to reach the rules from.
__all__ = [
    "FREE",
    "MAIN",
    "OFFERS",
    "SCORING",
    "achievement_met",
    "add_good",
    "apply_cache",
    "can_build",
    "can_move",
    "can_play",
    "check_tiles_end",
    "decision_legal",
    "draw",
    "eliminate_options",
    "end_turn",
    "free_actions",
    "game_over",
    "give_units",
    "legal",
    "main_actions",
    "play",
    "play_tech",
    "put_piece",
    "recruit_limit",
    "refill",
    "resolve",
    "settle",
    "start_turn",
    "take_hex_contents",
    "trigger_end",
    "wonder_cost",
]
