"""A short game for the platform tests: the example plug-in with a pile of 4 stones, over in
a dozen moves or fewer (issue 47: a short game broke tests that assumed 25 moves or more).

Registered only by the tests that use it (the fixture `short_title` of tests/conftest.py),
so that the cross-game tests do not all run twice over the toy."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from boardgames_toy.game import ToyGame, ToyState

from boardgames_tui.engine.core.titles import Title

TITLE = Title(id="short", title="Short", min_players=2, max_players=4, typical_players=2)


class ShortGame(ToyGame):
    """The toy, with 4 stones on the pile."""

    meta = TITLE

    def new_state(self, names: Sequence[str], options: Mapping[str, str], seed: int) -> ToyState:
        s = super().new_state(names, options, seed)
        s.pile = 4
        return s


GAME = ShortGame()
