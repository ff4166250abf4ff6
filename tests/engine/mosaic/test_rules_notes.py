"""Decisions of engine/mosaic/RULES-NOTES.md, one test each (named after the note)."""
from __future__ import annotations

from engine.mosaic import GAME, board, scoring
from engine.mosaic.rules import SCORING

from .helpers import D, act, blank_turn, hexes, to_play


def fresh(n=4, leader="engineer"):
    s = blank_turn(to_play(n, 3), 0)
    for p in s.players:
        p.leader = leader
        p.techs, p.hidden, p.units, p.goods, p.builds = [], [], {}, {}, []
        p.production = {t: 0 for t in p.production}
        p.unrest = 0
    return s


def test_n01_artist_scores_1_vp_per_culture_symbol():
    s = fresh(leader="artist")
    s.players[0].library = "culture"
    assert scoring.breakdown(D, s, 0)["leader"] == 2


def test_n02_tyranny_needs_military_x2_and_costs_5_ideas():
    g = D.governments["tyranny"]
    assert g.requires == {"military": 2} and g.cost_ideas == 5


def test_n03_government_requirements_restored():
    req = {g: D.governments[g].requires for g in D.governments}
    assert req["city-state"] == {"government": 2, "urbanization": 1}
    assert req["monarchy"] == {"government": 2, "food": 1}
    assert req["oligarchy"] == {"government": 2, "economy": 1}
    assert req["republic"] == {"government": 3, "culture": 1} and D.governments["republic"].cost_ideas == 20
    assert req["theocracy"] == {"government": 2, "military": 1}


def test_n04_golden_ages_need_6_symbols_of_their_pillar():
    assert all(g.symbols == 6 for g in D.golden_ages.values())
    assert D.golden_ages["trade"].pillar == "economy"


def test_n05_face_down_technology_scores_no_vp():
    s = fresh()
    t = next(t for t, c in D.technologies.items() if c.vp_kind == "fixed")
    s.players[0].hidden = [t]
    assert scoring.breakdown(D, s, 0)["technologies"] == 0
    s.players[0].techs = [t]
    assert scoring.breakdown(D, s, 0)["technologies"] == D.technologies[t].vp


def test_n07_adjacency_has_8_pairs():
    pairs = {tuple(sorted((a, b))) for a, bs in D.adjacency.items() for b in bs}
    assert len(pairs) == 8 and ("egypt", "greece") not in pairs


def test_n12_philosopher_chooses_another_production_scribe_any():
    s = GAME.setup(["a", "b"], 4)
    while s.phase == "leaders":
        seat = GAME.to_act(s)[0]
        want = "leader philosopher" if seat == s.leader_order[0] and "philosopher" in s.leader_pool and len(s.leader_pool) == 9 else None
        s, _ = act(s, want or next(a for a in GAME.legal_actions(s, seat) if a != "leader philosopher"))
    while not (s.pending and s.pending.top.kind == "production"):
        seat = GAME.to_act(s)[0]
        s, _ = act(s, GAME.legal_actions(s, seat)[0])
    assert "production ideas" not in GAME.legal_actions(s, GAME.to_act(s)[0])


def test_n16_farmer_places_a_farm_town_next_to_the_starting_city():
    s = GAME.setup(["a", "b", "c"], 5)
    while s.phase == "leaders":
        seat = GAME.to_act(s)[0]
        legal = GAME.legal_actions(s, seat)
        s, _ = act(s, "leader farmer" if "leader farmer" in legal else legal[0])
    farmer = next(i for i, p in enumerate(s.players) if p.leader == "farmer")
    while s.phase != "play" or s.pending:
        s, _ = act(s, GAME.legal_actions(s, GAME.to_act(s)[0])[0])
    towns = board.towns_of(s, farmer)
    city = board.cities_of(s, farmer)[0]
    assert len(towns) == 1 and s.board[towns[0]] == f"f{farmer}" and towns[0] in D.neighbours[city]


