"""What all four games share: the contract, randomness, turns, ties, decisions, data.

Nothing here (or anywhere under engine/) imports discord, aiosqlite, Pillow or
asyncio: the engine is pure rules, testable and replayable on its own.
"""

from .actions import canonical, describe_choices, match, readable, resolve, slug, suggestions
from .base import BaseGame
from .choices import DETAIL_MAX, GROUP_MAX, LABEL_MAX, details, essential, grouped, problems, refers_of
from .contract import Choice, Game, IllegalAction, Step
from .data import SOURCES, DataError, data_path, load_entries, load_table, read_toml, set_data_dir
from .pending import Decision, DecisionStack
from .rng import Rng
from .serial import StructureError, from_json, structure, to_json, unstructure
from .text import count, listing, plural, possessive
from .ties import best, ranks, winners_by, worst
from .turns import Simultaneous, clockwise, next_in_order, next_seat

__all__ = [
    "BaseGame",
    "Choice",
    "DETAIL_MAX",
    "GROUP_MAX",
    "LABEL_MAX",
    "DataError",
    "Decision",
    "DecisionStack",
    "Game",
    "IllegalAction",
    "Rng",
    "SOURCES",
    "Simultaneous",
    "Step",
    "StructureError",
    "best",
    "canonical",
    "clockwise",
    "count",
    "data_path",
    "describe_choices",
    "details",
    "essential",
    "from_json",
    "grouped",
    "listing",
    "load_entries",
    "load_table",
    "match",
    "next_in_order",
    "next_seat",
    "plural",
    "possessive",
    "problems",
    "ranks",
    "read_toml",
    "readable",
    "refers_of",
    "resolve",
    "set_data_dir",
    "slug",
    "structure",
    "suggestions",
    "to_json",
    "unstructure",
    "winners_by",
    "worst",
]
