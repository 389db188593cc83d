"""What the computer players know of 1347: the evaluation of a position and the search
settings."""

from __future__ import annotations

from ..core.titles import AIHints, SearchSettings
from . import data
from .scoring import score
from .state import PestisState

AI = AIHints(
    scale=3.0,
    # the tree with heuristic leaves; playouts to the next round are too long (60+ moves)
    search={0: SearchSettings(mode="tree", c=0.7, depth=0)},
)


def evaluate(s: PestisState, seat: int) -> float:
    """Wealth points now, plus the value of cards in hand and subjects to heal."""
    v = float(sum(pts for _, pts in score(s, seat)))
    v += 0.6 * len(s.res_hand[seat])
    v += 0.1 * (s.coins[seat] % data.WP_COINS)
    v += 0.3 * ((s.reserve[seat] + s.agrus[seat]) % data.WP_GRAVE_DIGGERS)
    v += 0.2 * s.agrus[seat] * max(0, data.ROUNDS - s.round)
    for k, h in s.subjects[seat].items():
        if not h:
            v += 0.4 * data.SUBJECTS[k].token
    return v
