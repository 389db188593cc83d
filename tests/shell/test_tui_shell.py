"""The TUI shell driven by the keyboard through Pilot, on the small toy game."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual import events
from textual.pilot import Pilot
from textual.widgets import Input, Static

from boardgames_tui.engine.bots.search import SearchBot
from boardgames_tui.engine.core import Match, Seat, saves
from boardgames_tui.session.source import LocalSource
from boardgames_tui.tui.app import BoardgamesApp, Launch, TooSmallScreen
from boardgames_tui.tui.screens.dialogs import ConfirmScreen, HandoverScreen, MessageScreen
from boardgames_tui.tui.screens.end import EndScreen
from boardgames_tui.tui.screens.game import GameScreen
from boardgames_tui.tui.screens.menu import MenuScreen
from boardgames_tui.tui.screens.review import ReviewScreen
from boardgames_tui.tui.screens.rules import RulesScreen


def make_app(
    tmp_path: Path, seats: list[Seat] | None = None, handover: bool = True, **kw: object
) -> BoardgamesApp:
    seats = seats or [Seat("Ann"), Seat("Bob")]
    launch = Launch(
        saves_dir=str(tmp_path),
        new={"game": "toy", "seats": seats, "options": {}, "seed": 3},
        handover=handover,
        bot_delay=0.0,
    )
    for k, v in kw.items():
        setattr(launch, k, v)
    return BoardgamesApp(launch)


async def press(app: BoardgamesApp, pilot: Pilot[int], key: str) -> None:
    """A key as typed, then every widget handles what it set off (a screen pushed or popped)
    without waiting for the app to idle: a whole game's keys (no computer players here)."""
    app.post_message(events.Key(key, {"enter": "\r"}.get(key, key)))
    for _ in range(3):
        await pilot.pause(0)


async def test_full_game_by_keyboard_with_handover(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, HandoverScreen)
        seen_handover = 0
        for _ in range(200):
            if isinstance(app.screen, HandoverScreen):
                seen_handover += 1
                await press(app, pilot, "enter")
            elif isinstance(app.screen, EndScreen):
                break
            else:
                await press(app, pilot, "1")
        assert isinstance(app.screen, EndScreen)
        game = next(s for s in app.screen_stack if isinstance(s, GameScreen))
        assert game.match.over
        assert seen_handover >= 2
        # the autosave holds the finished game (written before the end screen came; the
        # app's own flush says nothing is still pending)
        assert app.autosaver.flush()
        latest = saves.latest(tmp_path)
        assert latest is not None
        back = saves.load(latest)
        assert back.over and back.move_ids() == game.match.move_ids()


