"""Render benchmark: `python -m tests.bench render <game-id> [--seed N] [--games N] [--every K] [--players N]`.

Plays seeded random games with the engine contract (setup, legal_actions,
apply) and renders the public board and the acting seat's private image after
every K-th step. For each image it also times encoding the very same picture
alone (the PNG is decoded and re-encoded with the renderer's own encoder,
`renderers.common.png_bytes`): that is the floor no renderer can beat.

Targets (issue 5): render p95 < 150 ms, render p95 <= 3x the encode floor's
p95, PNG < 1 MB. Figures only; nothing is asserted.
"""
from __future__ import annotations

import argparse
import io
import random
import statistics
import time

from PIL import Image as PILImage

import engine
import renderers
from renderers.common import png_bytes

TARGET_P95_MS = 150.0
TARGET_RATIO = 3.0
TARGET_BYTES = 1_000_000


def _pct(values: list[float], q: float) -> float:
    values = sorted(values)
    if not values:
        return float("nan")
    k = min(len(values) - 1, max(0, int(round(q * (len(values) - 1)))))
    return values[k]


def _encode_floor(png: bytes) -> float:
    im = PILImage.open(io.BytesIO(png)).convert("RGB")
    t0 = time.perf_counter()
    png_bytes(im)
    return time.perf_counter() - t0


def collect(game_id: str, seed: int, games: int, every: int, players: int | None = None) -> dict[str, dict[str, list]]:
    game = engine.get(game_id)
    stats: dict[str, dict[str, list]] = {k: {"render": [], "encode": [], "bytes": [], "px": []}
                                         for k in ("public", "private")}
    for g in range(games):
        rng = random.Random(seed + g)
        n = players or game.min_players
        state = game.setup([f"Player {i + 1}" for i in range(n)], seed + g)
        last: list[str] = []
        step = 0
        while not game.is_over(state):
            seat = rng.choice(game.to_act(state))
            if step % every == 0:
                for kind, who in (("public", None), ("private", seat)):
                    view = dict(game.view(state, who))
                    view.setdefault("last_move", last)
                    t0 = time.perf_counter()
                    img = renderers.render(game_id, view, seat=who)
                    stats[kind]["render"].append(time.perf_counter() - t0)
                    stats[kind]["encode"].append(_encode_floor(img.png))
                    stats[kind]["bytes"].append(len(img.png))
                    stats[kind]["px"].append((img.width, img.height))
            action = rng.choice(game.legal_actions(state, seat))
            result = game.apply(state, seat, action)
            state, last = result.state, list(result.events)
            step += 1
    return stats


def report(game_id: str, stats: dict[str, dict[str, list]]) -> bool:
    ok = True
    print(f"render benchmark: {game_id}")
    for kind, s in stats.items():
        if not s["render"]:
            continue
        r50, r95 = _pct(s["render"], .5) * 1000, _pct(s["render"], .95) * 1000
        e50, e95 = _pct(s["encode"], .5) * 1000, _pct(s["encode"], .95) * 1000
        b50, bmax = statistics.median(s["bytes"]), max(s["bytes"])
        ratio = r95 / e95 if e95 else float("inf")
        w = max(p[0] for p in s["px"])
        h_lo, h_hi = min(p[1] for p in s["px"]), max(p[1] for p in s["px"])
        good = r95 < TARGET_P95_MS and ratio <= TARGET_RATIO and bmax < TARGET_BYTES
        ok &= good
        print(f"  {kind:8s} n={len(s['render']):4d}  size {w}x{h_lo}-{h_hi}")
        print(f"    render   p50 {r50:6.1f} ms  p95 {r95:6.1f} ms   (target p95 < {TARGET_P95_MS:.0f} ms)")
        print(f"    encode   p50 {e50:6.1f} ms  p95 {e95:6.1f} ms   (same image, encode alone)")
        print(f"    ratio    render p95 / encode p95 = {ratio:.2f}x   (target <= {TARGET_RATIO:.0f}x)")
        print(f"    PNG      p50 {b50 / 1024:6.1f} KiB  max {bmax / 1024:6.1f} KiB   (target < 1 MB)")
        print(f"    {'meets' if good else 'MISSES'} the targets")
    return ok


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="python -m tests.bench render")
    p.add_argument("game", help="game id, e.g. rising-cultures")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--games", type=int, default=1)
    p.add_argument("--every", type=int, default=1, help="render after every K-th step")
    p.add_argument("--players", type=int, default=None, help="player count (default: the game's minimum)")
    args = p.parse_args(argv)
    if args.game not in engine.GAMES:
        print(f"unknown game {args.game!r}; available: {', '.join(engine.GAMES) or 'none'}")
        return 2
    report(args.game, collect(args.game, args.seed, args.games, args.every, args.players))
    return 0
