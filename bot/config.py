"""Configuration: config.toml (optional) plus the DISCORD_TOKEN environment variable.

Read before anything imports the engine, so `data_dir` (an owner's corrected
component data) is in place when the games load their files. Every key is
optional; see config.example.toml for them all.
"""

from __future__ import annotations

import ipaddress
import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .durations import parse_duration

#: Where to look when no --config is given: $EPOCHS_CONFIG, then ./config.toml.
DEFAULT_PATHS = ("config.toml",)


class ConfigError(Exception):
    """A config file that cannot be used, with the reason."""


@dataclass
class Config:
    token: str = field(default="", repr=False)
    dev_guild: int | None = None
    database: str = "epochs.sqlite"
    remind_hours: float = 12.0
    absent_after: int = 3
    undo_hours: float = 24.0
    data_dir: str | None = None
    log_level: str = "INFO"
    images_dir: str = "epochs-images"
    dispatch_poll: float = 30.0
    #: Discord shards: how many the bot has in all, and which of them this process runs
    #: (None: one process runs them all, as many as Discord recommends).
    shard_count: int | None = None
    shard_ids: list[int] | None = None
    #: Seconds an outbox notice stays claimed by this process without being renewed.
    claim_lease: float = 120.0
    #: Fill-in bots ([bots]): processes they think in, seconds one decision may take,
    #: and the level of the bot that plays a resigned or replaced player's seat.
    bot_workers: int = 1
    bot_timeout: float = 60.0
    stand_in_level: str = "normal"
    #: Seconds a board or chart may take to draw ([drawing]) before the reply goes without it.
    render_timeout: float = 10.0
    #: The clock of a table opened without `clock=` ([clocks], issue 27): its bank, the bonus a
    #: move adds and the cap, in seconds (a bank of 0: no clock; a cap of 0: the bank); and the
    #: days a player may be away in any 365.
    clock_bank: float = 0.0
    clock_bonus: float = 86400.0
    clock_cap: float = 0.0
    away_days_per_year: float = 21.0
    #: The web table ([web], issue 28): the address it listens on ("" turns it off), the
    #: address players' links use ("" : the listen address), the signing secret ("" : one
    #: generated and kept in the database), the days a seat link lasts, the megabytes the
    #: tables' views kept for the pages may weigh, and the addresses of the proxies in front
    #: of it, whose X-Forwarded-For names the client (issue 53).
    web_listen: str = "127.0.0.1:8765"
    web_public_url: str = ""
    web_secret: str = field(default="", repr=False)
    web_link_days: int = 30
    web_view_cache_mb: float = 64.0
    web_proxies: tuple[str, ...] = ()
    source: str | None = None
    #: The [discord] section as written, for the adapter's own extra keys.
    discord: dict[str, Any] = field(default_factory=dict, repr=False)

    @property
    def has_token(self) -> bool:
        return bool(self.token.strip())


def _section(data: dict[str, Any], name: str) -> dict[str, Any]:
    value = data.get(name, {})
    if not isinstance(value, dict):
        raise ConfigError(f"[{name}] must be a table of settings")
    return value


def _number(value: Any, name: str, kind: type = float, low: float = 0) -> Any:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value < low:
        raise ConfigError(f"{name} must be a number >= {low:g}, not {value!r}")
    return kind(value)


def _addresses(value: Any, name: str) -> tuple[str, ...]:
    """A list of IP addresses, each as the network layer writes it ("::1", not "0::1")."""
    try:
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise ValueError(value)
        return tuple(str(ipaddress.ip_address(v.strip())) for v in value)
    except ValueError:
        raise ConfigError(f'{name} must be a list of IP addresses (e.g. ["127.0.0.1"]), not {value!r}') from None


