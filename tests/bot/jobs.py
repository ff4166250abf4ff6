"""Jobs for the worker pool's tests (tests/bot/test_workers.py), run in the workers.

A module of their own, so a worker imports only these (not pytest).
"""

from __future__ import annotations

import os
import time

WARMED: list[str] = []


def warm_up(tag: str) -> None:
    WARMED.append(tag)


def who() -> tuple[int, list[str]]:
    return os.getpid(), list(WARMED)


def square(x: int) -> int:
    return x * x


def fail(message: str) -> None:
    raise ValueError(message)


def crash(code: int) -> None:
    os._exit(code)


def nap(seconds: float) -> float:
    time.sleep(seconds)
    return seconds


def unpicklable() -> object:
    return lambda: None


def refuse_to_start() -> None:
    raise RuntimeError("no fonts here")
