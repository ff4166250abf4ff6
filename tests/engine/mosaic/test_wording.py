"""Public log lines say what a player at the table would announce (events are the log)."""
from __future__ import annotations

from engine.mosaic.gains import take_hex_contents
from engine.mosaic.setup import start_text

from .helpers import D, new


def test_setup_leader_starting_benefits_are_spelled_out():
    """Setup: "All players take the starting benefits for your selected leader" - say which."""
    assert start_text(D.leaders["merchant"]) == "+5 tariff production, 30 money, a manufactory town"
    assert start_text(D.leaders["engineer"]) == "+5 stone production, +3 idea production, 10 stone, 10 money"
    assert start_text(D.leaders["general"]).endswith("20 money, +1 population, 1 military unit")


def test_trade_goods_stone_and_grain_announce_their_plus_2_production():
    """Trade Goods Tiles: stone and grain tiles have a "+2" - the log line says so."""
    s = new(2, 5)
    h, good = next((h, g) for h, g in s.goods_on.items() if g == "stone")
    ev: list[str] = []
    take_hex_contents(D, s, 0, h, ev)
    assert ev == [f"{s.players[0].name} takes the Stone trade good (+2 stone production)."]


def test_setup_starting_town_and_starting_technologies_read_cleanly():
    """Merchant: "starts with a manufactory town" - the log names the town and the leader;
    a starting tech played face up ends its line with one full stop."""
    from engine.mosaic import GAME
    s = new(2, 5)
    events: list[str] = []
    while s.phase != "play" or s.pending:
        seat = GAME.to_act(s)[0]
        legal = GAME.legal_actions(s, seat)
        choice = next((a for a in ("leader merchant", "region greece") if a in legal), legal[0])
        step = GAME.apply(s, seat, choice)
        s, events = step.state, events + step.events
    merchant = next(p.name for p in s.players if p.leader == "merchant")
    assert f"{merchant} now chooses a hex next to their city for the starting manufactory town." in events
    assert any(e.startswith(f"{merchant} places the Merchant's starting manufactory town on ") for e in events)
    face_up = [e for e in events if " face up (" in e]
    assert face_up and all(e.endswith(").") and ".)" not in e for e in face_up)


def test_n16_a_starting_town_with_no_free_neighbour_hex_is_announced_as_not_placed():
    """RULES-NOTES N16: no free hex next to the starting city - the log says the town is lost
    instead of listing it among the benefits received."""
    from engine.mosaic import GAME
    s = new(2, 5)
    events: list[str] = []
    while s.phase != "play" or s.pending:
        seat = GAME.to_act(s)[0]
        legal = GAME.legal_actions(s, seat)
        choice = next((a for a in ("leader merchant", "region italia") if a in legal), legal[0])
        if s.players[seat].leader == "merchant" and "hex italia-2" in legal:
            choice = "hex italia-2"  # the lone Italian hex: no neighbours on the board
        step = GAME.apply(s, seat, choice)
        s, events = step.state, events + step.events
    merchant = next(p.name for p in s.players if p.leader == "merchant")
    assert f"{merchant} has no free hex next to their city: the starting manufactory town is not placed." in events
