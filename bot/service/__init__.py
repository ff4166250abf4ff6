"""The application layer: `Service.handle(channel, user, name, command, args)` -> `Reply`.

Transport-agnostic: Discord (bot/discord), the terminal (bot/local) and the
tests all drive this same object. See service.py for the rules it keeps.
"""
from .reply import Image, Notice, Private, Reply
from .service import HOUR, DAY, Service, Settings, safe

__all__ = ["DAY", "HOUR", "Image", "Notice", "Private", "Reply", "Service", "Settings", "safe"]
