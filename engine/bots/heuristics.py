"""Position values for the computer players, per game, through the core protocol.

`value(game, state, seat)` is a score-like number (higher is better for `seat`). A game listed
in `EVALUATORS` uses the function here, written from the game's state fields; any other game
uses its own `Game.evaluate`. `SCALE` says how many of those points make a clear lead, which
the search player needs to turn values into win chances.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from ..core.protocol import Game, Result

Evaluator = Callable[[Game, Any, int], float]

# game id -> evaluator; filled below for the games whose own evaluate needed help.
EVALUATORS: dict[str, Evaluator] = {}

# game id -> value points that make a clear lead (a logistic's scale); default 4.
SCALE: dict[str, float] = {
    "notre-dame": 5.0,
    "rattus-cartus": 6.0,
    "1347": 3.0,
    "cathedral-of-orleans": 4.0,
}


def value(game: Game, state: Any, seat: int) -> float:
    """The value of `state` for `seat` (the per-game evaluator, else the game's evaluate)."""
    fn = EVALUATORS.get(game.id)
    if fn is not None:
        return fn(game, state, seat)
    return game.evaluate(state, seat)


def checkpoint(game: Game, state: Any) -> Any:
    """Where a playout may stop and be scored: a value that changes at a natural break
    (by default the round number), so that every option is judged at the same point."""
    fn = CHECKPOINTS.get(game.id)
    return fn(state) if fn is not None else getattr(state, "round", None)


CHECKPOINTS: dict[str, Callable[[Any], Any]] = {}


def scale(game: Game) -> float:
    return SCALE.get(game.id, 4.0)


def rank_rewards(res: Result, n: int) -> list[float]:
    """Final rewards in [0, 1]: a win (shared wins split) plus a little for a better rank."""
    out = [0.0] * n
    if not res.winners:
        base = [0.0] * n
    else:
        share = 1.0 / len(res.winners)
        base = [share if i in res.winners else 0.0 for i in range(n)]
    ranks = [0] * n
    for line in res.lines:
        ranks[line.seat] = line.rank
    for i in range(n):
        place = (n - ranks[i]) / (n - 1) if n > 1 and ranks[i] else 0.0
        out[i] = 0.8 * base[i] + 0.2 * max(0.0, min(1.0, place))
    return out


def leaf_rewards(game: Game, state: Any, n: int, base: float = 0.0) -> list[float]:
    """Rewards in [0, 1] for a position: each seat's lead over its best rival, squashed.

    Co-operative games have one team value: its gain over `base` (the value where the search
    started), squashed on the same scale, so that small gains still steer the search.
    """
    k = scale(game)
    if game.cooperative:
        return [_logistic((value(game, state, 0) - base) / k)] * n
    values = [value(game, state, i) for i in range(n)]
    out = []
    for i in range(n):
        best_other = max(v for j, v in enumerate(values) if j != i) if n > 1 else 0.0
        out.append(_logistic((values[i] - best_other) / k))
    return out


def _logistic(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, x))))
