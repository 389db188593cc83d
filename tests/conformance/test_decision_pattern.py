"""Every installed title (a plug-in too) keeps its pending decisions the one way (engine/core/decisions.py):
a list of typed `Decision`s in `state.pending`, head first, each kind in the game's table; when
one waits at the head, the prompt is its: a choice kind, the same seat deciding. (A turn that
the phase implies, such as Notre Dame's card play, need not be stored.)"""

from __future__ import annotations

import random

import pytest

from boardgames_tui.engine.core import Decision, DecisionTable, get_game, get_title
from tests.conftest import TITLES


@pytest.mark.parametrize("game_id", TITLES)
def test_pending_decisions_are_typed_and_in_the_table(game_id: str) -> None:
    game = get_game(game_id)
    table = getattr(type(game), "decisions", None)
    assert isinstance(table, DecisionTable), f"{type(game).__name__}.decisions is the table"
    rng = random.Random(5)
    seen: set[str] = set()
    meta = get_title(game_id)
    for players in range(meta.min_players, meta.max_players + 1):
        state = game.new_state([f"P{i}" for i in range(players)], game.check_options({}), players)
        while (prompt := game.prompt(state)) is not None:
            pending = state.pending
            assert isinstance(pending, list)
            assert all(isinstance(d, Decision) for d in pending)
            assert all(d.kind in table for d in pending), [d.kind for d in pending]
            if pending:
                head = pending[0]
                assert table.is_choice(head), f"{head.kind} waits at the head but is automatic"
                assert head.seat in (-1, prompt.seat), (head, prompt.seat)
                seen.add(head.kind)
            game.play(state, prompt.moves[rng.randrange(len(prompt.moves))])
    enough = min(3, len(table.choices))
    assert len(seen) >= enough, f"random play met too few kinds of decision: {sorted(seen)}"
