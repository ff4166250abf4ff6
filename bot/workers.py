"""Worker processes for CPU-bound jobs: board images now, fill-in bots' decisions later.

Why processes and not threads: drawing a board is 30-100 ms of Python and Pillow,
and Python threads share one interpreter lock; 16 boards on 2 threads ran only
0.85-1.36x as fast as one after another, and every drawing thread also slowed the
event loop that answers Discord. A process per core draws in parallel and leaves
the loop's process free to talk to Discord and SQLite.

    pool = WorkerPool(size=2, initializer="renderers:warm")
    await pool.start()                     # optional: run() starts a pool that never ran
    image = await pool.run("renderers:render", "mosaic", view, None)
    image = await pool.run("renderers:render", "mosaic", view, None, timeout=10, limit=10)
    await pool.restart()                   # fresh workers, queued jobs kept
    await pool.close()

- A job is a function named `"module:function"` (or the function itself, when it
  can be pickled by reference) and picklable arguments; its result, or the
  exception it raised, comes back to the caller. Naming the function by string
  means the calling process never imports what only the workers need (Pillow).
- `initializer` runs once in every new worker before its first job (warm fonts
  and static layers), so a replaced worker is warm as well.
- At most `queue_limit` jobs wait for a worker; a caller beyond that waits its
  turn in `run` (back-pressure, in arrival order) instead of piling up work.
- A worker that dies during a job (a crash, the out-of-memory killer) fails only
  that job, with `WorkerCrashed`, and is replaced at once; a job that overruns
  its `timeout` has its worker killed and replaced (`JobTimeout`). Other jobs go on.
- `limit` bounds the caller's whole wait — for the workers to start, for a place in
  the queue, for the job itself — so a stuck worker (stopped, swapping) can hold
  nobody longer than that: past it the caller gets `JobTimeout`, a job still
  waiting is dropped, and a job already running has its worker killed and
  replaced (warmed) as for `timeout`.
- A worker is a fresh interpreter (`python -c "from bot.worker import main; ..."`,
  talking over a socket pair), never a fork of a process that runs threads
  (aiosqlite, discord.py). It runs bot/worker.py, which imports nothing it does not
  need — not asyncio (with its ssl, 9 MB a process), not the bot's own `__main__`
  (which multiprocessing's "spawn" re-imports in every child), and no
  multiprocessing resource-tracker process comes with it.

This module is the parent side and runs on the event loop: one task per worker
takes jobs from the queue; the blocking pipe calls (send, wait for the answer or
the worker's death) run on one small thread per worker that only waits, never draws.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from typing import Any

from .worker import TIDY, Job, JobError, memory_trimmer, resolve

log = logging.getLogger(__name__)

#: What a worker process runs: bot/worker.py's main on the socket it was handed.
WORKER_MAIN = "import sys; from bot.worker import main; main(int(sys.argv[1]), sys.argv[2])"
#: Seconds a new worker may take to start and warm up before it counts as failed.
START_TIMEOUT = 120.0
#: Seconds a worker must have been idle before it gives its freed memory back: trimming
#: after every job would make the next board fault its buffers in again (~5-10 ms).
TIDY_AFTER = 1.0
#: Hands this process's freed heap back to the system (glibc), as an idle worker does.
_trim_here = memory_trimmer()
#: Seconds a closing worker gets to finish its job and exit before it is killed.
STOP_GRACE = 5.0
#: Seconds past a job's time limit after which a worker that has not even taken the job
#: (it stopped reading its socket while the job was being sent) is killed from here.
CUT_GRACE = 0.5


class PoolError(RuntimeError):
    """Base of the pool's own errors (a job's own exceptions come back as they are)."""


class PoolClosed(PoolError):
    """The pool was closed; `start()` it again to use it."""


class WorkerCrashed(PoolError):
    """The worker died while running the job (it has been replaced)."""


class JobTimeout(PoolError):
    """The job ran longer than its timeout; its worker was killed and replaced."""


class WorkerStartFailed(PoolError):
    """A new worker could not start (its initializer raised, or it died, or it took too long)."""


class RemoteTraceback(Exception):
    """The traceback of an exception raised in a worker, attached as its `__cause__`."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text

    def __str__(self) -> str:
        return self.text


