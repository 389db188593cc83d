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
import os
import pickle
import random
import time
from collections.abc import Callable
from typing import Any

from ..core.protocol import Game, Prompt
from ..core.registry import ai_hints, get_game
from ..core.titles import SearchSettings
from . import heuristics as H
from .base import Bot, finish_value, look_ahead, own_turn_continues

DEFAULT_THINK = 0.6  # seconds per decision (the bar is 1 s on a 2-core machine)
# worlds on which the strong player checks that its choice does not lose the game at once
SAFETY_WORLDS = 4
THINK_ENV = "BOARDGAMES_THINK"  # environment override of the default (`new --think`)
# "cpu": count thinking time on this thread's CPU clock instead of the wall clock, so that a
# measurement sharing its cores with other work still gives every decision its full budget
CLOCK_ENV = "BOARDGAMES_THINK_CLOCK"


def default_think() -> float:
    """Seconds per decision when none is given: $BOARDGAMES_THINK, else DEFAULT_THINK."""
    text = os.environ.get(THINK_ENV, "")
    try:
        value = float(text) if text else DEFAULT_THINK
    except ValueError:
        value = DEFAULT_THINK
    return max(0.0, value)


def think_clock() -> Callable[[], float]:
    """The clock thinking time is counted on: the wall clock, or with
    $BOARDGAMES_THINK_CLOCK=cpu this thread's CPU time."""
    if os.environ.get(CLOCK_ENV, "").strip().lower() == "cpu":
        return time.thread_time
    return time.perf_counter


Settings = SearchSettings  # the knobs, stated per game in its AIHints


