"""Computer players on every game: legal moves only, reproducible decisions, simulate runs."""

from __future__ import annotations

import random
from typing import Any

import pytest

from boardgames_tui.cli.main import main
from boardgames_tui.engine.bots import players
from boardgames_tui.engine.bots.players import LEVELS, Bot, GreedyBot, make_bot
from boardgames_tui.engine.bots.search import SearchBot
from boardgames_tui.engine.bots.simulate import simulate
from boardgames_tui.engine.core.protocol import Game
from boardgames_tui.engine.core.registry import game_ids, get_game

GAMES = game_ids()  # every installed title


def _play(game: Game, bots: list[Bot], seed: int, limit: int = 100_000) -> tuple[list[str], int]:
    """Play a game (or `limit` decisions) with `bots`; every move must be legal."""
    n = len(bots)
    state = game.new_state([f"P{i + 1}" for i in range(n)], game.check_options({}), seed)
    ids: list[str] = []
    while (prompt := game.prompt(state)) is not None and len(ids) < limit:
        before = game.digest(state) if len(ids) % 50 == 0 else None
        move_id = bots[prompt.seat].choose(state, prompt)
        assert move_id in prompt.ids(), f"{game.id}: {move_id!r} not legal at {prompt.text}"
        if before is not None:
            assert game.digest(state) == before, "a bot changed the real state"
        game.play(state, prompt.move(move_id))
        ids.append(move_id)
    return ids, len(ids)


@pytest.mark.parametrize("gid", GAMES)
def test_legal_moves_only_over_thousands_of_decisions(gid: str) -> None:
    """Random seats over whole games at every player count; greedy and strong (tiny budget)
    seats beside them over the first decisions of a game."""
    game = get_game(gid)
    players.MISMATCHES.clear()
    decisions = 0
    lo, hi = game.min_players, game.max_players
    k = 0
    while decisions < 2000:
        n = lo + k % (hi - lo + 1)
        decisions += _play(game, [Bot(game, k * 10 + i) for i in range(n)], seed=100 + k)[1]
        k += 1
    for n in range(max(lo, 2), hi + 1):
        bots: list[Bot] = [SearchBot(game, 1, iterations=4), GreedyBot(game, 2, worlds=1)]
        bots += [Bot(game, 3 + i) for i in range(n - 2)]
        decisions += _play(game, bots, seed=n, limit=60)[1]
    assert decisions >= 2000
    assert not players.MISMATCHES, players.MISMATCHES[:3]


@pytest.mark.parametrize("gid", GAMES)
def test_same_seed_same_decisions(gid: str) -> None:
    """Greedy and strong (with an iteration budget) repeat themselves exactly."""
    game = get_game(gid)
    n = max(2, game.min_players)

    def run() -> list[str]:
        bots: list[Bot] = [SearchBot(game, 5, iterations=6), GreedyBot(game, 6)]
        bots += [make_bot("random", game, seed=7 + i) for i in range(n - 2)]
        return _play(game, bots, seed=3, limit=50)[0]

    assert run() == run()


def test_settings_per_player_count(monkeypatch: pytest.MonkeyPatch) -> None:
    """A game's search settings may differ for one player count (`AIHints.search`)."""
    import dataclasses

    from boardgames_tui.engine.bots import search
    from boardgames_tui.engine.core import registry

    game = get_game("rattus-cartus")
    hints = registry.ai_hints(game)
    two = search.Settings(mode="rollout", horizon="round", confidence=0.5)
    monkeypatch.setitem(
        registry._hints, game.id, dataclasses.replace(hints, search={**hints.search, 2: two})
    )
    assert search.settings_for("rattus-cartus", 2) is two
    assert search.settings_for("rattus-cartus", 3) is hints.search[0]
    assert search.settings_for("1347", 2) is registry.ai_hints(get_game("1347")).search[0]
    assert search.settings_for(game) is hints.search[0]
    bot = SearchBot(game, 1, iterations=3)
    for n, expected in ((3, hints.search[0]), (2, two)):
        state = game.new_state([f"P{i}" for i in range(n)], {}, 2)
        prompt = game.prompt(state)
        assert prompt is not None and len(prompt.moves) > 1
        bot.choose(state, prompt)
        assert bot.settings is expected
    fixed = SearchBot(game, 1, iterations=3, settings=search.Settings())
    fixed.choose(state, prompt)
    assert fixed.settings == search.Settings()


def test_levels_and_errors() -> None:
    game = get_game("notre-dame")
    assert [make_bot(lv, game).level for lv in LEVELS] == list(LEVELS)
    with pytest.raises(ValueError, match="unknown computer level"):
        make_bot("genius", game)


