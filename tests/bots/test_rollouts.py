"""The rollout search's sampling: fresh worlds when none is to be reused, playout players
that decide from their own seat's view, as the greedy player does, and plans through a
multi-part move."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

from boardgames_tui.engine.bots import heuristics as H
from boardgames_tui.engine.bots.base import look_ahead, own_turn_continues
from boardgames_tui.engine.bots.players import GreedyBot
from boardgames_tui.engine.bots.search import SearchBot, settings_for
from boardgames_tui.engine.core.protocol import Game, Prompt
from boardgames_tui.engine.core.registry import get_game


def _positions(game: Game, players: int, seed: int, every: int, count: int) -> list[Any]:
    """States at every `every`-th decision of a game between greedy players."""
    state = game.new_state([f"P{i + 1}" for i in range(players)], {}, seed)
    bots = [GreedyBot(game, seed + i, worlds=1) for i in range(players)]
    out: list[Any] = []
    n = 0
    while (prompt := game.prompt(state)) is not None and len(out) < count:
        if n % every == 0 and len(prompt.moves) > 1:
            out.append(game.clone(state))
        game.play(state, prompt.move(bots[prompt.seat].choose(state, prompt)))
        n += 1
    return out


class _Counting(SearchBot):
    """Counts the worlds the search samples for its own seat."""

    sampled = 0

    def _sample_world(
        self, game: Game, state: Any, seat: int, rng: random.Random, pool: list[bytes], first: bool
    ) -> Any:
        self.sampled += 1
        return super()._sample_world(game, state, seat, rng, pool, first)


def test_without_reuse_every_pass_has_a_world_of_its_own() -> None:
    """A greedy playout is the same on the same world: with `worlds = 0` each pass samples a
    new one (and keeps one at a time); with `worlds = 3` only three are sampled."""
    game = get_game("rattus-cartus")
    state = _positions(game, 2, 3, 5, 1)[0]
    prompt = game.prompt(state)
    assert prompt is not None
    k = len(prompt.moves)
    for worlds, expected in ((0, 8), (3, 3)):
        settings = dataclasses.replace(settings_for(game, 2), worlds=worlds, horizon="round")
        bot = _Counting(game, 1, iterations=8 * k, settings=settings)
        bot.choose(state, prompt)
        assert bot.last_iterations == 8 * k  # eight passes over every option
        assert bot.sampled == expected


def test_a_playout_player_decides_from_its_own_view() -> None:
    """With `playout_worlds`, a playout's greedy step is the same on two worlds that differ only
    in what its mover cannot see (the second sampled from the mover's view); deciding on the
    playout's world itself (the setting's 0) reads its deck, Nun-row and the other hand, and
    somewhere in a game that decides differently."""
    game = get_game("rattus-cartus")
    settings = dataclasses.replace(settings_for(game, 2), playout_worlds=1)
    value = H.evaluator(game)
    clairvoyant_differs = 0
    positions = _positions(game, 2, 11, 3, 40)
    assert len(positions) == 40
    for n, s in enumerate(positions):
        prompt: Prompt | None = game.prompt(s)
        assert prompt is not None
        t = game.determinize(s, prompt.seat, random.Random(n))
        assert game.view(t, prompt.seat) == game.view(s, prompt.seat)
        picks = [SearchBot(game, n, settings=settings)._blind_choice(w, prompt, 2) for w in (s, t)]
        assert picks[0] == picks[1], prompt.text
        seen = [look_ahead(game, w, game.prompt(w).moves, prompt.seat, value)[0] for w in (s, t)]
        clairvoyant_differs += seen[0] != seen[1]
    assert clairvoyant_differs > 0


def test_plans_stop_the_base_line_after_each_step() -> None:
    """With `plans`, the search also plays the base player's line through the seat's
    multi-part move (enter a building, then cards one by one) stopped after each step: every
    plan is that line up to a point and then an option that ends the move."""
    game = get_game("rattus-cartus")
    settings = dataclasses.replace(settings_for(game, 2), plans=True)
    checked = 0
    for n, state in enumerate(_positions(game, 2, 8, 1, 80)):
        prompt = game.prompt(state)
        assert prompt is not None
        bot = SearchBot(game, n, iterations=2 * len(prompt.moves), settings=settings)
        world = game.determinize(state, prompt.seat, bot.rng)
        base = bot._base_choice(world, prompt)
        w = game.clone(world)
        game.play(w, prompt.moves[base])
        line = [prompt.moves[base].id]
        while own_turn_continues(here := game.prompt(w), prompt.seat):
            assert here is not None
            line.append(here.moves[look_ahead(game, w, here.moves, prompt.seat, bot.value)[0]].id)
            game.play(w, here.move(line[-1]))
        plans = bot._stops(world, prompt, base)
        for plan in plans:
            assert list(plan[:-1]) == line[: len(plan) - 1]
            assert plan[-1] != line[len(plan) - 1]
            end = game.clone(world)
            for mid in plan:
                here = game.prompt(end)
                assert here is not None
                game.play(end, here.move(mid))
            assert not own_turn_continues(game.prompt(end), prompt.seat)
        checked += len(plans)
        assert bot.choose(state, prompt) in prompt.ids()
    assert checked >= 20
