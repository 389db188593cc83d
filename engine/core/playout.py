"""Random playouts without the UI: the `simulate` command and the playout tests."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .protocol import Game


@dataclass
class PlayoutResult:
    """One finished random game."""

    seed: int
    moves: list[str]
    winners: list[int]
    scores: list[float]
    state: Any = field(repr=False, default=None)


def random_playout(
    game: Game,
    players: int,
    seed: int,
    options: dict[str, str] | None = None,
    *,
    choose: Callable[[Any, Any, random.Random], str] | None = None,
    check: Callable[[Any], None] | None = None,
    max_moves: int = 100_000,
) -> PlayoutResult:
    """Play one game with uniformly random legal moves (or `choose`), in place and fast.

    `check(state)` runs after setup and after every move (invariant tests).
    """
    names = [f"P{i + 1}" for i in range(players)]
    state = game.new_state(names, game.check_options(options or {}), seed)
    rng = random.Random(seed ^ 0x5EED)
    moves: list[str] = []
    if check:
        check(state)
    while True:
        prompt = game.prompt(state)
        if prompt is None:
            break
        if len(moves) >= max_moves:
            raise RuntimeError(f"{game.id} seed {seed}: no end after {max_moves} moves")
        if choose is not None:
            move_id = choose(state, prompt, rng)
            move = prompt.move(move_id)
        else:
            move = prompt.moves[rng.randrange(len(prompt.moves))]
        game.play(state, move)
        moves.append(move.id)
        if check:
            check(state)
    res = game.result(state)
    scores = [0.0] * players
    for line in res.lines:
        scores[line.seat] = float(line.score)
    return PlayoutResult(seed, moves, list(res.winners), scores, state)


def timed_playouts(
    game: Game, players: int, games: int, seed: int
) -> tuple[list[PlayoutResult], float]:
    start = time.perf_counter()
    out = [random_playout(game, players, seed + i) for i in range(games)]
    return out, time.perf_counter() - start