def test_n20_holding_area_is_shared_and_taken_by_the_next_tax_action():
    s = fresh()
    card = next(c for c in D.builds.values() if c.type == "city")
    s.build_offer[0] = card.id
    s.players[0].stone = 4
    s, _ = act(s, f"build {card.id}")
    legal = GAME.legal_actions(s, 0)
    s, _ = act(s, legal[0])
    if GAME.legal_actions(s, 0) and GAME.legal_actions(s, 0)[0].startswith("hex"):
        s, _ = act(s, GAME.legal_actions(s, 0)[0])
    assert s.holding >= 5
    held = s.holding
    s.seat, s.stage, s.actions_left = 1, "main", 1
    s.players[1].money = 0
    tax = s.tax_offer[0]
    s, _ = act(s, f"{D.tax_cards[tax].kind} {tax}")
    assert s.holding == 0 and s.players[1].money >= held


def test_n24_wonder_takes_the_trade_good_on_its_hex():
    s = fresh()
    mine = D.hexes[board.cities_of(s, 0)[0]].region
    h = next(h for h in hexes(mine) if h not in s.board)
    s.goods_on[h] = "gold"
    s.players[0].stone, s.players[0].food = 20, 5
    s, _ = act(s, "wonder stonehenge")
    legal = GAME.legal_actions(s, 0)
    if legal[0].startswith("region"):
        s, _ = act(s, f"region {mine}")
    s, _ = act(s, f"hex {h}")
    assert s.players[0].goods.get("gold") == 1 and s.board[h] == "w0"


def test_n28_technology_with_pillars_goes_face_up_at_once():
    s = fresh()
    t = next(t for t, c in D.technologies.items() if not c.requires and t not in s.tech_offer)
    s.tech_offer[0] = t
    s.players[0].ideas = 5
    s, _ = act(s, f"technology {t}")
    assert t in s.players[0].techs and t not in s.players[0].hidden


def test_n29_face_down_cards_do_not_count_for_scientific():
    s = fresh()
    s.achievements = ["scientific"]
    s.players[0].hidden = list(D.technologies)[:15]
    assert "claim scientific" not in GAME.legal_actions(s, 0)


def test_n33_a_spent_government_tile_stays_spent_for_its_next_owner():
    s = fresh()
    s.players[0].government = "theocracy"
    s, _ = act(s, "refresh tax")
    s.players[0].government = ""
    s.players[1].government = "theocracy"
    s.seat, s.stage = 1, "main"
    assert not any(a.startswith("refresh") for a in GAME.legal_actions(s, 1))


def test_n34_city_states_free_city_adds_nothing_to_the_holding_area():
    s = fresh()
    s.holding = 0
    s.players[0].library = "urbanization"
    s.players[0].techs = [t for t, c in D.technologies.items() if "urbanization" in c.provides][:4]
    s, _ = act(s, "claim city-states")
    while s.pending:
        s, _ = act(s, GAME.legal_actions(s, 0)[0])
    assert s.holding == 0 and len(board.cities_of(s, 0)) == 2


def test_n36_free_units_are_lost_without_a_city():
    s = fresh()
    for h in board.cities_of(s, 0):
        del s.board[h]
    s.players[0].library = "military"
    s.players[0].techs = [t for t, c in D.technologies.items() if "military" in c.provides][:4]
    s, ev = act(s, "claim heroes")
    assert board.unit_total(s.players[0]) == 0 and any("lost" in e for e in ev)


def test_n37_city_state_scores_the_region_with_most_of_your_cities():
    s = fresh()
    s.board = {hexes("italia")[0]: "c0", hexes("italia")[1]: "c0", hexes("italia")[2]: "c0", hexes("egypt")[0]: "c0"}
    s.players[0].government = "city-state"
    assert scoring.government_bonus(D, s, 0, board.influence(D, s)) == 3


def test_n38_republic_looks_privately_at_the_top_card_of_one_deck_before_its_action():
    s = fresh()
    s.players[0].government = "republic"
    assert "peek" not in GAME.view(s, 0)["private"]          # nothing seen until it chooses a deck
    legal = GAME.legal_actions(s, 0)
    assert {"peek technology", "peek build", "peek population", "peek tax"} <= set(legal)
    top = s.build_deck[0]
    s, ev = act(s, "peek build")
    assert GAME.view(s, 0)["private"]["peek"] == {"build": [top]}
    assert "peek" not in GAME.view(s, 1)["private"] and "private" not in GAME.view(s, None)
    assert not any(top in e or D.builds[top].name in e for e in ev)   # the log says which deck, not the card
    assert not any(a.startswith("peek") for a in GAME.legal_actions(s, 0))   # one deck per turn
    s.peeked = ""
    s, _ = act(s, "work food")
    assert s.seat == 0 and s.stage == "post"                  # the refresh is still free to use
    assert not any(a.startswith("peek") for a in GAME.legal_actions(s, 0))   # not after the action


