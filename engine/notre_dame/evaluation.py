"""What the computer players know of Notre Dame: search settings and a cheaper evaluation for
the greedy steps inside playouts (the game's own is `Game.evaluate`, in `rules`)."""

from __future__ import annotations

from ..core.titles import AIHints, SearchSettings
from .rules import GAME
from .state import NotreDameState


def shallow(state: NotreDameState, seat: int) -> float:
    """The game's evaluation, looking one step (not four) into an action under way: five
    times cheaper, for the greedy steps inside playouts."""
    return GAME.evaluate(state, seat, depth=3)


AI = AIHints(
    scale=5.0,
    # greedy playouts to the next round beat the tree by far (the tree's leaves fall in the
    # middle of multi-part actions and drafts, where the evaluation is rough)
    search={0: SearchSettings(mode="rollout", playout_evaluator="shallow")},
    evaluators={"shallow": shallow},
)
