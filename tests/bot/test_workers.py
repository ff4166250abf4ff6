"""The worker pool (bot/workers.py): jobs in other processes, crashes, timeouts, restarts.

The jobs are in tests/bot/jobs.py, which the workers import by name
(`tests.bot.jobs:<function>`), as they import `renderers:render`.
"""

from __future__ import annotations

import asyncio
import os
import signal
import time

import pytest

from bot.workers import (
    JobTimeout,
    PoolClosed,
    RemoteTraceback,
    WorkerCrashed,
    WorkerPool,
    WorkerStartFailed,
    default_size,
)

from .jobs import square

HERE = "tests.bot.jobs"


# ---- tests --------------------------------------------------------------------------------
async def until(condition, seconds: float = 30.0) -> bool:
    """Wait for something the pool does in the background (a replacement starting)."""
    deadline = time.monotonic() + seconds
    while not condition() and time.monotonic() < deadline:
        await asyncio.sleep(0.02)
    return condition()


@pytest.fixture
async def pool():
    p = WorkerPool(2, initializer=f"{HERE}:warm_up", initargs=("fonts",), name="test-pool")
    yield p
    await p.close()


async def test_jobs_run_in_warmed_worker_processes_not_in_this_one(pool):
    results = await asyncio.gather(*(pool.run(f"{HERE}:who") for _ in range(6)))
    pids = {pid for pid, _ in results}
    assert os.getpid() not in pids and pids <= set(pool.pids) and len(pool.pids) == 2
    assert all(warmed == ["fonts"] for _, warmed in results)  # the initializer ran once per worker
    assert await pool.run(square, 7) == 49  # a function picklable by reference works too


async def test_a_pool_that_never_ran_starts_on_its_first_job():
    p = WorkerPool(1, name="lazy")
    try:
        assert not p.running and p.pids == []
        assert await p.run(f"{HERE}:square", 3) == 9
        assert p.running and len(p.pids) == 1
    finally:
        await p.close()


async def test_a_job_s_exception_comes_back_with_the_worker_s_traceback(pool):
    with pytest.raises(ValueError, match="bad view") as info:
        await pool.run(f"{HERE}:fail", "bad view")
    assert isinstance(info.value.__cause__, RemoteTraceback) and "def fail" not in str(info.value.__cause__)
    assert "in fail" in str(info.value.__cause__)
    assert await pool.run(f"{HERE}:square", 4) == 16 and pool.stats.failed == 1


async def test_the_pool_survives_a_crashing_worker_and_replaces_it(pool):
    await pool.start()
    before = set(pool.pids)
    others = [asyncio.create_task(pool.run(f"{HERE}:nap", 0.3)) for _ in range(3)]
    with pytest.raises(WorkerCrashed, match="exit code 3"):
        await pool.run(f"{HERE}:crash", 3)
    assert [await t for t in others] == [0.3, 0.3, 0.3]  # the jobs on the other worker went on
    assert await asyncio.gather(*(pool.run(f"{HERE}:square", i) for i in range(8))) == [i * i for i in range(8)]
    assert await until(lambda: len(pool.pids) == 2)
    after = set(pool.pids)
    assert len(after) == 2 and len(before & after) == 1  # exactly the crashed one was replaced
    assert pool.stats.crashed == 1
    pid, warmed = await pool.run(f"{HERE}:who")
    assert warmed == ["fonts"]  # the replacement was warmed like the others


async def test_a_job_past_its_timeout_has_its_worker_replaced(pool):
    with pytest.raises(JobTimeout, match="longer than 0.2 s"):
        await pool.run(f"{HERE}:nap", 30, timeout=0.2)
    assert await pool.run(f"{HERE}:nap", 0.01, timeout=5) == 0.01
    assert await until(lambda: len(pool.pids) == 2) and pool.stats.timed_out == 1


