"""Every legal action in the words of the player who chooses it (issue 25; /work/wt/CHOICES.md).

`choices(s, seat)` describes `legal_actions(s, seat)` one by one, in their order: the kind of
decision (`group`, the rulebook's words), the thing chosen by its printed name (`label`:
"Hammam → build", "On top of Darius I"), what it costs and gives and what the seat knows of its
outcome (`detail`: "2 coins for 1 stone (5 → 3) · 2 VP · +1 income"), and the board places it
concerns (`refers`: province, display, Nile and last-played resource card names, as the board
image writes them). `prompt` says in one sentence what is decided now; `rule` names the
rulebook section behind it (a heading of its table of contents: the rulebook has no numbers).

Only what the seat may know is used: its own hand and the cards it knows on its deck (the one
it put on top, the ones it put at the bottom), everything else public.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property

from engine.core import DETAIL_MAX, Choice, count, details, essential, possessive
from engine.core.choices import clip

from . import flow, rules
from .actions import legal_actions
from .data import DATA, RESOURCES, Board, Card, Effect, Strip
from .decisions import FREE_STACK
from .rules import BOARDS, CARDS, PROVINCES
from .state import COINS_USE, PLAYS, Player, State

#: "We recommend you use the civilizations Rome and Persia while you are still learning the
#: game. Egypt and the Abbasid Caliphate are more complex" (Setup).
FOR_LEARNING = ("rome", "persia")

# Rulebook sections, by the headings of its table of contents (what the `rules` command finds).
SETUP = "Create Your Individual Player Deck"
PHASE_1 = "Phase I: Income"
PHASE_2 = "Phase II: Play Cards from Your Hand"
BUILD = "4) Construct a Building or Place a Leader"
PROGRESS = "Optional: Move Up 1 Progress Level in Your Progress Area"
PHASE_3 = "Phase III: Province, Progress Marker, Coin Limit"
PROVINCE_CARDS = "Provinces (1-15)"
#: The longest prompt (CHOICES.md: "at most ~120 characters").
PROMPT_MAX = 120


# ---- short texts -----------------------------------------------------------------------------

COUNTERS = {
    "province": ("province", "provinces"),
    "progress_card": ("progress card", "progress cards"),
    "horse_symbol": ("horse in your military", "horses in your military"),
    "leader_in_display": ("leader", "leaders"),
    "building_cost_stone": ("stone in building costs", "stone in building costs"),
    "coin": ("coin", "coins"),
}


def effect_text(e: Effect, board: Board | None = None) -> str:
    """An effect in a few words ("+1 income", "1 missing resource costs 1 coin"); a progress
    level's Golden Age with its `board`'s figures."""
    golden = (board.golden_age_income, board.golden_age_vp) if board else (1, 3)
    texts: dict[str, Callable[[], str]] = {
        "income": lambda: f"+{e.amount} income",
        "resource": lambda: f"+{e.amount} {e.resource} always",
        "military": lambda: f"+{e.amount} {e.symbol}",
        "shortfall_discount": lambda: "1 missing resource costs 1 coin",
        "free_swap": lambda: "a free swap each round",
        "coin_limit": lambda: f"coin limit +{e.amount}",
        "extra_draw": lambda: f"draw {e.amount} extra each round",
        "province_tie_win": lambda: "wins Province ties",
        "province_keep_military": lambda: "once: keep military card on a Province win",
        "on_build_coins": lambda: f"+{count(e.amount, 'coin')} now",
        "on_province_coins": lambda: f"+{count(e.amount, 'coin')} per Province won",
        "develop_nile": lambda: f"develops {count(e.amount, 'Nile card')}",
        "on_build_progress_from_discard": lambda: "a progress move from your discard pile",
        "golden_age": lambda: f"Golden Age: +{golden[0]} income, {golden[1]} VP",
        "covered_leaders_score": lambda: "covered leaders score",
        "vp": lambda: f"{e.amount} VP",
    }
    if e.type == "vp_per":
        one, many = COUNTERS.get(e.counter, (e.counter.replace("province_icon:", "province with icon "),) * 2)
        per = one if e.per == 1 else f"{e.per} {many}"
        return f"end: {e.vp} VP per {per}" + (f", max {e.max}" if e.max else "")
    return texts[e.type]() if e.type in texts else e.describe()


def effects_text(effects: list[Effect], board: Board | None = None) -> str:
    return ", ".join(effect_text(e, board) for e in effects)


def strip_text(strip: Strip) -> str:
    """A card's resource part: "1 wood, 1 brick, 1 gold" ("" when it shows none)."""
    return ", ".join(f"{getattr(strip, r)} {r}" for r in RESOURCES if getattr(strip, r))


