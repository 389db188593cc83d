"""What the computer players know of 1347: the search settings (the evaluation is the game's
own `Game.evaluate`)."""

from __future__ import annotations

from ..core.titles import AIHints, SearchSettings

AI = AIHints(
    scale=3.0,
    # the tree with heuristic leaves; playouts to the next round are too long (60+ moves)
    search={0: SearchSettings(mode="tree", c=0.7, depth=0)},
)
