"""Notre Dame (Stefan Feld, 2007): the rules engine. Exports TITLE and GAME.

Importing the package reads only its catalog entry (`TITLE`); the rules load on the first use
of `GAME`, so that the menu starts without loading every game.
"""

from ..core.titles import rules_on_first_use
from .title import TITLE

__all__ = ["GAME", "TITLE", "NotreDame"]


__getattr__ = rules_on_first_use(__name__, "GAME", "NotreDame")