def test_strong_thinks_within_its_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """The default budget is time: the search stops at its deadline, after a floor of
    iterations. A fake clock that reads 10 ms later each time keeps timing out of the test."""
    import itertools
    from types import SimpleNamespace

    from boardgames_tui.engine.bots import search

    game = get_game("1347")
    state = game.new_state(["A", "B", "C"], {}, 4)
    prompt = game.prompt(state)
    assert prompt is not None and len(prompt.moves) > 1
    floor = search.settings_for("1347").min_iterations
    # past the floor, one clock reading per iteration: about think / 10 ms more of them
    for think, lo, hi in ((0.05, floor + 3, floor + 5), (0.5, floor + 48, floor + 50)):
        ticks = itertools.count(0.0, 0.01)
        monkeypatch.setattr(search, "time", SimpleNamespace(perf_counter=lambda t=ticks: next(t)))
        bot = SearchBot(game, 1, think=think)
        bot.choose(state, prompt)
        assert lo <= bot.last_iterations <= hi, (think, bot.last_iterations)


def test_strong_thinks_on_the_cpu_clock_when_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    """With $BOARDGAMES_THINK_CLOCK=cpu the budget is this thread's CPU time, so a
    measurement sharing its cores still gives each decision its whole think; the wall clock
    is then never read."""
    import itertools
    from types import SimpleNamespace

    from boardgames_tui.engine.bots import search

    game = get_game("rattus-cartus")
    state = game.new_state(["A", "B"], {}, 3)
    prompt = game.prompt(state)
    assert prompt is not None and len(prompt.moves) > 1

    def wall() -> float:
        raise AssertionError("the wall clock was read")

    ticks = itertools.count(0.0, 0.01)
    fake = SimpleNamespace(perf_counter=wall, thread_time=lambda: next(ticks))
    monkeypatch.setattr(search, "time", fake)
    monkeypatch.setenv(search.CLOCK_ENV, "cpu")
    bot = SearchBot(game, 1, think=0.2)
    bot.choose(state, prompt)
    # one reading per playout past the deadline check: about think / 10 ms playouts
    assert 15 <= bot.last_iterations <= 25, bot.last_iterations
    monkeypatch.delenv(search.CLOCK_ENV)
    assert SearchBot(game, 1).clock is wall


@pytest.mark.parametrize("gid", GAMES)
def test_simulate_reports_rates_scores_and_time(gid: str) -> None:
    game = get_game(gid)
    seats = ["strong", "greedy"]

    def factory(level: str, seed: int) -> Bot:
        if level == "strong":
            return SearchBot(game, seed, iterations=3)
        return GreedyBot(game, seed, worlds=1)

    summary: dict[str, Any] = simulate(game, 2, 2, seed=2, seats=seats, factory=factory)
    assert summary["finished"] == 2
    for lv in seats:
        entry = summary["levels"][lv]
        assert 0.0 <= entry["win_share"] <= 1.0
        lo, hi = entry["ci95_per_seat"]
        assert 0.0 <= lo <= entry["win_rate_per_seat"] <= hi <= 1.0
        assert entry["seconds_per_decision"] >= 0.0 and "avg_score" in entry
    if game.cooperative:
        assert 0.0 <= summary["team_win_rate"] <= 1.0
    else:
        # the two levels met: head-to-head rates add up to 1
        a = summary["levels"]["strong"]["finishes_ahead_of"]["greedy"]["rate"]
        b = summary["levels"]["greedy"]["finishes_ahead_of"]["strong"]["rate"]
        assert a + b == pytest.approx(1.0)


def test_simulate_rotates_levels_through_the_seats() -> None:
    """Each deal is played once per rotation: every level sits in every seat equally often."""
    game = get_game("notre-dame")
    seen: list[tuple[list[str], int]] = []

    class Spy(Bot):
        pass

    def factory(level: str, seed: int) -> Bot:
        return Spy(game, seed)

    simulate(
        game,
        3,
        6,
        seats=["greedy", "random", "random"],
        factory=factory,
        progress=lambda k, info: seen.append((info["levels"], k)),
    )
    seats_of_greedy = [levels.index("greedy") for levels, _ in seen]
    assert sorted(seats_of_greedy) == [0, 0, 1, 1, 2, 2]


def test_simulate_command(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    code = main(
        [
            "simulate",
            "notre-dame",
            "--players",
            "2",
            "--games",
            "2",
            "--seats",
            "greedy,random",
            "--think",
            "0.01",
        ]
    )
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    assert out["levels"]["greedy"]["finishes_ahead_of"]["random"]["pairs"] == 2


def test_bots_never_touch_the_real_state() -> None:
    game = get_game("rattus-cartus")
    state = game.new_state(["A", "B", "C"], {}, 9)
    rng = random.Random(1)
    for _ in range(40):
        p = game.prompt(state)
        assert p is not None
        game.play(state, p.moves[rng.randrange(len(p.moves))])
    before = game.digest(state)
    for lv in LEVELS:
        make_bot(lv, game, seed=1, iterations=20).choose(state)
    assert game.digest(state) == before
