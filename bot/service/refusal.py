"""The one exception a command raises to answer with an error reply (and change nothing it
has not stored): apart, so every part of the service can raise it without the core."""

from __future__ import annotations

from typing import Any


class Refusal(Exception):
    """Raised inside a command to answer with an error reply."""

    def __init__(self, text: str, **extra: Any) -> None:
        super().__init__(text)
        self.text = text
        self.extra = extra
