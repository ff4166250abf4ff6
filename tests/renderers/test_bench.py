"""The render benchmark runs end to end on a played game (figures only, nothing timed is asserted)."""

from __future__ import annotations

from tests.bench import render as bench


def test_render_benchmark_collects_figures_for_the_map_tables_and_private_images(capsys):
    stats = bench.collect("rising-cultures", seed=2, games=1, every=40)
    for kind in ("map", "tables", "private"):
        s = stats[kind]
        assert len(s["render"]) == len(s["encode"]) == len(s["bytes"]) == len(s["text"]) >= 2
        assert all(b > 1000 for b in s["bytes"]) and all(w == 1200 for w, _ in s["px"])
        assert all(size >= 18 and phone == size * 450 / 1200 for phone, _, size in s["text"])
    bench.report("rising-cultures", stats)
    out = capsys.readouterr().out
    assert "p95" in out and "encode" in out and "KiB" in out and "smallest at 450 px wide 7.12 px" in out


def test_render_benchmark_refuses_an_unknown_game(capsys):
    assert bench.main(["no-such-game"]) == 2
