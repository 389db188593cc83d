"""The strong player as a coach: an estimated winning chance for every option of a decision.

`option_values(game, state, ...)` runs the strong player's own search (`search.SearchBot`:
rollouts on sampled worlds, or the information-set tree, as `search.SETTINGS` chooses per
game) and returns, best first, each option with its estimated value for the seat to move.
The hint (`h` on the game screen) shows the top three; game analysis (`analysis.py`) compares
the move played with the best one.

Values are on one scale per game, 0 to 1: the mean reward of the search — a finished
playout's result (a win counts 0.8, a better rank up to 0.2) or, where a playout stops before
the end, a logistic of the seat's lead over its best rival (about its chance to win from
there). In a co-operative game a finished playout counts 1 for a team win and 0 for a loss,
so the value is the chance that the team wins.

Fair play as for the computer players: only `game.determinize(state, seat, rng)` is read, and
the options are the prompt's; the same seed and iteration budget give the same values for two
states the seat cannot tell apart (tests/conformance/test_bots_fairness.py).
"""

from __future__ import annotations

import pickle
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from ..core.protocol import Game, Prompt
from .search import SearchBot, _Node, settings_for

PROGRESS_EVERY = 0.25  # seconds between progress reports while thinking
TOP_KEPT = 3  # options always kept in the running while weak ones are dropped (the hint's 3)
WELL_VISITED = 0.1  # tree mode: a move needs this share of the most-visited one's visits to rank


@dataclass(frozen=True)
class OptionValue:
    """One option of a decision and its estimated value for the seat to move (0-1)."""

    move_id: str
    label: str
    value: float
    samples: int  # playouts or tree visits behind the estimate


# (values so far, best first; playouts or iterations done) -> False to stop thinking
Progress = Callable[[list[OptionValue], int], bool | None]


