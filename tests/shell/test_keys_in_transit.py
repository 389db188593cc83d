"""Keys typed while a screen opens or closes are not lost (issue 34).

A key is on its way to the screen on top when that screen closes (Esc, then the move's hotkey,
typed fast): it goes to the screen it uncovers. Pilot's `press` waits for each key to be
handled, so these tests post the keys at once, as a fast typist's terminal delivers them.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from textual import events
from textual.widgets import Markdown

from boardgames_tui.engine.core import Match, Seat
from boardgames_tui.tui.app import BoardgamesApp, Launch
from boardgames_tui.tui.screens.game import GameScreen
from boardgames_tui.tui.screens.rules import RulesScreen


def typed(app: BoardgamesApp, *keys: str) -> None:
    """Keys as a terminal delivers them: all queued before the first is handled."""
    for key in keys:
        char = key if len(key) == 1 else ("\r" if key == "enter" else None)
        app.post_message(events.Key(key, char))


def match(handover: bool = False) -> Match:
    m = Match.new("notre-dame", [Seat("Ann"), Seat("Bob"), Seat("Cy")], seed=1)
    m.settings["handover"] = handover
    return m


@pytest.mark.parametrize("opened", ["g", "l", "question_mark", "v"])
async def test_a_key_after_closing_a_screen_reaches_the_game(opened: str, tmp_path: Path) -> None:
    m = match()
    app = BoardgamesApp(Launch(saves_dir=str(tmp_path), match=m, bot_delay=0.0))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        typed(app, "1")  # a first move, so that review has something to show
        await pilot.pause()
        assert m.cursor == 1
        typed(app, opened, "escape", "1")
        for _ in range(5):
            await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        assert m.cursor == 2, f"the 1 typed after {opened} and Esc was lost"


async def test_a_key_after_the_hand_over_reaches_the_game(tmp_path: Path) -> None:
    m = match(handover=True)
    app = BoardgamesApp(Launch(saves_dir=str(tmp_path), match=m, bot_delay=0.0))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert not isinstance(app.screen, GameScreen)  # the hand-over to Ann
        typed(app, "enter", "1")
        for _ in range(5):
            await pilot.pause()
        assert m.cursor == 1, "the move's hotkey typed just after Enter was lost"


async def test_keys_right_after_the_game_opens(tmp_path: Path) -> None:
    m = match()
    app = BoardgamesApp(Launch(saves_dir=str(tmp_path)))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        app.push_screen(GameScreen(m, handover=False))
        typed(app, "1", "1")
        for _ in range(5):
            await pilot.pause()
        assert m.cursor == 2


async def test_the_rules_are_made_once(tmp_path: Path) -> None:
    """The reference is one prepared text (Textual's Markdown widget, a widget per block,
    took seconds to open), and the same screen comes back at the place it was read."""
    m = match()
    app = BoardgamesApp(Launch(saves_dir=str(tmp_path), match=m, bot_delay=0.0))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("g")
        first = app.screen
        assert isinstance(first, RulesScreen)
        assert not first.query(Markdown)
        await pilot.press("space")
        where = first.query_one("#rules-scroll").scroll_y
        assert where > 0
        await pilot.press("escape", "g")
        assert app.screen is first
        assert first.query_one("#rules-scroll").scroll_y == where
        await pilot.press("escape")
        assert isinstance(app.screen, GameScreen)
