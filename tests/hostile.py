"""Hostile user text (issue 53): a display name and an away note written to mislead, and the
checks that none of it acts in what the bot says — on Discord (markdown, mentions) or at the
terminal (escape sequences)."""

from __future__ import annotations

import re

#: A display name as an attacker would pick it: a masked link, a spoiler, a heading, code,
#: a mention, bold, and a terminal escape sequence (red text, then a cleared screen).
NAME = "[Claim your seat](https://evil.example) ||x|| **b** `c` @everyone \x1b[31m\x1b[2J"
#: An away note likewise, with a NUL (PostgreSQL refuses it) and a bidi override.
NOTE = "# Big [Claim your seat](https://evil.example) <@1> ||s|| \x00\u202eevil \x1b]0;title\x07"

#: The hostile masked link as Discord would render it (the bot's own links, `[last post](...)`, are fine).
_MASKED_LINK = re.compile(r"\[Claim your seat\]\(")


def misleading(text: str) -> list[str]:
    """What in `text` would act rather than read as text: a masked link, an auto-link to the
    hostile site, a spoiler, a mention, a heading line, the name's bold or code, a terminal
    escape or control character. Empty when the text is safe."""
    found = []
    if _MASKED_LINK.search(text):
        found.append("masked link")
    if "https://evil" in text:
        found.append("auto-link")
    if "||" in text:
        found.append("spoiler")
    if "@everyone" in text or "<@1>" in text:
        found.append("mention")
    if any(line.startswith("# ") for line in text.splitlines()):
        found.append("heading")
    if "**b**" in text or "`c`" in text:
        found.append("name's formatting")
    if re.search("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]", text):
        found.append("control character")
    return found
