"""Decisions of engine/mosaic/RULES-NOTES.md, one test each (named after the note)."""

from __future__ import annotations

from engine.mosaic import GAME, board, scoring
from engine.mosaic.options import city_state_options
from engine.mosaic.rules import SCORING

from .helpers import D, act, blank_turn, hexes, population, random_steps, tax, to_play


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
        want = (
            "leader philosopher"
            if seat == s.leader_order[0] and "philosopher" in s.leader_pool and len(s.leader_pool) == 9
            else None
        )
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
    s, _ = act(s, tax(s.tax_offer[0]))
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


def test_n29_scientific_15_tech_cards_counts_face_up_cards_only():
    """Scientific, "15 tech cards": a face-down card is taken but not played, and a technology gives
    nothing until played (pillars, effects, VP: N05); it counts once it flips."""
    s = fresh()
    s.achievements = ["scientific"]
    needy = [t for t, c in D.technologies.items() if c.requires][:15]
    s.players[0].hidden = list(needy)
    assert "claim scientific" not in GAME.legal_actions(s, 0)
    assert "15 technology cards face up" in GAME.why_not(s, 0, "claim scientific")
    s.players[0].techs, s.players[0].hidden = list(needy[:14]), list(needy[14:])
    assert "claim scientific" not in GAME.legal_actions(s, 0)
    s.players[0].techs, s.players[0].hidden = list(needy), []
    assert "claim scientific" in GAME.legal_actions(s, 0)
    s.achievements_in_play = ["scientific"]  # what surprises players is said where the tile is shown
    need = GAME.view(s, None)["tiles"]["achievement_needs"]["scientific"]
    assert need == "15 technologies played face up (a face-down card counts once flipped)"


def test_n22_a_tie_for_first_is_no_majority_for_imperial_tyranny_or_the_colosseum():
    """Empire Scoring says "in case of a tie, all tied players score"; "control" and "majority" have
    no such clause, so a tie for the most influence controls nothing."""
    s = fresh()
    s.board = {hexes("italia")[0]: "c0", hexes("italia")[1]: "c1", hexes("greece")[0]: "c0"}
    inf = board.influence(D, s)
    assert board.controlled(D, s, 0, inf) == ["greece"] and board.controlled(D, s, 1, inf) == []
    assert board.first_places(inf["italia"]) == [0, 1]  # both still score first at Empire Scoring
    s.players[0].government = "tyranny"
    assert scoring.government_bonus(D, s, 0, inf) == 3  # 4 players: 3 VP per region, Greece only
    s.players[0].wonders = ["colosseum-of-rome"]
    assert scoring.wonder_vp(D, s, 0, "colosseum-of-rome", inf) == 4
    s.players[1].units = {"greece": 2}  # now tied in Greece too
    assert board.controlled(D, s, 0) == []


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


def test_n37_city_state_scores_a_single_region_of_its_choice():
    """ "Score 1 VP/city that you own in a single region of your choice": the region is asked before
    each Empire Scoring, most cities first; one region per number of cities (two regions with as many
    score the same), a region without your cities last (0 VP)."""
    s = fresh()
    it, eg, gr = hexes("italia"), hexes("egypt"), hexes("greece")
    s.board = {it[0]: "c0", it[1]: "c0", it[2]: "c0", eg[0]: "c0", gr[0]: "c0", eg[1]: "c1"}
    s.players[0].government = "city-state"
    s.players[0].vp = 0
    s.players[0].food, s.pop_deck = 20, [SCORING]
    s, _ = act(s, population(s.pop_offer[0]))  # reveals an Empire Scoring card
    first_region = next(r for r in s.regions if r not in ("italia", "egypt", "greece"))
    assert GAME.to_act(s) == [0]
    # Egypt holds as many of p0's cities as Greece, which comes first on the map
    assert GAME.legal_actions(s, 0) == ["region italia", "region greece", f"region {first_region}"]
    regions = {}
    for a in GAME.legal_actions(s, 0):
        after, ev = act(s, a)
        regions[a] = after.players[0].vp
        assert any(e.startswith("Empire scoring") for e in ev) and after.city_state_region == ""
    base = regions[f"region {first_region}"]  # the City State's 0 VP: what the regions alone score
    assert [v - base for v in regions.values()] == [3, 1, 0]
    t = fresh()  # every region holds as many of its cities: nothing to choose
    t.board = {it[0]: "c0", eg[0]: "c0", gr[0]: "c0"} | {h: "c1" for r in t.regions for h in hexes(r)[3:4]}
    t.players[0].government = "city-state"
    assert city_state_options(D, t, 0) == ["region italia", f"region {first_region}"]  # 1 VP or 0
    assert scoring.government_bonus(D, t, 0, board.influence(D, t)) == 1