def amounts(have: dict[str, int]) -> str:
    return ", ".join(f"{have[r]} {r}" for r in RESOURCES)


def province_text(pid: int, got: int | None = None) -> str:
    """What a Province gives: "1 VP, 1 wood always", "2 VP, 3 coins now" (`got`: the coins the
    supply gives, flow.takeable, when it may run short: issue 49)."""
    prov = PROVINCES[pid]
    got = prov.amount if got is None else got
    short = "" if got == prov.amount else (" (the supply is empty)" if not got else " (the supply runs short)")
    gives = {
        "resource": f"{prov.amount} {prov.resource} always",
        "coins": f"{count(got, 'coin')} now{short}",
        "maghreb": "+1 progress level",
        "free_swap": "a free swap each round",
    }.get(prov.effect, "")
    end = {
        "pairs": "1 VP per progress+military pair",
        "golden_age": f"+{prov.end_amount} VP with Golden Age",
        "coins": "1 VP per coin",
        "marker": f"+{prov.end_amount} VP with the marker",
    }.get(prov.end_rule, "")
    return ", ".join(x for x in (f"{prov.vp} VP" if prov.vp or not end else "", gives, end) if x)


# ---- what one seat sees ---------------------------------------------------------------------------


@dataclass
class Seat:
    """One seat's side of the table, with what its choices keep asking for."""

    s: State
    seat: int

    @property
    def p(self) -> Player:
        return self.s.players[self.seat]

    @property
    def other(self) -> str:
        return self.s.players[1 - self.seat].name

    @cached_property
    def effects(self) -> list[Effect]:
        return rules.effects(self.s, self.seat)

    @cached_property
    def have(self) -> dict[str, int]:
        return rules.resources(self.s, self.seat, self.effects)

    def takes(self, n: int, paid: int = 0) -> str:
        """Coins taken from the supply: "+2 coins (3 → 5)", or what is left when it runs short
        (`paid`: coins the same action pays into the supply first, a build's price)."""
        got = flow.takeable(self.s, n, paid)
        if not got:
            return "no coin: the supply is empty"
        short = "; the supply runs short" if got < n else ""
        before = self.p.coins - paid
        return f"+{count(got, 'coin')} ({before} → {before + got}{short})"

    def known_deck(self) -> dict[int, str]:
        """Deck positions (0 = top) whose card this seat knows: the card it put on top and the
        cards it put at the bottom (RULES-NOTES "What a player knows of their own deck")."""
        deck = self.p.deck
        known: dict[int, str] = {}
        bottom = self.p.known_bottom
        if bottom and len(bottom) <= len(deck) and deck[-len(bottom) :] == bottom:
            known.update({len(deck) - len(bottom) + i: c for i, c in enumerate(bottom)})
        if self.p.known_top and deck and deck[0] == self.p.known_top:
            known[0] = self.p.known_top
        return known

    def draws(self, n: int) -> str:
        """The cards a draw of `n` brings, top first, named where this seat knows them."""
        known = self.known_deck()
        if not any(i in known for i in range(n)):
            return "draw the top card" if n == 1 else f"draw the top {n} cards"
        return "draw " + " and ".join(CARDS[known[i]].name if i in known else "an unknown card" for i in range(n))

    def level_text(self, level: int) -> str:
        """What progress level `level` (1-based) unlocks: "level 3: +1 sword"."""
        board = BOARDS[self.p.civ]
        return f"level {level}: {effects_text(board.levels[level - 1], board) or 'nothing new'}"

    def build_cost(self, card: Card) -> tuple[int, str]:
        """(coins to pay, "2 coins for 1 stone (5 → 3)" or "requirement met, no coins")."""
        short, price = rules.build_price(self.s, self.seat, card, self.effects, self.have)
        if not short:
            return 0, "requirement met"
        missing = rules.missing(card, self.have)
        what = ", ".join(f"{n} {r}" for r, n in missing.items() if n)
        return price, f"{count(price, 'coin')} for {what} ({self.p.coins} → {self.p.coins - price})"

    def card_summary(self, cid: str) -> str:
        """A hand card at a glance: kind, VP, what building it costs now, what it gives."""
        card = CARDS[cid]
        price, _ = self.build_cost(card)
        build = f"builds for {count(price, 'coin')}" if price else "builds for free"
        if price > self.p.coins:
            build += f", you have {self.p.coins}"
        return details(f"{card.kind}, {card.vp} VP", build, effects_text(card.effects))


