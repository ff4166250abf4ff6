"""6.1 Civilization Traits, 6.2 Bonus Areas, 6.3 Exceptions (Troy / Arzawa, Sargonid Assyria)."""

from __future__ import annotations

from engine.cradle import GAME
from engine.cradle.rounds import start_round
from engine.cradle.scoring import score_seat

from .helpers import act, in_round, position, text


def test_6_1_no_city_bonus_destroys_cities_on_4_to_6():
    # Guti (No City Bonus) take Ur: one roll per City
    s = in_round(
        position({"1-5": 0}, {"elam": ("1-5", 1)}, cities={"ur": ["ur"], "uruk": ["uruk"]}, rolls=[4]), "1-5", 0, 3
    )
    s, events = act(s, "place ur")
    assert "ur" not in s.cities and "the city of Ur is destroyed" in text(events)
    s2 = in_round(position({"1-5": 0}, {"elam": ("1-5", 1)}, cities={"ur": ["ur"]}, rolls=[3]), "1-5", 0, 3)
    s2, events = act(s2, "place ur")
    assert s2.cities == {"ur": ["ur"]} and "stands" in text(events)


def test_6_1_no_city_bonus_never_scores_cities():
    s = position({"1-5": 0}, {"ur": ("1-5", 1)}, cities={"ur": ["ur"]})
    assert score_seat(s, 0).cities == 0
    later = position({"1-5": 0, "2-1": 0}, {"ur": ("1-5", 1)}, cities={"ur": ["ur"]}, epoch=2)
    assert score_seat(later, 0).cities == 1  # the trait is lost after its Epoch


def test_6_1_commerce_one_vp_per_two_cities_on_top():
    cities = {"sumer": ["lagash"], "ur": ["ur"], "uruk": ["uruk"]}
    s = position({"1-1": 0}, {"sumer": ("1-1", 1), "ur": ("1-1", 1), "uruk": ("1-1", 1)}, cities=cities)
    sc = score_seat(s, 0)
    assert sc.cities == 3 and sc.commerce == 1


def test_6_1_seafaring_places_in_any_area_on_the_same_sea():
    s = in_round(position({"2-1": 0}, {"crete": ("2-1", 1)}, epoch=2), "2-1", 0, 3, seafaring=True)
    legal = GAME.legal_actions(s, 0)
    # Crete is on the Aegean and Egyptian Seas: Thrace (Aegean) and Zoan (Egyptian) become reachable
    assert {"place thrace", "place zoan", "place lukka"} <= set(legal)
    assert "place colchis" not in legal  # Black Sea: Crete does not border it
    landlocked = in_round(position({"2-1": 0}, {"crete": ("2-1", 1)}, epoch=2), "2-1", 0, 3, seafaring=False)
    assert "place thrace" not in GAME.legal_actions(landlocked, 0)


def test_6_1_previous_epoch_civilizations_keep_only_seafaring() -> None:
    s = position({"2-1": 0, "3-1": 0}, {a: ("2-1", 1) for a in ["crete", "cyclades", "rhodes"]}, epoch=3)
    events: list[str] = []
    start_round(s, "2-1", events)
    rnd = s.round_now()
    assert rnd.seafaring and not rnd.current
    assert "colonize" not in GAME.legal_actions(s, 0)  # Commerce and colonization are gone
    assert (
        score_seat(
            position(
                {"2-1": 0, "3-1": 0},
                {"crete": ("2-1", 1), "rhodes": ("2-1", 1)},
                cities={"crete": ["knossos"], "rhodes": ["lindos"]},
                epoch=3,
            ),
            0,
        ).commerce
        == 0
    )


def test_6_1_does_not_expand_in_epoch_vi():
    areas = ["nineveh", "assur", "hanigalbat"]
    s = in_round(position({"5-4": 0, "6-1": 0}, {a: ("5-4", 1) for a in areas}, epoch=6), "5-4", 0, 1, current=False)
    legal = GAME.legal_actions(s, 0)
    assert sorted(a for a in legal if a.startswith(("place", "attack"))) == [f"place {a}" for a in sorted(areas)]
    s5 = in_round(position({"5-4": 0}, {a: ("5-4", 1) for a in areas}, epoch=5), "5-4", 0, 1)
    assert "place mari" in GAME.legal_actions(s5, 0)


