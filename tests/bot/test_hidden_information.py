"""Hidden information never reaches a public output, for every registered game.

A property test played THROUGH THE SERVICE (real SQLite, no images): random legal
games for a few seeds and player counts. At every step it works out the secrets
of that moment from the engine's own views: strings (card, tile, civilization
names and their slugs) that some seat's private view `view(state, seat)` holds
but the public view `view(state, None)` does not — and did not hold a moment ago,
before the last change of the game, either (a card taken from a face-up market,
Mosaic's `technology <card>` put face down, was seen by everyone). Legal action
strings (a seat's own menu) are not secrets in themselves; the card they name
is, through the hand or display that holds it.

Then none of those secrets may appear in
- the public reply text of the move (and of `game start`),
- the `log` line of the move (`log 1`), and every few moves in the whole `log`
  (there, a secret that was public at some earlier moment is not counted: the
  log is history, it may name a card everyone saw then),
- the public board's alt text (`renderers.render` on the public view, every few
  moves, to keep the test fast),
- a private part addressed to another user (a seat's secret may appear only in
  a part for a user whose own view holds it, e.g. its owner), and the choices
  offered to a user,
- the turn as data (issue 25 §2): the headline and the story a post tells are public
  (no seat's secret in them); a decision goes only to a user who must act, for their
  own seat, and names no other seat's secret (its described choices, prompt and story).

Besides `play`, the loop asks for `board` and someone's `hand` every few moves
(and has a player to act type another seat's secret: the refusal tells them nothing else),
takes a move back now and then (`undo`, the others' `undo approve`) and, with 3
or more players, lets the last one `resign` (their turns are then played for them).

What counts as public is the public view: a name printed in a public catalogue
(Cradle's Epoch summary; also "4-1 Phrygians", two strings of one catalogue entry
written together) is public, so this test cannot see a leak of such a name by
itself (Cradle's concealed allocation has its own tests); it sees every string
that is in no public place at that moment. Matching is by whole word, and a
secret inside a longer public name does not count (technology "theatre" inside
the wonder "Theatre of Dionysus"); neither do the board's own words at the
start ("scoring cards 0/3" against a population card "scoring").
A hidden fact in the public view itself (a deck order printed publicly) is not
this test's business: each game's view tests cover that.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable
from collections.abc import Set as AbstractSet
from functools import lru_cache
from typing import Any

import pytest

import engine
from engine.core import slug as _slug

from .conftest import CHANNEL

#: (players, seed) per game: fewest and (within the time budget) more players, two seeds.
CASES = {
    "rising-cultures": [(2, 1), (2, 2)],
    "rise-of-empires": [(2, 1), (3, 2)],
    "cradle": [(4, 1), (6, 2)],
    "mosaic": [(2, 1), (4, 2)],
}
#: Draw the public board (alt text) and read the whole log every this many moves.
EVERY = 15
#: Ask for `board` and a `hand` (which draws the private picture) every this many moves.
ASK_EVERY = 30
#: Take a move back every this many moves; the last of 3+ players resigns at this move.
UNDO_EVERY = 25
RESIGN_AT = 40
#: Tokens shorter than this are common words or numbers, not names of hidden things.
SHORTEST = 4


#: Views repeat the same strings move after move: slug each one once.
slug = lru_cache(maxsize=None)(_slug)


def strings(view: Any) -> Iterable[str]:
    """Every string value of a JSON-like view (keys are field names, not information)."""
    if isinstance(view, dict):
        for value in view.values():
            yield from strings(value)
    elif isinstance(view, (list, tuple)):
        for value in view:
            yield from strings(value)
    elif isinstance(view, str):
        yield view


def tokens(view: Any) -> set[str]:
    """The view's strings and their slugs (an action names a card by its slug), lower case."""
    out: set[str] = set()
    for text in set(strings(view)):
        out.add(text.lower())
        out.add(slug(text))
    return out


