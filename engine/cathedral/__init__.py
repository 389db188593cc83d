"""The Cathedral of Orléans (co-operative, 1-4 players): the game package. Exports TITLE and GAME.

Importing the package reads only its catalog entry (`TITLE`); the rules load on the first use
of `GAME`, so that the menu starts without loading every game.
"""

from typing import Any

from .title import TITLE

__all__ = ["GAME", "TITLE", "CathedralGame"]


def __getattr__(name: str) -> Any:
    if name in ("GAME", "CathedralGame"):
        from . import rules

        return rules.GAME if name == "GAME" else rules.CathedralGame
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
