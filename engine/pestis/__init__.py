"""1347: De Nigrae Pestis Ludo (2-6 players): the engine package. Exports TITLE and GAME.

Importing the package reads only its catalog entry (`TITLE`); the rules load on the first use
of `GAME`, so that the menu starts without loading every game.
"""

from ..core.titles import rules_on_first_use
from .title import TITLE

__all__ = ["GAME", "TITLE", "Pestis"]


__getattr__ = rules_on_first_use(__name__, "GAME", "Pestis")