def labels(view: Any) -> Iterable[str]:
    """Two strings of one object of a view written together ("4-1" and "Phrygians" of a
    public catalogue entry make the label "4-1 Phrygians" a renderer prints): public
    when both parts are."""
    if isinstance(view, dict):
        parts = [v for v in view.values() if isinstance(v, str)]
        if len(parts) > 12:
            parts = []  # a table ({hex: good}), not one entry: its strings make no labels
        for a in parts:
            for b in parts:
                if a is not b:
                    yield f"{a} {b}"
        for value in view.values():
            yield from labels(value)
    elif isinstance(view, (list, tuple)):
        for value in view:
            yield from labels(value)


def public_tokens(view: Any) -> set[str]:
    return tokens(view) | tokens(list(labels(view)))


def secret_tokens(private: set[str], public: set[str]) -> set[str]:
    return {t for t in private - public if len(t) >= SHORTEST and not t.replace("-", "").isdigit()}


def _words(secrets: Iterable[str], low: str) -> set[str]:
    return {s for s in secrets if s in low and re.search(r"(?<![\w-])" + re.escape(s) + r"(?![\w-])", low)}


def named(secrets: Iterable[str], text: str, public: AbstractSet[str] = frozenset()) -> set[str]:
    """The secrets `text` names as a whole word (`ur` is not named by `uruk`), not counting
    a secret inside a longer public name: a face-down technology "theatre" is not named by
    the public wonder "Theatre of Dionysus"."""
    low = text.lower()
    found = _words(secrets, low)
    if found:
        longer = {
            form for p in public if any(s in p and s != p for s in found) for form in (p, p.replace("-", " "))
        }  # a slug is printed as the name it came from
        for name in sorted((p for p in longer if p in low), key=len, reverse=True):
            low = low.replace(name, " ")
        found = _words(found, low)
    return found


class Moment:
    """The secrets of one moment of the game (after a move), and what was ever public."""

    def __init__(
        self,
        game: Any,
        state: Any,
        players: int,
        before: set[str],
        ever: set[str],
        vocabulary: AbstractSet[str] = frozenset(),
    ) -> None:
        self.public = public_tokens(game.view(state, None))
        legal = tokens([game.legal_actions(state, seat) for seat in game.to_act(state)])
        self.known = {seat: tokens(game.view(state, seat)) for seat in range(players)}
        visible = self.public | before | legal
        #: seat -> strings only that seat's private view shows (strict: now and a moment ago).
        self.of = {seat: secret_tokens(known, visible) - vocabulary for seat, known in self.known.items()}
        self.all = set().union(*self.of.values())
        #: those never public at any moment so far (for history: the log, summaries).
        self.never_public = self.all - ever - self.public
        #: every public name so far: a secret inside one of them is not named (see `named`).
        self.names = ever | self.public | before


async def check(
    table,
    game_id: str,
    game: Any,
    state: Any,
    moment: Moment,
    reply,
    seats_of: dict[int, int],
    step: int,
    what: str,
    history: bool,
) -> None:
    where = f"{game_id} move {step} ({what})"
    leaked = named(moment.all, reply.text, moment.names)
    assert not leaked, f"{where}: the public reply names hidden {sorted(leaked)}:\n{reply.text}"
    for part in reply.private:
        own = moment.known.get(seats_of.get(part.user, -1), set())
        leaked = named(moment.never_public - own, part.text, moment.names)
        assert not leaked, (
            f"{where}: a private part for user {part.user} names another seat's hidden {sorted(leaked)}:\n{part.text}"
        )
    for user, legal in reply.choices.items():
        own = moment.known.get(seats_of.get(user, -1), set())
        leaked = named(moment.never_public - own, " ".join(legal), moment.names)
        assert not leaked, f"{where}: the choices for user {user} name another seat's hidden {sorted(leaked)}"
    told = "\n".join(strings([e.to_json() for e in reply.story] + [reply.headline and reply.headline.to_json()]))
    leaked = named(moment.all, told, moment.names)
    assert not leaked, f"{where}: the public story or headline names hidden {sorted(leaked)}:\n{told}"
    acting = set(game.to_act(state)) if not game.is_over(state) else set()
    for user, decision in reply.decisions.items():
        assert decision.seat == seats_of.get(user) and decision.seat in acting, f"{where}: a decision for user {user}"
        own = moment.known.get(decision.seat, set())
        leaked = named(moment.never_public - own, "\n".join(strings(decision.to_json())), moment.names)
        assert not leaked, f"{where}: the decision for user {user} names another seat's hidden {sorted(leaked)}"
    last = await table.ok(1, "log 1")
    leaked = named(moment.all, last.text, moment.names)
    assert not leaked, f"{where}: the log line names hidden {sorted(leaked)}:\n{last.text}"
    if history:
        whole = await table.ok(1, "log 50")
        leaked = named(moment.never_public, whole.text, moment.names)
        assert not leaked, f"{where}: the log names hidden {sorted(leaked)}:\n{whole.text}"
        import renderers  # noqa: PLC0415 - only the alt-text check needs Pillow

        alt = renderers.render(game_id, game.view(state, None), seat=None).alt
        leaked = named(moment.all, alt, moment.names)
        assert not leaked, f"{where}: the public board's alt text names hidden {sorted(leaked)}:\n{alt}"


