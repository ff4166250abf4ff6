"""The shared conformance check (`../shared/checks/conformance.py`), loaded once for tests.

Tests call its own `play_one`, so the suite fails whenever the shared check would.
The file lives beside the project, not in it; `load()` skips the calling test when
it is absent (CI always lays it there).
"""

from __future__ import annotations

import functools
import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

CHECK = Path(__file__).resolve().parents[2].parent / "shared" / "checks" / "conformance.py"


@functools.lru_cache(maxsize=1)
def _module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("conformance", CHECK)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load the shared conformance check from {CHECK}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def load() -> ModuleType:
    """The conformance module, or skip the test when the shared check is not there."""
    if not CHECK.is_file():
        pytest.skip(f"shared conformance check not found at {CHECK}")
    return _module()
