"""Issue 50: every handover reaches its player — one notification, at once, every time —
whatever the order in which bots decide, boards are drawn, posts are held and sent, and
two OS processes (this one and a child, tests/discord/handover_process.py) command and
deliver on one PostgreSQL database. The stress run of tests/discord/handovers.py with its delays scaled
down to fit CI (~50 s for 1,000 handovers on a busy 2-core machine); the bench runs it with
the full delays (`python -m tests.bench discord handovers`)."""

from __future__ import annotations

import pytest

from tests.conftest import database_url
from tests.discord.handovers import Delays, run


@pytest.fixture
def postgres_database(request: pytest.FixtureRequest, tmp_path) -> str:
    return database_url(request, "postgres", tmp_path)


async def test_50_every_person_called_to_act_is_notified_exactly_once(postgres_database):
    """All four games, people and bots (some people told by DM), two bot processes (this
    one and a child OS process, each with its service and dispatcher) on one PostgreSQL
    database, slow drawing, a slow Discord, bots answering at random speeds, a tenth of the
    commands' posts refused and sent late from the outbox."""
    tally, seconds = await run(
        postgres_database, tables=24, target=1000, delays=Delays(draw=0.1, send=0.1, think=0.2, refuse=0.1), seed=5
    )
    report = "\n".join(tally.lines(seconds))
    assert len(tally.handovers) >= 1000, report
    assert not tally.missed, report
    assert all(tally.notified.get(k, 0) == 1 for k in tally.handovers), report
    assert tally.not_acting == 0 and tally.caller == 0, report
    assert tally.bot_only == 0 and tally.out_of_order == 0, report
    assert tally.late_lines == 0, report
    assert tally.held > 0, report  # the late path was taken
    assert tally.child_picks > 0 and tally.child_deliveries > 0, report  # the child commanded and delivered