def test_6_2_bonus_area_scores_when_held_by_its_civilization():
    s = position({"1-2": 0}, {"ur": ("1-2", 1), "elam": ("1-2", 1)})
    assert score_seat(s, 0).bonus_areas == 1
    other = position({"1-2": 0, "1-1": 0}, {"ur": ("1-1", 1), "elam": ("1-2", 1)})
    assert score_seat(other, 0).bonus_areas == 0  # Ur held by the same player's Sumer does not count


def test_6_3_troy_and_arzawa_separate_pools_and_hostile():
    s = position({"3-4": 0}, epoch=3, rolls=[3, 4])
    start_round(s, "3-4t", [])
    assert s.rnd.pool == 3 - 1 and s.civ_at["wilusha"] == "3-4t"
    s.rnd = None
    s.rng.rolls = [3, 4]
    start_round(s, "3-4a", [])
    assert s.rnd.pool == 4 - 1 and s.civ_at["arzawa"] == "3-4a"
    assert "attack wilusha" in GAME.legal_actions(s, 0)  # Troy is hostile to Arzawa


def test_6_3_sargonid_assyria_starts_next_to_neo_assyria_and_cannot_attack_it():
    board = {"nineveh": ("5-4", 2), "assur": ("5-4", 1), "damascus": ("5-1", 1)}
    s = position({"5-4": 1, "6-2": 0, "5-1": 1}, board, epoch=6, rolls=[3, 4])
    start_round(s, "6-2", [])
    assert s.rnd.step == "start"
    starts = GAME.legal_actions(s, 0)
    assert "start nineveh" not in starts and "start assur" not in starts
    assert {"start hanigalbat", "start eshnunna", "start north-zagros", "start mari", "start van"} <= set(starts)
    s, events = act(s, "start hanigalbat")
    assert s.civ_at["hanigalbat"] == "6-2"
    legal = GAME.legal_actions(s, 0)
    assert "attack nineveh" not in legal and "attack assur" not in legal
    assert "place carchemish" in legal


def test_6_3_sargonid_assyria_falls_back_to_assur_without_neo_assyria():
    s = position({"6-2": 0}, epoch=6, rolls=[3, 4])
    start_round(s, "6-2", [])
    assert s.civ_at["assur"] == "6-2" and s.rnd.step == "grow"


def test_6_1_wonder_trait_attempts_until_successful():
    s = in_round(
        position(
            {"1-3": 0},
            {"memphis": ("1-3", 1), "thebes": ("1-3", 1)},
            cities={"memphis": ["memphis"], "thebes": ["abydos"]},
            rolls=[1, 2, 5],
        ),
        "1-3",
        0,
        5,
    )
    s, _ = act(s, "wonder memphis")
    assert "wonder memphis" in GAME.legal_actions(s, 0)  # failed: Wonder expertise tries again
    s, _ = act(s, "wonder thebes")
    s, events = act(s, "wonder memphis")
    assert s.wonders == {"statue-of-zeus": "memphis"} and s.vp[0] == 2
    assert not any(a.startswith("wonder") for a in GAME.legal_actions(s, 0))  # once successful, no more


def test_6_1_no_city_bonus_rolls_on_entering_not_on_reinforcing():
    # Guti already hold Ur (its City stood the first roll): a second Army placed there rolls nothing
    s = in_round(position({"1-5": 0}, {"ur": ("1-5", 1)}, cities={"ur": ["ur"]}, rolls=[6]), "1-5", 0, 3)
    s, events = act(s, "place ur")
    assert s.cities == {"ur": ["ur"]} and s.count["ur"] == 2
    assert "No City Bonus" not in text(events) and s.rng.used == []