def default_size() -> int:
    """The cores this process may run on (a container's CPU set included)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


# ----------------------------------------------------------------------------- parent side
@dataclass
class _Worker:
    process: subprocess.Popen[bytes]
    conn: Connection

    @property
    def pid(self) -> int:
        return self.process.pid

    @property
    def alive(self) -> bool:
        return self.process.poll() is None

    def exit_code(self) -> int | None:
        try:
            return self.process.wait(1)
        except subprocess.TimeoutExpired:
            return None

    def exchange(self, job: Job, args: tuple[Any, ...], timeout: float | None) -> tuple[str, Any]:
        """Send one job and wait for its answer (runs on an I/O thread): ("ok", result),
        ("error", (exception, traceback)), ("died", exit code) or ("timeout", None)."""
        try:
            self.conn.send((job, args))
            if not wait([self.conn], timeout):
                return "timeout", None
            return self.conn.recv()
        except (BrokenPipeError, ConnectionResetError, EOFError, OSError):
            return "died", self.exit_code()

    def tidy(self) -> None:
        """Tell an idle worker to give its freed memory back (no answer is expected)."""
        try:
            self.conn.send(TIDY)
        except OSError:
            pass  # it died: the next job finds out

    def stop(self, grace: float = STOP_GRACE) -> None:
        """Ask the worker to exit; kill it if it does not within `grace` seconds."""
        try:
            self.conn.send(None)
        except OSError:
            pass
        try:
            self.process.wait(grace)
        except subprocess.TimeoutExpired:
            pass
        self.kill()

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        try:
            self.process.wait(5)
        except subprocess.TimeoutExpired:
            log.error("worker %d did not exit after SIGKILL", self.pid)
        self.conn.close()


@dataclass
class _Task:
    job: Job
    args: tuple[Any, ...]
    timeout: float | None
    future: asyncio.Future[Any] = field(repr=False)
    #: When the caller stops waiting (`time.monotonic()`), None: never.
    deadline: float | None = None

    def budget(self) -> float | None:
        """Seconds the job may still run: its own timeout, cut to what is left of the caller's wait."""
        if self.deadline is None:
            return self.timeout
        left = max(0.0, self.deadline - time.monotonic())
        return left if self.timeout is None else min(self.timeout, left)


@dataclass
class PoolStats:
    """What the pool has done since it was built (for logs and benchmarks)."""

    done: int = 0
    failed: int = 0
    crashed: int = 0
    timed_out: int = 0
    started: int = 0