def test_n40_a_fourth_scoring_card_is_scored_too():
    s = fresh()
    s.board = {hexes("italia")[0]: "c0"}
    s.scorings = 3
    s.end_stage, s.rounds_left = "rounds", 2
    s.pop_deck = [SCORING]
    s.players[0].food = 20
    s, _ = act(s, f"population {s.pop_offer[0]}")
    assert s.scorings == 4 and s.players[0].vp == 4


def test_hidden_information_never_in_public_view_or_events():
    import random
    s = GAME.setup(["a", "b", "c", "d"], 11)
    rng = random.Random(3)
    while not GAME.is_over(s):
        seat = rng.choice(GAME.to_act(s))
        action = rng.choice(GAME.legal_actions(s, seat))
        step = GAME.apply(s, seat, action)
        s = step.state
        assert not any(t in action for t in D.technologies) or not action.startswith("draft")  # N45: the log too
        public = str(GAME.view(s, None))
        for p in s.players:
            for t in p.hidden + p.hand + p.picks:
                assert f"'{t}'" not in public
                assert not any(D.technologies[t].name in e for e in step.events)


def test_n16_a_start_town_with_no_free_hex_left_is_skipped():
    s = fresh()
    s.phase = "setup"
    s.stage = "leaders"
    city = board.cities_of(s, 1)[0]
    for nb in D.neighbours[city]:
        s.board.setdefault(nb, "f0")
    s.pending.push("place", 1, purpose="start-town", code="m")
    assert GAME.to_act(s) == [1] and GAME.legal_actions(s, 1) == ["skip"]
    s, ev = act(s, "skip")
    assert s.phase == "play" and any("not placed" in e for e in ev)


def test_n14_merchant_bonus_not_on_tariff_cards():
    s = fresh(leader="merchant")
    card = next(c for c in D.tax_cards.values() if c.kind == "tariff")
    s.tax_offer[0] = card.id
    s.players[0].goods = {"wine": 1, "gold": 1}
    s.holding = 0
    s, _ = act(s, f"tariff {card.id}")
    assert s.players[0].money == card.multiplier * 2 + len(board.cities_of(s, 0))


def test_n17_philosopher_random_technology_after_the_starting_ones():
    s = GAME.setup(["a", "b"], 8)
    while s.phase == "leaders":
        seat = GAME.to_act(s)[0]
        legal = GAME.legal_actions(s, seat)
        s, _ = act(s, "leader philosopher" if "leader philosopher" in legal else legal[0])
    phil = next(i for i, p in enumerate(s.players) if p.leader == "philosopher")
    while s.phase != "play" or s.pending:
        s, _ = act(s, GAME.legal_actions(s, GAME.to_act(s)[0])[0])
    p = s.players[phil]
    assert len(p.techs) + len(p.hidden) == 6  # 5 drafted + 1 random
    extra = (p.techs[5:] + p.hidden)[0]
    assert (extra in p.techs) == board.meets(D.technologies[extra].requires, board.symbols(D, p))


def test_n31_recruit_and_move_in_one_military_action():
    s = fresh()
    reg = D.hexes[board.cities_of(s, 0)[0]].region
    to = next(r for r in D.adjacency[reg] if r in s.regions)
    s.players[0].money = 6
    s, _ = act(s, "military", f"recruit {reg}", f"move {reg} {to}")
    assert s.players[0].units == {reg: 0, to: 1} and s.players[0].money == 0


def test_n32_money_pays_only_the_shortfall_when_nothing_else_is_possible():
    s = fresh()
    t = s.tech_offer[0]
    s.players[0].ideas = 3
    s.players[0].money = 4
    s, _ = act(s, f"technology {t}")  # no choice left: 3 ideas + 4 money
    assert s.players[0].ideas == 0 and s.players[0].money == 0 and not s.pending


