"""Notre Dame (Stefan Feld, 2007): the rules engine. Exports TITLE and GAME.

Importing the package reads only its catalog entry (`TITLE`); the rules load on the first use
of `GAME`, so that the menu starts without loading every game.
"""

from typing import Any

from .title import TITLE

__all__ = ["GAME", "TITLE", "NotreDame"]


def __getattr__(name: str) -> Any:
    if name in ("GAME", "NotreDame"):
        from . import rules

        return rules.GAME if name == "GAME" else rules.NotreDame
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
