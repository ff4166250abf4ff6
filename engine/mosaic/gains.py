"""What a player gains: trade goods, cache tiles, pieces on the map, free units, technologies played.

Rulebook, "Cache Tiles", "Trade Goods Tiles", Technology ("1x" effects and
ongoing production), and the free units of golden ages, technologies and caches
(RULES-NOTES N36).
"""

from __future__ import annotations

from collections import Counter

from ..core import count
from . import board, economy
from .data import Data
from .decks import draw
from .state import Player, State
from .words import production_name


def add_good(d: Data, p: Player, good: str) -> None:
    p.goods[good] = p.goods.get(good, 0) + 1
    g = d.trade_goods[good]
    if g.track:
        p.production[g.track] += g.bonus


def take_hex_contents(d: Data, s: State, seat: int, h: str, ev: list[str]) -> None:
    """Cache tile (benefit now, tile to the box), trade good tile (to the player board) and,
    on a port hex, its fish tile (+3 food production; port city, or a port wonder: RULES-NOTES N42)."""
    p = s.players[seat]
    if h in s.fish_on:
        s.fish_on.remove(h)
        add_good(d, p, "fish")
        ev.append(f"{p.name} takes the fish tile (+{d.trade_goods['fish'].bonus} food production).")
    good = s.goods_on.pop(h, "")
    if good:
        add_good(d, p, good)
        g = d.trade_goods[good]
        bonus = f" (+{g.bonus} {g.track} production)" if g.track and g.bonus else ""
        ev.append(f"{p.name} takes the {g.name} trade good{bonus}.")
    cache = s.cache_on.pop(h, "")
    if cache:
        apply_cache(d, s, seat, cache, d.hexes[h].region, ev)


def apply_cache(d: Data, s: State, seat: int, cache_id: str, region: str, ev: list[str]) -> None:
    p = s.players[seat]
    c = next(c for c in d.caches if c.id == cache_id)
    b = c.benefit
    if b in ("money", "food", "stone", "ideas"):
        economy.gain(p, b, c.amount)
        ev.append(f"{p.name} finds a cache: {c.amount} {b}.")
    elif b == "population":
        p.population += c.amount
        ev.append(f"{p.name} finds a cache: +{c.amount} population.")
    elif b.endswith("_production"):
        track = b[: -len("_production")]
        p.production[track] += c.amount
        ev.append(f"{p.name} finds a cache: +{c.amount} {production_name(track)} production.")
    elif b == "military_unit":
        p.units[region] = p.units.get(region, 0) + c.amount
        ev.append(f"{p.name} finds a cache: {count(c.amount, 'military unit')} in {d.regions[region].name}.")
    elif b == "technology_card_face_down":
        card = draw(d, s, "tech_deck", ev)
        if card:
            p.hidden.append(card)
            ev.append(f"{p.name} finds a cache: a face-down technology card.")
    else:
        raise ValueError(b)


def put_piece(d: Data, s: State, seat: int, h: str, code: str, ev: list[str]) -> None:
    s.board[h] = f"{code}{seat}"
    take_hex_contents(d, s, seat, h, ev)


def give_units(d: Data, s: State, seat: int, units: int, ev: list[str], why: str) -> None:
    """Free military units go to a region holding one of your cities (one choice per unit when several)."""
    regs = board.city_regions(d, s, seat)
    p = s.players[seat]
    if not regs:
        ev.append(
            f"{p.name} has no city, so the {count(units, 'free unit')} from {why} {'are' if units != 1 else 'is'} lost."
        )
        return
    if len(regs) == 1:
        p.units[regs[0]] = p.units.get(regs[0], 0) + units
        ev.append(f"{p.name} gains {count(units, 'military unit')} in {d.regions[regs[0]].name} ({why}).")
        return
    s.pending.push("unit", seat, count=units, why=why)


def play_tech(d: Data, s: State, seat: int, t: str, ev: list[str], verb: str = "plays") -> None:
    """A technology goes face up: its pillars count from now on and its effect happens (1x or ongoing)."""
    p = s.players[seat]
    c = d.technologies[t]
    p.techs.append(t)
    ev.append(f'{p.name} {verb} {c.name} face up: "{c.text}"')
    for cur, amt in c.gain.items():
        economy.gain(p, cur, amt)
    p.population += c.population
    for track, amt in c.production.items():
        p.production[track] += amt
    if c.military_units:
        give_units(d, s, seat, c.military_units, ev, c.name)


def can_play(d: Data, p: Player, t: str, sym: Counter[str] | None = None) -> bool:
    sym = sym if sym is not None else board.symbols(d, p)
    return board.meets(d.technologies[t].requires, sym)


def flip(d: Data, s: State, seat: int, t: str, ev: list[str], verb: str = "flips") -> None:
    """A face-down technology is played: it leaves the face-down cards and goes face up (N49)."""
    p = s.players[seat]
    p.hidden.remove(t)
    if t in p.seen:
        p.seen.remove(t)
    play_tech(d, s, seat, t, ev, verb)


def flip_ready(d: Data, s: State, seat: int, ev: list[str], verb: str = "plays") -> bool:
    """Setup: play one drafted (or the Philosopher's) technology whose pillars are there; True if one
    was. "All players take the benefits from any starting tech cards they are able to play"
    (rulebook, Setup), so at setup this is not a choice; in play a flip is (N49)."""
    p = s.players[seat]
    sym = board.symbols(d, p)
    for t in p.hidden:
        if can_play(d, p, t, sym):
            flip(d, s, seat, t, ev, verb)
            return True
    return False