# ---- the choices, by verb -------------------------------------------------------------------------


def describe_civ(me: Seat, words: list[str]) -> Choice:
    board = BOARDS[words[1]]
    covered = rules.covered_score_level(board.civ)
    printed = ", ".join(f"{getattr(board.printed, r)} {r}" for r in (*RESOURCES, "coin") if getattr(board.printed, r))
    return Choice(
        " ".join(words),
        "Choose a civilization",
        board.name,
        details(
            f"coin limit {board.coin_limit}",
            f"{board.leader_slots} leader stacks" if board.leader_slots > 1 else "",
            f"covered leaders score from level {covered}" if covered else "",
            "progress from your discard pile" if board.progress_from_discard else "",
            f"board prints {printed}" if printed else "",
            "the Nile" if board.nile else "",
            "recommended while learning" if board.civ in FOR_LEARNING else "more complex",
        ),
    )


def describe_resource(me: Seat, words: list[str]) -> Choice:
    cid = DATA.by_slug[me.p.civ][words[1]]
    strip = CARDS[cid].strip
    last = len(me.p.resources) == 1
    return Choice(
        " ".join(words),
        "Resource area (setup)",
        CARDS[cid].name,
        details(
            essential(f"+{strip_text(strip) or 'no resources'}"),
            essential(f"{me.takes(strip.coin)} now") if strip.coin else "",
            "your last-played resource card" if last else "",
        ),
    )


def describe_top(me: Seat, words: list[str]) -> Choice:
    cid = DATA.by_slug[me.p.civ][words[1]]
    other = next(c for c in me.p.hand if c != cid)
    return Choice(
        " ".join(words),
        "Top of your deck (setup)",
        CARDS[cid].name,
        details(me.card_summary(cid), f"{CARDS[other].name} to the bottom"),
    )


def describe_income(me: Seat, words: list[str]) -> Choice:
    income = rules.income(me.s, me.seat, me.effects)
    # what do_income draws: 4, then the extra draws, as far as the deck goes (round 7 has no extra)
    four = flow.drawable(me.p, 4)
    extra = flow.drawable(me.p, four + rules.count(me.effects, "extra_draw")) - four
    draw = (
        f"draw {four} + {extra}, then {count(extra, 'card')} to the bottom" if extra else f"draw {count(four, 'card')}"
    )
    return Choice("income", "Income", "Take income and draw", details(essential(f"income {me.takes(income)}"), draw))


def describe_bottom(me: Seat, words: list[str]) -> Choice:
    cid = DATA.by_slug[me.p.civ][words[1]]
    return Choice(" ".join(words), "Bottom of your deck", CARDS[cid].name, me.card_summary(cid))


def free_swap_sources(me: Seat) -> str:
    """Where this seat's free swaps come from: "Mauretania", a card, "level 4", a Nile card."""
    names = [PROVINCES[pid].name for pid in me.p.provinces if PROVINCES[pid].effect == "free_swap"]
    names += [CARDS[c].name for c in rules.active_cards(me.p) if rules.has(CARDS[c].effects, "free_swap")]
    levels = BOARDS[me.p.civ].levels[: len(me.p.progress)]
    names += [f"level {i + 1}" for i, lv in enumerate(levels) if rules.has(lv, "free_swap")]
    owned = [n for i, n in enumerate(DATA.nile) if me.s.nile_coins and me.seat in me.s.nile_coins[i]]
    names += [n.name for n in owned if rules.has(n.effects, "free_swap")]
    return ", ".join(names)