async def play_and_check(table, game_id: str, players: int, seed: int) -> int:
    """Random legal play through the service to the end, checking every moment; the move count."""
    game = engine.GAMES[game_id]
    users = tuple(range(1, players + 1))
    start = await table.started(game_id, users=users, options=f"seed={seed}")
    seats_of = {u: u - 1 for u in users}  # `game start fixed`: seats in joining order
    rec, state = await table.state()
    moment = Moment(game, state, players, set(), set())
    ever = set(moment.public)
    await check(table, game_id, game, state, moment, start, seats_of, 0, "game start", history=True)
    # The board's own words at the start ("scoring cards 0/3"), none of them a secret then,
    # are the renderer's vocabulary: a card id that is the same word ("scoring") is not
    # named by them later.
    import renderers  # noqa: PLC0415

    alt = renderers.render(game_id, game.view(state, None), seat=None).alt
    vocabulary = set(re.findall(r"[\w-]+", alt.lower())) - moment.all
    rng = random.Random(seed)
    step = 0
    resigned: set[int] = set()
    before: set[str] = set()

    async def observe(reply, what: str, history: bool) -> None:
        """Check `reply` against the secrets of the moment it was made in (now)."""
        nonlocal rec, state, moment, ever, before
        version = rec.version
        rec = await table.storage.latest_table(CHANNEL)  # the open one, or the one just finished
        if rec.version != version:  # "a moment ago" is the position before the last change
            before = moment.public
        state = await table.service.tables.state(rec)
        moment = Moment(game, state, players, before, ever, vocabulary)
        ever |= moment.public
        await check(
            table, game_id, game, state, moment, reply, seats_of, step, what, history=history or game.is_over(state)
        )

    async def probe(rng: random.Random) -> None:
        """A player to act names another seat's secret (`play <card>`): the refusal, theirs
        alone, may repeat what they typed but tells nothing else hidden from them."""
        acting = [s for s in game.to_act(state) if s not in resigned]
        if not acting:
            return
        seat = rng.choice(acting)
        foreign = sorted(t for t in moment.never_public - moment.known[seat] if " " not in t)
        if not foreign:
            return
        typed = rng.choice(foreign)
        # Best in the shape of a legal action with the seat's own card swapped for it
        # (`play hammam build` -> `play <their card> build`), so the game explains why not.
        mine = moment.of[seat]
        shaped = [
            " ".join(typed if w in mine else w for w in a.split())
            for a in game.legal_actions(state, seat)
            if any(w in mine for w in a.split())
        ]
        line = rng.choice(shaped) if shaped else typed
        user = rec.user_at(seat).user
        refusal = await table.refused(user, f"play {line}")
        leaked = named(moment.never_public - moment.known[seat] - {typed}, refusal.text, moment.names)
        assert not leaked, (
            f"{game_id} move {step}: refusing `play {line}` names hidden {sorted(leaked)}:\n{refusal.text}"
        )

    async def bots_play() -> None:
        """The bot playing a resigned seat moves between commands; its posts are public too."""
        for _ in range(500):
            notices = await table.service.tick()
            for notice in notices:
                await observe(notice.reply, "a bot's turn", False)
                await table.service.delivered(notice.id)
            thinking = table.service.bots_thinking()
            if not notices and not thinking:
                return
            await table.service.settle_bots()

    while not game.is_over(state):
        step += 1
        assert step < 3000, f"{game_id}: random play did not end"
        await bots_play()
        if game.is_over(state):
            break
        seat = rng.choice([s for s in game.to_act(state) if s not in resigned])
        action = rng.choice(game.legal_actions(state, seat))
        user = rec.user_at(seat).user
        await observe(await table.ok(user, "play " + action), f"`{action}` by seat {seat}", step % EVERY == 0)
        if game.is_over(state):
            break
        if step % ASK_EVERY == 0:
            # `board` (public, text only here) and someone's `hand` (private to them alone).
            await observe(await table.ok(user, "board"), "board", False)
            await observe(
                await table.ok(rng.choice([u for u in users if u - 1 not in resigned]), "hand"), "hand", False
            )
            await probe(rng)
        if step % UNDO_EVERY == 0:
            # Take the move back (the others approve when asked): the undo texts name the action too.
            await observe(await table.ok(user, "undo"), "undo", False)
            for other in users:
                if other != user and other - 1 not in resigned:
                    answer = await table.say(other, "undo approve")
                    if not answer.error:
                        await observe(answer, f"undo approve by user {other}", False)
        elif step == RESIGN_AT and players >= 3:
            # From now on a bot plays the last seat, from that seat's knowledge (issue 14).
            await observe(await table.ok(users[-1], "resign"), "resign", False)
            resigned.add(players - 1)
    assert rec.status == "finished"
    return step


