"""The application layer: `Service.handle(channel, user, name, command, args)` -> `Reply`.

Transport-agnostic: Discord (bot/discord), the terminal (bot/local) and the
tests all drive this same object. service.py holds the front door and the
rules it keeps; the parts it is built from (tables and positions, reading a
turn, moves, bots, the command families) are plain classes in one module each,
and commands.py is the table every command is found in. README.md here is the
map.
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
