"""The render benchmark runs end to end on a played game (figures only, nothing timed is asserted)."""

from __future__ import annotations

from tests.bench import render as bench


def test_render_benchmark_collects_figures_for_public_and_private_images(capsys):
    stats = bench.collect("rising-cultures", seed=2, games=1, every=40)
    for kind in ("public", "private"):
        s = stats[kind]
        assert len(s["render"]) == len(s["encode"]) == len(s["bytes"]) >= 2
        assert all(b > 1000 for b in s["bytes"]) and all(w == 1200 for w, _ in s["px"])
    bench.report("rising-cultures", stats)
    out = capsys.readouterr().out
    assert "p95" in out and "encode" in out and "KiB" in out


def test_render_benchmark_refuses_an_unknown_game(capsys):
    assert bench.main(["no-such-game"]) == 2
