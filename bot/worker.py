"""The life of one worker process: warm up, then answer jobs (bot/workers.py keeps the pool).

This is all a worker imports of the bot, so it imports little: no asyncio (with
its ssl, some 9 MB in every process), no storage, no Discord. What a job needs
(Pillow and the renderers, for boards) its function's module brings in.

The socket carries, parent to worker: `(initializer, initargs)` once, then
`(job, args)`, `TIDY` (idle now: give freed memory back) or None (stop); worker
to parent: `("ready", pid)` or `("failed", error)` once, then `("ok", result)` or
`("error", error)` per job, an error being `(exception, traceback text)`.
"""

from __future__ import annotations

import ctypes
import importlib
import os
import pickle
import signal
import sys
import traceback
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any

Job = Callable[..., Any] | str

#: The message that tells an idle worker to return freed memory to the system.
TIDY = "tidy"


class JobError(RuntimeError):
    """A job's exception that could not cross the pipe as it was (its type and text are kept)."""


_resolved: dict[str, Callable[..., Any]] = {}


def resolve(job: Job) -> Callable[..., Any]:
    """The function a job names: `"package.module:function"`, or the callable itself."""
    if callable(job):
        return job
    fn = _resolved.get(job)
    if fn is None:
        module, sep, name = job.partition(":")
        if not sep or not module or not name:
            raise ValueError(f"a job is named 'module:function', not {job!r}")
        fn = getattr(importlib.import_module(module), name)
        if not callable(fn):
            raise TypeError(f"{job!r} is not a function")
        _resolved[job] = fn
    return fn


def portable(err: BaseException) -> tuple[BaseException, str]:
    """The exception as it can cross the pipe, with its traceback as text."""
    text = "".join(traceback.format_exception(type(err), err, err.__traceback__))
    try:
        pickle.loads(pickle.dumps(err))
    except Exception:
        err = JobError(f"{type(err).__name__}: {err}")
    return err, text


def memory_trimmer() -> Callable[[], Any]:
    """A function that hands the heap's free memory back to the system (glibc's
    malloc_trim), or one that does nothing elsewhere.

    Drawing a board allocates and frees 5-12 MB image buffers; glibc keeps freed
    heap memory for reuse, so a drawing worker stayed at its peak, some 45 MB above
    what it holds between boards. Trimming when a worker finds the queue empty
    gives that back while nobody waits and costs nothing during a burst (a fixed
    mmap threshold instead made every board ~35% slower here: page faults on each
    new buffer)."""
    try:
        trim = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):
        return lambda: None
    return lambda: trim(0)


def main(fd: int, name: str = "epochs-worker") -> None:
    """The worker process's entry (bot/workers.py starts it on one end of a socket pair)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    sys.argv = [name]
    conn = Connection(fd)
    try:
        initializer, initargs = conn.recv()
    except (EOFError, OSError):
        return
    serve(conn, initializer, initargs)


def serve(conn: Connection, initializer: Job | None, initargs: tuple[Any, ...]) -> None:
    """Warm up, then answer jobs until told to stop or the parent goes (its end of
    the socket closes)."""
    trim = memory_trimmer()
    try:
        if initializer is not None:
            resolve(initializer)(*initargs)
    except BaseException as err:  # noqa: BLE001 - reported to the parent, which refuses the worker
        conn.send(("failed", portable(err)))
        return
    conn.send(("ready", os.getpid()))
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        if message is None:
            return
        if message == TIDY:
            trim()
            continue
        job, args = message
        try:
            reply: tuple[str, Any] = ("ok", resolve(job)(*args))
        except BaseException as err:  # noqa: BLE001 - the caller gets it
            reply = ("error", portable(err))
        try:
            conn.send(reply)
        except Exception as err:  # the result cannot be pickled: say so instead
            conn.send(("error", portable(err)))
        del reply