def settings_for(game: Game | str, players: int = 0) -> SearchSettings:
    """The search settings of a game (or game id), for a player count where it has its own."""
    if isinstance(game, str):
        game = get_game(game)
    return ai_hints(game).settings(players)


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
        settings: SearchSettings | None = None,
    ) -> None:
        super().__init__(game, seed)
        self.think = default_think() if think is None else think
        self.clock = think_clock()
        self.iterations = iterations
        self._fixed = settings is not None  # else the game's, for the table's player count
        self.last_iterations = 0
        self._players = 0
        self._use(settings or settings_for(game))

    def _use(self, settings: SearchSettings) -> None:
        """Search with `settings`, and the evaluations and playout player they name."""
        game = self.game
        self.settings = settings
        self._policy = ai_hints(game).policy if settings.rollout == "policy" else None
        self.value = H.evaluator(game, settings.evaluator)
        self.step_value = (
            H.evaluator(game, settings.playout_evaluator)
            if settings.playout_evaluator
            else self.value
        )

    def choose(self, state: Any, prompt: Prompt | None = None) -> str:
        game = self.game
        prompt = prompt or game.prompt(state)
        assert prompt is not None
        if len(prompt.moves) == 1:
            return prompt.moves[0].id
        players = len(state.names)
        if not self._fixed and players != self._players:
            self._players = players
            self._use(settings_for(game, players))
        if self.settings.mode == "rollout":
            chosen = self._choose_by_rollouts(state, prompt)
        else:
            chosen = self._choose_by_tree(state, prompt)
        return self._not_lost_at_once(state, prompt, chosen)

    def _not_lost_at_once(self, state: Any, prompt: Prompt, chosen: str) -> str:
        """`chosen`, unless it ends the game lost in every world the seat may imagine while
        another option does not: then the best of those by the greedy player's rule. (A
        search whose playouts read the sampled worlds' hidden cards, or that finds every
        option lost in the end, would otherwise throw the game away at once.)"""
        game, seat = self.game, prompt.seat
        rng = random.Random(len(prompt.moves))  # not the search's: its draws stay the same
        worlds = [game.determinize(state, seat, rng) for _ in range(SAFETY_WORLDS)]

        def lost(move_id: str) -> bool:
            for world in worlds:
                after = game.clone(world)
                game.play(after, prompt.move(move_id))
                if game.prompt(after) is not None or seat in game.result(after).winners:
                    return False
            return True

        if not lost(chosen):
            return chosen
        safe = [m.id for m in prompt.moves if m.id != chosen and not lost(m.id)]
        if not safe:
            return chosen

        def value(move_id: str) -> float:
            total = 0.0
            for world in worlds:
                after = game.clone(world)
                game.play(after, prompt.move(move_id))
                total += finish_value(game, after, seat, self.value)
            return total

        return max(safe, key=value)  # ties: the first in the prompt's order

    def _choose_by_tree(self, state: Any, prompt: Prompt) -> str:
        """Information-set Monte Carlo tree search over sampled worlds: the most visited."""
        game, seat = self.game, prompt.seat
        root = _Node(seat)
        self._base = 0.0
        if game.cooperative:  # the team's value now, from a world the seat may see
            self._base = self.value(game.determinize(state, seat, self.rng), seat)
        limit = self.iterations
        deadline = self.clock() + self.think
        floor = self.settings.min_iterations
        pool: list[bytes] = []
        n = 0
        while True:
            if limit is not None:
                if n >= limit:
                    break
            elif n >= floor and self.clock() >= deadline:
                break
            world = self._tree_world(state, seat, pool, n)
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

    # ---- rollout mode ----------------------------------------------------------------------
    def _choose_by_rollouts(self, state: Any, prompt: Prompt) -> str:
        """Play every option out on common sampled worlds; leave the base player's choice
        only for an option that does better on the same worlds by a clear margin."""
        game, rng = self.game, self.rng
        seat = prompt.seat
        moves = prompt.moves
        pool: list[bytes] = []
        worlds = self.settings.worlds
        limit = self.iterations  # rollouts in all
        deadline = self.clock() + self.think
        world = self._sample_world(game, state, seat, rng, pool, first=True)
        base = self._base_choice(world, prompt)
        # an option is the moves the seat makes now: one, or with `settings.plans` the base
        # player's line through the seat's multi-part move, stopped early
        options: list[tuple[str, ...]] = [(m.id,) for m in moves]
        if self.settings.plans:
            options += self._stops(world, prompt, base)
        k = len(options)
        results: list[list[float]] = [[] for _ in range(k)]  # per option, per world
        alive = list(range(k))
        done = 0
        passes = 0
        timed_out = False
        while not timed_out:
            if limit is not None and done >= limit and passes >= 1:
                break
            if passes and (worlds <= 0 or passes < worlds):
                self._sample_world(game, state, seat, rng, pool, first=False)
            blob = pool[passes % len(pool)]
            # the base option first: every other one is compared with it world by world
            for i in [base, *(j for j in alive if j != base)]:
                if limit is None and self.clock() >= deadline:
                    timed_out = True
                    break
                w = pickle.loads(blob)
                for mid in options[i]:
                    wp = game.prompt(w)
                    game.play(w, wp.move(mid) if wp is not None else prompt.move(mid))
                results[i].append(self._playout(w, seat))
                done += 1
            if timed_out:
                break
            passes += 1
            # successive halving on common worlds: at 4, 8, 16... passes keep the better
            # half (never the base choice, which the others must beat)
            if passes >= 4 and passes & (passes - 1) == 0 and len(alive) > 2:
                ranked = sorted(alive, key=lambda i: -sum(results[i]))
                keep = set(ranked[: max(2, (len(alive) + 1) // 2)]) | {base}
                alive = [i for i in alive if i in keep]
        self.last_iterations = done
        best, best_gain = base, 0.0
        rb = results[base]
        for i in alive:
            if i == base:
                continue
            d = [x - y for x, y in zip(results[i], rb, strict=False)]
            m = len(d)
            if m < 2:
                continue
            mean = sum(d) / m
            var = sum((x - mean) ** 2 for x in d) / (m - 1)
            margin = self.settings.confidence * math.sqrt(var / m)
            if mean > margin and mean > best_gain:
                best, best_gain = i, mean
        return options[best][0]

    def _stops(self, world: Any, prompt: Prompt, base: int) -> list[tuple[str, ...]]:
        """The base player's line through the seat's multi-part move (its choice here, then
        its later steps), stopped after each step by the option that ends the move: the
        plans a one-step search cannot weigh, since its playouts finish the move as the base
        player would (committing one card less, say, than greedy's whole hand)."""
        game = self.game
        seat = prompt.seat
        w = game.clone(world)
        line = [prompt.moves[base].id]
        game.play(w, prompt.move(line[0]))
        plans: list[tuple[str, ...]] = []
        for _ in range(64):
            here = game.prompt(w)
            if not own_turn_continues(here, seat):
                break
            assert here is not None
            nxt, after = look_ahead(game, w, here.moves, seat, self.value)
            for i, move in enumerate(here.moves):
                if i == nxt:
                    continue
                end = game.clone(w)
                game.play(end, move)
                if not own_turn_continues(game.prompt(end), seat):
                    plans.append((*line, move.id))
                    break
            line.append(here.moves[nxt].id)
            if after is None:  # no option rated above minus infinity: the line still goes on
                game.play(w, here.moves[nxt])
            else:
                w = after
        return plans

    def _sample_world(
        self, game: Game, state: Any, seat: int, rng: random.Random, pool: list[bytes], first: bool
    ) -> Any:
        """One more world as `seat` may imagine it, kept in `pool` (alone in it when no world
        is reused: settings.worlds 0); the first also sets the value the playouts are measured
        from and the checkpoint they run to."""
        world = game.determinize(state, seat, rng)
        if self.settings.worlds <= 0:
            pool.clear()
        pool.append(pickle.dumps(world, pickle.HIGHEST_PROTOCOL))
        if first:
            self._base = self.value(world, seat) if game.cooperative else 0.0
            self._key = H.checkpoint(game, world)
        return world

    def _base_choice(self, world: Any, prompt: Prompt) -> int:
        """The option the playout player would take here (index into the prompt)."""
        game = self.game
        if self._policy is not None:
            here = game.prompt(world)
            assert here is not None  # the world offers the prompt's decision
            return prompt.ids().index(self._policy(world, here, self.rng))
        return look_ahead(
            game,
            world,
            prompt.moves,
            prompt.seat,
            lambda after, seat: finish_value(game, after, seat, self.value),
        )[0]

    def _playout(self, world: Any, seat: int) -> float:
        """Greedy players continue `world` to the next checkpoint; `seat`'s reward there."""
        game, rng = self.game, self.rng
        eps = self.settings.epsilon
        policy = self._policy
        key = self._key
        h = self.settings.horizon
        stops = 0 if h == "end" else 1 if h == "round" else int(h)
        n = len(world.names)
        blind = self.settings.playout_worlds
        for _ in range(self.settings.max_plies):
            prompt = game.prompt(world)
            if prompt is None:
                return self._final(world, n)[seat]
            if stops and H.checkpoint(game, world) != key:
                stops -= 1
                if not stops:
                    break
                key = H.checkpoint(game, world)
            moves = prompt.moves
            if len(moves) == 1:
                move = moves[0]
            elif policy is not None:
                move = prompt.move(policy(world, prompt, rng))
            elif eps and rng.random() < eps:
                move = moves[rng.randrange(len(moves))]
            elif blind:
                move = moves[self._blind_choice(world, prompt, blind)]
            else:
                i, after = look_ahead(game, world, moves, prompt.seat, self.step_value)
                if after is not None:
                    world = after
                    continue
                move = moves[i]
            game.play(world, move)
        return H.leaf_rewards(game, world, n, self._base, self.value)[seat]

    def _blind_choice(self, world: Any, prompt: Prompt, worlds: int) -> int:
        """The greedy step of a playout as the greedy player takes it: on `worlds` worlds
        sampled from the mover's view, not on the playout's own world, whose deck and hidden
        cards the mover cannot know (a playout player that sees them plays better than the
        real one, and favours the options whose futures turn on chance)."""
        game = self.game
        seat = prompt.seat
        totals = [0.0] * len(prompt.moves)
        for _ in range(worlds):
            w = game.determinize(world, seat, self.rng)
            wp = game.prompt(w)
            options = wp.moves if wp is not None else prompt.moves
            for i, move in enumerate(options):
                after = game.clone(w)
                game.play(after, move)
                totals[i] += self.step_value(after, seat)
        return max(range(len(totals)), key=totals.__getitem__)

    def _final(self, world: Any, n: int) -> list[float]:
        """Rewards of a finished game: wins and ranks, or for a team its win (a loss still
        earns a little for how far the team got)."""
        game = self.game
        res = game.result(world)
        if not game.cooperative:
            return H.rank_rewards(res, n)
        if res.winners:
            return [1.0] * n
        return [0.5 * r for r in H.leaf_rewards(game, world, n, self._base, self.value)]

    # ---- tree mode ---------------------------------------------------------------------
    def _tree_world(self, state: Any, seat: int, pool: list[bytes], n: int) -> Any:
        """The world of iteration `n`: a new sample while fewer than `settings.worlds` are
        kept in `pool` (always, with 0), else the kept ones in turn."""
        worlds = self.settings.worlds
        if worlds <= 0 or n < worlds:
            world = self.game.determinize(state, seat, self.rng)
            if worlds > 0:
                pool.append(pickle.dumps(world, pickle.HIGHEST_PROTOCOL))
            return world
        return pickle.loads(pool[n % worlds])

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
        if prompt is None:
            rewards = self._final(world, n)
        else:
            rewards = H.leaf_rewards(game, world, n, self._base, self.value)
        # backpropagation: a node's value is from the view of the seat that chose it
        for nd in path:
            nd.visits += 1
            nd.value += rewards[nd.seat]
