"""Numbered schema migrations, applied in order at start (PRAGMA user_version).

Never edit a released migration; add the next number. Each runs in its own
transaction together with the version bump.
"""

from __future__ import annotations

#: The migration that adds ratings (issue 27 §4). Right after its SQL, in its transaction,
#: the backend folds every record already stored into ratings (bot/storage/ratings.py):
#: records are older than ratings, and a rating must be the fold of all of them.
RATINGS = 6

MIGRATIONS: list[tuple[int, str]] = [
    (
        1,
        """
CREATE TABLE games (
    id           INTEGER PRIMARY KEY,
    guild        INTEGER,
    channel      INTEGER NOT NULL,
    game         TEXT    NOT NULL,
    status       TEXT    NOT NULL CHECK (status IN ('lobby','active','paused','finished','cancelled')),
    creator      INTEGER NOT NULL,
    options      TEXT    NOT NULL DEFAULT '{}',
    seed         INTEGER NOT NULL,
    version      INTEGER NOT NULL DEFAULT 0,   -- the game state's version (buttons carry it)
    revision     INTEGER NOT NULL DEFAULT 0,   -- every write bumps it: the optimistic check
    created      REAL    NOT NULL,
    updated      REAL    NOT NULL,
    remind_every REAL    NOT NULL,
    meta         TEXT    NOT NULL DEFAULT '{}'
);
-- one open game per channel or thread
CREATE UNIQUE INDEX games_open_channel ON games(channel) WHERE status IN ('lobby','active','paused');
CREATE INDEX games_guild ON games(guild, status);

CREATE TABLE seats (
    game     INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    user     INTEGER NOT NULL,
    name     TEXT    NOT NULL,
    seat     INTEGER,
    resigned INTEGER NOT NULL DEFAULT 0,
    joined   REAL    NOT NULL,
    PRIMARY KEY (game, user)
);

-- the append-only action log: the source of truth
CREATE TABLE actions (
    game    INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seq     INTEGER NOT NULL,
    seat    INTEGER NOT NULL,
    action  TEXT    NOT NULL,
    time    REAL    NOT NULL,
    undone  INTEGER NOT NULL DEFAULT 0,
    via     TEXT    NOT NULL DEFAULT '',
    user    INTEGER,
    events  TEXT    NOT NULL DEFAULT '[]',
    PRIMARY KEY (game, seq)
);

-- the latest state, so nothing is replayed to answer a command
CREATE TABLE snapshots (
    game    INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
    version INTEGER NOT NULL,
    state   TEXT    NOT NULL
);

CREATE TABLE reminders (
    game  INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    user  INTEGER NOT NULL,
    due   REAL    NOT NULL,
    count INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game, user)
);
CREATE INDEX reminders_due ON reminders(due);

CREATE TABLE outbox (
    id      INTEGER PRIMARY KEY AUTOINCREMENT,
    game    INTEGER REFERENCES games(id) ON DELETE SET NULL,
    channel INTEGER NOT NULL,
    payload TEXT    NOT NULL,
    created REAL    NOT NULL,
    sent    REAL
);
CREATE INDEX outbox_unsent ON outbox(id) WHERE sent IS NULL;

CREATE TABLE players (
    user        INTEGER PRIMARY KEY,
    quiet_start INTEGER,
    quiet_end   INTEGER,
    utc_offset  INTEGER NOT NULL DEFAULT 0,
    dm          INTEGER NOT NULL DEFAULT 0
);
""",
    ),
    (
        2,
        """
-- issue 12 §3: `settings heads-up on` (a ping when the player before you starts a turn)
ALTER TABLE players ADD COLUMN heads_up INTEGER NOT NULL DEFAULT 0;
""",
    ),
    # issue 16: several bot processes deliver the outbox; a notice is claimed by one of them
    # for a lease (see DECISIONS.md, "Several processes"). Claims are never copied by `epochs migrate`.
    (
        3,
        """
ALTER TABLE outbox ADD COLUMN claimed_by TEXT;
ALTER TABLE outbox ADD COLUMN claimed_until REAL;
""",
    ),
    (
        4,
        """
-- issue 17: a seat may be played by a fill-in bot (its level, NULL for a person)
ALTER TABLE seats ADD COLUMN bot TEXT;

-- issue 17: the record of every ended game, for history and statistics
CREATE TABLE records (
    game     INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
    guild    INTEGER,
    kind     TEXT    NOT NULL,               -- the engine's game id
    reason   TEXT    NOT NULL CHECK (reason IN ('end','resign','cancelled')),
    started  REAL    NOT NULL,
    ended    REAL    NOT NULL,
    moves    INTEGER NOT NULL,
    practice INTEGER NOT NULL DEFAULT 0      -- a chosen seed or a fork: never in statistics
);
CREATE INDEX records_guild ON records(guild, ended);
CREATE INDEX records_guild_kind ON records(guild, kind, ended);

CREATE TABLE record_seats (
    game     INTEGER NOT NULL REFERENCES records(game) ON DELETE CASCADE,
    seat     INTEGER NOT NULL,
    user     INTEGER NOT NULL,
    name     TEXT    NOT NULL,
    bot      TEXT,
    score    INTEGER,
    place    INTEGER,
    winner   INTEGER NOT NULL DEFAULT 0,
    resigned INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game, seat)
);
CREATE INDEX record_seats_user ON record_seats(user);
""",
    ),
    (
        5,
        """
-- issue 28: the web table. Its signing key (and any later secret the bot keeps for itself),
-- generated by the first process that needs it, so every process of one database signs alike.
CREATE TABLE secrets (
    name    TEXT PRIMARY KEY,
    value   TEXT NOT NULL,
    created REAL NOT NULL
);

-- issue 28: a seat link's generation: `game link reset` raises it, and every older link stops working
CREATE TABLE links (
    game       INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    user       INTEGER NOT NULL,
    generation INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game, user)
);
""",
    ),
    (
        RATINGS,
        """
-- issue 27 §4: each person's rating after each counted game (OpenSkill's Plackett-Luce
-- model over the records in order, NULL for a seat not rated)
ALTER TABLE record_seats ADD COLUMN mu REAL;
ALTER TABLE record_seats ADD COLUMN sigma REAL;
-- the record's end time beside each seat, so that a person's latest rating before a moment
-- is read from one index (walking their own seats, newest first), not found among every record
ALTER TABLE record_seats ADD COLUMN ended REAL NOT NULL DEFAULT 0;
UPDATE record_seats SET ended = (SELECT r.ended FROM records r WHERE r.game = record_seats.game);
CREATE INDEX record_seats_rated ON record_seats(user, ended, game) WHERE mu IS NOT NULL;
""",
    ),
    (
        7,
        """
-- issue 27 §2: a player's times away, the same in every server (their clocks stop, reminders wait)
CREATE TABLE away (
    user   INTEGER NOT NULL,
    begins REAL    NOT NULL,
    ends   REAL    NOT NULL,
    note   TEXT    NOT NULL DEFAULT '',
    PRIMARY KEY (user, begins)
);

-- issue 27 §3: the id of a table's latest public post (Discord's message id), for `games mine`'s links
CREATE TABLE posts (
    game    INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
    message INTEGER NOT NULL,
    time    REAL    NOT NULL
);

-- issue 27 §3: a player's tables in every server (`games mine`, `away`)
CREATE INDEX seats_user ON seats(user);
""",
    ),
]
