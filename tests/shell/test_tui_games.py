"""Every game played start to finish through the keyboard alone, in the real app."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from textual import events

from boardgames_tui.engine.core import Match, Seat, game_ids, saves
from boardgames_tui.tui.app import BoardgamesApp, Launch
from boardgames_tui.tui.screens.dialogs import ConfirmScreen, HandoverScreen
from boardgames_tui.tui.screens.end import EndScreen
from boardgames_tui.tui.screens.game import GameScreen
from boardgames_tui.tui.screens.review import ReviewScreen
from boardgames_tui.tui.widgets.picker import HOTKEYS, MovePicker

GAMES = game_ids()  # every installed title


async def press(app: BoardgamesApp, pilot, key: str, settle: bool = True) -> None:  # type: ignore[no-untyped-def]
    """Send a key; `settle`: then wait till the app idles, else only till every widget has
    handled what the key set off (a game's hundreds of moves: the suite's slowest test)."""
    char = {"enter": "\r", "escape": "\x1b"}.get(key, key if len(key) == 1 else None)
    app.post_message(events.Key(key, char))
    await pilot.pause(None if settle else 0)


@pytest.mark.parametrize("game_id", GAMES)
async def test_full_game_by_keyboard(game_id: str, tmp_path: Path) -> None:
    names = ["Ann", "Bob"]
    match = Match.new(game_id, [Seat(n) for n in names], seed=21)
    # hand-over screens in the Notre Dame game (the others' hand-overs are tested elsewhere;
    # open play keeps this suite short)
    match.settings["handover"] = game_id == "notre-dame"
    app = BoardgamesApp(Launch(saves_dir=str(tmp_path), match=match, bot_delay=0.0))
    rng = random.Random(21)
    handovers = undos = 0
    # 80x24: the compact layout (one board panel at a time) is what most ssh users get
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        for _ in range(5000):
            screen = app.screen
            if isinstance(screen, EndScreen):
                break
            if isinstance(screen, HandoverScreen):
                handovers += 1
                await press(app, pilot, "enter", settle=False)
            elif isinstance(screen, ConfirmScreen):
                await press(app, pilot, "y")
            elif isinstance(screen, GameScreen):
                prompt = match.prompt
                if prompt is None:  # the end screen is on its way
                    await pilot.pause()
                    continue
                if match.cursor > 5 and rng.random() < 0.02:
                    undos += 1
                    await press(app, pilot, "u")  # undo, then redo the same move
                    if isinstance(app.screen, ConfirmScreen):
                        await press(app, pilot, "y")
                    await press(app, pilot, "r")
                    continue
                # the first option mostly, any other now and then
                i = 0 if rng.random() < 0.6 else rng.randrange(min(len(prompt.moves), len(HOTKEYS)))
                # the key the picker shows for that move (kept through a multi-part choice)
                key = screen.query_one(MovePicker).keys[prompt.moves[i].id]
                await press(app, pilot, key, settle=False)
            else:
                pytest.fail(f"unexpected screen {screen!r}")
        await pilot.pause()  # the end screen drawn
        assert isinstance(app.screen, EndScreen), "the game did not end"
        assert match.over
        text = app.export_screenshot().replace("&#160;", " ")
        if not match.game.cooperative:
            for n in names:
                assert n in text  # the score breakdown names every player
        else:
            assert "cathedral" in text.lower()
        await press(app, pilot, "v")
        assert isinstance(app.screen, ReviewScreen)
        await press(app, pilot, "home")
        assert app.screen.index == 0
        await press(app, pilot, "end")
        assert app.screen.index == match.length
    if game_id == "notre-dame":
        assert handovers > 0
    assert undos > 0 or match.length < 100
    latest = saves.latest(tmp_path)  # every move was autosaved
    assert latest is not None
    back = saves.load(latest)
    assert back.over and back.move_ids() == match.move_ids()


def test_plain_launch_is_parsed_no_arguments() -> None:
    """A plain launch skips the parser (start-up time): it must be what parsing no args gives."""
    from boardgames_tui.cli.main import build_parser, plain_launch

    assert plain_launch() == build_parser().parse_args([])