def test_n38_republic_looks_privately_at_the_top_card_of_one_deck_before_its_action():
    s = fresh()
    s.players[0].government = "republic"
    assert "peek" not in GAME.view(s, 0)["private"]  # nothing seen until it chooses a deck
    legal = GAME.legal_actions(s, 0)
    assert {"peek technology", "peek build", "peek population", "peek tax"} <= set(legal)
    top = s.build_deck[0]
    s, ev = act(s, "peek build")
    assert GAME.view(s, 0)["private"]["peek"] == {"build": [top]}
    assert "peek" not in GAME.view(s, 1)["private"] and "private" not in GAME.view(s, None)
    assert not any(top in e or D.builds[top].name in e for e in ev)  # the log says which deck, not the card
    assert not any(a.startswith("peek") for a in GAME.legal_actions(s, 0))  # one deck per turn
    s.peeked = ""
    s.achievements, s.players[0].money = ["wealthy"], 60  # a claim keeps the turn open after the action
    s, _ = act(s, "work food")
    assert s.seat == 0 and s.stage == "post"
    assert not any(a.startswith("peek") for a in GAME.legal_actions(s, 0))  # not after the action


def test_n40_a_fourth_scoring_card_is_scored_too():
    s = fresh()
    s.board = {hexes("italia")[0]: "c0"}
    s.scorings = 3
    s.end_stage, s.rounds_left = "rounds", 2
    s.pop_deck = [SCORING]
    s.players[0].food = 20
    s, _ = act(s, population(s.pop_offer[0]))
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
            for t in [t for t in p.hidden if t not in p.seen] + p.hand + p.picks:  # N51: `seen` is public
                assert f"'{t}'" not in public
                assert not any(D.technologies[t].name in e for e in step.events)


def test_n51_a_technology_taken_face_down_from_the_offer_stays_known_to_the_table() -> None:
    """The card lay face up in the offer and everyone saw it taken: it stays named in the public view
    and the log; a face-down card drawn from the deck (a cache) stays the owner's secret."""
    s = fresh()
    t = next(t for t, c in D.technologies.items() if c.requires and t not in s.tech_offer)
    s.tech_offer[0] = t
    s.players[0].ideas = 5
    s, ev = act(s, f"technology {t}")
    public = GAME.view(s, None)["players"][0]
    assert public["face_down"] == 1 and public["face_down_seen"] == [t]
    assert f"p0 takes {D.technologies[t].name} face down (its pillars are not there yet)." in ev
    s = blank_turn(s, 0)
    from engine.mosaic.gains import apply_cache

    cache = next(c.id for c in D.caches if c.benefit == "technology_card_face_down")
    top = s.tech_deck[0] if s.tech_deck[0] != SCORING else s.tech_deck[1]
    events: list[str] = []
    apply_cache(D, s, 0, cache, "italia", events)
    assert top in s.players[0].hidden and top not in s.players[0].seen
    assert top not in str(GAME.view(s, None)) and GAME.view(s, None)["players"][0]["face_down"] == 2


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
    s, _ = act(s, tax(card.id))
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


def test_n48_recruit_up_to_2_in_1_turn_and_move_once_per_turn_across_the_scribes_two_actions():
    """ "You may recruit up to 2 new units in 1 turn", "move ... once per turn": the Scribe's two
    actions share one turn's limits."""
    s = fresh(leader="scribe")
    s.actions_left = 2
    reg = D.hexes[board.cities_of(s, 0)[0]].region
    to = next(r for r in D.adjacency[reg] if r in s.regions)
    s.players[0].money = 40
    s, _ = act(s, "military", f"recruit {reg}", f"move {reg} {to}", "done")
    assert s.seat == 0 and s.actions_left == 1  # the second action
    s, _ = act(s, "military")
    legal = GAME.legal_actions(s, 0)
    assert f"recruit {reg}" in legal  # 1 of 2 recruited so far
    assert not any(a.startswith(f"move {to} ") for a in legal)  # that unit moved this turn
    s, _ = act(s, f"recruit {reg}")
    assert not any(a.startswith("recruit") for a in GAME.legal_actions(s, 0))
    assert s.players[0].units == {reg: 1, to: 1}
    s, _ = act(s, f"move {reg} {to}")  # the new unit has not moved yet
    assert s.seat == 1  # nothing left: the turn ends
    s = blank_turn(s, 0)  # a new turn: fresh limits
    s.players[0].money = 10
    s, _ = act(s, "military")
    assert f"recruit {reg}" in GAME.legal_actions(s, 0) and f"move {to} {reg}" in GAME.legal_actions(s, 0)


