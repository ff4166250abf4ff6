"""The service's turn data laid out as Discord messages of layout components (issue 26).

Pure: a `Reply` (and what the controller knows of the place) in, a `Layout` out —
discord.py's `LayoutView` (text displays, sections, media galleries, separators, action
rows; the IS_COMPONENTS_V2 flag) and the files its galleries show. Such a message
carries no `content`: its text is in text displays, which ping like content does
(only the users `allowed_mentions` names). At most 40 components a message.

- `panel`: a player's turn panel, read on a phone in seconds: the prompt first, one
  sentence; their private view's picture when the decision depends on it; the choices
  (buttons beside their words when up to 5, else a menu per group, or a menu of the
  groups leading to one group's choices, 25 to a page); "Undo my last step", "Rule",
  "Full story" and their seat's web link; then what happened since their last turn,
  newest first, at most 6 entries.
- `post`: a public message. A handover's first line says who must act and where
  ("@cy — your turn · Cradle of Civilization · Epoch III"), then at most 8 lines of
  story (round ends and scores always), the standings at the end, then the board.
- `turn_dm`: "your turn" by direct message, for a player who asked for them.
- `note`: a panel whose turn is over, or any short text, as a layout message (a
  message that was one stays one: Discord cannot take the flag back).
"""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import discord

from ..service.clocks import short
from ..service.plans import panel_line
from ..service.telling import (
    clock_line,
    headline_line,
    heads_up_line,
    recent_lines,
    standings_lines,
    story_lines,
    time_left_line,
)
from ..service.text import duration
from . import messages
from .views import (
    CUSTOM_ID_LIMIT,
    SELECT_LIMIT,
    ActionButton,
    ActionSelect,
    GroupSelect,
    LogButton,
    PageButton,
    PlanNextButton,
    RuleButton,
    TurnButton,
    UndoButton,
    UndoStepButton,
)

if TYPE_CHECKING:  # the service's plain data, as the adapter receives it
    from engine.core import Choice

    from ..service import Decision, Reply
    from ..service.reply import Attachment, Image, MyTurn

#: Up to this many choices are buttons, each beside its words; more are menus.
BUTTONS_UP_TO = 5
#: Up to this many groups get a menu each (when each fits one menu); more get a menu of groups.
MENUS_UP_TO = 3
#: A text display holds at most this much (Discord: 4,000 characters for the whole message).
TEXT_LIMIT = 3800


@dataclass
class Layout:
    """A message to send or edit in: its layout and the files its galleries show."""

    view: discord.ui.LayoutView
    files: list[discord.File] = field(default_factory=list)

    def text(self) -> str:
        """What the message reads: its text displays, in order."""
        return "\n".join(item.content for item in self.view.walk_children() if isinstance(item, discord.ui.TextDisplay))


def _text(content: str) -> discord.ui.TextDisplay[Any]:
    return discord.ui.TextDisplay(messages.clip(content, TEXT_LIMIT) or "\u200b")


def _file(png: bytes, filename: str, alt: str) -> discord.File:
    return discord.File(io.BytesIO(png), filename=filename, description=alt[:1024] or None)


def _gallery(files: Sequence[discord.File]) -> discord.ui.MediaGallery[Any]:
    return discord.ui.MediaGallery(*(discord.MediaGalleryItem(f) for f in files[:10]))


def pictures(image: Image | None, more: Sequence[Attachment] = ()) -> tuple[list[discord.File], list[discord.File]]:
    """(the pictures a gallery shows, other files): the board first, then e.g. a tables image
    or the score chart; a file that is no picture (an export) goes as a file of its own."""
    shown = [_file(image.png, image.filename, image.alt)] if image is not None else []
    other: list[discord.File] = []
    for extra in more:
        file = _file(extra.data, extra.filename, extra.description)
        (shown if extra.filename.lower().endswith(".png") else other).append(file)
    return shown[:10], other


def note(text: str, *, link: str | None = None, label: str = "Go to the post") -> Layout:
    """A short text as a layout message (a closed panel: "Your turn is over" and a link)."""
    view = discord.ui.LayoutView(timeout=None)
    view.add_item(_text(text))
    if link:
        view.add_item(discord.ui.ActionRow(discord.ui.Button(label=label, url=link)))
    return Layout(view)


