"""Position values for the computer players, per game, through the core protocol.

`value(game, state, seat)` is a score-like number (higher is better for `seat`). A game listed
in `EVALUATORS` uses the function here, written from the game's state fields; any other game
uses its own `Game.evaluate`. `SCALE` says how many of those points make a clear lead, which
the search player needs to turn values into win chances.
"""

from __future__ import annotations

import functools
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


Value = Callable[[Any, int], float]


def value(game: Game, state: Any, seat: int) -> float:
    """The value of `state` for `seat` (the per-game evaluator, else the game's evaluate)."""
    fn = EVALUATORS.get(game.id)
    if fn is not None:
        return fn(game, state, seat)
    return game.evaluate(state, seat)


def evaluator(game: Game, name: str | None = None) -> Value:
    """`value` for one game as a function of (state, seat); `name` picks a listed variant
    (a key of EVALUATORS, e.g. "game-id:variant"), "game" the game's own evaluate."""
    key = name or game.id
    fn = EVALUATORS.get(key) if key != "game" else None
    if fn is None:
        if name not in (None, "game"):
            raise ValueError(f"no evaluator {name!r}")
        return game.evaluate
    return lambda state, seat: fn(game, state, seat)


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


# ---- Notre Dame ----------------------------------------------------------------------------
def _notre_dame_shallow(game: Game, s: Any, seat: int) -> float:
    """Notre Dame's own evaluation, looking one step (not four) into an action under way:
    five times cheaper, for the greedy steps inside playouts."""
    from ..notre_dame import view

    return view.evaluate(game, s, seat, depth=3)  # type: ignore[arg-type]


EVALUATORS["notre-dame:shallow"] = _notre_dame_shallow


# ---- Rattus Cartus -------------------------------------------------------------------------
def _rattus(game: Game, s: Any, seat: int) -> float:
    """Rattus Cartus: the game's evaluation with a calibrated plague risk.

    The game's own value counts a rat near the nun margin as several victory points and one
    far from it as nothing (a steep logistic). Here the unseen Nun-row cards are a sum of
    random nun counts (mean and variance of the population deck), and the risk is the chance
    that this sum ends below the rats, times what dying costs.
    """
    scoring, d = _rattus_modules()
    if s.phase == "over":
        sc = scoring.compute(s, True)
        v = float(sc.totals[seat])
        if sc.dead[seat]:
            return v - 100.0
        best_other = max((t for i, t in enumerate(sc.totals) if i != seat), default=0)
        return v + (0.5 if v > best_other else 0.0)
    v = float(rattus_points(s, seat))
    p = s.players[seat]
    v += 0.4 * (len(p.pop) + p.jokers) + 0.3 * (p.swords + p.flutes + p.passes)
    v += 0.2 * sum(p.track)
    rats = p.rats
    if not p.revealed and 0 <= p.entered < len(s.row):
        own = d.CLASSES.index(d.building_of(s.row[p.entered]).cls)
        v += 0.9 * (len(p.c_pop) + p.c_jokers) + 0.3 * (p.c_swords + p.c_flutes)
        card_class = d.CARD_CLASS
        rats += sum(1 for c in p.c_pop if card_class[c] != own)
    nuns = d.CARD_NUNS
    seen = sum(nuns[s.nun_row[pos]] for pos in p.seen)
    unseen = d.NUN_ROW_SIZE - len(p.seen)
    nun_mean, nun_var = _nun_stats()
    mean = seen + nun_mean * unseen
    # rats still move before the end: later rounds add spread
    var = nun_var * unseen + 0.5 * max(0, s.rounds - s.round)
    if var <= 0:
        risk = 1.0 if rats > mean else 0.0
    else:
        risk = 0.5 * math.erfc((mean + 0.5 - rats) / math.sqrt(2 * var))
    return v - RATTUS_DEATH * risk


def rattus_points(s: Any, seat: int) -> int:
    """`seat`'s provisional points (tracks, VP tokens, Gold), as `scoring.compute` counts
    them while playing, without scoring the other seats (this runs in every playout step)."""
    d = _rattus_modules()[1]
    players = s.players
    me = players[seat]
    total = d.VP_TOKEN_VALUE * me.vp
    for c, mine in enumerate(me.track):
        if mine >= 1:
            total += _shared(mine, [p.track[c] for p in players], d.TRACK_PAYOUT)
    if me.gold >= 1:
        total += _shared(me.gold, [p.gold for p in players], d.GOLD_PAYOUT)
    return total


def _shared(mine: int, values: list[int], payout: tuple[int, ...]) -> int:
    """The points of a place (tied seats share the places they cover, rounded down)."""
    above = 0
    tied = 0
    for x in values:
        if x > mine:
            above += 1
        elif x == mine:
            tied += 1
    return sum(payout[above : above + tied]) // tied


@functools.cache
def _rattus_modules() -> tuple[Any, Any]:
    """The game's scoring and data modules, imported on first use (the app starts without
    loading every game)."""
    from ..rattus_cartus import data, scoring

    return scoring, data


@functools.cache
def _nun_stats() -> tuple[float, float]:
    """Mean and variance of the nuns on one population card."""
    from ..rattus_cartus.data import CARD_NUNS

    n = len(CARD_NUNS)
    mean = sum(CARD_NUNS) / n
    return mean, sum((x - mean) ** 2 for x in CARD_NUNS) / n


RATTUS_DEATH = 30.0  # value lost by dying of the plague

EVALUATORS["rattus-cartus"] = _rattus
