"""A small loopback Discord for end-to-end tests of the bot with the real discord.py.

It serves, on 127.0.0.1, the REST routes the bot uses and a gateway WebSocket, keeps
the messages the bot creates, and records every request so tests can assert on routes,
flags (ephemeral = 64), allowed_mentions, files and alt texts. It also works out who a
message would really notify (mentions in content filtered by allowed_mentions, only on
creation, never on edits, never in ephemeral messages), as Discord does.

Layout components (discord.py's `LayoutView`, the IS_COMPONENTS_V2 flag) are checked
against Discord's limits (limits.py); such a message's text is its text displays, which
ping like content does. Every message keeps `text` (what it reads) beside `content`.

Faults: `fail(method, path_regex, status, times, retry_after)` answers matching requests
with 429 (with `Via: 1.1 google` and a JSON `retry_after`, which discord.py honours) or
5xx; `close_dms(user)` makes sends to that user's DM channel fail with 403/50007;
`drop_gateway()` closes the socket so the client RESUMEs (missed events are replayed).

Point discord.py at it with `emulator.patch_discord()` (sets `discord.http.Route.BASE`
and `DiscordWebSocket.DEFAULT_GATEWAY`); `restore_discord()` undoes it.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import yarl
from aiohttp import web

from tests.discord.limits import (
    BUTTON,
    COMPONENTS_V2,
    GALLERY,
    SELECT,
    Pings,
    command_problems,
    message_problems,
    notified,
    text_of,
    walk,
)

API = "/api/v10"
EPHEMERAL = 64
ALL_PERMISSIONS = (1 << 50) - 1
MANAGE_CHANNELS = 1 << 4
MANAGE_GUILD = 1 << 5
SEND_MESSAGES = 1 << 11
BASIC_PERMISSIONS = (1 << 10) | SEND_MESSAGES | (1 << 31)  # view channel, send, use app commands


def _json(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    # discord.py parses JSON only for a content type of exactly application/json.
    return web.Response(
        status=status, body=json.dumps(data).encode(), headers={"Content-Type": "application/json", **(headers or {})}
    )


@dataclass
class Attachment:
    field: str
    filename: str
    content_type: str
    data: bytes
    description: str | None = None


@dataclass
class Upload:
    """A file a user attaches to a slash command (an option of type ATTACHMENT)."""

    filename: str
    data: bytes
    content_type: str = "application/json"


@dataclass
class Request:
    """One REST request the bot made, as the emulator understood it."""

    method: str
    path: str  # without the /api/v10 prefix
    query: dict[str, str]
    body: Any  # JSON body or payload_json of a multipart body, else None
    files: list[Attachment]
    status: int = 0
    at: float = field(default_factory=time.perf_counter)

    @property
    def data(self) -> dict:
        """The message part of the body (`data` of an interaction callback, else the body)."""
        body = self.body if isinstance(self.body, dict) else {}
        if self.path.endswith("/callback"):
            return body.get("data") or {}
        return body

    @property
    def flags(self) -> int:
        return int(self.data.get("flags") or 0)

    def __repr__(self) -> str:
        return f"<{self.method} {self.path} -> {self.status}>"


@dataclass
class Fault:
    method: str
    path: re.Pattern[str]
    status: int
    times: int
    retry_after: float = 0.05
    via: bool = True
    hits: int = 0


@dataclass
class User:
    id: int
    name: str
    permissions: int = BASIC_PERMISSIONS
    roles: list[int] = field(default_factory=list)

    def payload(self) -> dict:
        return {
            "id": str(self.id),
            "username": self.name,
            "global_name": self.name,
            "discriminator": "0",
            "avatar": None,
            "bot": False,
        }


@dataclass
class Interaction:
    """An interaction the emulator sent, and everything the bot answered to it."""

    id: int
    token: str
    type: int
    user: User
    channel_id: int
    payload: dict
    sent_at: float = 0.0
    callback: Request | None = None
    callback_at: float = 0.0
    ephemeral: bool = False
    original_id: int | None = None
    responses: list[Request] = field(default_factory=list)

    @property
    def callback_type(self) -> int | None:
        return None if self.callback is None else (self.callback.body or {}).get("type")

    @property
    def choices(self) -> list[dict]:
        """Autocomplete answer (callback type 8)."""
        return ((self.callback.body or {}).get("data") or {}).get("choices", []) if self.callback else []


class DiscordEmulator:
    def __init__(self, *, guild_id: int = 900, app_id: int = 800, bot_id: int = 800) -> None:
        self._ids = itertools.count(10_000)
        self.app_id = app_id
        self.bot = {
            "id": str(bot_id),
            "username": "Epochs",
            "global_name": None,
            "discriminator": "0",
            "avatar": None,
            "bot": True,
            "verified": True,
            "mfa_enabled": False,
            "flags": 0,
        }
        self.guild_id = guild_id
        self.users: dict[int, User] = {}
        self.channels: dict[int, dict] = {}
        self.messages: dict[int, dict] = {}
        self.requests: list[Request] = []
        self.interactions: dict[int, Interaction] = {}
        self._by_token: dict[str, Interaction] = {}
        self.commands: dict[str, list[dict]] = {}  # "global" or guild id -> synced commands
        self.faults: list[Fault] = []
        self.closed_dms: set[int] = set()
        self.uploads: dict[str, Upload] = {}  # attachment id -> a file users attached to commands
        self.gateway_log: list[tuple[str, Any]] = []  # ("recv", op/payload) / ("send", ...)
        self.heartbeats = 0
        self.identifies = 0
        self.resumes = 0
        self._events: list[dict] = []  # dispatched payloads with "s"
        self._seq = 0
        self._session = "session-1"
        self._ws: web.WebSocketResponse | None = None
        self._ws_ready = False
        self._changed = asyncio.Condition()
        self._runner: web.AppRunner | None = None
        self.port = 0
        self._saved: tuple[str, yarl.URL] | None = None
        self.add_channel(1, "general")

    # ----- world -------------------------------------------------------------------
    def add_user(self, user_id: int, name: str, permissions: int = BASIC_PERMISSIONS) -> User:
        user = User(user_id, name, permissions)
        self.users[user_id] = user
        return user

    def add_channel(self, channel_id: int, name: str, *, thread_of: int | None = None) -> dict:
        channel = {
            "id": str(channel_id),
            "type": 0,
            "guild_id": str(self.guild_id),
            "name": name,
            "position": 0,
            "permission_overwrites": [],
            "nsfw": False,
            "parent_id": None,
        }
        if thread_of is not None:
            channel.update(
                type=11,
                parent_id=str(thread_of),
                owner_id=self.bot["id"],
                thread_metadata={
                    "archived": False,
                    "auto_archive_duration": 1440,
                    "archive_timestamp": "2026-01-01T00:00:00+00:00",
                    "locked": False,
                },
                message_count=0,
                member_count=0,
                rate_limit_per_user=0,
            )
        self.channels[channel_id] = channel
        return channel

    def close_dms(self, user_id: int) -> None:
        self.closed_dms.add(user_id)

    def fail(
        self, method: str, path: str, status: int, *, times: int = 1, retry_after: float = 0.05, via: bool = True
    ) -> Fault:
        """The next `times` matching requests fail with `status` (0: the connection drops)."""
        fault = Fault(method.upper(), re.compile(path), status, times, retry_after, via)
        self.faults.append(fault)
        return fault

    # ----- lifecycle -----------------------------------------------------------------
    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    async def start(self) -> None:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_get("/uploads/{id}/{name}", self._upload)
        app.router.add_route("*", API + "/{tail:.*}", self._rest)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = self._runner.addresses[0][1]  # (host, port) of the one site

    async def stop(self) -> None:
        if self._ws is not None:
            await self._ws.close()
        if self._runner is not None:
            await self._runner.cleanup()
        self.restore_discord()

    def patch_discord(self) -> None:
        import discord.gateway
        import discord.http

        if self._saved is None:
            self._saved = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
        discord.http.Route.BASE = self.base_url + API
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(f"ws://127.0.0.1:{self.port}/gateway")

    def restore_discord(self) -> None:
        import discord.gateway
        import discord.http

        if self._saved is not None:
            discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = self._saved
            self._saved = None

    # ----- waiting -------------------------------------------------------------------
    async def _notify(self) -> None:
        async with self._changed:
            self._changed.notify_all()

    async def wait_for(self, predicate: Callable[[], Any], timeout: float = 10.0) -> Any:
        """Wait until predicate() is truthy (checked after every request/event); return its value."""

        async def waiter() -> Any:
            async with self._changed:
                while True:
                    value = predicate()
                    if value:
                        return value
                    await self._changed.wait()

        return await asyncio.wait_for(waiter(), timeout)

    # ----- gateway -------------------------------------------------------------------
    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        if self._ws is not None and not self._ws.closed:
            await self._ws.close(code=4000)
        self._ws, self._ws_ready = ws, False
        await ws.send_json({"op": 10, "d": {"heartbeat_interval": 41250}, "s": None, "t": None})
        try:
            async for msg in ws:
                if msg.type != aiohttp.WSMsgType.TEXT:
                    continue
                data = json.loads(msg.data)
                op = data.get("op")
                self.gateway_log.append(("recv", op))
                if op == 1:
                    self.heartbeats += 1
                    await ws.send_json({"op": 11, "d": None, "s": None, "t": None})
                elif op == 2:
                    await self._identify(ws, data["d"])
                elif op == 6:
                    await self._resume(ws, data["d"])
                await self._notify()
        finally:
            if self._ws is ws:
                self._ws_ready = False
        return ws

    async def _identify(self, ws: web.WebSocketResponse, d: dict) -> None:
        self.identifies += 1
        self._session = f"session-{self.identifies}"
        self._events.clear()
        self._seq = 0
        ready = {
            "v": 10,
            "user": self.bot,
            "guilds": [{"id": str(self.guild_id), "unavailable": True}],
            "session_id": self._session,
            "resume_gateway_url": f"ws://127.0.0.1:{self.port}/gateway",
            "application": {"id": str(self.app_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
        }
        if "shard" in d:  # as Discord does, READY names the shard the connection identified for
            ready["shard"] = d["shard"]
        self._ws_ready = True
        await self.dispatch("READY", ready)
        await self.dispatch("GUILD_CREATE", self.guild_payload())

    async def _resume(self, ws: web.WebSocketResponse, d: dict) -> None:
        self.resumes += 1
        if d.get("session_id") != self._session:
            await ws.send_json({"op": 9, "d": False, "s": None, "t": None})
            return
        for event in self._events:
            if event["s"] > (d.get("seq") or 0):
                await ws.send_json(event)
        self._ws_ready = True
        await self.dispatch("RESUMED", {})

    async def dispatch(self, name: str, data: dict) -> None:
        """Send a dispatch event now, or keep it for the replay after a RESUME."""
        self._seq += 1
        event = {"op": 0, "t": name, "s": self._seq, "d": data}
        self._events.append(event)
        self.gateway_log.append(("send", name))
        if self._ws is not None and self._ws_ready and not self._ws.closed:
            try:
                await self._ws.send_json(event)
            except (ConnectionError, RuntimeError):
                self._ws_ready = False

    async def drop_gateway(self, code: int = 4000) -> None:
        """Close the gateway socket as Discord does on a hiccup; the client RESUMEs."""
        ws, self._ws_ready = self._ws, False
        if ws is not None:
            await ws.close(code=code)

    @property
    def connected(self) -> bool:
        return self._ws is not None and self._ws_ready and not self._ws.closed

    def guild_payload(self) -> dict:
        members = [
            {
                "user": self.bot,
                "roles": [],
                "joined_at": "2026-01-01T00:00:00+00:00",
                "deaf": False,
                "mute": False,
                "flags": 0,
            }
        ]
        return {
            "id": str(self.guild_id),
            "name": "Epochs test server",
            "owner_id": "1",
            "unavailable": False,
            "roles": [
                {
                    "id": str(self.guild_id),
                    "name": "@everyone",
                    "permissions": str(BASIC_PERMISSIONS),
                    "position": 0,
                    "color": 0,
                    "hoist": False,
                    "managed": False,
                    "mentionable": False,
                    "flags": 0,
                }
            ],
            "channels": [c for c in self.channels.values() if c["type"] != 11],
            "threads": [c for c in self.channels.values() if c["type"] == 11],
            "members": members,
            "member_count": len(self.users) + 1,
            "large": False,
            "features": [],
            "emojis": [],
            "stickers": [],
            "voice_states": [],
            "presences": [],
            "premium_tier": 0,
            "joined_at": "2026-01-01T00:00:00+00:00",
        }

    # ----- interactions (what a user does in the client) --------------------------------
    def _interaction(
        self, itype: int, user: User, channel_id: int, data: dict, message: dict | None = None
    ) -> Interaction:
        iid = next(self._ids)
        token = f"itoken-{iid}"
        channel = self.channels[channel_id]
        payload = {
            "id": str(iid),
            "application_id": str(self.app_id),
            "type": itype,
            "data": data,
            "token": token,
            "version": 1,
            "guild_id": str(self.guild_id),
            "channel_id": str(channel_id),
            "channel": channel,
            "member": {
                "user": user.payload(),
                "roles": [str(r) for r in user.roles],
                "nick": None,
                "joined_at": "2026-01-01T00:00:00+00:00",
                "deaf": False,
                "mute": False,
                "flags": 0,
                "permissions": str(user.permissions),
            },
            "app_permissions": str(ALL_PERMISSIONS),
            "locale": "en-GB",
            "guild_locale": "en-US",
            "entitlements": [],
            "authorizing_integration_owners": {"0": str(self.guild_id)},
            "context": 0,
            "attachment_size_limit": 10 * 1024 * 1024,
        }
        if channel.get("type") == 1:  # a press in a direct message: no server, no member
            for key in ("guild_id", "member", "guild_locale"):
                payload.pop(key, None)
            payload.update(user=user.payload(), context=1, authorizing_integration_owners={"0": str(self.guild_id)})
        if message is not None:
            payload["message"] = message
        inter = Interaction(iid, token, itype, user, channel_id, payload)
        self.interactions[iid] = inter
        self._by_token[token] = inter
        return inter

    def _command_id(self, name: str) -> str:
        for scope in (str(self.guild_id), "global"):
            for cmd in self.commands.get(scope, []):
                if cmd["name"] == name:
                    return cmd["id"]
        raise KeyError(f"command /{name} was never synced")

    def _options(
        self, name: str, options: dict[str, Any] | None, focused: str | None, resolved: dict[str, Any] | None = None
    ) -> tuple[str, list]:
        """'game new' + {'game': 'x'} -> (root name, nested option payload). An `Upload`
        value becomes an attachment option, described in `resolved` and served by GET."""
        parts = name.split()
        leaf = []
        for key, value in (options or {}).items():
            if isinstance(value, Upload):
                aid = str(next(self._ids))
                self.uploads[aid] = value
                url = f"{self.base_url}/uploads/{aid}/{value.filename}"
                (resolved if resolved is not None else {}).setdefault("attachments", {})[aid] = {
                    "id": aid,
                    "filename": value.filename,
                    "size": len(value.data),
                    "url": url,
                    "proxy_url": url,
                    "content_type": value.content_type,
                }
                leaf.append({"name": key, "type": 11, "value": aid})
                continue
            if isinstance(value, User):  # a user option: the id, and the user and member resolved
                found = resolved if resolved is not None else {}
                found.setdefault("users", {})[str(value.id)] = value.payload()
                found.setdefault("members", {})[str(value.id)] = {
                    "roles": [],
                    "nick": None,
                    "joined_at": "2026-01-01T00:00:00+00:00",
                    "deaf": False,
                    "mute": False,
                    "flags": 0,
                    "permissions": str(value.permissions),
                }
                leaf.append({"name": key, "type": 6, "value": str(value.id)})
                continue
            kind = (
                5 if isinstance(value, bool) else 4 if isinstance(value, int) else 10 if isinstance(value, float) else 3
            )
            opt = {"name": key, "type": kind, "value": value}
            if key == focused:
                opt["focused"] = True
            leaf.append(opt)
        for sub in reversed(parts[1:]):
            leaf = [{"name": sub, "type": 1, "options": leaf}]
        return parts[0], leaf

    async def slash(self, user: User, channel_id: int, name: str, options: dict[str, Any] | None = None) -> Interaction:
        resolved: dict[str, Any] = {}
        root, opts = self._options(name, options, None, resolved)
        data = {"id": self._command_id(root), "name": root, "type": 1, "options": opts, "guild_id": str(self.guild_id)}
        if resolved:
            data["resolved"] = resolved
        return await self._send(self._interaction(2, user, channel_id, data))

    async def autocomplete(
        self, user: User, channel_id: int, name: str, options: dict[str, Any], focused: str
    ) -> Interaction:
        root, opts = self._options(name, options, focused)
        data = {"id": self._command_id(root), "name": root, "type": 1, "options": opts, "guild_id": str(self.guild_id)}
        return await self._send(self._interaction(4, user, channel_id, data))

    async def press(self, user: User, message: dict, custom_id: str) -> Interaction:
        data = {"custom_id": custom_id, "component_type": 2}
        return await self._send(self._interaction(3, user, int(message["channel_id"]), data, self._public(message)))

    async def select(self, user: User, message: dict, custom_id: str, values: list[str]) -> Interaction:
        data = {"custom_id": custom_id, "component_type": 3, "values": values}
        return await self._send(self._interaction(3, user, int(message["channel_id"]), data, self._public(message)))

    async def _send(self, inter: Interaction) -> Interaction:
        inter.sent_at = time.perf_counter()
        await self.dispatch("INTERACTION_CREATE", inter.payload)
        return inter

    async def answered(self, inter: Interaction, timeout: float = 10.0) -> Interaction:
        """Wait for the interaction callback."""
        await self.wait_for(lambda: inter.callback is not None, timeout)
        return inter

    async def finished(self, inter: Interaction, timeout: float = 10.0) -> Interaction:
        """Wait until the callback came and, if it was a deferral, the deferred reply was edited in."""

        def done() -> bool:
            if inter.callback is None:
                return False
            if inter.callback_type in (5, 6):
                return any(
                    r is not inter.callback and r.method in ("PATCH", "POST") and 0 < r.status < 300
                    for r in inter.responses
                )
            return True

        await self.wait_for(done, timeout)
        return inter

    # ----- reading what the bot did ---------------------------------------------------------
    def channel_messages(self, channel_id: int) -> list[dict]:
        return [m for m in self.messages.values() if int(m["channel_id"]) == channel_id]

    def public_messages(self, channel_id: int | None = None) -> list[dict]:
        return [
            m
            for m in self.messages.values()
            if not (m["flags"] & EPHEMERAL)
            and self.channels.get(int(m["channel_id"]), {}).get("type") != 1
            and (channel_id is None or int(m["channel_id"]) == channel_id)
        ]

    def routes(self, method: str | None = None, pattern: str = "") -> list[Request]:
        rx = re.compile(pattern)
        return [r for r in self.requests if (method is None or r.method == method) and rx.search(r.path)]

    def reply_text(self, inter: Interaction) -> str:
        """What the user sees as the answer: the last text of the interaction's own message."""
        if inter.original_id is not None and inter.original_id in self.messages:
            return self.messages[inter.original_id]["text"]
        if inter.callback is not None:
            return text_of(inter.callback.data or {})
        return ""

    def follow_ups(self, inter: Interaction) -> list[dict]:
        """The messages the bot sent after the interaction's first answer (follow-ups)."""
        return [
            m
            for m in self.messages.values()
            if (m.get("interaction_metadata") or {}).get("id") == str(inter.id) and int(m["id"]) != inter.original_id
        ]

    def original(self, inter: Interaction) -> dict | None:
        return self.messages.get(inter.original_id) if inter.original_id else None

    async def _upload(self, request: web.Request) -> web.Response:
        """A file a user attached (Discord's CDN): what discord.py's `Attachment.read` fetches."""
        upload = self.uploads.get(request.match_info["id"])
        if upload is None:
            return web.Response(status=404)
        return web.Response(body=upload.data, content_type=upload.content_type)

    # ----- REST ---------------------------------------------------------------------------
    async def _read(self, request: web.Request) -> tuple[Any, list[Attachment]]:
        ctype = request.content_type
        if ctype == "application/json":
            return await request.json(), []
        if ctype.startswith("multipart/"):
            body, files = None, []
            reader = await request.multipart()
            async for part in reader:
                assert isinstance(part, aiohttp.BodyPartReader), "discord.py sends flat form data"
                if part.name == "payload_json":
                    body = json.loads(await part.text())
                else:
                    files.append(
                        Attachment(
                            part.name or "",
                            part.filename or "",
                            part.headers.get("Content-Type", ""),
                            bytes(await part.read()),
                        )
                    )
            descriptions = {}
            target = (body or {}).get("data", body) if isinstance(body, dict) else {}
            for i, att in enumerate((target or {}).get("attachments") or []):
                descriptions[str(att.get("id", i))] = att.get("description")
            for i, f in enumerate(files):
                m = re.match(r"files\[(\d+)\]", f.field)
                f.description = descriptions.get(m.group(1) if m else str(i))
            return body, files
        text = await request.text()
        return (json.loads(text) if text.strip().startswith(("{", "[")) else None), []

    async def _rest(self, request: web.Request) -> web.Response:
        path = "/" + request.match_info["tail"]
        body, files = await self._read(request)
        rec = Request(request.method, path, dict(request.query), body, files)
        self.requests.append(rec)
        try:
            for fault in self.faults:
                if fault.hits < fault.times and fault.method == rec.method and fault.path.search(path):
                    fault.hits += 1
                    rec.status = fault.status
                    if fault.status == 0:  # a network failure: the connection drops, no answer
                        if request.transport is not None:
                            request.transport.close()
                        return web.Response(status=500)
                    if fault.status == 429:
                        headers = {"Via": "1.1 google"} if fault.via else {}
                        headers["Retry-After"] = str(max(1, int(fault.retry_after + 0.999)))
                        return _json(
                            {
                                "message": "You are being rate limited.",
                                "retry_after": fault.retry_after,
                                "global": False,
                            },
                            429,
                            headers,
                        )
                    return _json({"message": "Internal Server Error", "code": 0}, fault.status)
            problems = (
                message_problems(rec.data, self._attached_names(rec))
                if rec.method in ("POST", "PATCH")
                and ("/messages" in rec.path or rec.path.startswith("/webhooks/") or rec.path.endswith("/callback"))
                else []
            )
            if problems:
                errors = {
                    str(i): {"_errors": [{"code": "INVALID", "message": text}]} for i, text in enumerate(problems)
                }
                response = _json({"message": "Invalid Form Body", "code": 50035, "errors": errors}, 400)
            else:
                response = self._route(rec)
            rec.status = response.status
            return response
        finally:
            await self._notify()

    @staticmethod
    def _attached_names(rec: Request) -> tuple[str, ...]:
        """The files a message body attaches: uploaded now, or kept from before (an edit)."""
        kept = [str(a.get("filename") or "") for a in rec.data.get("attachments") or [] if isinstance(a, dict)]
        return tuple(f.filename for f in rec.files) + tuple(kept)

    def _route(self, rec: Request) -> web.Response:
        m, p = rec.method, rec.path
        app = str(self.app_id)
        if m == "GET" and p == "/users/@me":
            return _json(self.bot)
        if m == "GET" and p == "/oauth2/applications/@me":
            return _json(
                {
                    "id": app,
                    "name": "Epochs",
                    "description": "",
                    "icon": None,
                    "bot_public": True,
                    "bot_require_code_grant": False,
                    "owner": {**self.bot, "id": "1", "bot": False},
                    "verify_key": "0" * 64,
                    "flags": 0,
                    "team": None,
                    "summary": "",
                }
            )
        if m == "GET" and p == "/gateway/bot":
            return _json(
                {
                    "url": f"ws://127.0.0.1:{self.port}/gateway",
                    "shards": 1,
                    "session_start_limit": {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1},
                }
            )
        if m == "GET" and p == "/gateway":
            return _json({"url": f"ws://127.0.0.1:{self.port}/gateway"})
        mt = re.fullmatch(rf"/applications/{app}(?:/guilds/(\d+))?/commands", p)
        if mt:
            scope = mt.group(1) or "global"
            if m == "PUT":
                problems = [p for cmd in rec.body or [] for p in command_problems(cmd)]
                if problems:
                    errors = {
                        str(i): {"_errors": [{"code": "INVALID", "message": text}]} for i, text in enumerate(problems)
                    }
                    return _json({"message": "Invalid Form Body", "code": 50035, "errors": errors}, 400)
                out = []
                for cmd in rec.body or []:
                    synced = dict(cmd, id=str(next(self._ids)), application_id=app, version="1")
                    if mt.group(1):
                        synced["guild_id"] = mt.group(1)
                    out.append(synced)
                self.commands[scope] = out
                return _json(out)
            return _json(self.commands.get(scope, []))
        mt = re.fullmatch(r"/interactions/(\d+)/([^/]+)/callback", p)
        if mt and m == "POST":
            return self._callback(rec, int(mt.group(1)), mt.group(2))
        mt = re.fullmatch(rf"/webhooks/{app}/([^/]+)(?:/messages/(@original|\d+))?", p)
        if mt:
            return self._webhook(rec, mt.group(1), mt.group(2))
        if m == "POST" and p == "/users/@me/channels":
            uid = int(rec.body["recipient_id"])
            cid = 500_000 + uid
            user = self.users.get(uid) or User(uid, f"user{uid}")
            self.channels[cid] = {"id": str(cid), "type": 1, "recipients": [user.payload()], "last_message_id": None}
            return _json(self.channels[cid])
        mt = re.fullmatch(r"/channels/(\d+)/messages(?:/(\d+))?", p)
        if mt:
            cid = int(mt.group(1))
            if cid not in self.channels:
                return _json({"message": "Unknown Channel", "code": 10003}, 404)
            channel = self.channels[cid]
            if m == "POST":
                if channel["type"] == 1 and int(channel["recipients"][0]["id"]) in self.closed_dms:
                    return _json({"message": "Cannot send messages to this user", "code": 50007}, 403)
                return _json(self._create(cid, rec, ephemeral=False))
            if mt.group(2) and int(mt.group(2)) in self.messages:
                mid = int(mt.group(2))
                if m == "PATCH":
                    return self._answer(self._edit(mid, rec))
                if m == "GET":
                    return _json(self.messages[mid])
                if m == "DELETE":
                    self.messages.pop(mid)
                    return web.Response(status=204)
            return _json({"message": "Unknown Message", "code": 10008}, 404)
        mt = re.fullmatch(r"/channels/(\d+)/threads", p)
        if mt and m == "POST":  # start a thread without a message (public thread: type 11)
            parent = int(mt.group(1))
            if parent not in self.channels or self.channels[parent]["type"] != 0:
                return _json({"message": "Cannot start a thread here", "code": 50024}, 400)
            thread = self.add_channel(next(self._ids), str((rec.body or {}).get("name", "thread")), thread_of=parent)
            asyncio.get_running_loop().create_task(self.dispatch("THREAD_CREATE", {**thread, "newly_created": True}))
            return _json(thread, 201)
        mt = re.fullmatch(r"/channels/(\d+)", p)
        if mt and m == "DELETE" and int(mt.group(1)) in self.channels:
            return _json(self.channels.pop(int(mt.group(1))))
        if mt and m == "GET" and int(mt.group(1)) in self.channels:
            return _json(self.channels[int(mt.group(1))])
        return _json({"message": f"404: Not Found ({m} {p})", "code": 0}, 404)

    # ----- messages -------------------------------------------------------------------------
    def _attachments(self, files: list[Attachment], cid: int, mid: int) -> list[dict]:
        return [
            {
                "id": str(next(self._ids)),
                "filename": f.filename,
                "description": f.description,
                "content_type": f.content_type,
                "size": len(f.data),
                "url": f"{self.base_url}/attachments/{cid}/{mid}/{f.filename}",
                "proxy_url": f"{self.base_url}/attachments/{cid}/{mid}/{f.filename}",
            }
            for f in files
        ]

    def _create(
        self, cid: int, rec: Request, *, ephemeral: bool, interaction: Interaction | None = None, loading: bool = False
    ) -> dict:
        data = rec.data
        mid = next(self._ids)
        flags = int(data.get("flags") or 0) | (EPHEMERAL if ephemeral else 0)
        if loading:
            flags |= 128
        content = data.get("content") or ""
        text = text_of({**data, "flags": flags})
        pings: Pings = (
            {"users": [], "roles": [], "everyone": False}
            if (flags & EPHEMERAL) or loading
            else notified(text, data.get("allowed_mentions"))
        )
        message = {
            "id": str(mid),
            "channel_id": str(cid),
            "guild_id": str(self.guild_id),
            "author": self.bot,
            "content": content,
            "timestamp": "2026-01-01T00:00:00+00:00",
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": pings["everyone"],
            "mentions": [self.users[u].payload() for u in pings["users"] if u in self.users],
            "mention_roles": [str(r) for r in pings["roles"]],
            "attachments": self._attachments(rec.files, cid, mid),
            "embeds": data.get("embeds") or [],
            "pinned": False,
            "type": 20 if interaction else 0,
            "flags": flags,
            "components": data.get("components") or [],
            # emulator bookkeeping (ignored by discord.py):
            "text": text,
            "pinged": pings,
            "allowed_mentions": data.get("allowed_mentions"),
            "edits": 0,
            "files": rec.files,
            "at": time.perf_counter(),
        }
        if interaction is not None:
            message["webhook_id"] = str(self.app_id)
            message["interaction_metadata"] = {
                "id": str(interaction.id),
                "type": interaction.type,
                "user": interaction.user.payload(),
                "authorizing_integration_owners": {},
            }
        self.messages[mid] = message
        return self._public(message)

    def _edit(self, mid: int, rec: Request) -> dict | web.Response:
        """Edit a message; a layout message stays one (Discord cannot take the flag back)."""
        message = self.messages[mid]
        data = rec.data
        layout = bool(message["flags"] & COMPONENTS_V2) or bool(int(data.get("flags") or 0) & COMPONENTS_V2)
        if layout and (data.get("content") or data.get("embeds")):
            return _json(
                {"message": "Invalid Form Body: a layout message takes no content or embeds", "code": 50035}, 400
            )
        if message["flags"] & COMPONENTS_V2 and "flags" in data and not int(data["flags"] or 0) & COMPONENTS_V2:
            refusal = "Invalid Form Body: the IS_COMPONENTS_V2 flag cannot be removed"
            return _json({"message": refusal, "code": 50035}, 400)
        for key in ("content", "embeds", "components"):
            if key in data:
                message[key] = data[key] if data[key] is not None else ([] if key != "content" else "")
        if "attachments" in data or rec.files:
            kept = [
                a
                for a in message["attachments"]
                if any(str(x.get("id")) == a["id"] for x in data.get("attachments") or [])
            ]
            message["attachments"] = kept + self._attachments(rec.files, int(message["channel_id"]), mid)
            message["files"] = rec.files
        if "flags" in data and data["flags"] is not None:
            message["flags"] = (message["flags"] & EPHEMERAL) | int(data["flags"])
        message["flags"] &= ~128  # no longer loading
        message["text"] = text_of(message)
        message["edited_timestamp"] = "2026-01-01T00:00:01+00:00"
        message["edits"] += 1
        message.setdefault("edit_allowed_mentions", []).append(data.get("allowed_mentions"))
        return self._public(message)

    @staticmethod
    def _answer(edited: dict | web.Response) -> web.Response:
        return edited if isinstance(edited, web.Response) else _json(edited)

    @staticmethod
    def _public(message: dict) -> dict:
        return {
            k: v
            for k, v in message.items()
            if k not in ("text", "pinged", "allowed_mentions", "edits", "files", "edit_allowed_mentions", "at")
        }

    def _callback(self, rec: Request, iid: int, token: str) -> web.Response:
        inter = self.interactions.get(iid)
        if inter is None or inter.token != token:
            return _json({"message": "Unknown interaction", "code": 10062}, 404)
        if inter.callback is not None:
            return _json({"message": "Interaction has already been acknowledged.", "code": 40060}, 400)
        inter.callback, inter.callback_at = rec, time.perf_counter()
        inter.responses.append(rec)
        kind = (rec.body or {}).get("type")
        data = rec.data
        inter.ephemeral = bool(int(data.get("flags") or 0) & EPHEMERAL)
        message = None
        if kind in (4, 5):
            message = self._create(
                inter.channel_id, rec, ephemeral=inter.ephemeral, interaction=inter, loading=kind == 5
            )
            inter.original_id = int(message["id"])
        elif kind in (6, 7) and "message" in inter.payload:
            mid = int(inter.payload["message"]["id"])
            inter.original_id = mid
            inter.ephemeral = bool(int(inter.payload["message"].get("flags") or 0) & EPHEMERAL)
            if kind == 7 and mid in self.messages:
                edited = self._edit(mid, rec)
                if isinstance(edited, web.Response):
                    return edited
                message = edited
        answer = {
            "interaction": {
                "id": str(iid),
                "type": inter.type,
                "response_message_id": message["id"] if message else None,
                "response_message_loading": kind == 5,
                "response_message_ephemeral": inter.ephemeral,
            },
            "resource": {"type": kind},
        }
        if message is not None:
            answer["resource"]["message"] = message
        return _json(answer)

    def _webhook(self, rec: Request, token: str, which: str | None) -> web.Response:
        inter = self._by_token.get(token)
        if inter is None:
            return _json({"message": "Unknown Webhook", "code": 10015}, 404)
        inter.responses.append(rec)
        if which is None and rec.method == "POST":
            ephemeral = bool(rec.flags & EPHEMERAL)
            return _json(self._create(inter.channel_id, rec, ephemeral=ephemeral, interaction=inter))
        mid = inter.original_id if which == "@original" else int(which or 0)
        if mid is None or mid not in self.messages:
            return _json({"message": "Unknown Message", "code": 10008}, 404)
        if rec.method == "PATCH":
            return self._answer(self._edit(mid, rec))
        if rec.method == "GET":
            return _json(self._public(self.messages[mid]))
        if rec.method == "DELETE":
            self.messages.pop(mid)
            return web.Response(status=204)
        return _json({"message": "Method not allowed", "code": 0}, 405)


def components(message: dict) -> list[dict]:
    """Every button and select menu in a message, wherever it stands (action rows, sections,
    containers), in order."""
    return [c for c in walk(message.get("components")) if c.get("type") in (BUTTON, SELECT)]


def gallery(message: dict) -> list[str]:
    """The attachments a layout message shows in its media galleries (by file name)."""
    return [
        str(item["media"]["url"]).removeprefix("attachment://")
        for c in walk(message.get("components"))
        if c.get("type") == GALLERY
        for item in c.get("items") or []
    ]