# ---- the turn panel ------------------------------------------------------------------------
def choice_value(choice: Choice, index: int) -> str:
    """What a component says of a choice: its action text, or its place `#i` when too long."""
    return choice.action if len(choice.action) <= 70 else f"#{index}"


def _option(choice: Choice, index: int, *, default: bool = False) -> discord.SelectOption:
    return discord.SelectOption(
        label=choice.label[:100] or choice.action[:100],
        value=choice_value(choice, index),
        description=choice.detail[:100] or None,
        default=default,
    )


def _range(members: Sequence[Choice], start: int, end: int) -> str:
    return f"{members[start].label[:40]} … {members[end - 1].label[:40]}"


def _kind(members: Sequence[Choice]) -> str:
    """A group's option in the menu of groups: how many choices, from which to which."""
    return f"{len(members)} choice{'s' if len(members) != 1 else ''}: {_range(members, 0, len(members))}"[:100]


def _choices(table: int, version: int, decision: Decision, group: int, page: int) -> list[discord.ui.Item[Any]]:
    """The decision's choices as components (see the module's docstring)."""
    key = decision.key
    index = {c.action: i for i, c in enumerate(decision.choices)}
    items: list[discord.ui.Item[Any]] = []
    if len(decision.choices) <= BUTTONS_UP_TO:
        if any(c.detail for c in decision.choices):
            for c in decision.choices:  # the choice's words beside its button
                words = f"**{c.label}**" + (f"\n{c.detail}" if c.detail else "")
                button = ActionButton(table, version, choice_value(c, index[c.action]), key, "Choose")
                items.append(discord.ui.Section(_text(words), accessory=button))
        else:
            row = discord.ui.ActionRow[Any]()
            for c in decision.choices:
                row.add_item(ActionButton(table, version, choice_value(c, index[c.action]), key, c.label))
            items.append(row)
        return items
    groups = decision.groups
    if len(groups) <= MENUS_UP_TO and all(len(members) <= SELECT_LIMIT for _, members in groups):
        for g, (name, members) in enumerate(groups):
            options = [_option(c, index[c.action]) for c in members]
            items.append(discord.ui.ActionRow(ActionSelect(table, version, f"{g}.0", options, key, name)))
        return items
    if len(groups) > SELECT_LIMIT:  # (no game has so many kinds of choice): one list, paged
        groups = [("Choose", list(decision.choices))]
    group = group if 0 <= group < len(groups) else 0
    if len(groups) > 1:
        kinds = [
            discord.SelectOption(label=name[:100], value=str(g), description=_kind(members), default=g == group)
            for g, (name, members) in enumerate(groups)
        ]
        items.append(discord.ui.ActionRow(GroupSelect(table, version, key, kinds)))
    name, members = groups[group]
    pages = (len(members) + SELECT_LIMIT - 1) // SELECT_LIMIT
    page = page if 0 <= page < pages else 0
    start, end = page * SELECT_LIMIT, min(len(members), (page + 1) * SELECT_LIMIT)
    where = f" ({start + 1}-{end} of {len(members)}: {_range(members, start, end)})" if pages > 1 else ""
    options = [_option(c, index[c.action]) for c in members[start:end]]
    items.append(discord.ui.ActionRow(ActionSelect(table, version, f"{group}.{page}", options, key, name + where)))
    if pages > 1:
        row = discord.ui.ActionRow[Any]()
        if page > 0:
            row.add_item(PageButton(table, version, key, group, page - 1, f"◀ Previous ({page}/{pages})"))
        if page + 1 < pages:
            row.add_item(PageButton(table, version, key, group, page + 1, f"Next ▶ ({page + 2}/{pages})"))
        items.append(row)
    return items


def story_block(decision: Decision, players: Sequence[str]) -> tuple[str, int]:
    """ "Since your last turn", newest first (this turn's own steps first), and how many
    entries it left out."""
    turn, left_turn = recent_lines(decision.turn, players)
    story, left_story = recent_lines(decision.story, players, limit=max(0, 6 - len(turn)))
    blocks = []
    if turn:
        blocks.append("-# This turn so far, newest first\n" + "\n".join(turn))
    if story:
        blocks.append("-# Since your last turn, newest first\n" + "\n".join(story))
    return "\n".join(blocks), left_turn + left_story


