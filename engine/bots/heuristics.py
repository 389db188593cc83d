"""Position values for the computer players, through the core protocol and the game's hints.

`value(game, state, seat)` is a score-like number (higher is better for `seat`): the game's
default evaluation for its computer players (`AIHints.evaluators[""]`, written in the game's
own package), else its `Game.evaluate`. `scale` says how many of those points make a clear
lead, which the search player needs to turn values into win chances. Nothing here knows a
particular game.
"""

from __future__ import annotations

import math
from typing import Any

from ..core.protocol import Game, Result
from ..core.registry import ai_hints
from ..core.titles import Value

__all__ = ["Value", "checkpoint", "evaluator", "leaf_rewards", "rank_rewards", "scale", "value"]


def value(game: Game, state: Any, seat: int) -> float:
    """The value of `state` for `seat` (the game's bot evaluation, else its evaluate)."""
    return evaluator(game)(state, seat)


def evaluator(game: Game, name: str | None = None) -> Value:
    """The game's evaluation as a function of (state, seat); `name` picks one of its named
    variants (`AIHints.evaluators`), "game" the game's own evaluate."""
    found = ai_hints(game).evaluators
    if name == "game":
        return game.evaluate
    fn = found.get(name or "")
    if fn is None:
        if name:
            raise ValueError(f"no evaluator {name!r} for {game.title}")
        return game.evaluate
    return fn


def checkpoint(game: Game, state: Any) -> Any:
    """Where a playout may stop and be scored: a value that changes at a natural break
    (the game's own, by default the round number), so that every option is judged at the
    same point. None for a game with neither: its playouts run to the end of the game."""
    fn = ai_hints(game).checkpoint
    return fn(state) if fn is not None else getattr(state, "round", None)


def scale(game: Game) -> float:
    """Value points that make a clear lead in this game."""
    return ai_hints(game).scale


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


def leaf_rewards(
    game: Game, state: Any, n: int, base: float = 0.0, value_fn: Value | None = None
) -> list[float]:
    """Rewards in [0, 1] for a position: each seat's lead over its best rival, squashed.

    Co-operative games have one team value: its gain over `base` (the value where the search
    started), squashed on the same scale, so that small gains still steer the search.
    """
    k = scale(game)
    val = value_fn or (lambda st, i: value(game, st, i))
    if game.cooperative:
        return [_logistic((val(state, 0) - base) / k)] * n
    values = [val(state, i) for i in range(n)]
    out = []
    for i in range(n):
        best_other = max(v for j, v in enumerate(values) if j != i) if n > 1 else 0.0
        out.append(_logistic((values[i] - best_other) / k))
    return out


def _logistic(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, x))))
