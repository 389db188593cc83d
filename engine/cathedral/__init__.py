"""The Cathedral of Orléans (co-operative, 1-4 players): the game package. Exports TITLE and GAME.

Importing the package reads only its catalog entry (`TITLE`); the rules load on the first use
of `GAME`, so that the menu starts without loading every game.
"""

from ..core.titles import rules_on_first_use
from .title import TITLE

__all__ = ["GAME", "TITLE", "Cathedral"]


__getattr__ = rules_on_first_use(__name__, "GAME", "Cathedral")