def panel(reply: Reply, user: int, *, note: str = "", group: int = 0, page: int = 0) -> Layout:
    """`user`'s turn panel for `reply` (which offers them a decision)."""
    decision = reply.decisions[user]
    table, version = reply.table_id or 0, reply.version or 0
    players = reply.headline.players if reply.headline is not None else []
    view = discord.ui.LayoutView(timeout=None)
    clock = time_left_line(decision)
    planned = panel_line(decision.planned)  # the presser's own plan (issue 51)
    view.add_item(
        _text(
            f"**{decision.prompt}**"
            + (f"\n-# {clock}" if clock else "")
            + (f"\n-# {planned}" if planned else "")
            + (f"\n{note}" if note else "")
        )
    )
    files: list[discord.File] = []
    private = next((p for p in reply.private_for(user) if p.image is not None), None)
    if decision.private_view and private is not None and private.image is not None:
        files = [_file(private.image.png, private.image.filename, private.image.alt)]
        view.add_item(_gallery(files))
    for item in _choices(table, version, decision, group, page):
        view.add_item(item)
    tools = discord.ui.ActionRow[Any]()
    if reply.turn_steps > 0:
        tools.add_item(UndoStepButton(table, version))
    if decision.rule and len(f"ep:rule:{table}:{decision.rule}") <= CUSTOM_ID_LIMIT:
        tools.add_item(RuleButton(table, decision.rule))
    block, left = story_block(decision, players)
    tools.add_item(LogButton(table, 1, "Full story" + (f" (+{left})" if left else "")))
    if decision.plannable:  # the next decision of this turn is known: it may be planned (issue 51)
        tools.add_item(PlanNextButton(table))
    if decision.seat_url:
        tools.add_item(discord.ui.Button(label="Open my seat", url=decision.seat_url))
    view.add_item(tools)
    if block:
        view.add_item(discord.ui.Separator())
        view.add_item(_text(block))
    return Layout(view, files)


# ---- posts ---------------------------------------------------------------------------------
def when(moment: float) -> str:
    """A moment as Discord shows it to each reader, in their own time zone ("Friday 18:00")."""
    return f"<t:{int(moment)}:f>"


def _mention(user: int | None, name: str, pinged: Sequence[int]) -> str:
    return f"<@{user}>" if user is not None and user in pinged else name


def post_text(reply: Reply, pinged: Sequence[int]) -> tuple[str, str, bool]:
    """(the first line, the rest, whether the story left steps out) of a public post.

    A post about a position is written from its data; any other (a lobby's news, a
    reminder) is the service's text as it is, the pinged users first."""
    headline = reply.headline
    if headline is None:
        first, _, rest = messages.with_mentions(reply.text, pinged).partition("\n")
        return first, rest, False
    first = headline_line(headline, lambda actor: _mention(actor.user, actor.name, pinged))
    named = {a.user for a in headline.acting if a.user is not None} | {h.user for h in reply.heads_up}
    others = [u for u in pinged if u not in named]
    if others:  # the end of a game: every player
        first += " — " + " ".join(f"<@{u}>" for u in others)
    lines = [clock_line(headline, when=when)]
    lines += [heads_up_line(h, _mention(h.user, h.name, pinged)) for h in reply.heads_up]
    lines.append(reply.head)
    players = headline.players
    story = story_lines(reply.story, players, more="Full story")
    cut = bool(story) and story[0].startswith("• … ")
    lines.extend(story)
    if reply.standings:
        lines.extend(standings_lines(reply.standings))
    lines.append(reply.note)
    return first, "\n".join(line for line in lines if line), cut


