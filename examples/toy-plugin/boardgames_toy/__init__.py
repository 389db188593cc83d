"""Toy: a worked example of a game shipped as a plug-in from its own distribution.

The entry points (see pyproject.toml) name `boardgames_toy:GAME` and its board
`boardgames_toy.board:UI`. The package defines its catalog entry `TITLE` right here and loads
the rules (`game.py`) on the first use of `GAME`, so that the menu lists the title without
importing its rules.
"""

from typing import Any

from boardgames_tui.engine.core.titles import Title

TITLE = Title(
    id="toy",
    title="Toy",
    min_players=2,
    max_players=4,
    aliases=("toy-game",),
    typical_players=2,
    ai="boardgames_toy.game:AI",  # what the computer players know of the game
)

__all__ = ["GAME", "TITLE"]


def __getattr__(name: str) -> Any:
    if name == "GAME":
        from .game import GAME

        return GAME
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
