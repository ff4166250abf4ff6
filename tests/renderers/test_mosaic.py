"""Mosaic images: public map board and the private image (face-down technologies, draft hand)."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image as PILImage

import engine
import renderers
from engine.mosaic.data import load
from engine.mosaic.words import hex_name, population_word, tax_word
from renderers.common import recording

GAME = engine.get("mosaic")
D = load()


def play(n: int, seed: int, steps: int):
    s = GAME.setup([f"Player {i + 1}" for i in range(n)], seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if GAME.is_over(s):
            break
        seat = rng.choice(GAME.to_act(s))
        s = GAME.apply(s, seat, rng.choice(GAME.legal_actions(s, seat))).state
    return s


def decode(img):
    im = PILImage.open(io.BytesIO(img.png))
    im.load()
    return im


@pytest.mark.parametrize("n,steps", [(2, 0), (3, 40), (4, 150), (6, 260), (5, 10_000)])
def test_public_board_renders_for_every_player_count_and_phase(n, steps):
    s = play(n, n, steps)
    img = renderers.render("mosaic", GAME.view(s, None))
    im = decode(img)
    assert im.size == (img.width, img.height) and img.width == 1200 and img.height > 1000
    for r in D.regions.values():
        if r.in_play_from_players <= n:
            assert r.name in img.alt
    for p in s.players:
        assert p.name in img.alt


def test_public_board_shows_pieces_in_the_owners_colour_on_the_map():
    from engine.mosaic.board import cities_of
    from renderers.common import player_color
    from renderers.mosaic.parts import PIECE_DY, centre

    s = play(4, 2, 60)
    view = GAME.view(s, None)
    img = decode(renderers.render("mosaic", view)).convert("RGB")
    from renderers.mosaic.board import Layout

    y0 = Layout.of(view).map_top
    h = cities_of(s, 0)[0]
    cx, cy = centre(D.hexes[h].px)
    px = img.getpixel((int(cx) - 9, int(cy + y0 + PIECE_DY) - 9))  # inside the square, clear of its letter
    assert sum(abs(a - b) for a, b in zip(px, player_color(0), strict=False)) < 60


def test_private_image_lists_face_down_technologies_and_the_public_one_does_not():
    s = play(4, 5, 200)
    seat = next((i for i, p in enumerate(s.players) if p.hidden), None)
    if seat is None:
        s.players[0].hidden = ["philosophy"]
        seat = 0
    names = [D.technologies[t].name for t in s.players[seat].hidden]
    private = renderers.render("mosaic", GAME.view(s, seat), seat=seat)
    with recording() as written:
        public = renderers.render("mosaic", GAME.view(s, None))
        tables = renderers.render("mosaic", GAME.view(s, None), None, "tables")
    assert all(n in private.alt for n in names)
    assert "Private" in private.alt
    decode(private)
    # public: the offer, and a face-down card taken from it (N51)
    known = " ".join(D.technologies[t].name for t in s.tech_offer + s.players[seat].seen if t)
    for n in names:
        assert f"{n} —" not in public.alt and f"{n} —" not in tables.alt
        if n not in known:
            assert not any(n in m.text for m in written), n


def test_private_image_shows_the_draft_hand_during_the_draft():
    s = GAME.setup(["a", "b", "c"], 9)
    while s.phase == "leaders":
        seat = GAME.to_act(s)[0]
        s = GAME.apply(s, seat, GAME.legal_actions(s, seat)[0]).state
    hand = [D.technologies[t].name for t in s.players[1].hand]
    img = renderers.render("mosaic", GAME.view(s, 1), seat=1)
    assert "Draft hand" in img.alt and all(n in img.alt for n in hand)
    other = renderers.render("mosaic", GAME.view(s, 2), seat=2)
    assert not any(n in other.alt for n in hand if n not in [D.technologies[t].name for t in s.players[2].hand])


def test_last_move_is_in_the_header():
    s = play(3, 4, 30)
    view = GAME.view(s, None)
    img = renderers.render("mosaic", view)
    assert view["last_move"] and "Last move" in img.alt


def test_game_over_header_names_the_winner():
    s = play(2, 1, 100_000)
    assert GAME.is_over(s)
    img = renderers.render("mosaic", GAME.view(s, None))
    winner = s.players[GAME.winners(s)[0]].name
    assert f"winner: {winner}" in img.alt


def test_the_hex_of_the_last_move_is_framed():
    s = play(3, 4, 10)
    view = dict(GAME.view(s, None))
    from renderers.mosaic.board import Layout
    from renderers.mosaic.parts import MAP_H, centre

    def map_part(highlight):
        y0 = Layout.of(view).map_top
        image = renderers.render("mosaic", view, None, "map", highlight)
        return decode(image).convert("RGB").crop((0, y0, 1200, y0 + MAP_H))

    framed = map_part(["greece-3"])
    plain = map_part([])
    cx, cy = centre(D.hexes["greece-3"].px)
    box = (int(cx) - 40, int(cy) - 40, int(cx) + 40, int(cy) + 40)
    assert framed.crop(box).tobytes() != plain.crop(box).tobytes()
    far = (0, MAP_H - 60, 60, MAP_H)  # the sea in a corner is the same in both
    assert framed.crop(far).tobytes() == plain.crop(far).tobytes()


def test_republic_private_image_shows_the_deck_top_it_looked_at():
    s = play(3, 6, 60)
    s.players[s.seat].government = "republic"
    seat = s.seat
    s.pending.items.clear()
    s.phase, s.stage, s.action_open = "play", "main", False
    s.pop_deck = ["pop07", "pop01"]
    s = GAME.apply(s, seat, "peek population").state
    img = renderers.render("mosaic", GAME.view(s, seat), seat=seat)
    assert "Republic: top of the population deck" in img.alt
    assert "+2 population for 10 food" in img.alt
    other = (seat + 1) % 3
    assert "Republic: top" not in renderers.render("mosaic", GAME.view(s, other), seat=other).alt


def test_region_names_sit_in_the_sea_never_over_a_hex():
    from renderers.common import font
    from renderers.mosaic.board import _label_spot
    from renderers.mosaic.parts import R, centre

    centres = [centre(h.px) for h in D.hexes.values()]
    for reg, r in D.regions.items():
        xs = [centre(D.hexes[h].px) for h in D.region_hexes[reg]]
        mx, top = sum(x for x, _ in xs) / len(xs), min(y for _, y in xs)
        x, y = _label_spot(r.name, mx, top - R - 4, centres)
        half = font(24, True).getlength(r.name) / 2
        for cx, cy in centres:  # no hex centre within the label's box grown by most of a hex radius
            assert not (x - half - R * 0.8 < cx < x + half + R * 0.8 and y - 26 - R * 0.8 < cy < y + R * 0.8), r.name
        assert min((cx - mx) ** 2 + (cy - top) ** 2 for cx, cy in xs) ** 0.5 < 8 * R  # still near its region


def test_offers_show_what_each_card_does_and_costs():
    s = play(4, 3, 20)
    img = renderers.render("mosaic", GAME.view(s, None))
    for t in filter(None, s.tech_offer):
        assert D.technologies[t].text in img.alt
    for b in filter(None, s.build_offer):
        card = D.builds[b]
        line = next(x for x in img.alt.splitlines() if x.startswith(f"{card.name} ("))
        assert ("5 stone 5 ideas" in line) if card.type == "project" else True
        assert ("4 stone 2 pop" in line) if card.type in ("city", "port_city") else True
        assert ("free" in line) if card.type.endswith("town") else True
    for tc in filter(None, s.tax_offer):  # each card under the words its action takes
        c = D.tax_cards[tc]
        assert f"{c.kind} {tax_word(c)}: {c.multiplier}×" in img.alt and f"+{c.unrest} unrest" in img.alt
    for pc in filter(None, s.pop_offer):
        c = D.population_cards[pc]
        assert f"population {population_word(c)}: +{c.population} population for {c.food_cost} food" in img.alt


def test_empty_population_and_tax_decks_show_the_fallback_formulas():
    s = play(4, 3, 20)
    s.pop_offer, s.pop_deck, s.tax_offer, s.tax_deck = ["", ""], [], ["", ""], []
    alt = renderers.render("mosaic", GAME.view(s, None)).alt
    assert "All cards used: population 2-for-15-food: +2 population for 15 food" in alt
    assert (
        "tax 2-per-population-no-unrest: 2×population + Gov symbols + tax prod; "
        "tariff 2-per-trade-good-no-unrest: 2×unique goods + cities + tariff prod"
    ) in alt


def test_private_image_says_what_a_face_down_technology_still_needs():
    s = play(4, 5, 200)
    p = s.players[0]
    p.hidden = ["stoicism"]  # needs culture 2, government 1, population 1
    p.techs, p.builds, p.library = [], [], "government"
    alt = renderers.render("mosaic", GAME.view(s, 0), seat=0).alt.replace("\n", " ")
    assert "[missing: culture 2, population 1]" in alt
    p.library = "culture"
    ready = [t for t in D.technologies if D.technologies[t].requires == {"culture": 1}][0]
    p.hidden = [ready]
    alt = renderers.render("mosaic", GAME.view(s, 0), seat=0).alt.replace("\n", " ")
    assert "[ready: you may flip it on any of your turns]" in alt


def test_scientific_says_it_counts_played_technologies_only():
    """N29: Scientific counts face-up technologies only; the board says so beside the tile."""
    s = play(4, 5, 40)
    s.achievements_in_play = s.achievements = ["scientific", "urban"]
    alt = renderers.render("mosaic", GAME.view(s, None)).alt.replace("\n", " ")
    assert "Scientific, Urban Scientific: 15 technologies played face up (a face-down card counts once flipped)." in alt


def test_game_over_image_lists_every_line_of_the_final_scoring():
    s = play(3, 2, 100_000)
    assert GAME.is_over(s)
    view = GAME.view(s, None)
    alt = renderers.render("mosaic", view).alt
    for row in (
        "cities",
        "towns",
        "wonders",
        "golden ages",
        "achievements",
        "projects",
        "technologies",
        "manufactory towns",
        "leader",
        "unrest",
    ):
        expect = ", ".join(f"{p['name']} {p['score_lines'][row]}" for p in view["players"])
        assert f"Final {row}: {expect}" in alt
    mid = renderers.render("mosaic", GAME.view(play(3, 2, 50), None)).alt
    assert "Final cities" not in mid


def test_private_draft_hand_is_numbered_as_the_draft_action_counts():
    s = GAME.setup(["a", "b", "c"], 9)
    while s.phase == "leaders":
        seat = GAME.to_act(s)[0]
        s = GAME.apply(s, seat, GAME.legal_actions(s, seat)[0]).state
    alt = renderers.render("mosaic", GAME.view(s, 1), seat=1).alt
    for k, t in enumerate(s.players[1].hand, 1):
        assert f"{k}. {D.technologies[t].name} —" in alt
    assert "Draft hand (pick one to keep; the rest go to your left)" in alt and "`" not in alt  # words (issue 52)
    assert "Face-down technologies" not in alt
    s = GAME.apply(s, 1, "draft 3").state
    assert s.players[1].picks == [GAME.setup(["a", "b", "c"], 9).players[1].hand[2]]
    assert "you have picked" in renderers.render("mosaic", GAME.view(s, 1), seat=1).alt


def test_influence_panel_marks_first_place_per_region():
    from renderers.common import player_letter

    s = play(4, 2, 120)
    view = GAME.view(s, None)
    alt = renderers.render("mosaic", view).alt
    for r in view["regions"]:
        if r["in_play"] and max(r["influence"]) > 0:
            top = max(r["influence"])
            firsts = ", ".join(player_letter(i) for i, v in enumerate(r["influence"]) if v == top)
            counts = ", ".join(f"{p['name']} {v}" for p, v in zip(view["players"], r["influence"], strict=True))
            assert f"{r['name']}: influence {counts} (first place: {firsts})" in alt


def test_leader_choice_shows_each_leaders_benefit_and_starting_bonus():
    """Setup: players select a leader before the technology draft; the private view lists
    the leaders left with what they give, and does not call the dealt cards a draft hand yet."""
    s = GAME.setup(["ann", "bob"], 5)
    seat = GAME.to_act(s)[0]
    alt = renderers.render("mosaic", GAME.view(s, seat), seat=seat).alt.replace("\n", " ")
    assert "Leaders to choose from:" in alt and "`" not in alt  # words, no typed command (issue 52)
    assert "Magistrate — +2 food, stone and tax production" in alt and "Start: 5 food, 10 stone, +1 population." in alt
    assert "Start: 20 money, +1 population, 1 military unit." in alt  # General
    assert "the draft begins once every leader is chosen" in alt and "you have picked" not in alt
    waiting = 1 - seat
    other = renderers.render("mosaic", GAME.view(s, waiting), seat=waiting).alt
    assert "Leaders still available:" in other and "you have picked" not in other


def test_public_alt_text_names_each_players_influence_per_region():
    s = GAME.setup(["ann", "bob"], 5)
    alt = renderers.render("mosaic", GAME.view(s, None)).alt
    assert "Italia: influence ann 0, bob 0; empty" in alt and "[0, 0]" not in alt


def _at_first_hex_choice():
    s = GAME.setup(["ann", "bob"], 5)
    while not any(a.startswith("hex ") for seat in GAME.to_act(s) for a in GAME.legal_actions(s, seat)):
        seat = GAME.to_act(s)[0]
        s = GAME.apply(s, seat, GAME.legal_actions(s, seat)[0]).state
    return s


def test_a_hex_decision_lists_its_hexes_with_their_contents_and_numbers_them_on_the_map():
    """`hex greece-7` is only usable if the player can find hex 7: every hex is numbered on the
    map, and the open decision's hexes are in the view, listed in the alt text by region and
    number ("Greece 7") with what lies there, and framed on the map."""
    s = _at_first_hex_choice()
    seat = GAME.to_act(s)[0]
    view = GAME.view(s, None)
    legal = [a[4:] for a in GAME.legal_actions(s, seat) if a.startswith("hex ")]
    assert view["pending"]["hexes"] == legal
    alt = renderers.render("mosaic", view).alt
    line = next(ln for ln in alt.splitlines() if ln.startswith("Hexes to choose from (numbered on the map)"))
    for h in legal:
        assert hex_name(D, h) in line
    cache = next(h for h in legal if h in view["caches"])
    assert f"{hex_name(D, cache)} (cache)" in line
    plain = dict(view, pending={k: v for k, v in view["pending"].items() if k != "hexes"})
    assert renderers.render("mosaic", plain).png != renderers.render("mosaic", view).png


def test_the_legend_explains_the_pillar_abbreviations_used_in_the_offers():
    """ "needs Urb1 Eco1" is only readable with the pillar key next to it."""
    s = GAME.setup(["ann", "bob"], 5)
    alt = renderers.render("mosaic", GAME.view(s, None)).alt
    assert "needs Urb1" in alt or "needs Bld1" in alt or "needs Mil1" in alt
    from renderers.mosaic.tables import LEGEND

    key = " ".join(item.label for item in LEGEND)
    assert "Urb urbanization" in key and "Eco economy" in key and "Mil military" in key


def test_public_pending_text_never_says_your():
    """Issue 13: the public board speaks of the player acting, never to them ("your")."""
    from renderers.mosaic.labels import header_for

    s = GAME.setup(["Ann", "Bo", "Cy"], 9)
    rng = random.Random(9)
    seen = set()
    while not GAME.is_over(s):
        view = GAME.view(s, None)
        status = header_for(view).status
        if view["pending"]:
            seen.add(view["pending"]["kind"])
        assert "your" not in status.lower() and " you " not in f" {status.lower()} ", status
        seat = rng.choice(GAME.to_act(s))
        s = GAME.apply(s, seat, rng.choice(GAME.legal_actions(s, seat))).state
    assert {"place", "military"} <= seen
