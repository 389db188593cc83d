"""A short game for the platform tests: the example plug-in with a pile of 4 stones, over in
a dozen moves or fewer (issue 47: a short game broke tests that assumed 25 moves or more).

Registered only by the tests that use it (`short_title`), so that the cross-game tests do not
all run twice over the toy."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence

import pytest
from boardgames_toy.game import ToyGame, ToyState

from engine.core import registry
from engine.core.titles import Title

TITLE = Title(id="short", title="Short", min_players=2, max_players=4, typical_players=2)


class ShortGame(ToyGame):
    """The toy, with 4 stones on the pile."""

    meta = TITLE

    def new_state(self, names: Sequence[str], options: Mapping[str, str], seed: int) -> ToyState:
        s = super().new_state(names, options, seed)
        s.pile = 4
        return s


GAME = ShortGame()


@pytest.fixture
def short_title() -> Iterator[str]:
    """The short game installed as a title for one test, with the toy's board."""
    if TITLE.id in registry.game_ids():  # installed for the whole run (tests/conftest.py)
        yield TITLE.id
        return
    registry.register(TITLE.id, "tests.conformance.short_game:GAME")
    registry.register(TITLE.id, "boardgames_toy.board:UI", group="boardgames_tui.boards")
    try:
        yield TITLE.id
    finally:
        registry.unregister(TITLE.id, group="boardgames_tui.boards")
        registry.unregister(TITLE.id)
