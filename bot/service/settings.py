"""The service's defaults, read from the config (`[reminders]`, `[service]`, `[bots]`,
`[drawing]`, `[clocks]`): a module of their own so that the collaborators the service is
made of (timing, clocks) can take them without importing the service's core."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

HOUR = 3600.0
DAY = 24 * HOUR


@dataclass
class Settings:
    """Service defaults (config.toml [reminders] and [service])."""

    remind_every: float = 12 * HOUR
    #: Unanswered reminders after which the others may vote to skip or pause.
    absent_after: int = 3
    undo_expiry: float = DAY
    #: Render board images into replies (off: text-only, or render later via
    #: `Service.render_board`).
    images: bool = True
    #: Counted games a person needs to appear on a leaderboard (`stats top <game>`),
    #: so that one lucky win does not top it.
    min_ranked: int = 3
    #: Worker processes the fill-in bots think in (issue 14), and how long one decision
    #: may take before the bot plays its first legal action instead.
    bot_workers: int = 1
    bot_timeout: float = 60.0
    #: Seconds a board or chart may take to draw, waiting for a worker included; past it the
    #: reply goes out without the picture and a stuck drawing worker is replaced (issue 23).
    render_timeout: float = 10.0
    #: The level of the bot that plays a resigned or replaced player's seat (a table may
    #: choose its own: `game new ... stand_in=strong`).
    stand_in_level: str = "normal"
    #: The clock of a table opened without `clock=` (issue 27 §1, config `[clocks]`): its
    #: bank in seconds (0: no clock), the bonus a move adds, and the cap (0: the bank).
    #: Practice games (a chosen seed, a fork) have none unless they ask.
    clock_bank: float = 0.0
    clock_bonus: float = DAY
    clock_cap: float = 0.0
    #: Days a player may be away in any 365 (`away 5d`; issue 27 §2).
    away_days: float = 21.0

    @classmethod
    def from_config(cls, config: Any, *, images: bool = True) -> Settings:
        """The service's settings from a `bot.config.Config` (or any object with its fields)."""
        return cls(
            remind_every=float(getattr(config, "remind_hours", 12.0)) * HOUR,
            absent_after=int(getattr(config, "absent_after", 3)),
            undo_expiry=float(getattr(config, "undo_hours", 24.0)) * HOUR,
            images=images,
            bot_workers=int(getattr(config, "bot_workers", 1)),
            bot_timeout=float(getattr(config, "bot_timeout", 60.0)),
            render_timeout=float(getattr(config, "render_timeout", 10.0)),
            stand_in_level=str(getattr(config, "stand_in_level", "normal")),
            clock_bank=float(getattr(config, "clock_bank", 0.0)),
            clock_bonus=float(getattr(config, "clock_bonus", DAY)),
            clock_cap=float(getattr(config, "clock_cap", 0.0)),
            away_days=float(getattr(config, "away_days_per_year", 21.0)),
        )
