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


def test_trade_goods_stone_and_grain_announce_their_plus_2_production() -> None:
    """Trade Goods Tiles: stone and grain tiles have a "+2" - the log line says so."""
    s = new(2, 5)
    h, good = next((h, g) for h, g in s.goods_on.items() if g == "stone")
    ev: list[str] = []
    take_hex_contents(D, s, 0, h, ev)
    assert ev == [f"{s.players[0].name} takes the Stone trade good (+2 stone production)."]


def test_setup_starting_town_and_starting_technologies_read_cleanly() -> None:
    """Merchant: "starts with a manufactory town" - the log names the town and the leader;
    a starting tech played face up quotes its card text (its "you" is the card's, not the log's)."""
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
    face_up = [e for e in events if " face up: " in e]
    assert face_up and all(e.endswith('."') and e.count('"') == 2 for e in face_up)


def test_n16_a_starting_town_with_no_free_neighbour_hex_is_announced_as_not_placed() -> None:
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


def _turn():
    from .helpers import blank_turn, to_play

    s = blank_turn(to_play(2, 5), 0)
    p = s.players[0]
    p.population = 5
    for track in p.production:
        p.production[track] = 0
    return s, p


def test_work_line_shows_population_plus_production():
    """Work: add your population to your production of that currency."""
    from .helpers import act

    s, p = _turn()
    p.production["stone"] = 3
    _, ev = act(s, "work stone")
    assert ev[0] == f"{p.name} works: +8 stone (5 population + 3 stone production)."


def test_build_city_line_says_what_was_paid_and_the_holding_area():
    """Building a city: 4 stone and 2 population (money 2:1); 5 money to the holding area."""
    from .helpers import act

    s, p = _turn()
    city = next(b for b in D.builds.values() if b.type == "city")
    s.build_offer[0] = city.id
    p.money, s.holding = 8, 0
    s, ev = act(s, f"build {city.id}")
    while s.pending:
        s, more = act(s, [a for a in __import__("engine").get("mosaic").legal_actions(s, 0)][0])
        ev += more
    assert f"{p.name} pays 8 money and 2 population." in ev
    assert "5 money from the supply goes to the holding area (now 5)." in ev


def test_tariff_line_spells_out_the_formula():
    """Tax & Tariff: tariff = multiplier × unique trade goods + cities + tariff production."""
    from .helpers import act, tax

    s, p = _turn()
    card = next(c for c in D.tax_cards.values() if c.kind == "tariff")
    s.tax_offer[0] = card.id
    p.goods = {"gold": 1, "wine": 2}
    p.production["tariff"] = 4
    s.holding = 0
    _, ev = act(s, tax(card.id))
    n = card.multiplier * 2 + 1 + 4
    assert ev[0].startswith(
        f"{p.name} collects tariff: {n} money ({card.multiplier}×2 unique goods + 1 city "
        f"+ 4 tariff production) + 0 from the holding area"
    )


def test_random_games_log_no_plural_brackets_or_broken_articles() -> None:
    """Government: "becomes an Oligarchy"; "1 military unit"; "1 idea" - across whole games."""
    import random
    import re

    from engine.mosaic import GAME

    lines: list[str] = []
    for seed in range(3):
        s = new(2 + seed % 2, seed)
        rng = random.Random(seed)
        while not GAME.is_over(s):
            seat = GAME.to_act(s)[0]
            step = GAME.apply(s, seat, rng.choice(GAME.legal_actions(s, seat)))
            s = step.state
            lines += step.events
    text = "\n".join(lines)
    assert "(s)" not in text and " a Oligarchy" not in text and ") (" not in text
    assert not re.search(r"\b1 (ideas|military units|units)\b", text)
