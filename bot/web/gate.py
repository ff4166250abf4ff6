"""What the web table may hold open (issue 53), so that no web client can stop the bot.

The web table shares the bot's process, and with it the process's file descriptors: each
open connection holds one. Were the descriptors spent, Discord's connections, the database
and the workers would fail with them, and the bot stop. So the web table keeps to a budget
worked out from the process's own limit (`RLIMIT_NOFILE`), leaving `KEPT` descriptors for
everything else:

- **Connections**, in all and per client address (but for the proxies in front of the
  table, `[web] proxies`, whose clients are told apart by the `X-Forwarded-For` they add,
  for the live pages and the rate limits). One over the budget is closed as soon as
  it is accepted, with a short 503 (or 429 for one address over its share) and
  `Retry-After`: it costs a descriptor for an instant, never for long.
- **Event streams** (live pages), in all, per client address and per person (a seat's
  player at a table, whichever of their links): over one of them, 503 or 429 with
  `Retry-After`, and the page's script tries again then (static/table.js). A stream whose
  reader left frees its place at once (`Guarded.lost`), not at its next write.
- **Time**: a connection that has not sent a whole request's headers within `idle` seconds
  of opening (or of its last answer) is closed: aiohttp's keep-alive timer, which starts
  then and is not pushed back by bytes trickling in. A request's body has `body` seconds;
  an answer the client does not read is dropped after `stalled` seconds without progress.

Every refusal is counted and logged at most once a minute, with the counts (a flood logs a
line a minute, not a line per attempt).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import resource
import time
from collections import Counter
from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass

from .guard import HTTPRefusal

log = logging.getLogger(__name__)

#: Descriptors kept for all but the web table: Discord's gateway and HTTP connections, the
#: database (PostgreSQL's pool, SQLite's files), the drawing and bot workers' pipes, the
#: logs, and what Python itself holds (about 60 at the start of a bot).
KEPT = 256
#: Seconds a refused client is asked to wait before it tries again.
RETRY_AFTER = 10
#: Seconds between two log lines about refusals.
SAY_EVERY = 60.0


@dataclass(frozen=True)
class Budget:
    """How much the web table may hold open, and for how long (see the module's docstring)."""

    connections: int
    per_address: int
    streams: int
    streams_per_address: int
    streams_per_person: int = 8
    idle: float = 15.0
    body: float = 15.0
    stalled: float = 30.0

    @classmethod
    def for_descriptors(cls, limit: int | None = None) -> Budget:
        """The budget of a process allowed `limit` descriptors (default: this process's soft
        `RLIMIT_NOFILE`): all but `KEPT` of them (at least a quarter) for connections, half
        of those for event streams, so pages, pictures and moves always have room; an eighth
        of each for one address (a household or an office behind one address)."""
        if limit is None:
            limit = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
            if limit == resource.RLIM_INFINITY:
                limit = 1 << 20
        connections = min(max(limit - KEPT, limit // 4), 20_000)
        streams = connections // 2
        return cls(
            connections=connections,
            per_address=max(4, min(64, connections // 8)),
            streams=streams,
            streams_per_address=max(2, min(32, streams // 8)),
        )


class Gate:
    """Counts what the web table holds open, and refuses what goes over its `Budget`."""

    def __init__(
        self, budget: Budget, *, proxies: frozenset[str] = frozenset(), clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.budget = budget
        #: The addresses of the proxies in front of the web table (`[web] proxies`): their
        #: connections carry many clients, named by the `X-Forwarded-For` they add.
        self.proxies = proxies
        self.clock = clock
        self.open = 0
        self.streams = 0
        self._addresses: Counter[str] = Counter()
        self._streams: Counter[Hashable] = Counter()
        self._refused: Counter[str] = Counter()
        self._said = float("-inf")

    # ---- connections ----------------------------------------------------------------
    def protocol(self, make: Callable[[], asyncio.Protocol]) -> Callable[[], asyncio.Protocol]:
        """A protocol factory for `loop.create_server`: `make`'s protocols (aiohttp's request
        handlers), each behind a `Guarded` that admits it or refuses it."""
        return lambda: Guarded(self, make())

    def admit(self, address: str) -> int:
        """0 when a new connection from `address` may stay; else the status it is refused with."""
        if self.open >= self.budget.connections:
            return self._refuse(503, f"connections over the budget of {self.budget.connections:,} open")
        if address not in self.proxies and self._addresses[address] >= self.budget.per_address:
            return self._refuse(429, f"connections over {self.budget.per_address:,} from one address")
        self.open += 1
        self._addresses[address] += 1
        return 0

    def client(self, peer: str | None, forwarded: str | None) -> str:
        """The address of the client asking: the connection's, or behind one of our proxies
        the last address its `X-Forwarded-For` names (the one our proxy saw; whatever a
        client writes there itself comes before it). Anyone else's header proves nothing."""
        if peer in self.proxies and forwarded:
            return forwarded.rsplit(",", 1)[-1].strip() or peer
        return peer or "unknown"

    def leave(self, address: str) -> None:
        self.open -= 1
        self._addresses[address] -= 1
        if not self._addresses[address]:
            del self._addresses[address]

    # ---- event streams --------------------------------------------------------------
    @contextlib.contextmanager
    def stream(self, address: str, person: Hashable | None) -> Iterator[None]:
        """A place for one event stream while the block runs; HTTPRefusal when there is none."""
        budget = self.budget
        keys: list[Hashable] = [("address", address)] + ([person] if person is not None else [])
        if self.streams >= budget.streams:
            self._refuse(503, f"live pages over the budget of {budget.streams:,}")
            raise HTTPRefusal(
                503, "The table has too many live pages open; this page will try again.", retry_after=RETRY_AFTER
            )
        if self._streams[keys[0]] >= budget.streams_per_address:
            self._refuse(429, f"live pages over {budget.streams_per_address:,} from one address")
            raise HTTPRefusal(
                429,
                f"{budget.streams_per_address} live pages are open from this address; close one.",
                retry_after=RETRY_AFTER,
            )
        if person is not None and self._streams[person] >= budget.streams_per_person:
            self._refuse(429, f"live pages over {budget.streams_per_person:,} for one seat")
            raise HTTPRefusal(
                429, f"{budget.streams_per_person} pages of this seat are live already; close one.", retry_after=5
            )
        self.streams += 1
        self._streams.update(keys)
        try:
            yield
        finally:
            self.streams -= 1
            self._streams.subtract(keys)
            for key in keys:
                if self._streams[key] <= 0:
                    del self._streams[key]

    # ---- what is said about it --------------------------------------------------------
    def _refuse(self, status: int, why: str) -> int:
        """Count a refusal; say the counts at most once every SAY_EVERY seconds."""
        self._refused[why] += 1
        now = self.clock()
        if now - self._said >= SAY_EVERY:
            counts = "; ".join(f"{count:,} {reason}" for reason, count in self._refused.most_common())
            log.warning("web: refused since the last report: %s (the bot goes on)", counts)
            self._refused.clear()
            self._said = now
        return status


def refusal(status: int) -> bytes:
    """The whole answer a connection refused on arrival gets, before it is closed."""
    reason = "Service Unavailable" if status == 503 else "Too Many Requests"
    text = b"The web table is busy; try again in a few seconds.\n"
    head = (
        f"HTTP/1.1 {status} {reason}\r\nRetry-After: {RETRY_AFTER}\r\nContent-Type: text/plain; charset=utf-8\r\n"
        f"Content-Length: {len(text)}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n"
    )
    return head.encode("ascii") + text


class Guarded(asyncio.Protocol):
    """One connection: admitted by the gate (then everything is passed on to aiohttp's
    handler) or refused on arrival. `lost` is done once the connection is gone, so an event
    stream ends at once; an answer not taken for `stalled` seconds drops the connection."""

    def __init__(self, gate: Gate, inner: asyncio.Protocol) -> None:
        self.gate = gate
        self.inner = inner
        self.address = ""
        self.admitted = False
        self.lost: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._transport: asyncio.Transport | None = None
        self._stalled: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        peer = transport.get_extra_info("peername")
        self.address = str(peer[0]) if peer else "unknown"
        status = self.gate.admit(self.address)
        if status:
            transport.write(refusal(status))
            transport.close()
            return
        self.admitted = True
        self._transport = transport
        self.inner.connection_made(transport)

    def data_received(self, data: bytes) -> None:
        if self.admitted:
            self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        return self.inner.eof_received() if self.admitted else None

    def pause_writing(self) -> None:
        if self.admitted:
            transport = self._transport
            assert transport is not None
            self._stalled = asyncio.get_running_loop().call_later(self.gate.budget.stalled, transport.abort)
            self.inner.pause_writing()

    def resume_writing(self) -> None:
        if self.admitted:
            if self._stalled is not None:
                self._stalled.cancel()
                self._stalled = None
            self.inner.resume_writing()

    def connection_lost(self, exc: Exception | None) -> None:
        if self._stalled is not None:
            self._stalled.cancel()
        if not self.lost.done():
            self.lost.set_result(None)
        if self.admitted:
            self.admitted = False
            self.gate.leave(self.address)
            self.inner.connection_lost(exc)


def lost(transport: asyncio.BaseTransport | None) -> asyncio.Future[None] | None:
    """The future done when the connection behind `transport` is gone (None when it is not
    one of the gate's: under aiohttp's test server)."""
    protocol = transport.get_protocol() if transport is not None else None
    return protocol.lost if isinstance(protocol, Guarded) else None
