"""Computer players: random, greedy (one ply) and strong (search), each deciding from a view.

A bot only ever sees `game.determinize(state, seat, rng)`: a copy whose hidden parts are
resampled from what its seat knows, so it cannot read other hands or future draws.
"""

from __future__ import annotations

import random
from typing import Any

from ..core.protocol import Game, Prompt


class Bot:
    """Uniformly random legal moves."""

    level = "random"

    def __init__(self, game: Game, seed: int = 0) -> None:
        self.game = game
        self.rng = random.Random(seed)

    def choose(self, state: Any, prompt: Prompt | None = None) -> str:
        prompt = prompt or self.game.prompt(state)
        assert prompt is not None, "no decision to take: the game is over"
        return prompt.moves[self.rng.randrange(len(prompt.moves))].id


class GreedyBot(Bot):
    """One ply: the move whose resulting position evaluates best for the seat to move."""

    level = "greedy"

    def choose(self, state: Any, prompt: Prompt | None = None) -> str:
        prompt = prompt or self.game.prompt(state)
        assert prompt is not None
        if len(prompt.moves) == 1:
            return prompt.moves[0].id
        seat = prompt.seat
        world = self.game.determinize(state, seat, self.rng)
        best, best_value = [], float("-inf")
        for move in prompt.moves:
            after = self.game.clone(world)
            self.game.play(after, move)
            value = self.game.evaluate(after, seat)
            if value > best_value + 1e-9:
                best, best_value = [move.id], value
            elif abs(value - best_value) <= 1e-9:
                best.append(move.id)
        return best[self.rng.randrange(len(best))]


def make_bot(level: str, game: Game, seed: int = 0, think: float | None = None) -> Bot:
    """A computer player of `level` for `game`."""
    if level == "random":
        return Bot(game, seed)
    if level == "greedy":
        return GreedyBot(game, seed)
    if level == "strong":
        from .search import SearchBot

        return SearchBot(game, seed, think=think)
    raise ValueError(f"unknown computer level {level!r}")
