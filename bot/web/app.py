"""The web table's server (issue 28): an `aiohttp.web` application in the bot's own process.

Routes (every path under a link's token; `/t/` public, `/s/` one seat's):

| route | what |
|---|---|
| `GET /t/<token>`, `GET /s/<token>` | the page |
| `GET .../live` | the part of the page a live update replaces |
| `GET .../events` | server-sent events: the table's version each time it changes |
| `GET .../board.png?v=N` | the public board's map at version N |
| `GET .../tables.png?v=N` | the public board's player tables, offers and legend at version N |
| `GET /s/<token>/private.png?v=N` | the seat's private picture |
| `GET /t/<token>/at/<step>`, `.png`, `/tables.png` | the step-through: the board after a past step (public) |
| `POST /s/<token>/play`, `/undo` | a move, exactly as a Discord button makes it |
| `GET`, `POST /s/<token>/try` | the seat's sandbox (issue 52 §4): fresh, a move tried, "Plan these moves" |
| `GET /s/<token>/try/board.png?v=N&m=M`, `private.png` | the sandbox's map, the seat's own picture, after moves M |

A move goes through `Service.handle` with the page's version and decision key (the same
refusals and stale-page checks as a button); its public post and the other players'
private parts go into the outbox, which Discord (or the terminal) delivers. Every refusal
has its HTTP status and a sentence (guard.py); every response says it must not be framed
or sniffed, and a seat's is never cached.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import json
import logging
import re
import time
import zlib
from collections.abc import Awaitable, Callable, Collection, Coroutine
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

from aiohttp import web

from ..service import Image, Reply, Service
from ..service.pages import TableView
from ..service.sandbox import MAX_MOVES, SandboxRefusal
from . import render
from .boards import Boards
from .gate import Budget, Gate, lost
from .guard import HTTPRefusal, Limiter, Viewer, limit_key, public_viewer, same_origin, seat_viewer
from .links import Links
from .live import EVERY, Watcher
from .views import VIEW_BYTES, Views

log = logging.getLogger(__name__)

STATIC = Path(__file__).parent / "static"
TOKEN = r"{token:[A-Za-z0-9_-]{1,200}}"
#: The largest request body read (a move's form is a few hundred bytes).
MAX_BODY = 16 * 1024
#: Seconds between keep-alive comments on an event stream (proxies close silent ones).
KEEP_ALIVE = 15.0
HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
    "Content-Security-Policy": (
        "default-src 'self'; img-src 'self'; style-src 'self'; script-src 'self'; "
        "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
    ),
}
#: The public pictures of a board by route name, and what a refusal calls them.
PICTURES = {"board": "board", "tables": "board's player tables"}
#: The sandbox's pictures by route name (its map, the seat's own view), and what a refusal calls them.
SANDBOX_PICTURES = {"board": "sandbox's board", "private": "sandbox's private view"}
#: The longest moves code a sandbox picture's address may carry (60 moves deflate to ~1 KB).
MAX_CODE = 4096
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
#: Seconds a table's view is reused for pages of the same version: the time left on a clock
#: (shown to the minute) and a player's time away change without a move.
FRESH = 60.0


class WebTable:
    """The application and what it keeps: pictures, recent views, live pages, rate limits."""

    def __init__(
        self,
        service: Service,
        links: Links,
        *,
        clock: Callable[[], float] = time.time,
        every: float = EVERY,
        reads: Limiter | None = None,
        moves: Limiter | None = None,
        view_bytes: int = VIEW_BYTES,
        budget: Budget | None = None,
        proxies: Collection[str] = (),
    ) -> None:
        self.service = service
        self.links = links
        self.signer = links.signer
        self.clock = clock
        self.boards = Boards(service)
        self.watcher = Watcher(service.table_versions, every)
        #: Page loads, live updates and pictures per link: a page after every move of a busy table is a few a second.
        self.reads = reads or Limiter(rate=10, burst=60)
        #: Moves per link: a quick player taps a turn's steps one after another.
        self.moves = moves or Limiter(rate=2, burst=10)
        self._views = Views(view_bytes)
        self._reading: dict[tuple[int, int, int | None], asyncio.Future[TableView | None]] = {}
        #: What connections and live pages may be open at once (gate.py, issue 53).
        self.gate = Gate(budget or Budget.for_descriptors(), proxies=frozenset(proxies))
        self._listener: asyncio.Server | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self._closing = asyncio.Event()
        self.runner: web.AppRunner | None = None
        self.app = self._application()

    # ------------------------------------------------------------------ the server
    def _application(self) -> web.Application:
        app = web.Application(client_max_size=MAX_BODY, middlewares=[self._answers])
        app.router.add_get("/", self.home)
        app.router.add_get("/favicon.ico", _no_content)  # browsers ask for one: there is none
        app.router.add_static("/static", STATIC)
        for kind in ("t", "s"):
            app.router.add_get(f"/{kind}/{TOKEN}", self.page)
            app.router.add_get(f"/{kind}/{TOKEN}/live", self.live)
            app.router.add_get(f"/{kind}/{TOKEN}/events", self.events)
            app.router.add_get(f"/{kind}/{TOKEN}/board.png", partial(self.public, "board"))
            app.router.add_get(f"/{kind}/{TOKEN}/tables.png", partial(self.public, "tables"))
        app.router.add_get(f"/s/{TOKEN}/private.png", self.private)
        app.router.add_get(f"/t/{TOKEN}/at/{{seq:[0-9]{{1,9}}}}", self.step)
        app.router.add_get(f"/t/{TOKEN}/at/{{seq:[0-9]{{1,9}}}}.png", partial(self.step_png, "board"))
        app.router.add_get(f"/t/{TOKEN}/at/{{seq:[0-9]{{1,9}}}}/tables.png", partial(self.step_png, "tables"))
        app.router.add_post(f"/s/{TOKEN}/play", self.play)
        app.router.add_post(f"/s/{TOKEN}/undo", self.undo)
        app.router.add_get(f"/s/{TOKEN}/try", self.try_page)
        app.router.add_post(f"/s/{TOKEN}/try", self.try_move)
        for kind in SANDBOX_PICTURES:
            app.router.add_get(f"/s/{TOKEN}/try/{kind}.png", partial(self.try_png, kind))
        app.on_startup.append(self._started)
        app.on_shutdown.append(self._stopping)
        return app

    async def _started(self, app: web.Application) -> None:
        self.watcher.start()

    async def _stopping(self, app: web.Application) -> None:
        self._closing.set()  # open event streams end, so the server stops at once
        await self.watcher.stop()
        for task in list(self._tasks):
            task.cancel()

    async def start(self, host: str, port: int) -> None:
        """Listen on host:port (OSError when it is taken), every connection through the gate;
        aiohttp's keep-alive timer, which also runs from a connection's opening until its
        request's headers are in, is the budget's `idle`."""
        budget = self.gate.budget
        self.runner = web.AppRunner(
            self.app,
            access_log=None,
            shutdown_timeout=2.0,
            keepalive_timeout=budget.idle,
            lingering_time=min(10.0, budget.body),  # the rest of a refused body: read and dropped this long
        )
        await self.runner.setup()
        assert self.runner.server is not None
        try:
            self._listener = await asyncio.get_running_loop().create_server(
                self.gate.protocol(self.runner.server), host, port, reuse_address=True
            )
        except BaseException:
            await self.runner.cleanup()
            self.runner = None
            raise

    @property
    def port(self) -> int | None:
        """The port listened on (the one the system chose for port 0)."""
        sockets = self._listener.sockets if self._listener is not None else ()
        return int(sockets[0].getsockname()[1]) if sockets else None

    async def stop(self) -> None:
        listener, self._listener = self._listener, None
        if listener is not None:
            listener.close()
        if self.runner is not None:
            await self.runner.cleanup()
            self.runner = None
        if listener is not None:
            await listener.wait_closed()

    # ------------------------------------------------------------------ answers
    @web.middleware
    async def _answers(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """Refusals as pages (or JSON for the script), and the safety headers on everything."""
        try:
            response = await handler(request)
        except HTTPRefusal as refusal:
            response = self._refusal(request, refusal.status, refusal.text, refusal.retry_after)
        except web.HTTPRequestEntityTooLarge:
            response = self._refusal(request, 413, f"That request is too large: at most {MAX_BODY:,} bytes.")
        except web.HTTPException as err:
            if err.status < 400:  # a redirect (a picture's newer version) carries the seat's token too
                _safe(request, err)
                raise
            text = {404: "There is no page at this address.", 405: "That page cannot be used that way."}
            response = self._refusal(request, err.status, text.get(err.status, err.reason))
        if not response.prepared:
            _safe(request, response)
        return response

    @staticmethod
    def _refusal(request: web.Request, status: int, text: str, retry_after: float | None = None) -> web.Response:
        headers = {"Retry-After": str(round(retry_after))} if retry_after else {}
        if _wants_json(request):
            body = json.dumps({"ok": False, "status": status, "text": text})
            response = web.Response(status=status, text=body, content_type="application/json", headers=headers)
        else:
            html = render.refusal_page(status, text)
            response = web.Response(status=status, text=html, content_type="text/html", headers=headers)
        if status in (429, 503):
            response.force_close()  # told to come back later: its connection is not kept meanwhile
        return response

    # ------------------------------------------------------------------ who asks
    async def _viewer(self, request: web.Request) -> Viewer:
        token, seat = request.match_info["token"], request.path.startswith("/s/")
        self.reads.check(limit_key(self.signer, token, seat=seat, now=self.clock(), client=self._client(request)))
        if request.path.startswith("/s/"):
            return await seat_viewer(self.signer, self.service, token, self.clock())
        return public_viewer(self.signer, token)

    def _client(self, request: web.Request) -> str:
        """The address a request comes from (behind our own proxy: the one it names)."""
        return self.gate.client(request.remote, request.headers.get("X-Forwarded-For"))

    async def _view(self, viewer: Viewer) -> TableView:
        """The table's position for the viewer, kept per (table, version, seat) for up to
        FRESH seconds: the clocks and times away in it move on without a new version (issue 27).
        A seat's reader knows the table's version already (its link was checked against the
        table's record): only a public reader's is read here."""
        version = viewer.version
        if version is None:
            version = (await self.service.table_versions([viewer.table])).get(viewer.table)
        if version is None:
            raise HTTPRefusal(404, "This table is no longer kept (its game was deleted).")
        key = (viewer.table, version, viewer.seat)
        view = self._views.get(key)
        if view is not None and not 0 <= self.clock() - view.headline.at < FRESH:
            view = None
        if view is None:
            pending = self._reading.get(key)
            if pending is None:  # after a move every open page asks at once: one reads for all
                pending = self._reading[key] = asyncio.ensure_future(self.service.table_view(viewer.table, viewer.seat))
                pending.add_done_callback(partial(self._read_done, key))
            view = await asyncio.shield(pending)
            if view is None:
                raise HTTPRefusal(404, "This table has no game to show yet (it has not started, or was cancelled).")
            self._views.put((viewer.table, view.version, viewer.seat), view)
        return view

    def _read_done(self, key: tuple[int, int, int | None], _: asyncio.Future[TableView | None]) -> None:
        self._reading.pop(key, None)

    def _context(self, viewer: Viewer, view: TableView) -> dict[str, Any]:
        """What a page's templates need besides the view, drawing what is not drawn yet
        in the background (the page never waits for a picture)."""
        board_key = ("board", view.table_id, view.version)
        # the map's words are on the page: it is drawn now; the tables picture (its words are
        # the map's too) is drawn when the browser asks for it, right after the page
        self._draw_soon(board_key, partial(self.boards.public, view.table_id, view.version, "board"))
        private, drawn = None, self.boards.has(board_key)
        if viewer.seat is not None:
            seat = viewer.seat
            private_key = ("private", view.table_id, view.version, seat)
            self._draw_soon(private_key, lambda: self.boards.private(view.table_id, view.version, seat))
            private = self.boards.kept(private_key)
            drawn = drawn and self.boards.has(private_key)
        return {
            "base": viewer.base,
            "table_base": self.links.table_path(view.table_id),
            "form_token": self.signer.form_token(viewer.token) if viewer.seat is not None else "",
            "board": self.boards.kept(board_key),
            "private": private,
            "drawn": drawn,
        }

    def _draw_soon(self, key: tuple[Any, ...], draw: Callable[[], Coroutine[Any, Any, Image | None]]) -> None:
        if self.boards.has(key):
            return
        task: asyncio.Task[Image | None] = asyncio.get_running_loop().create_task(draw())
        self._tasks.add(task)
        task.add_done_callback(_finished(self._tasks))

    # ------------------------------------------------------------------ pages
    async def home(self, request: web.Request) -> web.Response:
        return web.Response(
            text=render.refusal_page(200, "This is the Epochs web table: open a table's link from its channel."),
            content_type="text/html",
        )

    async def page(self, request: web.Request) -> web.Response:
        viewer = await self._viewer(request)
        view = await self._view(viewer)
        return web.Response(text=render.page(view, **self._context(viewer, view)), content_type="text/html")

    async def live(self, request: web.Request) -> web.Response:
        viewer = await self._viewer(request)
        view = await self._view(viewer)
        return web.Response(text=render.live(view, **self._context(viewer, view)), content_type="text/html")

    async def public(self, kind: str, request: web.Request) -> web.Response:
        """`kind` "board" (the map) or "tables" (player tables, offers, legend): the public
        view's, on the public page and every seat's alike."""
        viewer = await self._viewer(request)
        view = await self._view(viewer)
        version = _number(request.query.get("v", str(view.version)), "v")
        if version != view.version and not self.boards.has((kind, viewer.table, version)):
            raise web.HTTPFound(f"{viewer.base}/{kind}.png?v={view.version}")  # moved on: the picture of now
        return _png(await self.boards.public(viewer.table, version, kind), PICTURES[kind])

    async def private(self, request: web.Request) -> web.Response:
        viewer = await self._viewer(request)
        assert viewer.seat is not None
        view = await self._view(viewer)
        version = _number(request.query.get("v", str(view.version)), "v")
        if version != view.version and not self.boards.has(("private", viewer.table, version, viewer.seat)):
            raise web.HTTPFound(f"{viewer.base}/private.png?v={view.version}")
        return _png(await self.boards.private(viewer.table, version, viewer.seat), "private view")

    async def step(self, request: web.Request) -> web.Response:
        viewer = await self._viewer(request)
        view = await self._view(viewer)
        seq = int(request.match_info["seq"])
        if seq != 0 and seq not in view.steps:
            raise HTTPRefusal(404, f"There is no step #{seq} in this game's log (an undone step is no step).")
        image = await self.boards.step(view.table_id, view.version, seq)
        html = render.step_page(view, seq, table_base=viewer.base, back=viewer.base, image=image, steps=view.steps)
        return web.Response(text=html, content_type="text/html")

    async def step_png(self, kind: str, request: web.Request) -> web.Response:
        viewer = await self._viewer(request)
        view = await self._view(viewer)
        seq = int(request.match_info["seq"])
        if seq != 0 and seq not in view.steps:
            raise HTTPRefusal(404, f"There is no step #{seq} in this game's log (an undone step is no step).")
        return _png(await self.boards.step(view.table_id, view.version, seq, kind), PICTURES[kind])

    async def events(self, request: web.Request) -> web.StreamResponse:
        """The table's version now, then each time it changes, as server-sent events."""
        viewer = await self._viewer(request)
        view = await self._view(viewer)
        response = web.StreamResponse(
            headers={**HEADERS, "Content-Type": "text/event-stream", "Cache-Control": "no-store"}
        )
        # counted per client address and per seat's player, never per link: the public link
        # is the whole channel's (issue 53)
        with self.gate.stream(self._client(request), viewer.person):
            try:
                await response.prepare(request)
                await response.write(f"retry: 1000\nevent: version\ndata: {view.version}\n\n".encode())
                with self.watcher.listen(view.table_id, view.version) as queue:
                    await self._stream(response, queue, lost(request.transport))
            except ConnectionResetError:
                pass  # the reader left
        return response

    async def _stream(
        self, response: web.StreamResponse, queue: asyncio.Queue[int], gone: asyncio.Future[None] | None
    ) -> None:
        """Each new version as an event, a comment when nothing came for a while, until the
        reader leaves (`gone`: at once) or the server stops."""
        closing = asyncio.ensure_future(self._closing.wait())
        ends: set[asyncio.Future[Any]] = {closing} | ({gone} if gone is not None else set())
        getter: asyncio.Future[int] | None = None
        try:
            while not any(end.done() for end in ends):
                getter = asyncio.ensure_future(queue.get())
                done, _ = await asyncio.wait({getter, *ends}, timeout=KEEP_ALIVE, return_when="FIRST_COMPLETED")
                if getter in done:
                    await response.write(f"event: version\ndata: {getter.result()}\n\n".encode())
                elif not done:
                    await response.write(b": still here\n\n")
        finally:
            for future in (getter, closing):
                if future is not None and not future.done():
                    future.cancel()

    # ------------------------------------------------------------------ moves
    async def play(self, request: web.Request) -> web.Response:
        return await self._move(request, "play")

    async def undo(self, request: web.Request) -> web.Response:
        return await self._move(request, "undo")

    async def _form(self, request: web.Request) -> tuple[Viewer, Any]:
        """A seat's form posted from its own page: the link, the move budget, the origin and
        the form token checked, the body read within its time."""
        viewer = await self._viewer(request)
        assert viewer.seat is not None and viewer.user is not None
        self.moves.check(viewer.key)
        if not same_origin(request.headers.get("Origin"), self._origins(request)):
            raise HTTPRefusal(403, "A move must come from this table's own page, not from another site.")
        try:
            async with asyncio.timeout(self.gate.budget.body):
                form = await request.post()
        except TimeoutError:
            raise HTTPRefusal(408, "The move's form did not come in time; try again.") from None
        if not self.signer.form_matches(viewer.token, str(form.get("form", ""))):
            raise HTTPRefusal(403, "This form is not from this seat's page (or its page is too old): reload the page.")
        return viewer, form

    # ------------------------------------------------------------------ the sandbox (issue 52 §4)
    async def try_page(self, request: web.Request) -> web.Response:
        """A fresh sandbox of the seat's position."""
        viewer = await self._viewer(request)
        return await self._sandbox(viewer, [], None)

    async def try_move(self, request: web.Request) -> web.Response:
        """A move tried in the sandbox (the seat's, another seat's, or a bot's), or "Plan these
        moves": the sandbox is replayed from the moves its page carries, nothing is stored but
        the plan."""
        viewer, form = await self._form(request)
        assert viewer.seat is not None and viewer.user is not None and viewer.channel is not None
        moves = sandbox_moves(str(form.get("moves", "")))
        if form.get("plan"):
            try:
                tried = await self.service.sandbox(viewer.table, viewer.seat, moves)
            except SandboxRefusal as err:
                raise HTTPRefusal(422, str(err)) from None
            reply = await self.service.plan_moves(
                viewer.channel, viewer.user, viewer.name, tried.own_moves(), table=viewer.table
            )
            said = "\n".join(p.text for p in reply.private if p.user == viewer.user) or reply.text
            return await self._sandbox(viewer, moves, None, outcome=said, failed=reply.error)
        if form.get("bot"):
            return await self._sandbox(viewer, moves, _number(str(form.get("bot")), "bot"))
        action = str(form.get("action", ""))
        if not 0 < len(action) <= 500:
            raise HTTPRefusal(400, "A move names one of the choices on the page (the `action` field is missing).")
        return await self._sandbox(viewer, [*moves, (_number(str(form.get("seat", "")), "seat"), action)], None)

    async def _sandbox(
        self, viewer: Viewer, moves: list[tuple[int, str]], bot: int | None, *, outcome: str = "", failed: bool = False
    ) -> web.Response:
        assert viewer.seat is not None
        try:
            tried = await self.service.sandbox(viewer.table, viewer.seat, moves, bot=bot)
        except SandboxRefusal as err:
            raise HTTPRefusal(422, str(err)) from None
        view = await self._view(viewer)
        played = [(m.seat, m.action) for m in tried.moves]
        try:  # the position is what the sandbox is for: its page waits for its two pictures
            board, private = await asyncio.gather(
                self.boards.sandbox(viewer.table, tried.version, viewer.seat, played),
                self.boards.sandbox(viewer.table, tried.version, viewer.seat, played, "private"),
            )
        except SandboxRefusal as err:
            raise HTTPRefusal(422, str(err)) from None
        html = render.sandbox_page(
            tried,
            title=view.headline.title,
            base=viewer.base,
            form_token=self.signer.form_token(viewer.token),
            moves=json.dumps([list(move) for move in played]),
            outcome=outcome,
            failed=failed,
            board=board,
            private=private,
            pictures=f"?v={tried.version}&m={moves_code(played)}",
        )
        return web.Response(text=html, content_type="text/html")

    async def try_png(self, kind: str, request: web.Request) -> web.Response:
        """A picture of the seat's sandbox: its map ("board") or the seat's own view
        ("private"), after the moves its address carries, for that seat's link only. Its page
        drew it already; drawing it anew (another process, or no longer kept) is counted on
        the move budget, as trying the moves was."""
        viewer = await self._viewer(request)
        assert viewer.seat is not None
        version = _number(request.query.get("v", ""), "v")
        moves = moves_of_code(request.query.get("m", ""))
        if not self.boards.has(self.boards.sandbox_key(viewer.table, version, viewer.seat, moves, kind)):
            if version != viewer.version:  # moves tried on another position (nor kept: a later one may come)
                raise HTTPRefusal(404, "The table has moved on since these moves were tried: open the sandbox again.")
            self.moves.check(viewer.key)
        try:
            image = await self.boards.sandbox(viewer.table, version, viewer.seat, moves, kind)
        except SandboxRefusal as err:
            raise HTTPRefusal(422, str(err)) from None
        return _png(image, SANDBOX_PICTURES[kind])

    async def _move(self, request: web.Request, command: str) -> web.Response:
        """A choice or an undo from a seat's page, played exactly as a Discord button plays
        it; then the page is told the outcome (JSON for the script, the page for a form)."""
        viewer, form = await self._form(request)
        assert viewer.user is not None
        version = _number(str(form.get("version", "")), "version")
        action = str(form.get("action", "")) if command == "play" else ""
        key = str(form.get("key", "")) if command == "play" else ""
        if command == "play" and not 0 < len(action) <= 500:
            raise HTTPRefusal(400, "A move names one of the choices on the page (the `action` field is missing).")
        if len(key) > 100 or not re.fullmatch(r"[0-9a-f.]*", key):
            raise HTTPRefusal(400, "The decision key of the page is not one this table makes: reload the page.")
        before = await self._view(viewer)
        assert viewer.channel is not None  # seat_viewer read it from the table's record
        reply = await self.service.handle(
            viewer.channel,
            viewer.user,
            viewer.name,
            command,
            action,
            guild=viewer.guild,
            expected_version=version,
            expected_choice=(key or None) if command == "play" else None,
            table=viewer.table,
        )
        if not reply.error:
            await self._pass_on(viewer.channel, reply, viewer.user)
            self.watcher.poke()
        status = 409 if reply.stale else 422 if reply.error else 200
        text = _outcome(reply, command, before, action, viewer.user)
        if _wants_json(request):
            body = json.dumps({"ok": not reply.error, "status": status, "text": text, "version": reply.version})
            return web.Response(status=status, text=body, content_type="application/json")
        view = await self._view(replace(viewer, version=None))  # the table as the move left it
        html = render.page(view, **self._context(viewer, view), said=text, said_error=reply.error)
        return web.Response(status=status, text=html, content_type="text/html")

    def _origins(self, request: web.Request) -> set[str]:
        """This site's own origins: the public address, and the one the request came to."""
        origins = {f"{request.scheme}://{request.host}".lower()}
        if self.links.public_url:
            scheme, _, rest = self.links.public_url.partition("://")
            origins.add(f"{scheme}://{rest.split('/')[0]}".lower())
        return origins

    async def _pass_on(self, channel: int, reply: Reply, caller: int) -> None:
        """What a move from the page tells others goes where Discord's would: the public post
        and the other players' private parts into the outbox (the mover reads the page)."""
        others = [part for part in reply.private if part.user != caller]
        if not (reply.text or reply.image or others):
            return
        held = Reply.from_json(reply.to_json())
        held.image = reply.image
        held.private = others
        await self.service.enqueue(channel, held, tags={"from": "web"})
        wake = self.service.on_notice
        if wake is not None:
            wake()


def _finished(tasks: set[asyncio.Task[Any]]) -> Callable[[asyncio.Task[Any]], None]:
    def done(task: asyncio.Task[Any]) -> None:
        tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.warning("web: a drawing failed: %r", task.exception())

    return done


async def _no_content(request: web.Request) -> web.Response:
    return web.Response(status=204)


def _safe(request: web.Request, response: web.StreamResponse) -> None:
    """The safety headers, and `no-store` on whatever answers a seat's link (its token is in
    the address: no cache may keep it)."""
    response.headers.update(HEADERS)
    if request.path.startswith("/s/"):
        response.headers["Cache-Control"] = "no-store"


def _wants_json(request: web.Request) -> bool:
    return "application/json" in request.headers.get("Accept", "")


def sandbox_moves(text: str) -> list[tuple[int, str]]:
    """The moves a sandbox page carries (`[[seat, action], ...]`), or 400."""
    try:
        moves = json.loads(text or "[]")
        if not isinstance(moves, list) or len(moves) > MAX_MOVES:
            raise ValueError
        return [(int(seat), str(action)) for seat, action in moves]
    except (ValueError, TypeError):
        raise HTTPRefusal(400, "The sandbox's moves on this page are not readable: open the sandbox again.") from None


def moves_code(moves: list[tuple[int, str]]) -> str:
    """The moves tried as a sandbox picture's address carries them: their JSON deflated, in
    URL-safe base64 (60 moves of the longest actions stay well within a request's line)."""
    raw = json.dumps([list(move) for move in moves], separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(zlib.compress(raw, 9)).decode().rstrip("=")


def moves_of_code(code: str) -> list[tuple[int, str]]:
    """The moves a sandbox picture's address carries (`moves_code`), or 400; never inflated
    past the size of a form's body."""
    try:
        if len(code) > MAX_CODE:
            raise ValueError
        inflate = zlib.decompressobj()
        raw = inflate.decompress(base64.urlsafe_b64decode(code + "=" * (-len(code) % 4)), MAX_BODY)
        if inflate.unconsumed_tail or not inflate.eof:
            raise ValueError
        text = raw.decode()
    except (ValueError, binascii.Error, zlib.error):
        said = "This picture's address does not name the sandbox's moves: open the sandbox again."
        raise HTTPRefusal(400, said) from None
    return sandbox_moves(text)


def _number(text: str, field: str) -> int:
    if not re.fullmatch(r"[0-9]{1,9}", text):
        raise HTTPRefusal(400, f"The field `{field}` must be a whole number written in digits, as the page sends it.")
    return int(text)


def _png(image: Image | None, what: str) -> web.Response:
    if image is None:
        raise HTTPRefusal(404, f"There is no picture of this {what} (the game has moved on, or has no pictures).")
    return web.Response(body=image.png, content_type="image/png", headers={"Cache-Control": "private, max-age=3600"})


def _outcome(reply: Reply, command: str, before: TableView, action: str, caller: int) -> str:
    """What the mover reads after a move: the refusal, or what was done and what comes next."""
    if reply.error:
        return reply.text
    if command == "undo":
        return reply.text or next((p.text for p in reply.private if p.user == caller), "") or "Done."
    chosen = before.decision.choices if before.decision is not None else []
    label = next((c.label for c in chosen if c.action == action), action)
    if reply.panel or caller in reply.decisions:
        return f"Done: {label}. Your turn goes on."
    return f"Done: {label}. Your turn is over."
