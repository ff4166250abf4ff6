"""Mosaic: A Story of Civilization (2-6 players) — rules engine.

Rules: shared/rules/mosaic.txt (a rules summary); decisions where it is silent or
contradictory: RULES-NOTES.md; component data: data/*.toml.
"""

from .game import GAME, MosaicGame

__all__ = ["GAME", "MosaicGame"]
