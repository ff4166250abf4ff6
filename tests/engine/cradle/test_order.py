"""4.0 Strategy Phase order and 5.7 the sequence of Civilization Rounds."""

from __future__ import annotations

from engine.cradle import GAME
from engine.cradle.flow import begin_strategy, queue_for, strategy_order

from .helpers import Scripted, position

SIX = ["ann", "bob", "cyd", "dee", "eve", "fay"]


def test_4_0_epoch_4_round_order_example():
    """The player going fifth holds 1-3, 2-6, 3-3 and 4-5: rounds in that order."""
    cards = {"1-3": 4, "2-6": 4, "3-3": 4, "4-5": 4, "4-1": 0, "4-2": 1, "4-3": 2, "4-4": 3, "4-6": 5}
    s = position(
        cards, {"zoan": ("1-3", 1), "north-zagros": ("2-6", 1), "hanigalbat": ("3-3", 1)}, epoch=4, players=SIX
    )
    assert strategy_order(s) == [0, 1, 2, 3, 4, 5]
    assert strategy_order(s).index(4) == 4  # fifth, because of 4-5 Arameans
    assert queue_for(s, 4) == ["1-3", "2-6", "3-3", "4-5"]


def test_4_0_epoch_2_minoans_go_first_even_with_the_amorites():
    cards = {"1-6": 2, "2-1": 2, "2-2": 0, "2-3": 1, "2-4": 3, "1-1": 0}
    s = position(cards, {"mari": ("1-6", 2)}, epoch=2)
    assert strategy_order(s)[0] == 2
    assert queue_for(s, 2) == ["1-6", "2-1"]


def test_4_0_troy_then_arzawa_as_two_rounds():
    s = position({"3-4": 1, "3-1": 0}, epoch=3)
    assert queue_for(s, 1) == ["3-4t", "3-4a"]


def test_5_7_rounds_run_in_order_then_the_player_scores() -> None:
    cards = {"1-1": 0, "1-2": 1, "1-3": 2, "1-4": 3}
    s = position(cards, epoch=1, rolls=[3, 4])  # Sumer's bonus roll 7: nothing
    s.rng = Scripted([3, 4])
    events: list[str] = []
    begin_strategy(s, events)
    from engine.cradle.flow import advance

    advance(s, events)
    rnd = s.round_now()
    assert rnd.civ == "1-1" and rnd.pool == 8 and s.civ_at["sumer"] == "1-1"
    assert GAME.to_act(s) == [0]
    rnd.pool = 1  # Sumer's last Army
    s2 = GAME.apply(s, 0, "place sumer").state
    assert s2.rnd.civ == "1-2"  # Elam's round follows Sumer's scoring
    assert s2.vp[0] == 1  # 1 Area (0 VP), no Cities in this position, Mesopotamia presence (1)


def test_2_1_six_epochs_each_allocation_strategy_end_of_epoch() -> None:
    """Six Epochs; allocation from Epoch II; events after Epochs I-V only; the game ends after VI."""
    import random

    rng = random.Random(8)
    s = GAME.setup(["ann", "bob", "cyd", "dee"], 8)
    assert any("Epoch I (Early Bronze Age): Strategy Phase order" in e for e in GAME.view(s, None)["last_move"])
    seen = [(s.epoch, s.phase)]
    log: list[str] = []
    while not GAME.is_over(s):
        seat = GAME.to_act(s)[0]
        step = GAME.apply(s, seat, rng.choice(GAME.legal_actions(s, seat)))
        s = step.state
        log += step.events
        if (s.epoch, s.phase) != seen[-1]:
            seen.append((s.epoch, s.phase))
    text = "\n".join(log)
    for roman in ("I", "II", "III", "IV", "V"):
        assert f"End of Epoch {roman}: each Civilization on the map rolls for events." in text
    assert "End of Epoch VI" not in text
    assert {e for e, p in seen if p == "allocate"} == {2, 3, 4, 5, 6}
    assert text.count("Strategy Phase order") == 5  # Epoch I's is in the setup log (the view's last_move)
    assert s.epoch == 6 and s.phase == "over"
    from engine.cradle.scoring import result_line

    assert step.events[-1] == result_line(s) and s.players[GAME.winners(s)[0]] in step.events[-1]  # 1.0


def test_4_0_turn_order_is_the_strategy_order_for_the_heads_up():
    """The service pings the player after the one whose turn starts (issue 12 §3): in
    Cradle that is the next player in the Strategy Phase order, not in seat order."""
    from engine.cradle import GAME

    state = GAME.setup(["a", "b", "c", "d"], 1)
    state.order = [2, 0, 3, 1]
    assert GAME.turn_order(state) == [2, 0, 3, 1]
    state.order = []
    assert GAME.turn_order(state) == [0, 1, 2, 3]