@pytest.mark.parametrize(
    "game_id,players,seed",
    [(g, n, s) for g in engine.GAMES for n, s in CASES.get(g, [(engine.GAMES[g].min_players, 1)])],
)
async def test_hidden_information_never_reaches_a_public_output(table, game_id, players, seed):
    assert await play_and_check(table, game_id, players, seed) > 0


@pytest.mark.skipif("rising-cultures" not in engine.GAMES, reason="Rising Cultures engine not registered")
async def test_the_check_finds_a_hidden_card_named_by_an_action(table, monkeypatch):
    """The property can fail: without Rising Cultures' `public_action`, `top <card>` names
    the card put face down on the deck in the reply, and the check says so."""
    from engine.core import BaseGame  # noqa: PLC0415

    monkeypatch.setattr(type(engine.GAMES["rising-cultures"]), "public_action", BaseGame.public_action)
    with pytest.raises(AssertionError, match="names hidden"):
        await play_and_check(table, "rising-cultures", 2, 1)


@pytest.mark.skipif("rising-cultures" not in engine.GAMES, reason="Rising Cultures engine not registered")
async def test_the_check_finds_a_hidden_card_named_by_a_story_label(table, monkeypatch):
    """A story entry's label is the action in public form unless it is safe (described.
    public_label): a label taken from the action as chosen names the card put face down
    on the deck (`top <card>`) or put face down into a resource area, and the check of the
    story (public, or in another seat's decision) says so."""
    from bot.service import news  # noqa: PLC0415

    monkeypatch.setattr(news, "public_label", lambda game, state, seat, action: action)
    with pytest.raises(AssertionError, match="public story or headline names hidden|names another seat's hidden"):
        await play_and_check(table, "rising-cultures", 2, 1)


def test_named_matches_whole_words_only():
    assert named({"ur"}, "2-3 Babylon attacks Uruk") == set()
    assert named({"circus maximus"}, "p0 constructs Circus Maximus.") == {"circus maximus"}
    assert named({"tax-farming"}, "`technology tax-farming`") == {"tax-farming"}
    assert named({"theatre"}, "Theatre of Dionysus (project)", {"theatre of dionysus"}) == set()
    assert named({"theatre"}, "Theatre of Dionysus (project)", {"theatre-of-dionysus"}) == set()
    assert named({"theatre"}, "Theatre of Dionysus; p1 takes theatre", {"theatre of dionysus"}) == {"theatre"}


