"""Records benchmark: `python -m tests.bench records [--games N] [--seed N]`.

What a game's end and the record commands cost, per game (engine only, no storage):
the story (replaying the log and reading every position's public view), drawing the
score chart, writing the export, and replaying the export as `epochs replay` does.
The story and the chart are drawn once when a game ends (off the event loop) and for
each `game chart`. Figures only; nothing is asserted.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import engine
from bot.service import export
from bot.service.story import story
from renderers.common.chart import score_chart
from renderers.scores import ChartLine, ScoreChart

PLAYERS = {"rising-cultures": 2, "rise-of-empires": 3, "cradle": 4, "mosaic": 3}
OPTIONS = {"cradle": {"non_player": True}}


def played(game_id: str, seed: int) -> tuple[list[export.Line], list[str]]:
    game = engine.get(game_id)
    names = [f"Player {i + 1}" for i in range(PLAYERS.get(game_id, game.min_players))]
    state = game.setup(names, seed, OPTIONS.get(game_id))
    rng = random.Random(seed)
    lines: list[export.Line] = []
    while not game.is_over(state):
        seat = rng.choice(game.to_act(state))
        action = rng.choice(game.legal_actions(state, seat))
        step = game.apply(state, seat, action)
        lines.append(export.Line(len(lines) + 1, seat, action, 0.0, "", False, list(step.events)))
        state = step.state
    return lines, names


def measure(game_id: str, seed: int) -> dict[str, float]:
    game = engine.get(game_id)
    lines, names = played(game_id, seed)
    record = export.Export(game_id, names, dict(OPTIONS.get(game_id) or {}), seed, lines)
    out: dict[str, float] = {"steps": len(lines)}
    t0 = time.perf_counter()
    states = [p.state for p in export.replay(game, record)]
    out["replay"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    told = story(game, states, len(names), ended=True)
    out["story"] = time.perf_counter() - t0 + out["replay"]
    chart = ScoreChart(
        game.title, told.word, told.labels, [ChartLine(i, n, [p[i] for p in told.scores]) for i, n in enumerate(names)]
    )
    t0 = time.perf_counter()
    image = score_chart(chart)
    out["chart"] = time.perf_counter() - t0
    out["chart_kib"] = len(image.png) / 1024
    seats = [{"seat": i, "name": n, "bot": None, "resigned": False} for i, n in enumerate(names)]
    t0 = time.perf_counter()
    data = export.dumps(
        export.build(
            table=1,
            game=game,
            seed=seed,
            options=record.options,
            seats=seats,
            lines=lines,
            public=False,
            status="finished",
            practice=False,
            created=0,
            started=0,
            ended=0,
            result=None,
            fork=None,
            now=0,
        )
    )
    out["export"] = time.perf_counter() - t0
    out["export_kib"] = len(data) / 1024
    return out


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.bench records")
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    print(
        f"{'game':16} {'steps':>6} {'replay ms':>10} {'story ms':>9} {'chart ms':>9} {'chart KiB':>10} "
        f"{'export ms':>10} {'export KiB':>11}   (median of {args.games} games)"
    )
    for game_id in engine.GAMES:
        runs = [measure(game_id, args.seed + g) for g in range(args.games)]
        med = {key: statistics.median(r[key] for r in runs) for key in runs[0]}
        print(
            f"{game_id:16} {med['steps']:6.0f} {med['replay'] * 1000:10.0f} {med['story'] * 1000:9.0f} "
            f"{med['chart'] * 1000:9.0f} {med['chart_kib']:10.0f} {med['export'] * 1000:10.1f} "
            f"{med['export_kib']:11.0f}"
        )
    return 0
