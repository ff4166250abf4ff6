"""`rules [topic]`: the rulebook section a player asks for.

The rulebooks ship inside the package (bot/rules/*.txt, copied from the
project's shared rules) so this works on any machine. A rulebook is split into
sections at its headings: the entries of its table of contents where it has one,
otherwise its paragraphs. A topic matches a section number ("6.2"), a
heading ("combat"), or failing that the section whose text mentions the topic's
words most often.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from .text import quote

RULES_DIR = Path(__file__).resolve().parent.parent / "rules"

#: game id -> rulebook file in bot/rules/.
RULEBOOKS = {
    "rising-cultures": "rising-cultures.txt",
    "rise-of-empires": "rise-of-empires.txt",
    "cradle": "cradle-of-civilization.txt",
    "mosaic": "mosaic.txt",
}

_WORD = re.compile(r"[a-z0-9]+(?:\.[0-9]+)*")
_NUMBER = re.compile(r"^(\d+(?:\.\d+)*)\b")


@dataclass
class Section:
    heading: str
    body: str

    @property
    def number(self) -> str | None:
        found = _NUMBER.match(self.heading)
        return found.group(1).rstrip(".") if found else None


def _toc_headings(lines: list[str]) -> tuple[set[str], int]:
    """Headings listed in a 'Table of Contents' block, and the line after it."""
    headings: set[str] = set()
    i = 0
    while i < len(lines) and "table of contents" not in lines[i].lower():
        i += 1
    if i == len(lines):
        return set(), 0
    while i < len(lines):
        line = lines[i].strip()
        if line.startswith("•"):
            headings.add(line.lstrip("• ").strip())
        elif headings and line and "table of contents" not in line.lower():
            break
        i += 1
    return headings, i


def _long_heading(s: Section) -> Section:
    """A 'heading' that is really a sentence keeps its words in the body."""
    if len(s.heading) <= 60:
        return s
    return Section(s.heading[:57].rsplit(" ", 1)[0] + " ...", (s.heading + "\n" + s.body).strip())


def _blocks(lines: list[str]) -> tuple[Section, ...]:
    """A rulebook without a table of contents (a rules summary): its paragraphs,
    each headed by its first line."""
    out: list[Section] = []
    block: list[str] = []
    for line in lines + [""]:
        if line.strip():
            block.append(line)
        elif block:
            head = block[0].strip().lstrip("-• ").strip()
            body = block[1:] if len(head) <= 60 else block
            out.append(Section(head[:60], "\n".join(body).strip()))
            block = []
    if len(out) > 1:
        return tuple(out)
    # No blank lines at all: a new topic starts at each capitalised line that is
    # not a bullet (continuation lines start in lower case).
    out, head, body = [], lines[0].strip() if lines else "", []
    for line in lines[1:]:
        text = line.strip()
        if text and text[0].isupper() and not text.startswith(("-", "•")):
            out.append(Section(head, "\n".join(body).strip()))
            head, body = text, []
        else:
            body.append(line)
    out.append(Section(head[:80], "\n".join(body).strip()))
    return tuple(_long_heading(s) for s in out if s.heading and (s.body or len(s.heading) > 40))


@lru_cache(maxsize=8)
def sections(game_id: str) -> tuple[Section, ...]:
    """The rulebook of `game_id` cut into sections (cached)."""
    path = RULES_DIR / RULEBOOKS[game_id]
    lines = path.read_text(encoding="utf-8").splitlines()
    headings, start = _toc_headings(lines)
    if not headings:
        return _blocks(lines)
    out: list[Section] = []
    heading = lines[0].strip() if lines else game_id
    body: list[str] = []
    for line in lines[start:]:
        text = line.strip()
        is_heading = text in headings
        if is_heading:
            if body and "".join(body).strip():
                out.append(Section(heading, "\n".join(body).strip()))
            heading, body = text, []
        else:
            body.append(line)
    if body and "".join(body).strip():
        out.append(Section(heading, "\n".join(body).strip()))
    return tuple(out)


def find(game_id: str, topic: str) -> Section | None:
    """The section that best matches `topic`, or None."""
    parts = sections(game_id)
    wanted = topic.strip().lower()
    if not wanted:
        return None
    number = _NUMBER.match(wanted)
    if number:
        key = number.group(1).rstrip(".")
        for s in parts:
            if s.number and (s.number == key or s.number == key + ".0"):
                return s
    for s in parts:
        if s.heading.lower() == wanted:
            return s
    containing = [s for s in parts if wanted in s.heading.lower()]
    if containing:
        return min(containing, key=lambda s: len(s.heading))
    words = [w for w in _WORD.findall(wanted) if len(w) > 2] or _WORD.findall(wanted)
    best, best_score = None, 0
    for s in parts:
        text = (s.heading + " " + s.body).lower()
        score = sum(text.count(w) for w in words) + 5 * sum(w in s.heading.lower() for w in words)
        if all(w in text for w in words):
            score *= 2
        if score > best_score:
            best, best_score = s, score
    return best


def contents(game_id: str) -> list[str]:
    """The section headings, for `rules` without a topic."""
    return [s.heading for s in sections(game_id)]


def answer(game_id: str, topic: str, limit: int = 1900) -> str:
    """The reply text for `rules [topic]`."""
    if game_id not in RULEBOOKS:
        return f"There is no rulebook for {quote(game_id)}."
    if not topic.strip():
        heads = contents(game_id)
        listing = ", ".join(heads)
        if len(listing) > limit - 100:
            listing = listing[: limit - 104] + " ..."
        return f"Rulebook sections: {listing}\nAsk for one with `rules <topic>`."
    found = find(game_id, topic)
    if found is None:
        return f"No rulebook section matches {quote(topic, 60)}. Try `rules` for the list."
    text = f"**{found.heading}**\n{found.body}"
    if len(text) > limit:
        text = text[: limit - 40].rsplit(" ", 1)[0] + " ... (section continues)"
    return text
