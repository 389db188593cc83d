"""The computer players' position values: sane along whole games, exact where they count."""

from __future__ import annotations

import math
import random

import pytest

from engine.bots import heuristics as H
from engine.core.registry import game_ids, get_game


@pytest.mark.parametrize("gid", game_ids())
def test_values_and_rewards_are_finite_and_bounded(gid: str) -> None:
    game = get_game(gid)
    n = 3
    state = game.new_state([f"P{i}" for i in range(n)], game.check_options({}), 5)
    rng = random.Random(5)
    k = 0
    while (p := game.prompt(state)) is not None:
        if k % 13 == 0:
            for seat in range(n):
                assert math.isfinite(H.value(game, state, seat))
            rewards = H.leaf_rewards(game, state, n, base=1.0)
            assert len(rewards) == n and all(0.0 <= r <= 1.0 for r in rewards)
            assert H.checkpoint(game, state) is not None
        game.play(state, p.moves[rng.randrange(len(p.moves))])
        k += 1
    final = H.rank_rewards(game.result(state), n)
    assert all(0.0 <= r <= 1.0 for r in final)


def test_rank_rewards_split_shared_wins_and_reward_places() -> None:
    from engine.core.protocol import Result, ScoreLine

    res = Result(
        [0, 1], [ScoreLine(0, 9, rank=1), ScoreLine(1, 9, rank=1), ScoreLine(2, 3, rank=3)], ""
    )
    r = H.rank_rewards(res, 3)
    assert r[0] == r[1] > r[2] == 0.0
    assert r[0] == pytest.approx(0.8 * 0.5 + 0.2)


def test_rattus_points_match_the_provisional_scoring() -> None:
    """The fast standings of the Rattus Cartus evaluation are the game's own scoring."""
    from engine.rattus_cartus import evaluation, scoring

    game = get_game("rattus-cartus")
    checked = 0
    for n in (2, 3, 5):
        state = game.new_state([f"P{i}" for i in range(n)], {}, n)
        rng = random.Random(n)
        while (p := game.prompt(state)) is not None:
            totals = scoring.compute(state, False).totals
            assert [evaluation.points(state, i) for i in range(n)] == totals
            checked += 1
            game.play(state, p.moves[rng.randrange(len(p.moves))])
    assert checked > 300


def test_rattus_plague_risk_grows_with_rats() -> None:
    from engine.rattus_cartus import evaluation

    game = get_game("rattus-cartus")
    state = game.new_state(["A", "B", "C"], {}, 1)
    values = []
    for rats in (0, 5, 10, 15, 25):
        state.players[0].rats = rats
        values.append(H.value(game, state, 0))
    assert values == sorted(values, reverse=True)
    assert values[0] - values[-1] > 0.8 * evaluation.DEATH


def test_evaluator_variants() -> None:
    game = get_game("rattus-cartus")
    state = game.new_state(["A", "B"], {}, 2)
    assert H.evaluator(game)(state, 0) == H.value(game, state, 0)
    assert H.evaluator(game, "game")(state, 0) == game.evaluate(state, 0)
    with pytest.raises(ValueError):
        H.evaluator(game, "no-such-variant")
