"""Rattus Cartus (2-5 players): the game engine. Exports TITLE and GAME.

Importing the package reads only its catalog entry (`TITLE`); the rules load on the first use
of `GAME`, so that the menu starts without loading every game.
"""

from ..core.titles import rules_on_first_use
from .title import TITLE

__all__ = ["GAME", "TITLE", "RattusCartus"]


__getattr__ = rules_on_first_use(__name__, "GAME", "RattusCartus")