def test_secrets_are_private_strings_no_public_place_holds():
    private = tokens({"hand": [{"name": "Circus Maximus", "id": "ROM-07"}], "vp": "12"})
    public = tokens({"display": ["Insula"]})
    assert secret_tokens(private, public) == {"circus maximus", "circus-maximus", "rom-07"}
    catalogue = public_tokens({"summary": [{"card": "4-1", "name": "Phrygians"}]})
    assert secret_tokens(tokens({"drawn": {"name": "4-1 Phrygians"}}), catalogue) == set()


async def test_a_plan_reaches_no_public_output_nor_another_player(table):
    """Issue 51: a plan is its owner's alone until its move is played. Its label (a unique
    word here) appears in no public reply, no `board`, `log`, export of the running game, web
    page or other player's part; only plans.py reads the plans from the storage."""
    import dataclasses
    from pathlib import Path

    secret = "zanzibar"
    await table.ok(1, "game new fake-race seed=7 pile=6")
    for user in (2, 3):
        await table.ok(user, "game join")
    await table.ok(1, "game start fixed")
    planned = await table.service.plan_moves(CHANNEL, 3, "cy", [("roll", f"The {secret} die")])
    assert not planned.error and [p.user for p in planned.private] == [3]
    seen = [dataclasses.replace(planned, private=[])]
    for user, line in ((1, "play take 1"), (2, "board"), (1, "log"), (2, "game export"), (1, "hand")):
        reply = await table.ok(user, line)
        seen.append(dataclasses.replace(reply, private=[p for p in reply.private if p.user != 3]))
    rec, _ = await table.state()
    for seat in (None, 0, 1):
        seen.append(await table.service.table_view(rec.id, seat))
    for out in seen:
        assert secret not in repr(out).lower() and "zanzibar" not in repr(getattr(out, "files", "")).lower()
    root = Path(__file__).resolve().parents[2] / "bot"
    readers = sorted(
        str(p.relative_to(root)) for p in root.rglob("*.py") if "storage.plans(" in p.read_text(encoding="utf-8")
    )
    assert readers == ["service/plans.py"]


async def test_a_plan_never_reaches_a_bots_input(table):
    """Issue 51: a bot decides from its seat's information state alone. The same table is
    played twice, in two channels: once while a person has a plan (a typed move and a labelled
    one, each with a unique word), once without. What crosses into the bots' worker for a
    decision is the same both times, and names nothing of the plan."""
    from .test_bots import bots_play

    secret = "zanzibar"
    asked: list[tuple[Any, ...]] = []
    waiting: list[int] = []  # bob's planned moves stored when the bot was asked

    class Capturing:
        """The bots' worker pool, deciding in this process and keeping what it was given."""

        async def run(self, job, *args, timeout=None, limit=None):
            import engine.ai

            rec = await table.storage.latest_table(channel)
            waiting.append(len((await table.storage.plans(rec.id)).get(2, [])))
            asked.append((job, *args))
            return engine.ai.decide(*args)

        async def close(self) -> None:
            pass

    async def bots_input(planned: bool) -> list[tuple[Any, ...]]:
        asked.clear()
        waiting.clear()
        await table.ok(1, "game new mosaic seed=8", channel=channel)
        await table.ok(2, "game join", channel=channel)
        await table.ok(1, "game bot easy", channel=channel)  # seat 2: leaders go 0, 2, 1: the bot picks before bob
        await table.ok(1, "game start fixed", channel=channel)
        if planned:
            await table.ok(2, f"plan leader {secret}", channel=channel)
            reply = await table.service.plan_moves(channel, 2, "bob", [("leader scribe", f"The {secret} scribe")])
            assert not reply.error, reply.text
        await table.ok(1, "play leader magistrate", channel=channel)
        await bots_play(table)
        assert asked, "the bot never decided"
        assert waiting == [2 if planned else 0] * len(asked)  # bob's plan was waiting while the bot decided
        return list(asked)

    table.service.thinkers = Capturing()
    channel = CHANNEL
    with_plan = await bots_input(planned=True)
    channel = CHANNEL + 1
    without = await bots_input(planned=False)
    assert with_plan == without
    assert secret not in repr(with_plan).lower()