def describe_swap(me: Seat, words: list[str]) -> Choice:
    how = words[1]
    if how == "free":
        left = rules.free_swaps(me.s, me.seat, me.effects) - me.p.free_swaps
        return Choice(
            "swap free",
            "Swap cards",
            "Free swap",
            details(
                f"free ({free_swap_sources(me)})",
                me.draws(1),
                "then 1 card to the bottom",
                f"{left} free swaps left" if left > 1 else "",
            ),
        )
    n = int(how)
    return Choice(
        f"swap {n}",
        "Swap cards",
        f"Swap {count(n, 'card')}",
        details(
            essential(f"{count(n, 'coin')} ({me.p.coins} → {me.p.coins - n})"),
            me.draws(n),
            f"then {count(n, 'card')} to the bottom",
        ),
    )


def describe_done(me: Seat, words: list[str]) -> Choice:
    if me.s.pending:  # Nile coins
        return Choice(
            "done", "Place coins on the Nile", "Place no more coins", f"keep your {count(me.p.coins, 'coin')}"
        )
    swapped = me.p.paid_swaps or me.p.free_swaps
    hand = ", ".join(CARDS[c].name for c in me.p.hand)
    return Choice("done", "Swap cards", "Done swapping" if swapped else "Keep your hand", details(f"play from {hand}"))


def describe_play(me: Seat, words: list[str]) -> Choice:
    cid = DATA.by_slug[me.p.civ][words[1]]
    card = CARDS[cid]
    use = words[2]
    action = " ".join(words)
    group = f"Play {card.name}"
    if use == "coins":
        # the uses this card does not offer now, and why (only affordable builds are legal)
        price, _ = me.build_cost(card)
        verb = "build" if card.kind == "building" else "place"
        blocked = f"cannot {verb}: {count(price, 'coin')} needed" if price > me.p.coins else ""
        full = "military area full" if len(me.p.military) >= len(BOARDS[me.p.civ].military_bands) else ""
        gets = details(essential(me.takes(COINS_USE)), "to your discard pile", blocked, full)
        return Choice(action, group, f"{card.name} → 2 coins", gets)
    if use == "military":
        return military_choice(me, action, group, card)
    if use == "resources":
        after = {r: me.have[r] + getattr(card.strip, r) for r in RESOURCES}
        coin = card.strip.coin
        return Choice(
            action,
            group,
            f"{card.name} → resources",
            details(
                essential(f"+{strip_text(card.strip) or 'no resources'}"),
                essential(f"{me.takes(coin)} now") if coin else "",
                f"then {amounts(after)}",
            ),
        )
    return build_choice(me, action, group, card)


def military_choice(me: Seat, action: str, group: str, card: Card) -> Choice:
    """2) "the highest free red band", its printed symbol, and the contested Province's count."""
    band = len(me.p.military)
    printed = BOARDS[me.p.civ].military_bands[band]
    gained = [card.military] + ([printed] if printed else [])
    parts = [essential(f"band {band + 1}: +1 {card.military}" + (f", +1 printed {printed}" if printed else ""))]
    refers: tuple[str, ...] = ()
    if me.s.row:
        prov = PROVINCES[me.s.row[0]]
        mine = rules.province_strength(me.s, me.seat, prov.id)
        theirs = rules.province_strength(me.s, 1 - me.seat, prov.id)
        more = sum(1 for sym in gained if sym in prov.symbols)
        parts.append(essential(f"{prov.name}: you {mine} → {mine + more}, {me.other} {theirs}"))
        refers = (prov.name,)
    return Choice(action, group, f"{card.name} → military", details(*parts), refers)


def build_choice(me: Seat, action: str, group: str, card: Card) -> Choice:
    """4) What the display costs (coins for missing resources), its VP, the coins it gives when
    constructed (from what the supply holds), and for a leader the one it covers or that its stack
    is chosen next: what decides the choice is kept whatever else the detail holds (issue 49); the
    card's lasting effects go first when it is full."""
    price, cost = me.build_cost(card)
    cover, refers = "", tuple[str, ...]()
    if card.kind == "leader":
        places = rules.leader_places(me.p)
        if len(places) > 1:
            cover = "then choose its stack"
        elif places[0]:
            cover = f"covers {CARDS[places[0]].name}"
            refers = (CARDS[places[0]].name,)
    now = [e for e in card.effects if e.type == "on_build_coins"]
    lasting = [e for e in card.effects if e.type != "on_build_coins"]
    takes = [essential(f"{me.takes(e.amount, price)} now") for e in now]
    label = f"{card.name} → {'build' if card.kind == 'building' else 'place leader'}"
    detail = details(essential(cost), essential(f"{card.vp} VP"), *takes, effects_text(lasting), essential(cover))
    return Choice(action, group, label, detail, refers)


