"""Turning the service's plain `Reply` into what discord.py sends.

The service decides *what* is said and *who* may be pinged; this module only
shapes it for Discord: the 2,000-character limit, mention markup, files with alt
text, and `allowed_mentions` that name exactly the users the service named — so a
player called "@everyone" or a typed `<@&role>` never pings anyone.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

import discord

if TYPE_CHECKING:  # the service's plain data, as the adapter receives it
    from ..service.reply import Attachment, Image

LIMIT = 2000
#: Nobody is pinged unless a message names them (the bot-wide default).
NO_PINGS = discord.AllowedMentions.none()


def allowed(users: Iterable[int]) -> discord.AllowedMentions:
    """Only these users may be pinged: never @everyone/@here, roles, or the replied-to user."""
    return discord.AllowedMentions(
        everyone=False, roles=False, replied_user=False, users=[discord.Object(int(u)) for u in dict.fromkeys(users)]
    )


def with_mentions(text: str, users: Sequence[int]) -> str:
    """Put a mention of every named user in front of the text (unless the text has it)."""
    missing = [u for u in dict.fromkeys(users) if f"<@{u}>" not in text and f"<@!{u}>" not in text]
    if not missing:
        return text
    line = " ".join(f"<@{u}>" for u in missing)
    return f"{line}\n{text}" if text else line


def clip(text: str, limit: int = LIMIT) -> str:
    """Discord refuses longer messages; keep the start and say that something was cut."""
    if len(text) <= limit:
        return text
    return text[: limit - 2].rstrip() + "\n…"


def chunks(text: str, limit: int = LIMIT) -> list[str]:
    """Split a long text on line breaks into messages Discord accepts."""
    out: list[str] = []
    current = ""
    for line in text.splitlines() or [""]:
        while len(line) > limit:
            if current:
                out.append(current)
                current = ""
            out.append(line[:limit])
            line = line[limit:]
        candidate = f"{current}\n{line}" if current else line
        if len(candidate) > limit:
            out.append(current)
            current = line
        else:
            current = candidate
    if current or not out:
        out.append(current)
    return out


def image_file(image: Image | None) -> discord.File | None:
    """The service's Image (png, alt, filename) as an attachment with alt text."""
    if image is None:
        return None
    return discord.File(
        io.BytesIO(image.png), filename=image.filename or "board.png", description=(image.alt or "")[:1024] or None
    )


def files_of(image: Image | None, more: Sequence[Attachment] = ()) -> list[discord.File]:
    """The board image, then the reply's other files (a score chart, an export), each with
    its alt text or description; Discord takes at most 10 files a message."""
    file = image_file(image)
    out = [file] if file is not None else []
    for extra in more:
        out.append(
            discord.File(
                io.BytesIO(extra.data), filename=extra.filename, description=(extra.description or "")[:1024] or None
            )
        )
    return out[:10]