async def test_a_limit_bounds_the_whole_wait_and_cuts_a_job_still_running(pool):
    """`limit` counts from the call: a job queued behind slow ones gives up in time, and a
    job still running at its limit has its worker replaced (issue 23)."""
    await pool.start()
    slow = [asyncio.create_task(pool.run(f"{HERE}:nap", 2.0)) for _ in range(2)]  # both workers busy
    await asyncio.sleep(0.1)
    started = time.monotonic()
    with pytest.raises(JobTimeout, match="within 0.3 s"):
        await pool.run(f"{HERE}:square", 3, limit=0.3)  # never left the queue
    assert time.monotonic() - started < 1.3
    assert await asyncio.gather(*slow) == [2.0, 2.0] and pool.stats.timed_out == 0  # nobody was cut for it
    before = set(pool.pids)
    with pytest.raises(JobTimeout):
        await pool.run(f"{HERE}:nap", 30, limit=0.3)
    assert await until(lambda: pool.stats.timed_out == 1 and len(pool.pids) == 2 and set(pool.pids) != before)
    pid, warmed = await pool.run(f"{HERE}:who", limit=5)
    assert warmed == ["fonts"]


async def test_a_frozen_worker_is_cut_at_the_limit_even_while_a_large_job_is_being_sent():
    """A stopped worker does not read its socket: a job larger than the socket's buffer
    blocks in sending. The limit still holds, and the worker is replaced."""
    pool = WorkerPool(1, name="frozen")
    await pool.start()
    [frozen] = pool.pids
    os.kill(frozen, signal.SIGSTOP)
    try:
        started = time.monotonic()
        with pytest.raises(JobTimeout):
            await pool.run(f"{HERE}:square", "x" * 8_000_000, limit=0.5)
        assert time.monotonic() - started < 1.5
        assert await until(lambda: pool.pids not in ([], [frozen])) and pool.stats.timed_out == 1
        assert await pool.run(f"{HERE}:square", 5, limit=10) == 25  # later jobs run on a fresh worker
    finally:
        try:
            os.kill(frozen, signal.SIGCONT)
        except ProcessLookupError:
            pass  # killed and replaced
        await pool.close()


async def test_restart_replaces_every_worker_and_keeps_the_waiting_jobs(pool):
    await pool.start()
    before = set(pool.pids)
    waiting = [asyncio.create_task(pool.run(f"{HERE}:nap", 0.05)) for _ in range(6)]
    await asyncio.sleep(0.02)
    await pool.restart()
    assert [await t for t in waiting] == [0.05] * 6
    assert not before & set(pool.pids) and len(pool.pids) == 2
    assert await pool.run(f"{HERE}:square", 5) == 25


async def test_close_stops_the_workers_fails_waiting_jobs_and_start_reopens(pool):
    p = WorkerPool(1, name="closing")
    await p.start()
    processes = [w.process for w in p._workers]
    running = asyncio.create_task(p.run(f"{HERE}:nap", 0.2))
    queued = [asyncio.create_task(p.run(f"{HERE}:square", i)) for i in range(3)]
    await asyncio.sleep(0.05)
    await p.close()
    assert await running == 0.2  # the job in progress finished
    for t in queued:
        with pytest.raises(PoolClosed):
            await t
    assert all(proc.poll() is not None for proc in processes)  # every worker exited
    with pytest.raises(PoolClosed):
        await p.run(f"{HERE}:square", 2)
    await p.start()
    try:
        assert await p.run(f"{HERE}:square", 2) == 4
    finally:
        await p.close()


async def test_a_full_queue_makes_callers_wait_their_turn_not_fail():
    p = WorkerPool(1, queue_limit=1, name="narrow")
    try:
        assert await asyncio.gather(*(p.run(f"{HERE}:square", i) for i in range(10))) == [i * i for i in range(10)]
    finally:
        await p.close()


async def test_a_result_that_cannot_travel_is_reported_not_lost(pool):
    with pytest.raises(Exception, match="pickle"):
        await pool.run(f"{HERE}:unpicklable")
    assert await pool.run(f"{HERE}:square", 6) == 36


async def test_a_worker_that_cannot_warm_up_refuses_to_start():
    p = WorkerPool(1, initializer=f"{HERE}:refuse_to_start", name="cold")
    with pytest.raises(WorkerStartFailed, match="no fonts here"):
        await p.start()
    assert not p.running and p.pids == []


