"""1347: De Nigrae Pestis Ludo (2-6 players): the engine package. Exports TITLE and GAME.

Importing the package reads only its catalog entry (`TITLE`); the rules load on the first use
of `GAME`, so that the menu starts without loading every game.
"""

from typing import Any

from .title import TITLE

__all__ = ["GAME", "TITLE", "PestisGame"]


def __getattr__(name: str) -> Any:
    if name in ("GAME", "PestisGame"):
        from . import rules

        return rules.GAME if name == "GAME" else rules.PestisGame
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
