"""The computer players' position values: sane along whole games, exact where they count."""

from __future__ import annotations

import math
import random

import pytest

from boardgames_tui.engine.bots import heuristics as H
from boardgames_tui.engine.core.registry import ai_hints, game_ids, get_game


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
            hash(H.checkpoint(game, state))  # None too: no checkpoint, playouts run to the end
        game.play(state, p.moves[rng.randrange(len(p.moves))])
        k += 1
    final = H.rank_rewards(game.result(state), n)
    assert all(0.0 <= r <= 1.0 for r in final)


def test_a_game_without_rounds_or_a_checkpoint_is_played_out_to_its_end(
    short_title: str,
) -> None:
    """`AIHints.checkpoint` is optional even when the state has no `round` (the bot tests
    failed for such a game): the rollout player then plays every option out to the end."""
    from boardgames_tui.engine.bots.search import SearchBot
    from boardgames_tui.engine.core.titles import SearchSettings

    game = get_game(short_title)
    state = game.new_state(["A", "B"], game.check_options({}), 3)
    assert not hasattr(state, "round") and ai_hints(game).checkpoint is None
    assert H.checkpoint(game, state) is None
    bot = SearchBot(game, seed=1, iterations=8, settings=SearchSettings(mode="rollout"))
    while (p := game.prompt(state)) is not None:
        game.play(state, p.move(bot.choose(game.clone(state), p)))
    assert game.result(state).winners


def test_rank_rewards_split_shared_wins_and_reward_places() -> None:
    from boardgames_tui.engine.core.protocol import Result, ScoreLine

    res = Result(
        [0, 1], [ScoreLine(0, 9, rank=1), ScoreLine(1, 9, rank=1), ScoreLine(2, 3, rank=3)], ""
    )
    r = H.rank_rewards(res, 3)
    assert r[0] == r[1] > r[2] == 0.0
    assert r[0] == pytest.approx(0.8 * 0.5 + 0.2)


def test_rattus_points_match_the_provisional_scoring() -> None:
    """The fast standings of the Rattus Cartus evaluation are the game's own scoring."""
    from boardgames_tui.engine.rattus_cartus import evaluation, scoring

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
    from boardgames_tui.engine.rattus_cartus import evaluation

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


def test_rattus_forecast_weighs_a_commit_by_the_majority_it_moves() -> None:
    """A face-down card is worth what it adds to its track's majority: much on a contested
    track, little where the lead is already safe (the game's evaluation adds the same flat
    bonus to both)."""
    from boardgames_tui.engine.rattus_cartus import data, evaluation
    from tests.games.rattus_cartus.support import fresh, set_row, take_card

    gains: dict[str, list[float]] = {"forecast": [], "evaluate": []}
    for mine, theirs in ((8, 1), (3, 3)):
        state = fresh(2)
        state.round = state.rounds - 1  # one round to go after this one
        set_row(state, ["monastery", "farm"])
        church = data.CLASSES.index("church")
        state.players[0].track[church] = mine
        state.players[1].track[church] = theirs
        me = state.players[0]
        me.entered, me.revealed = 0, False
        before = (evaluation.forecast(state, 0), evaluation.evaluate(state, 0))
        me.c_pop.append(take_card(state, "church"))
        after = (evaluation.forecast(state, 0), evaluation.evaluate(state, 0))
        gains["forecast"].append(after[0] - before[0])
        gains["evaluate"].append(after[1] - before[1])
    safe, contested = gains["forecast"]
    assert contested > safe + 1.0
    assert gains["evaluate"][0] == pytest.approx(gains["evaluate"][1])


def test_rattus_lead_is_the_forecast_less_the_best_rival() -> None:
    """`lead` (strong's evaluation at 2 players) is zero-sum between two seats, and at the
    end of the last round the forecast's majorities are the game's own places."""
    from boardgames_tui.engine.rattus_cartus import data, evaluation

    game = get_game("rattus-cartus")
    state = game.new_state(["A", "B"], {}, 7)
    rng = random.Random(7)
    checked = 0
    while (p := game.prompt(state)) is not None:
        lead = [evaluation.lead(state, i) for i in range(2)]
        assert lead[0] == pytest.approx(-lead[1])
        forecast = [evaluation.forecast(state, i) for i in range(2)]
        assert lead[0] == pytest.approx(forecast[0] - forecast[1])
        checked += 1
        game.play(state, p.moves[rng.randrange(len(p.moves))])
    assert checked > 100
    for mine, values in ((0, [0, 3]), (3, [3, 3]), (4, [4, 2]), (2, [4, 2])):
        exact = evaluation._expected_place(mine, values, data.TRACK_PAYOUT, 0.0)
        assert exact == (0 if mine == 0 else evaluation._shared(mine, values, data.TRACK_PAYOUT))
    # with rounds to go, a lead of 2 is worth less than first place, a deficit of 2 more than
    # second, and a tie the average of the two
    assert 5 < evaluation._expected_place(4, [4, 2], data.TRACK_PAYOUT, 1.5) < 10
    assert 5 < evaluation._expected_place(2, [4, 2], data.TRACK_PAYOUT, 1.5) < 10
    assert evaluation._expected_place(3, [3, 3], data.TRACK_PAYOUT, 1.5) == pytest.approx(7.5)
