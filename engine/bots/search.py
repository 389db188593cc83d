"""The strong computer player: information-set Monte Carlo tree search with determinization.

Each iteration samples a world consistent with what the seat knows (`game.determinize`),
walks one shared tree keyed by move ids (UCB over the moves available in that world, counted
by availability as in SO-ISMCTS), expands one node, plays a short playout and scores the
position with the per-game heuristic (`heuristics.leaf_rewards`), or with the real result when
the game ends. The move most visited at the root is chosen.

By default the player thinks for a fixed time per decision; `iterations` fixes the number of
iterations instead, which makes decisions reproducible (tests, fairness checks).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Any

from ..core.protocol import Game, Prompt
from . import heuristics as H
from .players import Bot

DEFAULT_THINK = 0.6  # seconds per decision (the bar is 1 s on a 2-core machine)


@dataclass(frozen=True)
class Settings:
    """Search knobs, tuned per game with `simulate`."""

    c: float = 0.7  # UCB exploration constant
    depth: int = 0  # playout plies after the tree before the heuristic scores it
    rollout: str = "random"  # playout policy: "random", or "policy" (the game's own player)
    min_iterations: int = 16  # even under time pressure, at least this many


# game id -> settings (tuned by simulate against the greedy player)
SETTINGS: dict[str, Settings] = {}


class _Node:
    __slots__ = ("avail", "children", "seat", "value", "visits")

    def __init__(self, seat: int) -> None:
        self.seat = seat  # the seat whose move leads here (its rewards are summed)
        self.children: dict[str, _Node] = {}
        self.visits = 0
        self.value = 0.0
        self.avail = 0


class SearchBot(Bot):
    """ISMCTS with determinization, short playouts and heuristic leaf values."""

    level = "strong"

    def __init__(
        self,
        game: Game,
        seed: int = 0,
        think: float | None = None,
        iterations: int | None = None,
        settings: Settings | None = None,
    ) -> None:
        super().__init__(game, seed)
        self.think = DEFAULT_THINK if think is None else think
        self.iterations = iterations
        self.settings = settings or SETTINGS.get(game.id, Settings())
        self.last_iterations = 0
        self._policy = _game_policy(game) if self.settings.rollout == "policy" else None

    def choose(self, state: Any, prompt: Prompt | None = None) -> str:
        game = self.game
        prompt = prompt or game.prompt(state)
        assert prompt is not None
        if len(prompt.moves) == 1:
            return prompt.moves[0].id
        seat = prompt.seat
        root = _Node(seat)
        self._base = 0.0
        if game.cooperative:  # the team's value now, from a world the seat may see
            self._base = H.value(game, game.determinize(state, seat, self.rng), seat)
        limit = self.iterations
        deadline = time.perf_counter() + self.think
        floor = self.settings.min_iterations
        n = 0
        while True:
            if limit is not None:
                if n >= limit:
                    break
            elif n >= floor and time.perf_counter() >= deadline:
                break
            world = game.determinize(state, seat, self.rng)
            self._iterate(root, world)
            n += 1
        self.last_iterations = n
        best_id, best_key = None, (-1, 0.0)
        for move in prompt.moves:  # in prompt order: ties go to the first
            child = root.children.get(move.id)
            if child is None:
                continue
            key = (child.visits, child.value / max(1, child.visits))
            if key > best_key:
                best_id, best_key = move.id, key
        if best_id is None:
            return prompt.moves[self.rng.randrange(len(prompt.moves))].id
        return best_id

    def _iterate(self, root: _Node, world: Any) -> None:
        game, rng = self.game, self.rng
        c = self.settings.c
        path = [root]
        node = root
        prompt = game.prompt(world)
        # selection and expansion
        while prompt is not None:
            moves = prompt.moves
            children = node.children
            untried = []
            for m in moves:
                child = children.get(m.id)
                if child is None:
                    untried.append(m)
                else:
                    child.avail += 1
            if untried:
                move = untried[rng.randrange(len(untried))]
                child = _Node(prompt.seat)
                child.avail = 1
                children[move.id] = child
                game.play(world, move)
                path.append(child)
                break
            best_score, best_move, best_child = -1.0, moves[0], None
            for m in moves:
                ch = children[m.id]
                score = ch.value / ch.visits + c * math.sqrt(math.log(ch.avail) / ch.visits)
                if score > best_score:
                    best_score, best_move, best_child = score, m, ch
            assert best_child is not None
            node = best_child
            game.play(world, best_move)
            path.append(node)
            prompt = game.prompt(world)
        # playout
        prompt = game.prompt(world)
        policy = self._policy
        for _ in range(self.settings.depth):
            if prompt is None:
                break
            if policy is None or len(prompt.moves) == 1:
                move = prompt.moves[rng.randrange(len(prompt.moves))]
            else:
                move = prompt.move(policy(world, prompt, rng))
            game.play(world, move)
            prompt = game.prompt(world)
        n = len(world.names)
        if prompt is None and not game.cooperative:
            rewards = H.rank_rewards(game.result(world), n)
        else:
            rewards = H.leaf_rewards(game, world, n, self._base)
        # backpropagation: a node's value is from the view of the seat that chose it
        for nd in path:
            nd.visits += 1
            nd.value += rewards[nd.seat]


def _game_policy(game: Game) -> Any:
    """A game's own rule-following player (`<package>.policy.choose`), if it has one."""
    import importlib

    package = type(game).__module__.rsplit(".", 1)[0]
    try:
        module = importlib.import_module(package + ".policy")
    except ModuleNotFoundError:
        return None
    return getattr(module, "choose", None)
