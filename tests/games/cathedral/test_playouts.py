"""The Cathedral of Orléans: seeded random playouts and the rule player (determinism, saves and
illegal moves: tests/conformance/test_conformance.py, for every title)."""

from __future__ import annotations

import random

import pytest

from boardgames_tui.engine.cathedral import GAME
from boardgames_tui.engine.cathedral import data as D
from boardgames_tui.engine.cathedral.policy import choose
from boardgames_tui.engine.cathedral.state import CathedralState
from boardgames_tui.engine.core.playout import random_playout

GAMES_PER_COUNT = 200


def _check(state: CathedralState) -> None:
    errors = GAME.invariants(state)
    assert errors == [], errors
    # every prompt is non-empty and has distinct ids
    p = GAME.prompt(state)
    if p is not None:
        assert p.moves
        assert len(set(p.ids())) == len(p.ids())


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_random_playouts_keep_invariants(players: int) -> None:
    """Issue: >= 200 seeded random games per player count, invariants after every move."""
    for seed in range(GAMES_PER_COUNT):
        variant = "harder" if seed % 3 == 0 else "normal"
        r = random_playout(GAME, players, seed, {"variant": variant}, check=_check)
        s = r.state
        assert s.over
        assert s.round <= D.ROUNDS
        assert s.won == (s.sections == D.SECTIONS)
        if not s.won:
            assert s.round == D.ROUNDS


@pytest.mark.parametrize("players", [2, 4])
def test_rule_player_playouts_keep_invariants(players: int) -> None:
    """The rule player's games (long, full rounds) keep every invariant too."""
    for seed in range(25):
        r = random_playout(GAME, players, 1000 + seed, choose=choose, check=_check)
        assert r.state.over


def test_rule_player_wins_sometimes_and_random_rarely() -> None:
    """Spec: Balance — the rule player wins sometimes; random moves (almost) never."""
    wins = sum(bool(random_playout(GAME, 2, 500 + i, choose=choose).winners) for i in range(40))
    assert wins >= 4
    rand = sum(bool(random_playout(GAME, 2, 500 + i).winners) for i in range(100))
    assert rand <= 5


def test_policy_uses_public_information_only() -> None:
    """The rule player decides the same in every world consistent with what it sees."""
    rng = random.Random(9)
    for seed in range(8):
        s = GAME.new_state(["A", "B", "C"], GAME.check_options({}), seed)
        for _ in range(rng.randrange(5, 80)):
            p = GAME.prompt(s)
            if p is None:
                break
            GAME.play(s, p.move(choose(s, p, random.Random(1))))
        p = GAME.prompt(s)
        if p is None:
            continue
        mine = choose(s, p, random.Random(4))
        for k in range(3):
            world = GAME.determinize(s, p.seat, random.Random(k))
            assert choose(world, GAME.prompt(world), random.Random(4)) == mine


def test_determinize_keeps_what_is_seen() -> None:
    """Core: determinize resamples only the face-down stacks; the view is unchanged."""
    s = GAME.new_state(["A", "B"], GAME.check_options({}), 12)
    for _ in range(30):
        p = GAME.prompt(s)
        GAME.play(s, p.move(choose(s, p, random.Random(0))))
    w = GAME.determinize(s, 0, random.Random(1))
    assert GAME.view(w, 0) == GAME.view(s, 0)
    assert sorted(w.events) == sorted(s.events)
    assert sorted(w.blueprints) == sorted(s.blueprints)
    assert w.seed != s.seed
    assert GAME.invariants(w) == []


def test_evaluate_rises_with_sections() -> None:
    """The heuristic counts built sections above everything else."""
    s = GAME.new_state(["A", "B"], GAME.check_options({}), 1)
    v0 = GAME.evaluate(s, 0)
    s.sections = 2
    assert GAME.evaluate(s, 0) >= v0 + 19
