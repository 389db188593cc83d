"""What every computer player shares: the random player (the base class) and the one-ply look
ahead that the greedy steps of every level use."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from ..core.protocol import Game, Move, Prompt
from . import heuristics as H


class Bot:
    """Uniformly random legal moves."""

    level = "random"

    def __init__(self, game: Game, seed: int = 0) -> None:
        self.game = game
        self.rng = random.Random(seed)

    def choose(self, state: Any, prompt: Prompt | None = None) -> str:
        """The id of the move this player takes at `state` (one of `prompt`'s moves)."""
        prompt = prompt or self.game.prompt(state)
        assert prompt is not None, "no decision to take: the game is over"
        return prompt.moves[self.rng.randrange(len(prompt.moves))].id


def own_turn_continues(prompt: Prompt | None, seat: int) -> bool:
    """Whether `prompt` is a later step of `seat`'s multi-part decision."""
    return prompt is not None and prompt.seat == seat and prompt.step > 0


def look_ahead(
    game: Game, world: Any, moves: Sequence[Move], seat: int, value: H.Value
) -> tuple[int, Any]:
    """One ply: the index of the move whose result `value` rates best for `seat` (the first
    of equals), and that result (None if no value beat minus infinity).

    Every computer player's argmax over the options is this routine.
    """
    best, best_state, best_v = 0, None, float("-inf")
    for i, move in enumerate(moves):
        after = game.clone(world)
        game.play(after, move)
        v = value(after, seat)
        if v > best_v:
            best, best_state, best_v = i, after, v
    return best, best_state


def finish_value(game: Game, world: Any, seat: int, value: H.Value | None = None) -> float:
    """The value for `seat` of `world` once `seat` has finished its current multi-part move.

    While the next prompt is a later step of the same seat's decision, each step takes the
    option that looks best one step ahead (the greedy player's rule), so that a move is
    judged by where it leads, not by a half-made choice.
    """
    value = value or H.evaluator(game)
    prompt = game.prompt(world)
    for _ in range(64):
        if not own_turn_continues(prompt, seat):
            break
        assert prompt is not None
        after = look_ahead(game, world, prompt.moves, seat, value)[1]
        if after is not None:
            world = after
        prompt = game.prompt(world)
    return value(world, seat)
