"""Ratings (issue 27 §4) as people read them, and `epochs ratings [--rebuild]`.

The numbers are the storage's (bot/storage/ratings.py: OpenSkill's Plackett-Luce model
folded over a server's counted records of a game, kept in the transaction that writes
each record). People read one number, the conservative estimate (the skill less three
times its uncertainty), which ranks them; beside it the skill and its uncertainty, so a
newcomer's 0 reads as "not known yet" rather than "bad" (bot/DECISIONS.md, "Ratings").
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from pathlib import Path

from ..storage import is_postgres, open_storage
from ..storage.base import Rating, Skill
from ..storage.ratings import Recomputed

#: What a rating is, said once under the numbers that show it.
EXPLAINED = (
    "Rating: the skill OpenSkill estimates from the final places of games against other people, "
    "less three times its uncertainty (the ± figure), so it rises as the estimate grows surer; "
    "games against bots alone and practice games do not count."
)
#: How many changed seats `epochs ratings` lists one by one.
LISTED = 20


def rating_text(rating: Rating) -> str:
    """ "rating 4.2 (skill 25.9 ± 7.2, 3 rated games)": the headline number, then what it is made of."""
    skill = rating.skill
    games = f"{rating.games} rated game{'s' if rating.games != 1 else ''}"
    return f"rating {skill.conservative:.1f} (skill {skill.mu:.1f} ± {skill.sigma:.1f}, {games})"


def ranked(ratings: Sequence[Rating], need: int) -> list[Rating]:
    """Those with at least `need` rated games, best first: by the conservative estimate, then
    more games, then name (a stable order for equal numbers)."""
    return sorted(
        (r for r in ratings if r.games >= need), key=lambda r: (-r.skill.conservative, -r.games, r.name.lower())
    )


# ---- epochs ratings [--rebuild] -------------------------------------------------------------
def _skill(skill: Skill | None) -> str:
    return "not rated" if skill is None else f"{skill.mu!r} ± {skill.sigma!r}"


def report(results: Sequence[Recomputed], *, write: bool) -> list[str]:
    """What a fold of every record found: how much it covered, and each stored number that is
    not the fold's (exact comparison: bot/DECISIONS.md, "Ratings")."""
    games = len({r.table for r in results})
    rated = sum(1 for r in results if r.computed is not None)
    changed = [r for r in results if r.changed]
    lines = [f"folded {games} counted games: {rated} seats of people rated"]
    if not changed:
        lines.append("every stored rating is the fold's: nothing " + ("changed" if write else "to change"))
        return lines
    verb = "replaced by the fold's" if write else "differ from the fold's (`epochs ratings --rebuild` stores them)"
    lines.append(f"{len(changed)} stored ratings {verb}:")
    for r in changed[:LISTED]:
        lines.append(f"  game #{r.table}, seat {r.seat} ({r.name}): {_skill(r.stored)} -> {_skill(r.computed)}")
    if len(changed) > LISTED:
        lines.append(f"  ... and {len(changed) - LISTED} more")
    return lines


async def run(
    database: str, *, write: bool, say: Callable[[str], None] = print, warn: Callable[[str], None] | None = None
) -> int:
    """The command: 0 when the stored ratings are (now) the fold's, 1 when a check found some
    that are not (nothing written), 2 when there is no such SQLite file (none is made)."""
    if not is_postgres(database) and not Path(str(database).removeprefix("sqlite:///")).is_file():
        (warn or say)(f"epochs ratings: no SQLite database at {database}")
        return 2
    storage = open_storage(database)
    await storage.open()
    try:
        began = time.perf_counter()
        results = await storage.recompute_ratings(write=write)
        took = time.perf_counter() - began
    finally:
        await storage.close()
    for line in report(results, write=write):
        say(line)
    say(f"({took:.2f} s)")
    return 0 if write or not any(r.changed for r in results) else 1


__all__ = ["EXPLAINED", "ranked", "rating_text", "report", "run"]
