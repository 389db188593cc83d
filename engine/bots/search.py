"""The strong computer player: information-set Monte Carlo tree search with determinization.

Each iteration samples a world consistent with what the seat knows (`game.determinize`),
walks one shared tree keyed by move ids (UCB over the moves available in that world), expands
one node, plays a short random playout and scores it with the game's evaluation (or the real
result when the game ends). The move most visited at the root is chosen.
"""

from __future__ import annotations

import math
import random
import time
from typing import Any

from ..core.protocol import Game, Prompt
from .players import Bot

DEFAULT_THINK = 0.6  # seconds per decision (the bar is 1 s on a 2-core machine)
UCB_C = 0.9


class _Node:
    __slots__ = ("avail", "children", "seat", "value", "visits")

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.children: dict[str, _Node] = {}
        self.visits = 0
        self.value = 0.0
        self.avail = 0


class SearchBot(Bot):
    """ISMCTS with determinization, depth-limited playouts and heuristic leaf values."""

    level = "strong"

    def __init__(
        self,
        game: Game,
        seed: int = 0,
        think: float | None = None,
        iterations: int | None = None,
        rollout_depth: int = 40,
    ) -> None:
        super().__init__(game, seed)
        self.think = DEFAULT_THINK if think is None else think
        self.iterations = iterations
        self.rollout_depth = rollout_depth

    def choose(self, state: Any, prompt: Prompt | None = None) -> str:
        prompt = prompt or self.game.prompt(state)
        assert prompt is not None
        if len(prompt.moves) == 1:
            return prompt.moves[0].id
        root = _Node(prompt.seat)
        deadline = time.perf_counter() + self.think
        n = 0
        while True:
            if self.iterations is not None:
                if n >= self.iterations:
                    break
            elif n >= 8 and time.perf_counter() >= deadline:
                break
            world = self.game.determinize(state, prompt.seat, self.rng)
            self._iterate(root, world)
            n += 1
        legal = {m.id for m in prompt.moves}
        best = max(
            (c for c in root.children.items() if c[0] in legal),
            key=lambda kv: (kv[1].visits, kv[1].value / max(1, kv[1].visits)),
            default=None,
        )
        if best is None:
            return prompt.moves[self.rng.randrange(len(prompt.moves))].id
        return best[0]

    def _iterate(self, root: _Node, world: Any) -> None:
        game, rng = self.game, self.rng
        path = [root]
        node = root
        prompt = game.prompt(world)
        # selection / expansion
        while prompt is not None:
            moves = prompt.moves
            untried = [m for m in moves if m.id not in node.children]
            for m in moves:
                child = node.children.get(m.id)
                if child is not None:
                    child.avail += 1
            if untried:
                move = untried[rng.randrange(len(untried))]
                child = _Node(prompt.seat)
                child.avail = 1
                node.children[move.id] = child
                game.play(world, move)
                path.append(child)
                break
            log_avail = 0.0
            best_score, best_move = -1.0, moves[0]
            for m in moves:
                c = node.children[m.id]
                log_avail = math.log(max(1, c.avail))
                score = c.value / c.visits + UCB_C * math.sqrt(log_avail / c.visits)
                if score > best_score:
                    best_score, best_move = score, m
            node = node.children[best_move.id]
            game.play(world, best_move)
            path.append(node)
            prompt = game.prompt(world)
        # playout
        depth = 0
        prompt = game.prompt(world)
        while prompt is not None and depth < self.rollout_depth:
            game.play(world, prompt.moves[rng.randrange(len(prompt.moves))])
            depth += 1
            prompt = game.prompt(world)
        rewards = self._rewards(world, prompt is None)
        # backpropagation: a node's value is from the view of the seat that chose it
        for node in path:
            node.visits += 1
            if node is not root:
                node.value += rewards.get(node.seat, 0.0)

    def _rewards(self, world: Any, over: bool) -> dict[int, float]:
        game = self.game
        n = len(world.names)
        if over:
            res = game.result(world)
            if game.cooperative:
                v = 1.0 if res.winners else 0.0
                # finer signal for co-op losses: how far the team got
                if not res.winners:
                    v = 0.5 * _squash(game.evaluate(world, 0))
                return dict.fromkeys(range(n), v)
            if not res.winners:
                return dict.fromkeys(range(n), 0.0)
            share = 1.0 / len(res.winners)
            return {i: (share if i in res.winners else 0.0) for i in range(n)}
        values = [game.evaluate(world, i) for i in range(n)]
        if game.cooperative:
            v = _squash(values[0])
            return dict.fromkeys(range(n), v)
        out = {}
        for i in range(n):
            others = max(v for j, v in enumerate(values) if j != i) if n > 1 else 0.0
            out[i] = 1.0 / (1.0 + math.exp(-(values[i] - others) / 4.0))
        return out


def _squash(x: float) -> float:
    return max(0.0, min(1.0, x / 100.0)) if x > 1.0 else max(0.0, min(1.0, x))


def pick_random(game: Game, state: Any, rng: random.Random) -> str:
    moves = game.legal_moves(state)
    return moves[rng.randrange(len(moves))].id