def test_n32_money_stands_in_only_for_the_shortfall_and_is_never_asked():
    s = fresh()
    t = s.tech_offer[0]
    s.players[0].ideas = 3
    s.players[0].money = 4
    s, _ = act(s, f"technology {t}")  # 3 ideas + 4 money for the 2 missing
    assert s.players[0].ideas == 0 and s.players[0].money == 0 and not s.pending
    s = blank_turn(s, 0)
    s.players[0].stone, s.players[0].food, s.players[0].money = 12, 9, 30
    s, ev = act(s, "wonder stonehenge")  # 20 stone + 5 food
    while s.pending:
        legal = GAME.legal_actions(s, 0)
        bare = [a for a in legal if a.startswith("hex ") and a[4:] not in s.goods_on and a[4:] not in s.cache_on]
        s, more = act(s, (bare or legal)[0])
        ev += more
    p = s.players[0]
    assert (p.stone, p.food, p.money) == (0, 4, 14) and "p0 pays 12 stone, 5 food and 16 money." in ev


def test_n49_a_face_down_technology_is_flipped_when_its_owner_chooses_on_any_of_their_turns():
    """ "This can be played (flipped over) on any of your turns": offered beside the action and after
    it once its pillars are there, never played for the player."""
    s = fresh()
    t = next(t for t, c in D.technologies.items() if c.requires == {"culture": 1})
    s.players[0].hidden = [t]
    s.players[0].library = "culture"
    assert f"flip {t}" in GAME.legal_actions(s, 0) and "work food" in GAME.legal_actions(s, 0)
    s, ev = act(s, "work food")  # not flipped for the player: the turn waits
    assert t in s.players[0].hidden and GAME.legal_actions(s, 0) == [f"flip {t}", "end"]
    s, ev = act(s, f"flip {t}")
    assert t in s.players[0].techs and any(e.startswith(f"p0 flips {D.technologies[t].name} face up") for e in ev)
    s = blank_turn(s, 0)
    s.players[0].library = ""
    s.players[0].techs, s.players[0].hidden = [], [t]
    assert not any(a.startswith("flip") for a in GAME.legal_actions(s, 0))
    assert "you lack 1 more culture" in GAME.why_not(s, 0, f"flip {t}")


def test_n28_a_technology_whose_pillars_are_there_may_be_taken_face_down():
    """ "If you already have the required pillars … you may place it face up": `technology <card>` places
    it face up, `technology <card> face-down` keeps it face down, to flip on a later turn."""
    s = fresh()
    t = next(t for t, c in D.technologies.items() if not c.requires and t not in s.tech_offer)
    needs = next(t for t, c in D.technologies.items() if c.requires and t not in s.tech_offer)
    s.tech_offer[0], s.tech_offer[1] = t, needs
    s.players[0].ideas = 5
    legal = GAME.legal_actions(s, 0)
    assert f"technology {t} face-down" in legal and f"technology {needs} face-down" not in legal
    down, ev = act(s, f"technology {t} face-down")
    p = down.players[0]
    assert t in p.hidden and t in p.seen and t not in p.techs
    assert f"p0 takes {D.technologies[t].name} face down (by choice)." in ev
    assert GAME.legal_actions(down, 0) == [f"flip {t}", "end"]


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
    longest = max(len(legal) for n in (2, 4, 6) for _s, _seat, legal in random_steps(n, 21 + n, n))
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
    s, _ = act(s, population())
    assert s.players[0].population == 7


