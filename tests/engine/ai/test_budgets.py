"""The benches' budgets (issue 24): the paired cost bench (tests/bench/budgets.py) and `tuned` (tests/bench/ai.py)."""

from __future__ import annotations

import dataclasses

import pytest

from tests.bench.budgets import costs, main


def test_every_budget_is_timed_on_the_same_positions() -> None:
    rows = costs("rising-cultures", 2, seed=1, steps=[30, 70], budgets=["20,2,8", "10,4,12"])
    assert [step for step, _ in rows] and {step for step, _ in rows} <= {30, 70}
    assert all(len(times) == 2 and min(times) >= 0.0 for _, times in rows)


def test_a_malformed_budget_is_refused_with_the_form_expected(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rising-cultures", "50,2"]) == 2
    assert "iterations,rollout,horizon" in capsys.readouterr().out


def test_a_tuned_budget_keeps_what_was_not_given() -> None:
    from engine.ai.levels import budget
    from tests.bench.ai import tuned

    cradle = budget("normal", "cradle")
    counts = tuned(cradle, "2000,10,30", "")
    assert (counts.iterations, counts.rollout, counts.horizon) == (2000, 10, 30)
    assert (counts.rule, counts.final, counts.exploration) == (cradle.rule, "secure", cradle.exploration)
    assert tuned(cradle, "50,2,8,0.4", "tree").exploration == 0.4
    assert tuned(cradle, "", "tree") == dataclasses.replace(cradle, rule="tree")


def test_every_level_names_an_evaluation_its_game_has_and_the_baseline_keeps_issue_14s(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from engine.ai import levels
    from engine.ai.parts import parts
    from engine.cradle.resample import evaluate_board
    from engine.mosaic.resample import evaluate_tally
    from tests.bench.ai import OLD, add_old_levels

    monkeypatch.setattr(levels, "BUDGETS", dict(levels.BUDGETS))  # the old levels go with the test
    add_old_levels()
    BUDGETS = levels.BUDGETS
    for games in BUDGETS.values():
        for game_id, limits in games.items():
            assert callable(getattr(parts(game_id), limits.evaluation))
    assert BUDGETS[OLD + "normal"]["mosaic"].evaluation == "evaluate_tally"
    assert getattr(parts("mosaic"), BUDGETS[OLD + "normal"]["mosaic"].evaluation) is evaluate_tally
    assert BUDGETS["normal"]["mosaic"].evaluation == "evaluate"
    assert getattr(parts("cradle"), BUDGETS[OLD + "normal"]["cradle"].evaluation) is evaluate_board
    assert BUDGETS["normal"]["cradle"].evaluation == "evaluate"
