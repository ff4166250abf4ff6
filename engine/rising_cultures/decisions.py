"""What an open sub-decision (a `Pending`, law 2) still offers.

Both sides of a turn ask this: `actions` lists the choices as legal actions, and
`flow.advance` drops a decision that has nothing left to choose (a full progress
area, no coin for the Nile) before it looks for the next step.
"""

from __future__ import annotations

from . import rules
from .data import DATA
from .rules import BOARDS
from .state import Pending, State

SLUG = DATA.slug
#: `cover nothing`: the new leader goes on a free leader stack (Persia) and covers no one.
FREE_STACK = "nothing"


def nile_spaces(s: State) -> list[int]:
    """Indexes of developed Nile cards with a free coin space."""
    return [i for i, dev in enumerate(s.nile_developed) if dev and len(s.nile_coins[i]) < DATA.nile[i].spaces]


def choices(s: State, d: Pending) -> list[str]:
    """The real choices of an open decision; [] means it has nothing left to decide."""
    p = s.players[d.seat]
    kind = d.kind
    if kind == "compete":
        return ["province compete", "province decline"]
    if kind == "keep":
        return ["military keep", "military discard"]
    if kind == "cover":
        return [f"cover {SLUG[c] if c else FREE_STACK}" for c in rules.leader_places(p)]
    if kind == "develop":
        return [f"develop {n.slug}" for i, n in enumerate(DATA.nile) if not s.nile_developed[i]]
    if kind == "nile":
        if p.coins <= 0:
            return []
        return [f"nile {DATA.nile[i].slug}" for i in nile_spaces(s)]
    if len(p.progress) >= rules.max_level(p):
        return []  # progress area full: no further progress card fits
    if kind == "progress":
        out = []
        if d.card != "wisdom" and p.resources:
            out.append("progress yes")
        if d.card == "wisdom" or BOARDS[p.civ].progress_from_discard:
            out.extend(f"progress {SLUG[c]}" for c in p.discard)
        return out
    if kind == "maghreb":
        out = [f"maghreb discard {SLUG[c]}" for c in p.discard]
        if p.military:
            out.append("maghreb military")
        return out
    raise ValueError(f"unknown decision {kind!r}")