def test_n35_art_golden_age_10_of_one_chosen_currency():
    s = fresh()
    s.players[0].library = "culture"
    s.players[0].techs = [t for t, c in D.technologies.items() if "culture" in c.provides][:4]
    s, _ = act(s, "claim art")
    assert GAME.legal_actions(s, 0) == ["art food", "art stone", "art ideas", "art money"]
    s, _ = act(s, "art money")
    assert s.players[0].money == 10


def test_n41_all_9_leaders_offered_in_the_draft():
    s = GAME.setup(["a", "b", "c", "d", "e", "f"], 2)
    assert len(GAME.legal_actions(s, GAME.to_act(s)[0])) == 9


def test_law_2_legal_actions_stay_short_in_random_play():
    import random
    longest = 0
    for n in (2, 4, 6):
        s = GAME.setup([f"p{i}" for i in range(n)], 21 + n)
        rng = random.Random(n)
        while not GAME.is_over(s):
            seat = rng.choice(GAME.to_act(s))
            legal = GAME.legal_actions(s, seat)
            longest = max(longest, len(legal))
            s = GAME.apply(s, seat, rng.choice(legal)).state
    assert 10 < longest < 60


def test_n42_a_wonder_on_a_port_hex_takes_its_fish_tile():
    s = fresh()
    port = next(h for h in hexes("greece", "port") if h not in s.board)
    s.board[next(h for h in hexes("greece") if h not in s.board)] = "c0"
    s.players[0].stone, s.players[0].food = 20, 5
    s, _ = act(s, "wonder lighthouse-of-alexandria")
    if GAME.legal_actions(s, 0)[0].startswith("region"):
        s, _ = act(s, "region greece")
    s, ev = act(s, f"hex {port}")
    p = s.players[0]
    assert port not in s.fish_on and p.goods.get("fish") == 1 and p.production["food"] == 3
    assert any("fish tile" in e for e in ev) and port not in GAME.view(s, None)["fish"]


def test_n43_farmer_gains_no_extra_population_from_the_empty_deck_purchase():
    s = fresh(leader="farmer")
    s.pop_offer, s.pop_deck = ["", ""], []
    s.players[0].food, s.players[0].population = 15, 5
    s, _ = act(s, "population fallback")
    assert s.players[0].population == 7


def test_n44_government_refresh_is_free_before_or_after_the_action():
    s = fresh()
    s.players[0].government = "theocracy"
    s, _ = act(s, "work food")
    assert s.seat == 0 and s.stage == "post" and "refresh tax" in GAME.legal_actions(s, 0)
    s, _ = act(s, "refresh tax")
    assert s.seat != 0  # nothing else free left: the turn ends by itself


def test_n46_fish_counts_as_a_unique_trade_good():
    s = fresh()
    p = s.players[0]
    p.goods = {"fish": 1, "wine": 1}
    assert board.unique_goods(p) == 2
    card = next(c for c in D.tax_cards.values() if c.kind == "tariff")
    s.tax_offer[0], s.holding = card.id, 0
    s, _ = act(s, f"tariff {card.id}")
    assert s.players[0].money == card.multiplier * 2 + len(board.cities_of(s, 0))
    assert all("fish" not in D.builds[b].trade_goods for b in D.builds)


def test_n08_fallback_tax_counts_each_government_symbol_and_tariff_counts_port_cities():
    s = fresh()
    s.tax_offer, s.tax_deck, s.holding = ["", ""], [], 0
    p = s.players[0]
    p.library = "government"                                   # 2 Government symbols
    p.population, p.goods = 5, {}
    s.board = {hexes("italia")[0]: "c0", hexes("italia", "port")[0]: "p0"}
    t, _ = act(s, "tax fallback")
    assert t.players[0].money == 2 * 5 + 2
    t, _ = act(s, "tariff fallback")
    assert t.players[0].money == 2                              # 1 city + 1 port city


def test_n47_no_limit_on_cities_or_units():
    s = fresh()
    land = [h for reg in s.regions for h in hexes(reg) if h not in s.board]
    for h in land[:12]:
        s.board[h] = "c0"
    s.players[0].units = {"italia": 12}
    city = next(b for b, c in D.builds.items() if c.type == "city")
    s.build_offer[0] = city
    s.players[0].stone, s.players[0].money = 4, 10
    legal = GAME.legal_actions(s, 0)
    assert f"build {city}" in legal and "military" in legal
