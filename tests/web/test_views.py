"""The views kept for the pages are bounded in bytes, not in number (issue 53): one view of
a long game weighs hundreds of KB, so 512 of them could hold 150 MB."""

from __future__ import annotations

import dataclasses

from bot.web.views import Views, weight


async def test_the_kept_views_weigh_at_most_their_budget_the_newest_used_staying(web):
    await web.started()
    await web.ok(1, "play take 1")
    rec = await web.storage.latest_table(100)
    view = await web.service.table_view(rec.id, None)
    assert view is not None and view.story
    story = [dataclasses.replace(entry, label=f"{entry.label} {n}") for n in range(400) for entry in view.story]
    long = dataclasses.replace(view, story=story)  # a long game's told log
    heavy = weight(long)
    assert heavy > 20 * weight(view)
    kept = Views(limit=3 * heavy + heavy // 2)
    for version in range(10):
        kept.put((rec.id, version, None), long)
        kept.get((rec.id, 0, None))  # a page of version 0 is still open: it stays
    assert kept.size <= kept.limit and len(kept) == 3
    assert kept.get((rec.id, 0, None)) is long and kept.get((rec.id, 9, None)) is long
    assert kept.get((rec.id, 5, None)) is None
    heavier = dataclasses.replace(long, story=[dataclasses.replace(e, label=e.label + "x" * 1000) for e in story])
    kept.put((rec.id, 99, 0), heavier)  # heavier than the whole budget
    assert kept.get((rec.id, 99, 0)) is None and len(kept) == 3


async def test_the_web_table_keeps_its_views_within_view_bytes(web):
    await web.started()
    table, seats = await web.links_of()
    assert web.table._views.limit == 64 * 1024 * 1024  # the default: [web] view_cache_mb
    web.table._views.limit = 1  # nothing fits: every page reads its view again, and works
    for path in (table, seats[1], seats[2]):
        assert (await web.client.get(path)).status == 200
    assert len(web.table._views) == 0 and web.table._views.size == 0