def test_a_bad_job_name_or_size_is_refused_clearly():
    from bot.workers import resolve

    with pytest.raises(ValueError, match="'module:function'"):
        resolve("renderers.render")
    with pytest.raises(ValueError, match="at least one worker"):
        WorkerPool(0)
    assert default_size() >= 1


# ---- the service drawing its boards in the pool ------------------------------------------------
async def test_the_service_draws_boards_in_the_pool_and_a_crash_costs_one_picture(table, caplog):
    import signal

    table.service.settings.images = True
    table.service.workers = WorkerPool(
        1, initializer="renderers:warm", initargs=(["rising-cultures"],), name="test-render"
    )
    try:
        await table.started("rising-cultures", options="seed=3")
        board = await table.ok(1, "board")
        assert board.image is not None and board.image.png[:8] == b"\x89PNG\r\n\x1a\n"
        assert board.image.alt and board.image.alt in board.text

        os.kill(table.service.workers.pids[0], signal.SIGKILL)  # the worker dies between two boards
        after_crash = await table.ok(1, "board")
        assert after_crash.image is None and "Rising Cultures" in after_crash.text  # the text still comes
        assert "rendering rising-cultures failed" in caplog.text

        assert await until(lambda: len(table.service.workers.pids) == 1)
        again = await table.ok(1, "board")
        assert again.image is not None and again.image.png == board.image.png  # replaced, same picture

        await table.service.workers.restart()
        assert (await table.ok(1, "board")).image.png == board.image.png
    finally:
        await table.service.workers.close()


async def test_the_score_chart_is_drawn_in_the_pool_too(table):
    """The chart of `game chart` (issue 17) goes to the drawing workers like a board: the
    service hands over plain numbers (renderers/scores.py), so it never loads Pillow."""
    table.service.workers = WorkerPool(1, name="test-chart")
    jobs: list[str] = []
    run = table.service.workers.run

    async def recorded(job, *args, **kw):
        jobs.append(job)
        return await run(job, *args, **kw)

    table.service.workers.run = recorded
    try:
        await table.started("rising-cultures", options="seed=3")
        game = table.service.games["rising-cultures"]
        for _ in range(40):
            rec, state = await table.state()
            seat = game.to_act(state)[0]
            await table.ok(rec.user_at(seat).user, "play " + game.legal_actions(state, seat)[0])
        chart = await table.say(1, "game chart")
        assert "renderers.common.chart:score_chart" in jobs, chart.text
    finally:
        await table.service.workers.close()


async def test_a_frozen_drawing_worker_costs_one_picture_never_the_reply(table, caplog):
    """Issue 23: with the only drawing worker stopped (SIGSTOP), a move's reply came not at
    all (none within 25 s; the move was stored). Now it comes within the drawing limit
    plus a second, text only; the worker is replaced, warmed, and the next reply has its
    board again."""
    limit = 2.0
    table.service.settings.images = True
    table.service.settings.render_timeout = limit
    table.service.workers = WorkerPool(
        1, initializer="renderers:warm", initargs=(["rising-cultures"],), name="test-render"
    )
    try:
        await table.started("rising-cultures", options="seed=3")
        assert (await table.ok(1, "board")).image is not None
        frozen = table.service.workers.pids[0]
        os.kill(frozen, signal.SIGSTOP)
        rec, state = await table.state()
        game = table.service.games["rising-cultures"]
        seat = game.to_act(state)[0]
        started = time.monotonic()
        reply = await table.ok(rec.user_at(seat).user, "play " + game.legal_actions(state, seat)[0])
        waited = time.monotonic() - started
        assert waited < limit + 1.0, f"the reply took {waited:.1f} s"
        assert reply.image is None and reply.text  # the move's reply, text only
        assert "took longer than 2 s" in caplog.text
        after, _ = await table.state()
        assert after.version == rec.version + 1  # the move itself was stored
        assert await until(lambda: table.service.workers.pids not in ([], [frozen]))
        again = await table.ok(1, "board")
        assert again.image is not None  # later replies are unaffected
    finally:
        try:
            os.kill(frozen, signal.SIGCONT)
        except (ProcessLookupError, UnboundLocalError):
            pass
        await table.service.workers.close()