def post(reply: Reply, *, pinged: Sequence[int], buttons: str | None = None) -> Layout:
    """The public message of `reply`: who must act and where, the story, the board.

    `buttons`: "undo" puts Approve / Reject under an undo request; otherwise "Take your
    turn" goes under a post someone must act on, with "Full story" and the table's link."""
    view = discord.ui.LayoutView(timeout=None)
    first, rest, cut = post_text(reply, pinged)
    view.add_item(_text(first + ("\n" + rest if rest else "")))
    shown, other = pictures(reply.image, reply.files)
    if shown:
        view.add_item(_gallery(shown))
    for extra in other:
        view.add_item(discord.ui.File(extra))
    row = discord.ui.ActionRow[Any]()
    table, version = reply.table_id, reply.version
    if table is not None and version is not None:
        if buttons == "undo":
            row.add_item(UndoButton(table, version, "approve"))
            row.add_item(UndoButton(table, version, "reject"))
        elif (reply.choices or reply.mentions) and not (reply.headline is not None and reply.headline.over):
            row.add_item(TurnButton(table, version))
        if reply.headline is not None and (cut or reply.story) and buttons != "undo":
            row.add_item(LogButton(table, 1))
    if reply.headline is not None and reply.headline.table_url:
        row.add_item(discord.ui.Button(label="Open table", url=reply.headline.table_url))
    if row.children:
        view.add_item(row)
    return Layout(view, shown + other)


def turn_dm(reply: Reply, user: int, *, where: str, link: str | None) -> Layout:
    """ "Your turn" by direct message: the game, where it is played (`where`: "in #channel on
    Server"), what happened since the player's last turn, "Take your turn" and the post."""
    decision = reply.decisions[user]
    headline = reply.headline
    stage = " · ".join(p for p in (headline.title if headline else "", headline.stage if headline else "") if p)
    view = discord.ui.LayoutView(timeout=None)
    clock = time_left_line(decision)
    view.add_item(_text(f"**Your turn** · {stage}\n{where}\n{decision.prompt}" + (f"\n{clock}" if clock else "")))
    block, _ = story_block(decision, headline.players if headline else [])
    if block:
        view.add_item(_text(block))
    row = discord.ui.ActionRow[Any]()
    if reply.table_id is not None and reply.version is not None:
        row.add_item(TurnButton(reply.table_id, reply.version))
    if link:
        row.add_item(discord.ui.Button(label="Go to the post", url=link))
    if decision.seat_url:
        row.add_item(discord.ui.Button(label="Open my seat", url=decision.seat_url))
    if row.children:
        view.add_item(row)
    return Layout(view)


# ---- `games mine` --------------------------------------------------------------------------
def post_link(turn: MyTurn) -> str:
    """The Discord link of a table's latest post ("" when none was recorded)."""
    if turn.post is None:
        return ""
    return f"https://discord.com/channels/{turn.guild if turn.guild is not None else '@me'}/{turn.channel}/{turn.post}"


def mine_text(turns: Sequence[MyTurn], where: Callable[[int], str]) -> str:
    """`games mine` as the caller reads it (issue 27 §3): per table the game and its stage,
    where it is (`where(channel)`: "in <#1> (#general) on Server"), how long they have waited,
    their time left, and links to the table's last post and its web page; then the tables a
    bot plays for them."""
    mine = [t for t in turns if t.bot is None]
    bots = [t for t in turns if t.bot is not None]
    count = f"{len(mine)} table{'s' if len(mine) != 1 else ''}"
    lines = [f"**Your turn at {count}**" if mine else "It is nowhere your turn."]
    for t in mine:
        what = " · ".join(part for part in (t.title, t.stage) if part)
        bits = [f"waiting {duration(t.waited)}"]
        if t.time_left is not None:
            bits.append(f"⏳ {short(t.time_left)} left")
        links = [f"[{label}]({url})" for label, url in (("last post", post_link(t)), ("table", t.table_url)) if url]
        lines.append(f"• **{what}** {where(t.channel) or f'in <#{t.channel}>'} — {', '.join(bits)}")
        if links:
            lines.append("  " + " · ".join(links))
    if bots:
        lines.append(f"A bot plays your seat at {len(bots)} table{'s' if len(bots) != 1 else ''} (`/game back` there):")
        lines.extend(f"• {t.title} {where(t.channel) or f'in <#{t.channel}>'} (a bot, {t.bot})" for t in bots)
    return "\n".join(lines)