def test_n44_government_refresh_is_offered_beside_the_action_and_after_it():
    s = fresh()
    s.players[0].government = "theocracy"
    assert "refresh tax" in GAME.legal_actions(s, 0)  # beside the turn's action
    s, _ = act(s, "refresh tax", "work food")
    assert s.seat != 0  # free, then the action ends the turn: nothing is left to use
    s = blank_turn(s, 0)
    s.players[0].government = "monarchy"
    s, _ = act(s, "work food")  # the arrow side is unused: the turn waits for it or `end`
    assert s.seat == 0 and {"refresh tax", "end"} <= set(GAME.legal_actions(s, 0))


def test_n44_leaders_magistrate_converting_after_working_yields_one_more_than_converting_first():
    """The audit's position (issue 22): the Magistrate works food, then converts. The convert is "on
    your turn" with no timing, so it is offered after the action too; working first counts the
    population the convert then spends, one food more."""
    s = fresh(leader="magistrate")
    s.players[0].population = 5
    first, _ = act(s, "convert food", "work food")
    after, _ = act(s, "work food")
    assert after.seat == 0 and "convert food" in GAME.legal_actions(after, 0)
    after, _ = act(after, "convert food")
    assert first.players[0].food == 20 + 4 and after.players[0].food == 5 + 20
    assert after.players[0].population == first.players[0].population == 4 and after.seat == 1


def test_n44_government_arrow_side_after_the_action_clears_what_is_left_after_taking_a_card():
    """ "Take a card, then clear the rest of its offer": the arrow side after a technology action clears
    the four cards left and the one drawn in, which the arrow side before the action cannot do."""
    s = fresh()
    s.players[0].government = "theocracy"
    s.players[0].ideas = 5
    taken = s.tech_offer[0]
    s, _ = act(s, f"technology {taken}")
    assert s.seat == 0 and "refresh technology" in GAME.legal_actions(s, 0)
    left = list(s.tech_offer)
    s, _ = act(s, "refresh technology")
    assert s.tech_deck[-5:] == left and not set(left) & set(s.tech_offer) and taken not in s.tech_deck
    assert s.seat == 1


def test_n46_fish_counts_as_a_unique_trade_good():
    s = fresh()
    p = s.players[0]
    p.goods = {"fish": 1, "wine": 1}
    assert board.unique_goods(p) == 2
    card = next(c for c in D.tax_cards.values() if c.kind == "tariff")
    s.tax_offer[0], s.holding = card.id, 0
    s, _ = act(s, tax(card.id))
    assert s.players[0].money == card.multiplier * 2 + len(board.cities_of(s, 0))
    assert all("fish" not in D.builds[b].trade_goods for b in D.builds)


def test_n08_fallback_tax_counts_each_government_symbol_and_tariff_counts_port_cities():
    s = fresh()
    s.tax_offer, s.tax_deck, s.holding = ["", ""], [], 0
    p = s.players[0]
    p.library = "government"  # 2 Government symbols
    p.population, p.goods = 5, {}
    s.board = {hexes("italia")[0]: "c0", hexes("italia", "port")[0]: "p0"}
    t, _ = act(s, tax())
    assert t.players[0].money == 2 * 5 + 2
    t, _ = act(s, tax(kind="tariff"))
    assert t.players[0].money == 2  # 1 city + 1 port city


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


def test_n50_population_and_tax_cards_are_named_by_what_they_cost_and_give():
    """Issue 13, cards by code: the action says the card's population and food cost, or its multiplier
    and unrest; two cards with the same numbers on offer are two choices, the right one `… right`
    (issue 49)."""
    s = fresh()
    s.pop_offer = ["pop07", "pop08"]  # both +2 population for 10 food
    s.tax_offer = ["tt03", "tt10"]
    s.players[0].food = 10
    legal = GAME.legal_actions(s, 0)
    assert [a for a in legal if a.startswith("population")] == [
        "population 2-for-10-food",
        "population 2-for-10-food right",
    ]
    kind, mult, unrest = D.tax_cards["tt03"].kind, D.tax_cards["tt03"].multiplier, D.tax_cards["tt03"].unrest
    assert f"tax {mult}-per-population-{unrest}-unrest" in legal and kind == "tax"
    t = D.tax_cards["tt10"]
    assert f"tariff {t.multiplier}-per-trade-good-{t.unrest}-unrest" in legal and t.kind == "tariff"
    after, _ = act(s, "population 2-for-10-food")
    assert (
        after.players[0].population == s.players[0].population + 2
        and after.pop_offer[1] == "pop08"
        and after.pop_offer[0] != "pop07"
    )
    s.pop_offer, s.pop_deck, s.tax_offer, s.tax_deck = ["", ""], [], ["", ""], []
    s.players[0].food = 15
    legal = GAME.legal_actions(s, 0)
    assert {"population 2-for-15-food", "tax 2-per-population-no-unrest", "tariff 2-per-trade-good-no-unrest"} <= set(
        legal
    )


