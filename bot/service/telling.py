"""The turn as text: the headline, a story and a decision written out (issue 25 §2).

The service's posts and private parts, the terminal and scripts read these lines; a
front end that draws the data its own way (Discord's panel, the web table) does not
need them. Everything is bounded for Discord's 2,000 characters, and what is cut is
never the newest: a long story keeps its period ends and scorings and its newest
moves, and points to `log` for the rest; a long move keeps its start and its end.

Pure: data in (bot/service/reply.py), lines out.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence, Set

from . import clocks
from .reply import MOVE, PERIOD, SCORE, Actor, Decision, Entry, FinalScore, Headline, HeadsUp
from .text import lettered, names, sentences
from .turns import VIA_MARKS

#: At most this many story lines in a post (issue 25 §2), and characters for them.
POST_LINES, POST_BUDGET = 8, 1300
#: The same for a private "since your last turn" and for a turn panel's steps so far.
NEWS_LINES, NEWS_BUDGET = 10, 1100
TURN_LINES, TURN_BUDGET = 8, 900
#: The longest a move's line grows; a shortened line keeps its start and its end.
LINE_MAX, LINE_MIN = 300, 100
#: A turn panel's "since your last turn" (issue 26 §1): at most this many entries, newest
#: first; a move's line at most this long (a scoring or a period end keeps its numbers).
RECENT_ENTRIES, RECENT_MOVE = 6, 110


def short_title(title: str) -> str:
    """ "Cradle of Civilization: Sumeria to Persia" -> "Cradle of Civilization"."""
    return title.split(":")[0].strip()


def headline_line(headline: Headline, called: Callable[[Actor], str] = lambda actor: actor.name) -> str:
    """ "cy — your turn · Cradle of Civilization · Epoch III": who must act and where
    (`called`: how to name each of them; a front end may mention them instead). It speaks
    to people: the bots acting beside them play on their own and are not named; when only
    bots act, it says who does ("Bot Sargon (easy) to act · …")."""
    where = " · ".join(part for part in (short_title(headline.title), headline.stage) if part)
    if headline.over:
        return f"Game over · {where}"
    if not headline.acting:
        return f"{headline.status.capitalize()} · {where}"
    people = [a for a in headline.acting if a.user is not None]
    if people:
        return f"{names([called(a) for a in people])} — your turn · {where}"
    return f"{names([called(a) for a in headline.acting])} to act · {where}"


def clock_line(
    headline: Headline,
    called: Callable[[Actor], str] = lambda actor: actor.name,
    when: Callable[[float], str] | None = None,
) -> str:
    """ "⏳ cy, 2d 4h left · dee, 1d left, away until Friday 18:00 UTC (holiday)": the clocks
    and times away of those to act (issue 27), "" when none has either. `when`: how to say a
    moment (a front end may show it in the reader's own time)."""
    say = when or (lambda moment: clocks.moment(moment, headline.at))
    parts = []
    for actor in headline.acting:
        bits = [f"{clocks.short(actor.time_left)} left"] if actor.time_left is not None else []
        if actor.away_until is not None:
            bits.append(f"away until {say(actor.away_until)}" + (f" ({actor.away_note})" if actor.away_note else ""))
        if bits:
            parts.append(f"{called(actor)}, " + ", ".join(bits))
    return "⏳ " + " · ".join(parts) if parts else ""


def time_left_line(decision: Decision) -> str:
    """ "⏳ 2d 4h left on your clock." ("" without a clock)."""
    return "" if decision.time_left is None else f"⏳ {clocks.short(decision.time_left)} left on your clock."


def standings_lines(standings: Sequence[FinalScore]) -> list[str]:
    """The final standings, best first: "1. ann (A) 30 — Cities 12 · Wonders 8 · …", then the
    winners; a resigned player and a bot say so."""
    lines = ["Final standings:"]
    for s in standings:
        tag = "resigned" if s.resigned else f"bot, {s.bot}" if s.bot else ""
        who = lettered(s.name, s.seat) + (f" [{tag}]" if tag else "")
        parts = " · ".join(f"{label} {points}" for label, points in s.parts if points)
        lines.append(f"{s.place}. {who} {s.score}" + (f" — {parts}" if parts else ""))
    lines.append("Winner: " + names([s.name for s in standings if s.winner]) + ".")
    return lines


def heads_up_line(warned: HeadsUp, who: str = "") -> str:
    """ "Heads-up, cy: you play after ann, then Bot Sargon (easy)." (`who`: how to name the
    warned person, a mention on Discord; their name by default)."""
    after = ", then ".join(warned.after)
    return f"Heads-up, {who or warned.name}: you play after {after}."


def squeeze(line: str, limit: int) -> str:
    """`line` within `limit` characters, its start and its end kept (the newest of a step's
    events is at its end), cut at words."""
    if len(line) <= limit:
        return line
    head, tail = line[: limit * 2 // 5], line[-(limit - limit * 2 // 5 - 3) :]
    head = head.rsplit(" ", 1)[0] if " " in head else head
    tail = tail.split(" ", 1)[1] if " " in tail else tail
    return f"{head} … {tail}"


def move_line(entry: Entry) -> str:
    """ "• ann took 2; 4 left." / "• dee: 1-2 Elam places an Army in Elam. [automatic]"."""
    told = sentences(entry.events) if entry.events else entry.label
    mark = f" [{VIA_MARKS[entry.via]}]" if entry.via in VIA_MARKS else ""
    who = "" if told.startswith(entry.name + " ") else f"{entry.name}: "
    return squeeze(f"• {who}{told}{mark}", LINE_MAX)


def standings(scores: Sequence[int], players: Sequence[str]) -> str:
    """ "ann 14, bob 9": every seat's score, in seat order."""
    return ", ".join(f"{players[seat] if seat < len(players) else seat} {v}" for seat, v in enumerate(scores))


def score_line(before: Sequence[int], after: Sequence[int], players: Sequence[str]) -> str:
    """ "• Scores: ann 10 → 14, dee 0 → 6": the seats whose score changed."""
    changed = [
        f"{players[seat] if seat < len(players) else seat} {b} → {a}"
        for seat, (b, a) in enumerate(zip(before, after, strict=False))
        if a != b
    ]
    return "• Scores: " + ", ".join(changed)


def period_line(entry: Entry, players: Sequence[str]) -> str:
    """ "— Round 3 ends: ann 14, bob 9"."""
    return f"— {entry.stage} ends" + (f": {standings(entry.after, players)}" if entry.after is not None else ".")


def story_lines(
    story: Sequence[Entry],
    players: Sequence[str],
    *,
    limit: int = POST_LINES,
    budget: int = POST_BUDGET,
    more: str = "`log` shows every step",
) -> list[str]:
    """The story in at most `limit` lines and about `budget` characters.

    Period ends and scorings are always shown (the scorings between two period ends on
    one line, from the first score to the last); then the newest moves, as many as fit,
    after a line pointing to `log` for the older ones. The game's end is left to the
    result lines that follow a story."""
    items: list[tuple[bool, str]] = []  # (always shown, line)
    run: tuple[list[int], int] | None = None  # the open run of scorings: its first scores, its line
    for entry in story:
        if entry.kind == MOVE:
            items.append((False, move_line(entry)))
        elif entry.kind == SCORE and entry.before is not None and entry.after is not None:
            first = entry.before
            if run is not None:  # one line for the run, after its newest move
                first = run[0]
                items.pop(run[1])
            items.append((True, score_line(first, entry.after, players)))
            run = (first, len(items) - 1)
        elif entry.kind == PERIOD:
            items.append((True, period_line(entry, players)))
            run = None
    kept = _newest(items, limit, more)
    total = sum(len(line) + 1 for line in kept)
    while total > budget:
        longest = max(range(len(kept)), key=lambda i: len(kept[i]))
        if len(kept[longest]) <= LINE_MIN:
            break
        shorter = squeeze(kept[longest], max(LINE_MIN, len(kept[longest]) - (total - budget)))
        total -= len(kept[longest]) - len(shorter)
        kept[longest] = shorter
    return kept


def _newest(items: list[tuple[bool, str]], limit: int, more: str = "`log` shows every step") -> list[str]:
    """Every always-shown line and the newest others, `limit` lines in all with a pointer
    (`more`: where the rest is) first when some were left out."""
    if len(items) <= limit:
        return [line for _, line in items]
    room = limit - 1  # the pointer takes a line
    always = [i for i, (keep, _) in enumerate(items) if keep][-room:]
    others = [i for i, (keep, _) in enumerate(items) if not keep]
    spare = room - len(always)
    chosen = set(always) | set(others[len(others) - spare :] if spare > 0 else [])
    left = sum(1 for i, (keep, _) in enumerate(items) if not keep and i not in chosen)
    pointer = f"• … {left} earlier step{'s' if left != 1 else ''} ({more})"
    return [pointer] + [line for i, (_, line) in enumerate(items) if i in chosen]


def recent_lines(
    story: Sequence[Entry], players: Sequence[str], *, limit: int = RECENT_ENTRIES
) -> tuple[list[str], int]:
    """The newest `limit` entries of `story`, newest first, one a line, and how many were
    left out. Each scoring and period end is an entry of its own with its numbers, and
    they are kept before moves; the game's end is left to the standings."""
    items: list[tuple[bool, str]] = []  # (a scoring or period end, line)
    for entry in story:
        if entry.kind == MOVE:
            items.append((False, squeeze(move_line(entry), RECENT_MOVE)))
        elif entry.kind == SCORE and entry.before is not None and entry.after is not None:
            items.append((True, score_line(entry.before, entry.after, players)))
        elif entry.kind == PERIOD:
            items.append((True, period_line(entry, players)))
    if limit <= 0:
        return [], len(items)
    marks = [i for i, (mark, _) in enumerate(items) if mark][-limit:]
    moves = [i for i, (mark, _) in enumerate(items) if not mark]
    kept = sorted(set(marks) | set(moves[len(moves) - (limit - len(marks)) :] if limit > len(marks) else []))
    return [items[i][1] for i in reversed(kept)], len(items) - len(kept)


def log_pages(sizes: Sequence[int], budget: int) -> list[tuple[int, int]]:
    """The log's lines (their sizes, oldest first) in pages of at most `budget` characters,
    newest page first, each as (start, end) indices; a page holds at least one line."""
    pages: list[tuple[int, int]] = []
    end = len(sizes)
    while end > 0:
        start, used = end - 1, sizes[end - 1]
        while start > 0 and used + sizes[start - 1] <= budget:
            start -= 1
            used += sizes[start]
        pages.append((start, end))
        end = start
    return pages


def news_text(
    decision: Decision, players: Sequence[str], *, prompt: bool = True, besides: Set[int] = frozenset()
) -> str:
    """ "Since your last turn:" and its story, then (`prompt`) what is decided now.

    `besides`: the log lines a post beside this text tells already (it pings the reader):
    only the story before them is told, as "Earlier". "" when there is nothing to say."""
    story = [e for e in decision.story if e.seq not in besides]
    lines = []
    if story:
        lines.append("Earlier, since your last turn:" if besides else "Since your last turn:")
        lines.extend(story_lines(story, players, limit=NEWS_LINES, budget=NEWS_BUDGET))
    if prompt:
        lines.append(f"Now: {decision.prompt}")
    return "\n".join(lines)


def panel_text(decision: Decision, players: Sequence[str]) -> str:
    """A turn panel: this turn's steps so far (the reader's own in their words), then what is decided now."""
    lines = []
    if decision.turn:
        lines.append("This turn so far:")
        lines.extend(story_lines(decision.turn, players, limit=TURN_LINES, budget=TURN_BUDGET))
    lines.append(f"Now: {decision.prompt}")
    lines.append(time_left_line(decision))
    return "\n".join(line for line in lines if line)


def choice_lines(decision: Decision, width: int = 100) -> list[str]:
    """The choices as a player reads them without a menu (the terminal, scripts): by group,
    each "label — detail" with the action text to type; a group of bare action texts on
    as few lines as fit `width`; then the rule behind the decision."""
    lines: list[str] = []
    for group, members in decision.groups:
        if all(c.label == c.action and not c.detail for c in members):
            line = f"{group}:"
            for c in members:
                if len(line) + len(c.action) + 3 > width and line != f"{group}:":
                    lines.append(line)
                    line = " "
                line += f" {c.action} ·" if c is not members[-1] else f" {c.action}"
            lines.append(line)
            continue
        lines.append(f"{group}:")
        for c in members:
            told = c.label + (f" — {c.detail}" if c.detail else "")
            lines.append(f"  {told}" + (f"  [{c.action}]" if c.action != c.label else ""))
    if decision.rule:
        lines.append(f"(the rule: `rules {decision.rule}`)")
    return lines