def describe_cover(me: Seat, words: list[str]) -> Choice:
    new = CARDS[me.s.pending[-1].card]
    if words[1] == FREE_STACK:
        tops = " and ".join(CARDS[st[-1]].name for st in me.p.leaders)
        return Choice("cover nothing", "Place the leader", "Free leader stack", f"{new.name} and {tops} both in play")
    old = CARDS[DATA.by_slug[me.p.civ][words[1]]]
    level = rules.covered_score_level(me.p.civ)
    if rules.covered_leaders_score(me.p):
        vp = f"its {old.vp} VP still count"
    elif level:
        vp = f"its {old.vp} VP count only from level {level}"
    else:
        vp = f"its {old.vp} VP are lost"
    stops = f"loses {effects_text(old.effects)}" if old.effects else "it has no effect"
    return Choice(
        " ".join(words),
        "Place the leader",
        f"On top of {old.name}",
        details(essential(stops), essential(vp)),
        (old.name,),
    )


def describe_progress(me: Seat, words: list[str]) -> Choice:
    wisdom = me.s.pending[-1].card == "wisdom"
    group = "House of Wisdom: move up" if wisdom else "Move up 1 progress level"
    level = len(me.p.progress)
    last = me.p.resources[-1] if me.p.resources else ""
    if words[1] == "no":
        keeps = f"keep {possessive(CARDS[last].name)} {strip_text(CARDS[last].strip)}" if last and not wisdom else ""
        return Choice("progress no", group, f"Stay at level {level}", details(keeps))
    unlock = me.level_text(level + 1)
    if words[1] == "yes":
        lost = strip_text(CARDS[last].strip) or "nothing"
        return Choice(
            "progress yes",
            group,
            f"Move up with {CARDS[last].name}",
            details(essential(unlock), essential(loses_text(unlock, CARDS[last].name, lost))),
            (CARDS[last].name,),
        )
    cid = DATA.by_slug[me.p.civ][words[1]]
    return Choice(" ".join(words), group, f"Move up with {CARDS[cid].name} (discard pile)", unlock)


def loses_text(unlock: str, card: str, lost: str) -> str:
    """ "loses Market's 1 wood, 1 brick, 1 gold", without the card's name (the label has it) when
    both would not fit beside what the level unlocks: both decide the move (issue 49)."""
    named = f"loses {possessive(card)} {lost}"
    return named if len(unlock) + len(" · ") + len(named) <= DETAIL_MAX else f"loses {lost}"


def describe_develop(me: Seat, words: list[str]) -> Choice:
    nile = DATA.nile[DATA.nile_by_slug[words[1]]]
    return Choice(
        " ".join(words),
        "Develop a Nile card",
        nile.name,
        details(f"{effects_text(nile.effects)} to each coin owner", f"{nile.spaces} coin spaces"),
        (nile.name,),
    )


def describe_nile(me: Seat, words: list[str]) -> Choice:
    i = DATA.nile_by_slug[words[1]]
    nile = DATA.nile[i]
    owned = me.seat in me.s.nile_coins[i]
    free = nile.spaces - len(me.s.nile_coins[i])
    egypt = next((q.name for q in me.s.players if BOARDS[q.civ].nile), "")
    vp = f"+1 VP to {egypt}" if egypt and egypt != me.p.name else ""
    return Choice(
        " ".join(words),
        "Place coins on the Nile",
        f"Coin on {nile.name}",
        details(
            essential(f"1 coin ({me.p.coins} → {me.p.coins - 1})"),
            ("already yours: " if owned else "gives you: ") + effects_text(nile.effects),
            f"{count(free, 'space')} left",
            vp,
        ),
        (nile.name,),
    )


