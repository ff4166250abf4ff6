"""What Discord checks and who it notifies — the rules the emulator applies.

- `notified`: who a new message pings: `<@id>`, `<@&role>`, `@everyone`/`@here` in the
  content, filtered by `allowed_mentions` (absent: everything parses). Edits and
  ephemeral messages notify nobody (the emulator applies that where it creates them).
- `message_problems` / `command_problems`: the limits Discord enforces with a
  400 "Invalid Form Body" (code 50035), so a bot that breaks them fails in tests too.
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


def message_problems(data: Any) -> list[str]:
    """What Discord would refuse in a message body (the limits the bot must respect)."""
    if not isinstance(data, dict):
        return []
    problems = []
    if len(data.get("content") or "") > 2000:
        problems.append("content: at most 2000 characters")
    rows = data.get("components") or []
    if len(rows) > 5:
        problems.append("components: at most 5 action rows")
    ids = []
    for row in rows:
        items = row.get("components") or []
        if row.get("type") != 1 or not 1 <= len(items) <= 5:
            problems.append("components: an action row holds 1-5 components")
        for item in items:
            if "custom_id" in item:
                ids.append(item["custom_id"])
                if not 1 <= len(item["custom_id"]) <= 100:
                    problems.append("custom_id: 1-100 characters")
            if item.get("type") == 2 and len(item.get("label") or "") > 80:
                problems.append("button label: at most 80 characters")
            if item.get("type") == 3:
                options = item.get("options") or []
                if not 1 <= len(options) <= 25:
                    problems.append("select: 1-25 options")
                if len(items) != 1:
                    problems.append("select: alone in its row")
                if any(len(o.get("label", "")) > 100 or len(o.get("value", "")) > 100 for o in options):
                    problems.append("select option: label and value at most 100 characters")
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
