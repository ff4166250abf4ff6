"""What Discord checks and who it notifies — the rules the emulator applies.

- `notified`: who a new message pings: `<@id>`, `<@&role>`, `@everyone`/`@here` in the
  content, filtered by `allowed_mentions` (absent: everything parses). Edits and
  ephemeral messages notify nobody (the emulator applies that where it creates them).
- `message_problems` / `command_problems`: the limits Discord enforces with a
  400 "Invalid Form Body" (code 50035), so a bot that breaks them fails in tests too.
- Layout components (the IS_COMPONENTS_V2 message flag): a message made of text
  displays, sections, containers, media galleries, separators and action rows carries
  no `content` or embeds, holds at most 40 components (nested ones counted) and 4,000
  characters of text, and shows an attachment only where a component names it
  (`attachment://<filename>`). `text_of` gives what such a message reads.
"""

from __future__ import annotations

import re
from typing import Any, TypedDict


class Pings(TypedDict):
    """Who a message notifies: the users, roles, and whether @everyone/@here."""

    users: list[int]
    roles: list[int]
    everyone: bool


def notified(content: str, allowed: dict | None) -> Pings:
    """Who a newly created message notifies: {"users": [...], "roles": [...], "everyone": bool}."""
    users = [int(u) for u in re.findall(r"<@!?(\d+)>", content)]
    roles = [int(r) for r in re.findall(r"<@&(\d+)>", content)]
    everyone = "@everyone" in content or "@here" in content
    if allowed is None:
        return {"users": sorted(set(users)), "roles": sorted(set(roles)), "everyone": everyone}
    parse = allowed.get("parse") or []
    allowed_users = {int(u) for u in allowed.get("users") or []}
    allowed_roles = {int(r) for r in allowed.get("roles") or []}
    return {
        "users": sorted({u for u in users if "users" in parse or u in allowed_users}),
        "roles": sorted({r for r in roles if "roles" in parse or r in allowed_roles}),
        "everyone": everyone and "everyone" in parse,
    }


_NAME = re.compile(r"^[-_a-z0-9]{1,32}$")

#: The IS_COMPONENTS_V2 message flag: the message is made of layout components.
COMPONENTS_V2 = 1 << 15
#: Component types: action row, button, string select, section, text display, thumbnail,
#: media gallery, file, separator, container.
ROW, BUTTON, SELECT, SECTION, TEXT, THUMBNAIL, GALLERY, FILE, SEPARATOR, CONTAINER = 1, 2, 3, 9, 10, 11, 12, 13, 14, 17
#: What may stand at the top of a layout message, and inside a container.
TOP_LEVEL = {ROW, SECTION, TEXT, GALLERY, FILE, SEPARATOR, CONTAINER}
IN_CONTAINER = {ROW, SECTION, TEXT, GALLERY, FILE, SEPARATOR}
LINK = 5


def walk(components: Any) -> list[dict]:
    """Every component of a message, nested ones included (a section's accessory too), in order."""
    out: list[dict] = []
    for item in components or []:
        if not isinstance(item, dict):
            continue
        out.append(item)
        out.extend(walk(item.get("components")))
        if isinstance(item.get("accessory"), dict):
            out.extend(walk([item["accessory"]]))
    return out


def text_of(data: dict) -> str:
    """What a message reads: its content, or (a layout message) its text displays in order."""
    if int(data.get("flags") or 0) & COMPONENTS_V2:
        return "\n".join(str(c.get("content") or "") for c in walk(data.get("components")) if c.get("type") == TEXT)
    return str(data.get("content") or "")


def _item_problems(item: dict, problems: list[str]) -> None:
    """A button or select menu, wherever it stands."""
    if item.get("type") == BUTTON:
        if len(item.get("label") or "") > 80:
            problems.append("button label: at most 80 characters")
        if item.get("style") == LINK:
            if not item.get("url") or "custom_id" in item:
                problems.append("link button: a url and no custom_id")
        elif not item.get("custom_id"):
            problems.append("button: a custom_id")
    if item.get("type") == SELECT:
        options = item.get("options") or []
        if not 1 <= len(options) <= 25:
            problems.append("select: 1-25 options")
        if len(item.get("placeholder") or "") > 150:
            problems.append("select placeholder: at most 150 characters")
        if any(len(o.get("label", "")) > 100 or len(o.get("value", "")) > 100 for o in options):
            problems.append("select option: label and value at most 100 characters")
        if any(len(o.get("description") or "") > 100 for o in options):
            problems.append("select option: description at most 100 characters")
        if len({o.get("value") for o in options}) != len(options):
            problems.append("select option: values unique")


def _row_problems(row: dict, problems: list[str]) -> None:
    items = row.get("components") or []
    if row.get("type") != ROW or not 1 <= len(items) <= 5:
        problems.append("components: an action row holds 1-5 components")
    if any(i.get("type") == SELECT for i in items) and len(items) != 1:
        problems.append("select: alone in its row")
    if any(i.get("type") not in (BUTTON, SELECT) for i in items):
        problems.append("action row: buttons or one select menu")


