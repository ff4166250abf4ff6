"""Rise of Empires (Martin Wallace; 2-5 players): the rules engine.

Rulebook: shared/rules/rise-of-empires.txt. Component data: data/*.toml (mostly
reconstructed, every entry marked). Decisions and readings: RULES-NOTES.md.
"""

from .game import RiseOfEmpires

GAME = RiseOfEmpires()

__all__ = ["GAME", "RiseOfEmpires"]
