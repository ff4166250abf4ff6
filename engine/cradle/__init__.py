"""Cradle of Civilization: Sumeria to Persia (4-6 players; rulebook shared/rules/cradle-of-civilization.txt).

`GAME` is the engine-contract object; the rules live in the modules beside it:
`data` (components), `state`, `board` (areas, growth), `combat` (5.5),
`rounds` (5.1-5.6), `allocation` (3.0), `flow` (4.0, 5.7, 7.0), `scoring` (7.x),
`epoch_end` (8.0), `view` (what each seat may see).
"""

from .game import CradleGame

GAME = CradleGame()

__all__ = ["GAME", "CradleGame"]
