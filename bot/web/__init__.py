"""The live table on the web (issue 28): every table's public page and each seat's own page,
served by the bot itself, updated live, with moves made from the page.

`open_web(service, config)` starts it (every mode of `epochs` but scripts; bot/__main__.py):
it fills the service's links (`Headline.table_url`, `Decision.seat_url`) and listens on
`[web] listen`. The parts: tokens.py (signed links), links.py (their addresses), guard.py
(who asks, and may they), pages come from the service (bot/service/pages.py) through
render.py and templates/, pictures through boards.py, live updates through live.py, and
app.py puts them together. Decisions: bot/web/README.md.
"""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..service import Service
    from .app import WebTable

log = logging.getLogger(__name__)


def address(listen: str) -> tuple[str, int]:
    """ "127.0.0.1:8765" -> ("127.0.0.1", 8765); "[::1]:8765" -> ("::1", 8765)."""
    host, _, port = listen.rpartition(":")
    return host.strip("[]"), int(port)


async def open_web(service: Service, config: Any) -> WebTable | None:
    """Start the web table for `service` as `config` ([web]) says; None when it is off or its
    address is taken (the bot runs on without it, and says so). It stops when the service
    closes (`Service.on_close`)."""
    if not config.web_listen:
        return None
    from .app import WebTable
    from .links import Links, signing_secret
    from .repeats import quiet_repeats
    from .tokens import Signer

    host, port = address(config.web_listen)
    public = config.web_public_url or f"http://{config.web_listen}"
    secret = await signing_secret(service, config.web_secret, time.time())
    links = Links(public, Signer(secret), config.web_link_days)
    web = WebTable(service, links, view_bytes=int(config.web_view_cache_mb * 1024 * 1024), proxies=config.web_proxies)
    quiet_repeats()  # a flood of connections is logged once a minute with a count (issue 53)
    try:
        await web.start(host, port)
    except OSError as err:
        log.warning("the web table cannot listen on %s (%s); the bot runs without it", config.web_listen, err)
        return None
    service.links = links
    service.on_close.append(web.stop)
    budget = web.gate.budget
    log.info(
        "the web table listens on %s; links start with %s; at most %d connections open, %d of them live pages",
        config.web_listen,
        public,
        budget.connections,
        budget.streams,
    )
    return web