def _shards(discord: dict[str, Any], env: dict[str, str]) -> tuple[int | None, list[int] | None]:
    """[discord] shard_count and shard_ids (EPOCHS_SHARD_IDS="0,1" overrides the ids, so
    several processes can share one config file), checked against each other."""
    count = discord.get("shard_count")
    ids: Any = discord.get("shard_ids")
    if env.get("EPOCHS_SHARD_IDS", "").strip():
        try:
            ids = [int(part) for part in env["EPOCHS_SHARD_IDS"].split(",") if part.strip()]
        except ValueError:
            raise ConfigError(
                f"EPOCHS_SHARD_IDS must be shard numbers separated by commas (e.g. 0,1), "
                f"not {env['EPOCHS_SHARD_IDS']!r}"
            ) from None
    if count is None:
        if ids is not None:
            raise ConfigError("discord.shard_ids needs discord.shard_count (how many shards the bot has in all)")
        return None, None
    count = _number(count, "discord.shard_count", int, 1)
    if ids is None:
        return count, None
    if not isinstance(ids, list) or not ids or any(isinstance(i, bool) or not isinstance(i, int) for i in ids):
        raise ConfigError(f"discord.shard_ids must be a list of shard numbers (e.g. [0, 1]), not {ids!r}")
    wrong = [i for i in ids if not 0 <= i < count]
    if wrong or len(set(ids)) != len(ids):
        raise ConfigError(
            f"discord.shard_ids must be different numbers from 0 to {count - 1} (shard_count = {count}), not {ids!r}"
        )
    return count, sorted(ids)


def load_config(path: str | os.PathLike[str] | None = None, env: dict[str, str] | None = None) -> Config:
    """The configuration from `path` (or the default places) and the environment.

    DISCORD_TOKEN in the environment wins over a token in the file, so the
    secret need not be written down at all.
    """
    env = dict(os.environ if env is None else env)
    chosen: Path | None = None
    if path is not None:
        chosen = Path(path)
        if not chosen.is_file():
            raise ConfigError(f"no config file at {chosen}")
    else:
        for candidate in ([env["EPOCHS_CONFIG"]] if env.get("EPOCHS_CONFIG") else []) + list(DEFAULT_PATHS):
            if Path(candidate).is_file():
                chosen = Path(candidate)
                break
    data: dict[str, Any] = {}
    if chosen is not None:
        try:
            data = tomllib.loads(chosen.read_text(encoding="utf-8"))
        except tomllib.TOMLDecodeError as err:
            raise ConfigError(f"{chosen}: {err}") from None
    discord = _section(data, "discord")
    storage = _section(data, "storage")
    reminders = _section(data, "reminders")
    bots = _section(data, "bots")
    drawing = _section(data, "drawing")
    engine = _section(data, "engine")
    logs = _section(data, "log")
    local = _section(data, "local")
    config = Config(source=str(chosen) if chosen else None, discord={k: v for k, v in discord.items() if k != "token"})
    config.token = str(env.get("DISCORD_TOKEN") or discord.get("token") or "")
    guild = discord.get("dev_guild", 0)
    config.dev_guild = _number(guild, "discord.dev_guild", int) or None
    config.dispatch_poll = _number(discord.get("dispatch_poll", 30.0), "discord.dispatch_poll", float, 1)
    config.shard_count, config.shard_ids = _shards(discord, env)
    # the adapter reads its keys from this section: give it the checked values in force
    config.discord.update(shard_count=config.shard_count, shard_ids=config.shard_ids)
    config.claim_lease = _number(discord.get("claim_lease", 120.0), "discord.claim_lease", float, 5)
    if config.claim_lease <= 2 * config.dispatch_poll:
        # claims are renewed once less than half the lease is left, at rounds at most a poll apart
        raise ConfigError(
            f"discord.claim_lease ({config.claim_lease:g} s) must be more than twice "
            f"discord.dispatch_poll ({config.dispatch_poll:g} s), or claims would lapse"
        )
    config.database = str(env.get("EPOCHS_DATABASE") or storage.get("database", config.database))
    config.remind_hours = _number(reminders.get("every_hours", 12), "reminders.every_hours")
    config.absent_after = _number(reminders.get("absent_after", 3), "reminders.absent_after", int, 1)
    config.undo_hours = _number(reminders.get("undo_hours", 24), "reminders.undo_hours", float, 0)
    config.bot_workers = _number(bots.get("workers", 1), "bots.workers", int, 1)
    config.bot_timeout = _number(bots.get("timeout_seconds", 60), "bots.timeout_seconds", float, 1)
    level = str(bots.get("stand_in_level", "normal")).lower()
    if level not in ("easy", "normal", "strong"):
        raise ConfigError(f"bots.stand_in_level must be easy, normal or strong, not {level!r}")
    config.stand_in_level = level
    config.render_timeout = _number(drawing.get("timeout_seconds", 10), "drawing.timeout_seconds", float, 1)
    _clocks(config, _section(data, "clocks"))
    config.data_dir = str(engine.get("data_dir") or "") or None
    level = str(logs.get("level", "INFO")).upper()
    if level not in ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"):
        raise ConfigError(f"log.level must be DEBUG, INFO, WARNING, ERROR or CRITICAL, not {level!r}")
    config.log_level = level
    config.images_dir = str(local.get("images_dir", config.images_dir))
    _web(config, _section(data, "web"), env)
    return config