def _layout_problems(data: dict, problems: list[str], files: tuple[str, ...] | None) -> None:
    """A message with the IS_COMPONENTS_V2 flag."""
    if data.get("content"):
        problems.append("layout message: no content (its text goes in text displays)")
    if data.get("embeds"):
        problems.append("layout message: no embeds")
    top = data.get("components") or []
    if not top:
        problems.append("layout message: at least one component")
    every = walk(top)
    if len(every) > 40:
        problems.append("layout message: at most 40 components")
    if sum(len(c.get("content") or "") for c in every if c.get("type") == TEXT) > 4000:
        problems.append("layout message: at most 4000 characters of text")
    for item in top:
        if item.get("type") not in TOP_LEVEL:
            problems.append(f"layout message: a component of type {item.get('type')} cannot stand at the top")
    for item in every:
        kind = item.get("type")
        if kind == ROW:
            _row_problems(item, problems)
        elif kind == CONTAINER:
            if any(c.get("type") not in IN_CONTAINER for c in item.get("components") or []):
                problems.append("container: rows, sections, text, galleries, files and separators only")
        elif kind == SECTION:
            texts = item.get("components") or []
            if not 1 <= len(texts) <= 3 or any(t.get("type") != TEXT for t in texts):
                problems.append("section: 1-3 text displays")
            if (item.get("accessory") or {}).get("type") not in (BUTTON, THUMBNAIL):
                problems.append("section: a button or a thumbnail as its accessory")
        elif kind == TEXT and not item.get("content"):
            problems.append("text display: some text")
        elif kind == GALLERY:
            media = item.get("items") or []
            if not 1 <= len(media) <= 10:
                problems.append("media gallery: 1-10 items")
            for entry in media:
                url = str((entry.get("media") or {}).get("url", ""))
                if files is not None and url.startswith("attachment://") and url[13:] not in files:
                    problems.append(f"media gallery: {url} is not attached")
                if len(entry.get("description") or "") > 1024:
                    problems.append("media gallery item: description at most 1024 characters")


def message_problems(data: Any, files: tuple[str, ...] | None = None) -> list[str]:
    """What Discord would refuse in a message body (the limits the bot must respect).
    `files`: the names of the files attached with it (a layout message must attach what
    its media galleries name)."""
    if not isinstance(data, dict):
        return []
    problems: list[str] = []
    if len(data.get("content") or "") > 2000:
        problems.append("content: at most 2000 characters")
    rows = data.get("components") or []
    if int(data.get("flags") or 0) & COMPONENTS_V2:
        _layout_problems(data, problems, files)
    else:
        if len(rows) > 5:
            problems.append("components: at most 5 action rows")
        for row in rows:
            _row_problems(row, problems)
    for item in walk(rows):
        _item_problems(item, problems)
    ids = [item["custom_id"] for item in walk(rows) if "custom_id" in item]
    if any(not 1 <= len(i) <= 100 for i in ids):
        problems.append("custom_id: 1-100 characters")
    if len(ids) != len(set(ids)):
        problems.append("custom_id: unique within a message")
    choices = data.get("choices")
    if choices is not None and (
        len(choices) > 25
        or any(not 1 <= len(c.get("name", "")) <= 100 or len(str(c.get("value", ""))) > 100 for c in choices)
    ):
        problems.append("autocomplete: at most 25 choices, names 1-100 and values up to 100 characters")
    if len(data.get("attachments") or []) > 10:
        problems.append("attachments: at most 10")
    return problems


def command_problems(cmd: dict, where: str = "") -> list[str]:
    """What Discord would refuse in a command (or option) definition at sync."""
    here = f"{where}/{cmd.get('name')}"
    problems = []
    if not _NAME.match(str(cmd.get("name", ""))):
        problems.append(f"{here}: name must be 1-32 lower-case letters, digits, - or _")
    description = cmd.get("description", "")
    if cmd.get("type", 1) in (1, None) or "options" in cmd or where:
        if not 1 <= len(description) <= 100:
            problems.append(f"{here}: description must be 1-100 characters")
    options = cmd.get("options") or []
    if len(options) > 25:
        problems.append(f"{here}: at most 25 options")
    required_seen_optional = False
    for option in options:
        if option.get("required") and required_seen_optional:
            problems.append(f"{here}: required options must come before optional ones")
        required_seen_optional |= not option.get("required", False)
        choices = option.get("choices") or []
        if len(choices) > 25 or any(not 1 <= len(c["name"]) <= 100 for c in choices):
            problems.append(f"{here}/{option.get('name')}: at most 25 choices of 1-100 characters")
        if choices and option.get("autocomplete"):
            problems.append(f"{here}/{option.get('name')}: choices and autocomplete exclude each other")
        problems.extend(command_problems(option, here))
    return problems