class WorkerPool:
    """A fixed number of worker processes fed from one bounded queue (see the module doc)."""

    def __init__(
        self,
        size: int | None = None,
        *,
        initializer: Job | None = None,
        initargs: tuple[Any, ...] = (),
        queue_limit: int | None = None,
        name: str = "epochs-worker",
    ) -> None:
        self.size = size if size is not None else default_size()
        if self.size < 1:
            raise ValueError(f"a worker pool needs at least one worker, not {self.size}")
        self.initializer = initializer
        self.initargs = tuple(initargs)
        self.queue_limit = queue_limit if queue_limit is not None else 64 * self.size
        self.name = name
        self._workers: list[_Worker | None] = []
        self._drivers: list[asyncio.Task[None]] = []
        self._queue: asyncio.Queue[_Task] | None = None
        self._busy: list[bool] = []
        self._tidying: list[asyncio.TimerHandle | None] = []
        self._stopping = False
        self._io: ThreadPoolExecutor | None = None
        self._lock: asyncio.Lock | None = None
        self._starting: asyncio.Task[None] | None = None
        self._running = False
        self._closed = False
        self.stats = PoolStats()

    # ------------------------------------------------------------------ lifecycle
    @property
    def running(self) -> bool:
        return self._running

    @property
    def pids(self) -> list[int]:
        """Process ids of the live workers (for memory figures and tests)."""
        return [w.pid for w in self._workers if w is not None and w.alive]

    def _guard(self) -> asyncio.Lock:
        if self._lock is None:
            self._lock = asyncio.Lock()
        return self._lock

    async def start(self) -> None:
        """Start (and warm) every worker; a no-op when running. Raises `WorkerStartFailed`."""
        async with self._guard():
            await self._start()

    async def close(self) -> None:
        """Stop: waiting jobs fail with `PoolClosed`, jobs in progress finish (or are cut
        after a grace period), the workers exit. `start()` makes the pool usable again."""
        async with self._guard():
            self._closed = True
            await self._stop(keep_waiting=False)

    async def restart(self) -> None:
        """Replace every worker with a fresh one: jobs in progress finish first, waiting
        jobs stay queued and run on the new workers."""
        async with self._guard():
            await self._stop(keep_waiting=True)
            await self._start()

    async def _start(self) -> None:
        if self._running:
            return
        loop = asyncio.get_running_loop()
        io = ThreadPoolExecutor(max_workers=self.size, thread_name_prefix=f"{self.name}-io")
        spawned = await asyncio.gather(
            *(loop.run_in_executor(io, self._spawn, i) for i in range(self.size)), return_exceptions=True
        )
        failed = [w for w in spawned if isinstance(w, BaseException)]
        if failed:
            await asyncio.gather(*(loop.run_in_executor(io, w.kill) for w in spawned if isinstance(w, _Worker)))
            io.shutdown(wait=False)
            raise failed[0]
        self._io = io
        self._workers = [w for w in spawned if not isinstance(w, BaseException)]  # (none failed)
        if self._queue is None:
            self._queue = asyncio.Queue(self.queue_limit)
        self._busy = [False] * self.size
        self._tidying = [None] * self.size
        self._stopping = False
        self._drivers = [asyncio.create_task(self._drive(i), name=f"{self.name}-{i}") for i in range(self.size)]
        self._running, self._closed = True, False
        log.info("%s: %d workers started (pids %s)", self.name, self.size, self.pids)

    async def _stop(self, *, keep_waiting: bool) -> None:
        if not self._running:
            return
        self._running = False
        self._stopping = True
        assert self._queue is not None
        if not keep_waiting:
            while not self._queue.empty():
                task = self._queue.get_nowait()
                if not task.future.done():
                    task.future.set_exception(PoolClosed(f"{self.name} was closed before the job ran"))
            self._queue = None
        for slot, driver in enumerate(self._drivers):
            self._cancel_tidy(slot)
            if not self._busy[slot]:
                driver.cancel()  # idle in queue.get(): nothing is lost (the item stays queued)
        _, busy = await asyncio.wait(self._drivers, timeout=STOP_GRACE)
        loop = asyncio.get_running_loop()
        # a job still running after the grace period is cut: its driver hears "died"
        await asyncio.gather(
            *(loop.run_in_executor(None, w.stop, 0 if busy else STOP_GRACE) for w in self._workers if w is not None)
        )
        if busy:
            await asyncio.wait(busy)
        self._workers, self._drivers = [], []
        if self._io is not None:
            self._io.shutdown(wait=False)
            self._io = None
        log.info("%s: stopped", self.name)

    # ------------------------------------------------------------------ jobs
    async def run(self, job: Job, *args: Any, timeout: float | None = None, limit: float | None = None) -> Any:
        """Run `job(*args)` in a worker and return its result (or raise its exception).

        `timeout`: seconds the job may run in its worker. `limit`: seconds the caller waits
        in all, starting and queueing included (see the module doc). Past either, `JobTimeout`.
        A pool that never ran is started here (lazily); a closed one raises `PoolClosed`.
        """
        if limit is None:
            return await self._submit(job, args, timeout, None)
        try:
            return await asyncio.wait_for(self._submit(job, args, timeout, time.monotonic() + limit), limit)
        except TimeoutError:
            raise JobTimeout(f"{_name(job)} was not done within {limit} s; {self.name} gave up waiting") from None

    async def _submit(self, job: Job, args: tuple[Any, ...], timeout: float | None, deadline: float | None) -> Any:
        if not self._running:
            if self._closed:
                raise PoolClosed(f"{self.name} is closed")
            await asyncio.shield(self._start_once())  # a caller that gives up leaves the start to finish
        queue = self._queue
        if queue is None:
            raise PoolClosed(f"{self.name} is closed")
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        await queue.put(_Task(job, args, timeout, future, deadline))
        if queue is not self._queue:  # closed while this job waited for room in the queue
            raise PoolClosed(f"{self.name} was closed before the job ran")
        return await future

    def _start_once(self) -> asyncio.Task[None]:
        """The lazy start, one task however many callers wait for it (and whether they wait
        to its end or not)."""
        if self._starting is None or self._starting.done():
            self._starting = asyncio.get_running_loop().create_task(self.start(), name=f"{self.name}-start")
            self._starting.add_done_callback(_seen)
        return self._starting

    async def _drive(self, slot: int) -> None:
        """Feed one worker: take a job, hand it over, deliver the outcome; replace the worker
        when it dies. Exits after its job once the pool stops."""
        assert self._queue is not None
        queue, loop = self._queue, asyncio.get_running_loop()
        while not self._stopping:
            self._busy[slot] = False
            task = await queue.get()
            self._busy[slot] = True
            if task.future.done():  # the caller gave up while it waited
                continue
            self._cancel_tidy(slot)
            worker = self._workers[slot]
            if worker is None:
                try:
                    worker = await loop.run_in_executor(self._io, self._spawn, slot)
                except PoolError as err:
                    if not task.future.done():
                        task.future.set_exception(err)
                    continue
                self._workers[slot] = worker
            budget = task.budget()
            if budget is not None and budget <= 0:  # its caller stopped waiting before its turn came
                if not task.future.done():
                    task.future.set_exception(JobTimeout(f"{_name(task.job)} waited past its limit"))
                continue
            kind, value = await self._exchange(worker, task, budget)
            if kind in ("died", "timeout"):
                self._workers[slot] = None
                await loop.run_in_executor(self._io, worker.kill)
                error = self._lost(worker, task, kind, value)
                if not task.future.done():
                    task.future.set_exception(error)
                if not self._stopping:  # replace it now, so the next job finds a warm worker
                    try:
                        self._workers[slot] = await loop.run_in_executor(self._io, self._spawn, slot)
                    except PoolError:
                        log.exception(
                            "%s: could not replace worker %d; trying again with the next job", self.name, slot
                        )
                continue
            if queue.empty():  # idle: give back what the drawing freed, unless work comes soon
                self._tidying[slot] = loop.call_later(TIDY_AFTER, self._tidy, worker)
            if task.future.done():
                continue
            if kind == "ok":
                self.stats.done += 1
                task.future.set_result(value)
            else:
                self.stats.failed += 1
                failure, text = value
                failure.__cause__ = RemoteTraceback(text)
                task.future.set_exception(failure)

    async def _exchange(self, worker: _Worker, task: _Task, budget: float | None) -> tuple[str, Any]:
        """Hand the job over and wait for its outcome (on the worker's I/O thread), at most
        `budget` seconds. The thread times the wait for the answer itself; but a worker that
        stopped reading (frozen, SIGSTOP) can block the sending of a large job before that
        wait even begins, so past the budget the worker is killed from here, which frees
        the thread, and the job counts as timed out."""
        loop = asyncio.get_running_loop()
        pending = loop.run_in_executor(self._io, worker.exchange, task.job, task.args, budget)
        if budget is None:
            return await pending
        try:
            return await asyncio.wait_for(asyncio.shield(pending), budget + CUT_GRACE)
        except TimeoutError:
            if worker.alive:
                worker.process.kill()
            await pending
            return "timeout", None

    def _tidy(self, worker: _Worker) -> None:
        """An idle worker gives back its freed memory; once every worker is idle, so does
        this process: a burst of boards had its PNG bytes and views pass through here too,
        and glibc keeps freed heap for reuse (about 6 MB after 200 boards)."""
        worker.tidy()
        if not any(self._busy) and (self._queue is None or self._queue.empty()):
            _trim_here()

    def _cancel_tidy(self, slot: int) -> None:
        handle, self._tidying[slot] = self._tidying[slot], None
        if handle is not None:
            handle.cancel()

    def _lost(self, worker: _Worker, task: _Task, kind: str, exit_code: Any) -> PoolError:
        """The error for a job whose worker died or overran (logged: it should not happen)."""
        if kind == "died" and self._stopping:
            error: PoolError = PoolClosed(f"{self.name} was closed while {_name(task.job)} ran")
        elif kind == "died":
            self.stats.crashed += 1
            error = WorkerCrashed(
                f"{self.name} worker {worker.pid} died (exit code {exit_code}) "
                f"while running {_name(task.job)}; it was replaced"
            )
        else:
            self.stats.timed_out += 1
            limit = f"{task.timeout} s" if task.deadline is None else "its time limit"
            error = JobTimeout(
                f"{_name(task.job)} ran longer than {limit}; {self.name} worker {worker.pid} was replaced"
            )
        log.warning("%s", error)
        return error

    def _spawn(self, slot: int) -> _Worker:
        """Start one worker and wait until it is warm (runs on an I/O thread)."""
        ours, theirs = socket.socketpair()
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))  # find what we find
        try:
            process = subprocess.Popen(
                [sys.executable, "-c", WORKER_MAIN, str(theirs.fileno()), self.name],
                pass_fds=[theirs.fileno()],
                env=env,
                stdin=subprocess.DEVNULL,
            )
        finally:
            theirs.close()
        worker = _Worker(process, Connection(ours.detach()))
        try:
            worker.conn.send((self.initializer, self.initargs))
            if not wait([worker.conn], START_TIMEOUT):
                raise WorkerStartFailed(f"{self.name} worker {slot} did not start within {START_TIMEOUT:.0f} s")
            kind, value = worker.conn.recv()
        except (OSError, EOFError):
            worker.kill()
            raise WorkerStartFailed(
                f"{self.name} worker {slot} died while starting (exit code {worker.exit_code()})"
            ) from None
        except WorkerStartFailed:
            worker.kill()
            raise
        if kind != "ready":
            worker.kill()
            err, text = value
            raise WorkerStartFailed(f"{self.name} worker {slot} could not warm up: {err!r}") from RemoteTraceback(text)
        self.stats.started += 1
        return worker


def _seen(task: asyncio.Task[None]) -> None:
    """Retrieve a background start's failure (it is raised again to the next caller)."""
    if not task.cancelled():
        task.exception()


def _name(job: Job) -> str:
    return job if isinstance(job, str) else getattr(job, "__qualname__", repr(job))


__all__ = [
    "Job",
    "JobError",
    "JobTimeout",
    "PoolClosed",
    "PoolError",
    "PoolStats",
    "RemoteTraceback",
    "WorkerCrashed",
    "WorkerPool",
    "WorkerStartFailed",
    "default_size",
    "resolve",
]
