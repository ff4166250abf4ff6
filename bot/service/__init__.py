"""The application layer: `Service.handle(channel, user, name, command, args)` -> `Reply`.

Transport-agnostic: Discord (bot/discord), the terminal (bot/local) and the
tests all drive this same object. service.py holds the API and the rules it
keeps; the commands live in one module per family (lobby, moves, undo,
absence, prefs) on top of the shared table access in core.py.
"""

from .core import safe
from .reply import Actor, Decision, Entry, FinalScore, Headline, HeadsUp, Image, MyTurn, Notice, Private, Reply
from .service import Service
from .settings import DAY, HOUR, Settings

__all__ = [
    "DAY",
    "HOUR",
    "Actor",
    "Decision",
    "Entry",
    "FinalScore",
    "Headline",
    "HeadsUp",
    "Image",
    "MyTurn",
    "Notice",
    "Private",
    "Reply",
    "Service",
    "Settings",
    "safe",
]