def _clocks(config: Config, clocks: dict[str, Any]) -> None:
    """[clocks] default ("off" or a bank such as "3d"), bonus, cap (times as `game new` takes
    them: "1d", "12h", "90m"; the cap "" for the bank) and away_days_per_year, checked."""

    def time(key: str, default: str, *, low: float = 0.0) -> float:
        value = clocks.get(key, default)
        if key != "default" and value in ("", 0):
            return 0.0
        if key == "default" and value in ("off", "", False, 0):
            return 0.0
        seconds = parse_duration(value) if isinstance(value, str) else None
        if seconds is None or not low <= seconds <= 60 * 86400:
            raise ConfigError(
                f'clocks.{key} must be a time with its unit from {"1h" if low else "0m"} to 60d, e.g. "3d", "12h" '
                f'or "1d12h"{" (or off)" if key == "default" else ""}, not {value!r}'
            )
        return seconds

    config.clock_bank = time("default", "off", low=3600.0)
    config.clock_bonus = time("bonus", "1d")
    config.clock_cap = time("cap", "")
    if config.clock_bank and config.clock_cap and config.clock_cap < config.clock_bank:
        raise ConfigError("clocks.cap must be at least the bank of clocks.default (or left out: the bank)")
    config.away_days_per_year = _number(clocks.get("away_days_per_year", 21), "clocks.away_days_per_year", float, 0)


def _web(config: Config, web: dict[str, Any], env: dict[str, str]) -> None:
    """[web] listen, public_url, secret (EPOCHS_WEB_SECRET wins), link_days, view_cache_mb and
    proxies, checked."""
    listen = web.get("listen", config.web_listen)
    if not isinstance(listen, str):
        raise ConfigError(f'web.listen must be "host:port" (or "" to turn the web table off), not {listen!r}')
    listen = listen.strip()
    if listen:
        host, sep, port = listen.rpartition(":")
        if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
            raise ConfigError(
                f'web.listen must be "host:port" with a port from 1 to 65535 (e.g. "127.0.0.1:8765"), '
                f'or "" to turn the web table off, not {listen!r}'
            )
    config.web_listen = listen
    public = web.get("public_url", "")
    if not isinstance(public, str) or (public and not public.startswith(("http://", "https://"))):
        raise ConfigError(f"web.public_url must be an address starting with http:// or https://, not {public!r}")
    config.web_public_url = public.strip().rstrip("/")
    secret = env.get("EPOCHS_WEB_SECRET") or web.get("secret", "")
    if not isinstance(secret, str):
        raise ConfigError("web.secret must be text")
    config.web_secret = secret
    config.web_link_days = _number(web.get("link_days", 30), "web.link_days", int, 1)
    config.web_view_cache_mb = _number(web.get("view_cache_mb", 64), "web.view_cache_mb", float, 1)
    config.web_proxies = _addresses(web.get("proxies", []), "web.proxies")