def describe_province(me: Seat, words: list[str]) -> Choice:
    """Phase III, 1): the two counts, who wins a tie, what the Province gives and what it costs,
    and what the other player has done or still decides."""
    s, seat = me.s, me.seat
    prov = PROVINCES[s.row[0]]
    mine, theirs = (rules.province_strength(s, x, prov.id) for x in (seat, 1 - seat))
    if 1 - seat in s.competing:
        them, goes = "competes", f"goes to {me.other}"
    elif any(d.kind == "compete" and d.seat == 1 - seat for d in s.pending):
        them, goes = "decides next", f"{me.other} may still take it"
    else:
        them = "declined" if theirs else ""  # "bob 0": bob cannot compete
        goes = "goes back to the box"
    if words[1] == "decline":
        return Choice("province decline", "Compete for the province", f"Decline {prov.name}", goes, (prov.name,))
    winner = rules.tie_winner(s, [0, 1])
    tie = f"tie: {'you' if winner == seat else s.players[winner].name}" if mine == theirs and them != "declined" else ""
    notes = ", ".join(x for x in (them, tie) if x)
    counts = f"you {mine}, {me.other} {theirs}" + (f" ({notes})" if notes else "")  # of its symbols
    return Choice(
        "province compete",
        "Compete for the province",
        f"Compete for {prov.name}",
        details(essential(counts), province_text(prov.id, flow.takeable(s, prov.amount)), *province_cost(me, prov.id)),
        (prov.name,),
    )


def province_cost(me: Seat, pid: int) -> tuple[str, str]:
    """ "As the cost for winning a Province: discard your last-played card in your military
    area", and what may spare it (a part of its own, left out first when the detail is full)."""
    if not me.p.military:
        return essential("costs no card"), ""
    last = CARDS[me.p.military[-1]].name
    if PROVINCES[pid].effect == "keep_military":
        return essential(f"keeps {last}"), ""
    ability = flow.keep_cards(me.s, me.seat)
    if ability:
        return essential(f"costs {last}"), f"{CARDS[ability[0]].name} may keep it"
    if PROVINCES[pid].effect == "maghreb":
        return essential(f"costs {last}"), "or Maghreb moves it up"
    return essential(f"costs {last}"), ""


def describe_keep(me: Seat, words: list[str]) -> Choice:
    ability = CARDS[me.s.pending[-1].card]
    last = CARDS[me.p.military[-1]]
    if words[1] == "keep":
        label, gives = (
            f"Keep {last.name}",
            details(f"uses {ability.name} (once a game)", essential(f"keeps 1 {last.military}")),
        )
    else:
        label, gives = (
            f"Discard {last.name}",
            details(essential(f"-1 {last.military}"), f"{ability.name} stays for later"),
        )
    return Choice(" ".join(words), "Cost of the province", label, gives, (ability.name,))


def describe_maghreb(me: Seat, words: list[str]) -> Choice:
    unlock = me.level_text(len(me.p.progress) + 1)
    group = "Maghreb: a card to your progress area"
    if words[1] == "military":
        last = CARDS[me.p.military[-1]]
        return Choice(
            "maghreb military",
            group,
            f"{last.name} from your military area",
            details(essential(unlock), essential(f"instead of discarding it, -1 {last.military}")),
            ("Maghreb",),
        )
    cid = DATA.by_slug[me.p.civ][words[2]]
    cost = f"{CARDS[me.p.military[-1]].name} is discarded as the cost" if me.p.military else ""
    return Choice(
        " ".join(words),
        group,
        f"{CARDS[cid].name} from your discard pile",
        details(essential(unlock), essential(cost)),
        ("Maghreb",),
    )


DESCRIBE: dict[str, Callable[[Seat, list[str]], Choice]] = {
    "civ": describe_civ,
    "resource": describe_resource,
    "top": describe_top,
    "income": describe_income,
    "bottom": describe_bottom,
    "swap": describe_swap,
    "done": describe_done,
    "play": describe_play,
    "cover": describe_cover,
    "progress": describe_progress,
    "develop": describe_develop,
    "nile": describe_nile,
    "province": describe_province,
    "military": describe_keep,
    "maghreb": describe_maghreb,
}


def choices(s: State, seat: int) -> list[Choice]:
    """`legal_actions(s, seat)`, each described for `seat`; [] when it is not to act."""
    me = Seat(s, seat)
    return [DESCRIBE[a.split(" ")[0]](me, a.split(" ")) for a in legal_actions(s, seat)]


# ---- the question, and the rule behind it ----------------------------------------------------------


def prompt(s: State, seat: int) -> str:
    """One sentence to `seat`: what it decides now, or what it waits for (long names clipped)."""
    return clip(question(s, seat), PROMPT_MAX)


