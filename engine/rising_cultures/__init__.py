"""Rising Cultures (2 players): every rule of shared/rules/rising-cultures.txt.

`GAME` is the contract object the registry (engine.GAMES) offers. The package:
`data` (TOML components), `state` (dataclasses), `rules` (what a table adds up to),
`flow` (phases and automatic steps), `decisions` (what an open sub-decision offers),
`actions` (legal actions and their effects), `scoring` (End of the Game), `view`
(what each seat may see).
"""

from .game import RisingCultures

GAME = RisingCultures()

__all__ = ["GAME", "RisingCultures"]