class Coach(SearchBot):
    """The strong player's search, reporting a value for every option instead of one move."""

    level = "coach"

    def _final(self, world: Any, n: int) -> list[float]:
        if self.game.cooperative:  # the team won or it did not: values are win chances
            won = bool(self.game.result(world).winners)
            return [1.0 if won else 0.0] * n
        return super()._final(world, n)

    def values(
        self,
        state: Any,
        prompt: Prompt | None = None,
        pinned: Iterable[str] = (),
        progress: Progress | None = None,
    ) -> list[OptionValue]:
        """Every option of `prompt` with its value for the seat to move, best first.

        `pinned` move ids are evaluated as thoroughly as the best ones (analysis: the move
        played). `progress` is called with the values so far about every PROGRESS_EVERY
        seconds and once at the end; returning False stops the search early.
        """
        game = self.game
        prompt = prompt or game.prompt(state)
        assert prompt is not None, "no decision to rate: the game is over"
        players = len(state.names)
        if not self._fixed and players != self._players:
            self._players = players
            self._use(settings_for(self.game.id, players))
        if self.settings.mode == "rollout":
            out = self._rollout_values(state, prompt, set(pinned), progress)
        else:
            out = self._tree_values(state, prompt, set(pinned), progress)
        if progress is not None:
            progress(out, self.last_iterations)
        return out

    def _budget(self) -> Callable[[int], bool]:
        """Whether the search may go on after `n` units of work (iterations or playouts)."""
        limit, floor = self.iterations, self.settings.min_iterations
        clock = self.clock
        deadline = clock() + self.think
        if limit is not None:
            return lambda n: n < limit
        return lambda n: n < floor or clock() < deadline

    # ---- rollout mode ----------------------------------------------------------------------
    def _rollout_values(
        self,
        state: Any,
        prompt: Prompt,
        pinned: set[str],
        progress: Progress | None,
    ) -> list[OptionValue]:
        """Every option played out on the same sampled worlds; weak options dropped by
        successive halving (never the top three, the base choice or a pinned one)."""
        game, rng = self.game, self.rng
        seat = prompt.seat
        moves = prompt.moves
        k = len(moves)
        totals = [0.0] * k
        counts = [0] * k
        alive = list(range(k))
        pool: list[bytes] = []
        worlds = self.settings.worlds
        go_on = self._budget()
        keep = {i for i, m in enumerate(moves) if m.id in pinned}
        done = passes = 0
        stopped = False
        next_report = time.perf_counter() + PROGRESS_EVERY
        while not stopped:
            if worlds <= 0 or passes < worlds:
                world = self._sample_world(game, state, seat, rng, pool, first=passes == 0)
                if passes == 0:
                    keep.add(self._base_choice(world, prompt) if k > 1 else 0)
            blob = pool[passes % len(pool)]
            # kept options first, then the best so far: running out of time cuts the weakest
            order = sorted(alive, key=lambda i: (i not in keep, -_mean(totals[i], counts[i])))
            for i in order:
                if not go_on(done) and passes >= 1:
                    stopped = True
                    break
                w = pickle.loads(blob)
                wp = game.prompt(w)
                move = wp.move(moves[i].id) if wp is not None else moves[i]
                game.play(w, move)
                totals[i] += self._playout(w, seat)
                counts[i] += 1
                done += 1
                if progress is not None and time.perf_counter() >= next_report:
                    next_report = time.perf_counter() + PROGRESS_EVERY
                    if progress(self._ranked(prompt, totals, counts, alive), done) is False:
                        stopped = True
                        break
            if stopped:
                break
            passes += 1
            if passes >= 4 and passes & (passes - 1) == 0 and len(alive) > TOP_KEPT:
                ranked = sorted(alive, key=lambda i: -_mean(totals[i], counts[i]))
                best = set(ranked[: max(TOP_KEPT, (len(alive) + 1) // 2)]) | keep
                alive = [i for i in alive if i in best]
            if not go_on(done):
                break
        self.last_iterations = done
        return self._ranked(prompt, totals, counts, alive)

    @staticmethod
    def _ranked(
        prompt: Prompt, totals: list[float], counts: list[int], alive: list[int]
    ) -> list[OptionValue]:
        """Options with their mean values, best first: those still in the running, then the
        dropped ones (fewer playouts), then any never played out (value 0, prompt order)."""
        out = [
            OptionValue(m.id, m.label, _mean(totals[i], counts[i]), counts[i])
            for i, m in enumerate(prompt.moves)
        ]
        running = set(alive)
        order = sorted(
            range(len(out)), key=lambda i: (out[i].samples == 0, i not in running, -out[i].value, i)
        )
        return [out[i] for i in order]

    # ---- tree mode ---------------------------------------------------------------------
    def _tree_values(
        self,
        state: Any,
        prompt: Prompt,
        pinned: set[str],
        progress: Progress | None,
    ) -> list[OptionValue]:
        """ISMCTS as the strong player runs it; a pinned move that the tree neglects gets
        iterations of its own (the move played, then the tree below it)."""
        game, rng = self.game, self.rng
        seat = prompt.seat
        root = _Node(seat)
        self._base = 0.0
        if game.cooperative:
            self._base = self.value(game.determinize(state, seat, rng), seat)
        go_on = self._budget()
        pool: list[bytes] = []
        n = 0
        next_report = time.perf_counter() + PROGRESS_EVERY
        while go_on(n):
            world = self._tree_world(state, seat, pool, n)
            forced = self._neglected(root, pinned) if n % 4 == 3 else None
            if forced is None:
                self._iterate(root, world)
            else:  # play the pinned move, then search on below it
                child = root.children.get(forced)
                if child is None:
                    child = root.children[forced] = _Node(seat)
                child.avail += 1
                root.visits += 1
                wp = game.prompt(world)
                game.play(world, wp.move(forced) if wp is not None else prompt.move(forced))
                self._iterate(child, world)
            n += 1
            if progress is not None and time.perf_counter() >= next_report:
                next_report = time.perf_counter() + PROGRESS_EVERY
                if progress(self._tree_ranked(prompt, root), n) is False:
                    break
        self.last_iterations = n
        return self._tree_ranked(prompt, root)

    @staticmethod
    def _neglected(root: _Node, pinned: set[str]) -> str | None:
        """A pinned move with fewer visits than the average root move, if any."""
        if not pinned:
            return None
        kids = root.children
        average = sum(c.visits for c in kids.values()) / max(1, len(kids))
        for move_id in sorted(pinned):
            child = kids.get(move_id)
            if child is None or child.visits < average:
                return move_id
        return None

    @staticmethod
    def _tree_ranked(prompt: Prompt, root: _Node) -> list[OptionValue]:
        """Root moves by mean value, best first; a move with too few visits to trust ranks
        after the well-visited ones."""
        most = max((c.visits for c in root.children.values()), default=0)
        out = []
        for m in prompt.moves:
            c = root.children.get(m.id)
            visits = c.visits if c is not None else 0
            out.append(OptionValue(m.id, m.label, _mean(c.value if c else 0.0, visits), visits))

        def key(i: int) -> tuple[bool, bool, float, int]:
            o = out[i]
            return (o.samples == 0, o.samples < WELL_VISITED * most, -o.value, i)

        return [out[i] for i in sorted(range(len(out)), key=key)]


def _mean(total: float, count: int) -> float:
    return total / count if count else 0.0


def option_values(
    game: Game,
    state: Any,
    prompt: Prompt | None = None,
    *,
    seed: int = 0,
    think: float | None = None,
    iterations: int | None = None,
    pinned: Iterable[str] = (),
    progress: Progress | None = None,
) -> list[OptionValue]:
    """The options of the decision at `state` with their estimated values, best first
    (`think` seconds of search, or a fixed number of `iterations`: reproducible)."""
    coach = Coach(game, seed, think=think, iterations=iterations)
    return coach.values(state, prompt, pinned=pinned, progress=progress)