async def test_handover_hides_the_board(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        text = app.screen.query_one("#handover-text").render()
        assert "Ann" in str(text)
        # the handover screen shows nothing of the board or the hand
        svg = app.export_screenshot()
        assert "Card" not in svg and "hand" not in svg


async def test_undo_redo_escape_and_confirm(tmp_path: Path) -> None:
    app = make_app(tmp_path, handover=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        game = app.screen
        assert isinstance(game, GameScreen)
        await pilot.press("1")  # pick a card (step 0)
        assert game.match.cursor == 1
        await pilot.press("escape")  # steps back out of the two-part move
        assert game.match.cursor == 0
        await pilot.press("r")
        assert game.match.cursor == 1
        await pilot.press("1")  # take: reveals
        assert game.match.cursor == 2
        await pilot.press("u")  # crosses a reveal: asks first
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("n")
        assert game.match.cursor == 2
        await pilot.press("u")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        assert game.match.cursor == 1
        await pilot.press("x")  # a key that means nothing here does nothing
        assert game.match.cursor == 1


async def test_strict_forbids_undo(tmp_path: Path) -> None:
    app = make_app(tmp_path, handover=False, strict=True)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("1", "1", "u")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen) and app.screen.match.cursor == 2


async def test_filter_picks_by_typing(tmp_path: Path) -> None:
    app = make_app(tmp_path, handover=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        game = app.screen
        assert isinstance(game, GameScreen)
        labels = [m.label for m in game.match.prompt.moves]
        target = labels[-1]
        await pilot.press("slash", *target.split()[-1], "enter")
        await pilot.pause()
        assert game.match.cursor == 1
        assert game.match.steps[0].label == target


async def test_bots_play_and_undo_returns_to_human(tmp_path: Path) -> None:
    app = make_app(tmp_path, seats=[Seat("Ann"), Seat("Robo", "greedy"), Seat("Rand", "random")])
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        game = app.screen
        assert isinstance(game, GameScreen)  # one human: no hand-over
        await pilot.press("1", "1")
        for _ in range(50):
            await pilot.pause(0.02)
            p = game.match.prompt
            if p is None or p.seat == 0:
                break
        assert game.match.prompt.seat == 0
        assert game.match.cursor == 6
        await pilot.press("u")
        await pilot.pause()
        if isinstance(app.screen, ConfirmScreen):
            await pilot.press("y")
            await pilot.pause()
        assert game.match.cursor == 1  # back over the computer moves to Ann's last decision


async def test_review_and_continue_from_here(tmp_path: Path) -> None:
    app = make_app(tmp_path, handover=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        game = app.screen
        assert isinstance(game, GameScreen)
        await pilot.press("1", "1", "1", "1", "1", "1")
        assert game.match.cursor == 6
        await pilot.press("v")
        await pilot.pause()
        assert isinstance(app.screen, ReviewScreen)
        await pilot.press("home")
        assert app.screen.index == 0
        await pilot.press("right", "right")
        assert app.screen.index == 2
        await pilot.press("c")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        assert app.screen is game
        assert game.match.cursor == 2 and game.match.can_redo()


async def test_save_as_and_load_from_menu(tmp_path: Path) -> None:
    app = make_app(tmp_path, handover=False)
    target = tmp_path / "mine.toml"
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("1", "1", "s")
        await pilot.pause()
        inp = app.screen.query_one("#save-path", Input)
        inp.value = str(target)
        await pilot.press("enter")
        await pilot.pause()
        assert saves.load(target).cursor == 2
        await pilot.press("q")
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen)
        await pilot.press("c")  # continue the latest save
        await pilot.pause()
        assert isinstance(app.screen, GameScreen), app.screen_stack


async def test_broken_save_shows_a_dialog(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("format = 1\ngame = 'chess'\n")
    app = BoardgamesApp(Launch(saves_dir=str(tmp_path)))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.open_file(bad, review=False)
        await pilot.pause()
        assert isinstance(app.screen, MessageScreen)
        assert "chess" in app.screen.text
        await pilot.press("enter")
        assert isinstance(app.screen, MenuScreen)
    assert bad.read_text() == "format = 1\ngame = 'chess'\n"


async def test_rules_and_help(tmp_path: Path) -> None:
    app = make_app(tmp_path, handover=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("question_mark")
        await pilot.pause()
        await pilot.press("g")
        await pilot.pause()
        assert isinstance(app.screen, RulesScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)


async def test_too_small_and_recover(tmp_path: Path) -> None:
    app = make_app(tmp_path, handover=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.resize_terminal(60, 20)
        await pilot.pause()
        await pilot.pause()
        assert isinstance(app.screen, TooSmallScreen)
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        assert app.screen.compact


async def test_too_small_says_q_quits_and_q_does(tmp_path: Path) -> None:
    app = make_app(tmp_path, handover=False)
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.pause()
        await pilot.pause()
        assert isinstance(app.screen, TooSmallScreen)
        assert "q: quit" in str(app.screen.query_one("#too-small-text", Static).content)
        await pilot.press("q")
        await pilot.pause()
    assert app.return_code == 0
    assert list(tmp_path.rglob("*.toml"))  # the game was autosaved on the way out


async def test_new_game_from_setup_screen(tmp_path: Path) -> None:
    app = BoardgamesApp(Launch(saves_dir=str(tmp_path), bot_delay=0.0))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("n")
        await pilot.pause()
        await pilot.press("ctrl+s")
        await pilot.pause()
        await pilot.pause()
        assert isinstance(app.screen, (GameScreen, HandoverScreen))


def test_match_helper_is_importable() -> None:
    assert callable(Match.new)


async def test_question_mark_opens_help_on_every_screen(tmp_path: Path) -> None:
    from boardgames_tui.tui.screens.dialogs import HelpScreen
    from boardgames_tui.tui.screens.setup import SetupScreen

    app = make_app(tmp_path, handover=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        for keys, screen_type in (
            ((), GameScreen),
            (("v",), ReviewScreen),
            (("escape", "g"), RulesScreen),
        ):
            await pilot.press(*keys)
            await pilot.pause()
            assert isinstance(app.screen, screen_type)
            await pilot.press("question_mark")
            await pilot.pause()
            assert isinstance(app.screen, HelpScreen)
            assert app.screen.rows is None or app.screen.rows  # keys are listed
            await pilot.press("escape")
            await pilot.pause()
            assert isinstance(app.screen, screen_type)
        await pilot.press("escape", "q")
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen)
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, SetupScreen)
        app.screen.query_one("#game").focus()
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)


async def test_menu_names_the_saves_folder_from_home(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The menu shows where saves go, with `~` for the home folder (no machine paths)."""
    monkeypatch.setattr(Path, "home", classmethod(lambda cls: tmp_path))
    app = BoardgamesApp(Launch(saves_dir=str(tmp_path / "games" / "saves"), bot_delay=0.0))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen)
        note = str(app.screen.query_one("#menu-note").render())
        assert "saves in ~/games/saves" in note
        assert str(tmp_path) not in note


async def test_setup_sets_the_computer_thinking_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The setup screen's "Computer thinking" choice reaches the strong players."""
    from textual.widgets import Select

    from boardgames_tui.engine.bots.search import THINK_ENV
    from boardgames_tui.tui.screens.setup import SetupScreen

    monkeypatch.delenv(THINK_ENV, raising=False)

    app = BoardgamesApp(Launch(saves_dir=str(tmp_path), bot_delay=3600.0))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("n")
        await pilot.pause()
        setup = app.screen
        assert isinstance(setup, SetupScreen)
        setup.query_one("#kind-1", Select).value = "strong"
        think = setup.query_one("#think", Select)
        assert think.value == 0.6  # the default, first
        think.value = 5.0
        await pilot.press("ctrl+s")
        await pilot.pause()
        # under a hand-over screen, if there is one
        screen = next(s for s in app.screen_stack if isinstance(s, GameScreen))
        assert screen.think == 5.0
        assert isinstance(screen.source, LocalSource)
        assert isinstance(bot := screen.source.bot_for(1), SearchBot) and bot.think == 5.0
        assert app.think == 5.0  # kept for the next game of this session


async def test_think_from_the_command_line(tmp_path: Path) -> None:
    """`--think` (Launch.think) reaches the strong seats and is the setup screen's choice."""
    from textual.widgets import Select

    from boardgames_tui.tui.screens.setup import SetupScreen

    match = Match.new("toy", [Seat("Ann"), Seat("Bob", "strong")], seed=3)
    app = BoardgamesApp(Launch(saves_dir=str(tmp_path), match=match, bot_delay=0.0, think=1.5))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen = next(s for s in app.screen_stack if isinstance(s, GameScreen))
        assert isinstance(screen.source, LocalSource)
        assert isinstance(bot := screen.source.bot_for(1), SearchBot) and bot.think == 1.5
        await app.push_screen(SetupScreen())
        await pilot.pause()
        assert app.screen.query_one("#think", Select).value == 1.5