def test_n50_n52_alike_cards_stay_two_choices_since_the_arrow_side_clears_the_offer_in_its_order():
    """Issue 49: taking the left or the right one of two alike cards leaves the new card in a
    different place, and a government's arrow side puts the offer under the deck in its order (N52),
    so the two reach different deck orders: merged into one choice, one order was never reachable."""
    s = fresh()
    s.pop_offer, s.pop_deck = ["pop07", "pop08"], ["pop01", "pop02", "pop03"]
    s.players[0].food, s.players[0].government = 20, "theocracy"
    choices = {c.action: c.label for c in GAME.choices(s, 0)}
    assert choices["population 2-for-10-food"] == "+2 population for 10 food (left card)"
    assert choices["population 2-for-10-food right"] == "+2 population for 10 food (right card)"
    decks = []
    for take in ("population 2-for-10-food", "population 2-for-10-food right"):
        after, _ = act(s, take, "refresh population")
        decks.append(after.pop_deck)
    assert decks == [["pop01", "pop08"], ["pop07", "pop01"]]  # the alike card last, or first


def test_issue_22_a_step_is_asked_only_with_more_than_one_way_and_end_only_beside_a_free_action():
    """A step plays itself only when its seat has exactly one legal action: `end` is asked only beside
    a free action still open (N44); a payment only after `spend money`, and only when it can be split
    more than one way (N32); a City State's region only when regions score differently (N37)."""
    seen = set()
    for n in (2, 4, 6):
        for s, _seat, legal in random_steps(n, 40 + n, n):
            verbs = {a.split()[0] for a in legal}
            seen |= verbs
            if "end" in legal:
                assert len(legal) > 1, legal
            if "pay" in verbs:
                assert len(legal) > 1 and verbs == {"pay"} and s.pay_by_choice, legal
            if "region" in verbs and s.pending.top and s.pending.top.kind == "city-state":
                assert len(legal) > 1
    assert {"pay", "end", "spend"} <= seen


def test_n53_a_scoring_card_revealed_by_the_arrow_side_before_the_action_is_scored_after_it():
    """ "When an Empire Scoring Card is revealed from 1 of the decks, the player who revealed it
    finishes their action, then scoring takes place": revealed by the arrow side before the turn's
    action, it waits for that action, which here wins Italia (issue 49: it was scored at once)."""
    s = fresh()
    it = hexes("italia")
    s.board = {it[0]: "c0", it[1]: "c1"}
    s.players[1].units = {"italia": 1}
    p = s.players[0]
    p.government, p.money, p.vp = "theocracy", 20, 0
    s.tax_deck = [SCORING, *s.tax_deck]
    s, ev = act(s, "refresh tax")
    assert not any(e.startswith("Empire scoring") for e in ev) and s.players[0].vp == 0
    assert "An Empire Scoring card is revealed (1 of 3 to end the game)." in ev
    s, ev = act(s, "military", "recruit italia", "recruit italia")
    if s.pending:
        s, more = act(s, "done")
        ev += more
    line = next(e for e in ev if e.startswith("Empire scoring"))
    assert "Italia: first p0" in line
    assert ev.index(line) > max(i for i, e in enumerate(ev) if "recruits" in e)


def test_n53_a_scoring_card_revealed_after_the_action_is_scored_at_once():
    """After the action the revealer's action is finished: the arrow side then scores at once."""
    s = fresh()
    p = s.players[0]
    p.government = "theocracy"
    s.tax_deck = [SCORING, *s.tax_deck]
    s, _ = act(s, "work food")
    assert "refresh tax" in GAME.legal_actions(s, 0)
    s, ev = act(s, "refresh tax")
    assert any(e.startswith("Empire scoring") for e in ev) and not s.scoring_after_action
