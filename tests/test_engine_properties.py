"""Engine properties with hypothesis: random legal play from random seeds keeps every
invariant for every game and player count; an illegal move is always rejected cleanly."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.core import IllegalMove, game_ids, get_game

GAMES = game_ids()  # every installed title


@pytest.mark.parametrize("game_id", GAMES)
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31 - 1), pick=st.integers(0, 10**6), data=st.data())
def test_random_play_keeps_invariants(
    game_id: str, seed: int, pick: int, data: st.DataObject
) -> None:
    game = get_game(game_id)
    players = data.draw(st.integers(game.min_players, game.max_players), label="players")
    options = {
        o.key: data.draw(st.sampled_from([v for v, _ in o.choices]), label=o.key)
        for o in game.options
    }
    state = game.new_state([f"P{i}" for i in range(players)], game.check_options(options), seed)
    assert game.invariants(state) == []
    rng = random.Random(pick)
    moves = 0
    while (p := game.prompt(state)) is not None:
        assert p.moves, "a prompt always offers at least one move"
        assert len({m.id for m in p.moves}) == len(p.moves), "move ids are unique"
        assert 0 <= p.seat < players
        game.play(state, p.moves[rng.randrange(len(p.moves))])
        moves += 1
        broken = game.invariants(state)
        assert broken == [], f"after move {moves}: {broken}"
        assert moves < 50_000
    res = game.result(state)
    assert all(0 <= w < players for w in res.winners)


@pytest.mark.parametrize("game_id", GAMES)
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), steps=st.integers(0, 120), junk=st.text(max_size=20))
def test_illegal_moves_are_rejected_without_change(
    game_id: str, seed: int, steps: int, junk: str
) -> None:
    game = get_game(game_id)
    state = game.new_state(
        ["A", "B", "C"][: max(2, game.min_players)], game.check_options({}), seed
    )
    rng = random.Random(seed)
    for _ in range(steps):
        p = game.prompt(state)
        if p is None:
            break
        game.play(state, p.moves[rng.randrange(len(p.moves))])
    before = game.digest(state)
    p = game.prompt(state)
    legal = {m.id for m in p.moves} if p else set()
    for bad in (junk, junk + ":x", "play:" + junk, "pass:" + junk):
        if bad in legal:
            continue
        with pytest.raises(IllegalMove) as exc:
            game.apply(state, bad)
        assert str(exc.value)
        assert game.digest(state) == before


def _mutable_ids(obj: object, seen: set[int] | None = None) -> set[int]:
    """The ids of every list, dict and object reachable from `obj`."""
    seen = set() if seen is None else seen
    if isinstance(obj, (list, dict, set)) or hasattr(obj, "__dict__"):
        if id(obj) in seen:
            return seen
        seen.add(id(obj))
        items = (
            obj.values()
            if isinstance(obj, dict)
            else obj
            if isinstance(obj, (list, set))
            else vars(obj).values()
        )
        for x in items:
            _mutable_ids(x, seen)
    elif isinstance(obj, tuple):
        for x in obj:
            _mutable_ids(x, seen)
    return seen


@pytest.mark.parametrize("game_id", GAMES)
@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), steps=st.integers(0, 300))
def test_clone_is_equal_and_shares_nothing(game_id: str, seed: int, steps: int) -> None:
    """`Game.clone` (a game may replace the pickle round trip with a faster copy) gives an
    equal state that shares no mutable part with the original, and plays on the same."""
    game = get_game(game_id)
    state = game.new_state(["A", "B", "C"], game.check_options({}), seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if (p := game.prompt(state)) is None:
            break
        game.play(state, p.moves[rng.randrange(len(p.moves))])
    copy = game.clone(state)
    assert copy == state
    assert not (_mutable_ids(copy) & _mutable_ids(state))
    for _ in range(40):  # both go on alike
        if (p := game.prompt(state)) is None:
            break
        m = p.moves[rng.randrange(len(p.moves))]
        game.play(state, m)
        game.play(copy, m)
    assert copy == state