def question(s: State, seat: int) -> str:
    if s.phase == "over":
        return "The game is over."
    if not legal_actions(s, seat):
        return waiting(s, seat)
    p = s.players[seat]
    if s.pending:
        return pending_prompt(s, seat)
    if s.phase == "civ":
        return "Choose your civilization."
    if p.step == "opening":
        if len(p.resources) < 2:
            return f"Put 2 of your opening cards into your resource area ({len(p.resources)} of 2 placed)."
        return "Choose the opening card for the top of your deck; the other goes to the bottom."
    if p.step == "income":
        return "Take your income and draw your cards."
    if p.step == "bottom":
        return f"Place {count(p.to_bottom, 'card')} from your hand at the bottom of your deck."
    if p.step == "swap":
        if p.paid_swaps:
            return "Use a free swap, or stop swapping."
        return "Swap up to 2 cards for 1 coin each, or keep your hand."
    left = PLAYS - p.played
    return f"Play a card from your hand and choose its use ({left} of {PLAYS} left this round)."


def pending_prompt(s: State, seat: int) -> str:
    d = s.pending[-1]
    p = s.players[seat]
    if d.kind == "compete":
        return f"Decide whether to compete for {PROVINCES[s.row[0]].name}."
    if d.kind == "keep":
        return f"Decide whether {CARDS[d.card].name} keeps your last military card, {CARDS[p.military[-1]].name}."
    if d.kind == "cover":
        if "" in rules.leader_places(p):
            return f"Place {CARDS[d.card].name} on your free leader stack or on top of a leader."
        return f"Choose the leader {CARDS[d.card].name} covers."
    if d.kind == "progress":
        if d.card == "wisdom":
            return "Decide whether House of Wisdom moves a discard-pile card to your progress area."
        return f"Decide whether to move up to progress level {len(p.progress) + 1}."
    if d.kind == "develop":
        return "Choose a Nile card to develop."
    if d.kind == "nile":
        return "Place a coin on a developed Nile card, or stop."
    return "Choose the card Maghreb puts in your progress area."


def waiting(s: State, seat: int) -> str:
    """For a seat that is not to act: who acts and on what."""
    acting = [i for i in range(len(s.players)) if i != seat and legal_actions(s, i)]
    if not acting:
        return "Waiting."
    who = s.players[acting[0]].name
    if s.pending:
        d = s.pending[-1]
        waits = {
            "compete": f"decide whether to compete for {PROVINCES[s.row[0]].name}" if s.row else "",
            "keep": f"decide whether {CARDS[d.card].name} keeps their last military card" if d.card in CARDS else "",
            "cover": f"place {CARDS[d.card].name}" if d.card in CARDS else "",
            "progress": "decide whether to move up a progress level",
            "develop": "develop a Nile card",
            "nile": "place coins on the Nile",
            "maghreb": "choose the card Maghreb moves up",
        }
        return f"Waiting for {who} to {waits.get(d.kind) or 'decide'}."
    if s.phase == "civ":
        return f"Waiting for {who} to choose a civilization."
    if s.phase == "opening":
        return f"Waiting for {who} to place the opening cards."
    if s.phase == "draw":
        return f"Waiting for {who} to take income, draw and swap."
    return f"Waiting for {who} to play a card."


def rule(s: State, seat: int) -> str:
    """The rulebook section behind the decision (a heading of its table of contents), or ""."""
    if s.phase == "over" or not legal_actions(s, seat):
        return ""
    if s.pending:
        return {
            "compete": PHASE_3,
            "keep": PHASE_3,
            "cover": BUILD,
            "progress": PROGRESS,
            "maghreb": PROVINCE_CARDS,
        }.get(s.pending[-1].kind, "")  # the Nile is Egypt's overview, not the rulebook
    if s.phase in ("civ", "opening"):
        return SETUP
    return PHASE_1 if s.players[seat].step == "income" else PHASE_2


def needs_private_view(s: State, seat: int) -> bool:
    """The seat decides while holding its hand (setup, swaps, plays, a build's follow-ups):
    what it chooses depends on cards only it sees."""
    return bool(s.players[seat].hand) and bool(legal_actions(s, seat))


__all__ = ["choices", "needs_private_view", "prompt", "rule"]
