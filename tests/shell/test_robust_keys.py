"""Key fuzzing: thousands of random keys on every screen; nothing escapes, the game stays legal.

Keys are posted like fast typing (batches, then the app settles), with computer players
filling the other seats. Between batches the player asks for a hint, undoes or redoes, quits
to the menu and continues: the game comes back where it was. Afterwards the match must replay
from its move list to the same state (the UI never changes a game except through the engine),
and every save the app wrote opens (`check`) at the position it was written at.
BOARDGAMES_FUZZ_KEYS raises the number of keys per run (CI uses the default).
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest
from textual import events

from boardgames_tui.cli.main import main as cli_main
from boardgames_tui.engine.core import Match, Seat, game_ids, saves
from boardgames_tui.tui.app import BoardgamesApp, Launch
from boardgames_tui.tui.screens.game import GameScreen
from boardgames_tui.tui.widgets.hint import HintPanel

KEYS_PER_RUN = int(os.environ.get("BOARDGAMES_FUZZ_KEYS", "260"))
SEEDS = (1, 2)
GAMES = game_ids()  # every installed title

KEYS = (
    [str(d) for d in range(10)]
    + list("abcdefghijklmnopqrstuvwxyz")
    + ["up", "down", "left", "right", "enter", "escape", "tab", "shift+tab", "backspace"]
    + ["home", "end", "pageup", "pagedown", "space", "slash", "question_mark"]
    + ["f1", "f2", "f5", "f10", "ctrl+s", "right_square_bracket", "left_square_bracket", "A", "Z"]
)
CHARS = {
    "space": " ",
    "slash": "/",
    "question_mark": "?",
    "right_square_bracket": "]",
    "left_square_bracket": "[",
}
# mostly move-ish keys so games progress; q and v/g/? less often so we do not just sit in menus
WEIGHTS = [6 if k.isdigit() else 1 for k in KEYS]


def key_event(key: str) -> events.Key:
    char = CHARS.get(key, key if len(key) == 1 else None)
    return events.Key(key, char)


async def fuzz(app: BoardgamesApp, pilot, rng: random.Random, count: int) -> int:  # type: ignore[no-untyped-def]
    sent = 0
    while sent < count:
        batch = rng.choices(KEYS, WEIGHTS, k=20)
        for k in batch:
            if k == "q" and rng.random() < 0.8:
                k = "1"
            app.post_message(key_event(k))
        sent += len(batch)
        await pilot.pause()
    return sent


def assert_replays(match: Match) -> None:
    fresh = Match.new(match.game, match.seats, match.options, match.seed)
    for mid in [s.move_id for s in match.steps]:
        fresh.play(mid)
    fresh.goto(match.cursor)
    assert match.game.digest(fresh.state) == match.game.digest(match.state)
    for i in range(0, match.length + 1, max(1, match.length // 10)):
        assert match.game.digest(fresh.state_at(i)) == match.game.digest(match.state_at(i))


def _game_screen(app: BoardgamesApp) -> GameScreen | None:
    found = [s for s in app.screen_stack if isinstance(s, GameScreen)]
    return found[-1] if found else None


def _position(match: Match) -> tuple[int, int, str]:
    return (match.cursor, match.length, match.game.digest(match.state))


async def leave_and_continue(app: BoardgamesApp, pilot, rng: random.Random) -> None:  # type: ignore[no-untyped-def]
    """Maybe a hint, an undo or a redo; then `q` to the menu and `c`: the same position."""
    if not isinstance(app.screen, GameScreen):
        return
    screen: GameScreen = app.screen
    for key in rng.sample(["h", "u", "r", "h"], rng.randint(1, 3)):
        await pilot.press(key)
        if key == "h":  # the hint's search runs in a thread: let it report (or not)
            panel = screen.query_one(HintPanel)
            for _ in range(40):
                await pilot.pause(0.02)
                if panel.border_subtitle != "thinking…":
                    break
        if app.screen is not screen:  # a confirmation (undo over a reveal): answer it
            await pilot.press(rng.choice(["y", "n", "escape"]))
            await pilot.pause()
        if app.screen is not screen:
            return
    before = _position(screen.match)
    await pilot.press("q")
    await pilot.pause()
    if _game_screen(app) is screen:  # q did not leave (a key of the move list took it)
        return
    if before[0] == before[1] and screen.match.over:
        return  # a finished game is not continued
    await pilot.press("c")
    await pilot.pause()
    again = _game_screen(app)
    assert again is not None and again is not screen, f"continue failed: {app.screen}"
    assert _position(again.match) == before


def assert_every_save_opens(folder: Path, app: BoardgamesApp) -> None:
    """Every file the app wrote passes `check`, unmended; the game's autosave holds its position."""
    assert app.autosaver.flush()
    files = sorted(folder.rglob("*.toml"))
    assert files
    for f in files:
        assert cli_main(["check", str(f)]) == 0, f
        assert saves.load(f).repairs == [], f
    screen = _game_screen(app)
    if screen is not None:
        path = saves.autosave_path(screen.match, folder)
        assert _position(saves.load(path)) == _position(screen.match)


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("seed", SEEDS)
async def test_fuzz_game_screen(
    game_id: str, seed: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from boardgames_tui.engine.core import get_game

    monkeypatch.chdir(tmp_path)
    game = get_game(game_id)
    n = min(3, game.max_players)
    seats = [Seat("Ann")] + [
        Seat(f"Bot{i}", random.Random(seed + i).choice(["random", "greedy"])) for i in range(1, n)
    ]
    match = Match.new(game_id, seats, seed=seed)
    app = BoardgamesApp(Launch(saves_dir=str(tmp_path), match=match, bot_delay=0.0, think=0.01))
    size = (120, 40) if seed == 1 else (80, 24)  # the wide and the compact layout
    rng = random.Random(seed)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        sent = 0
        while sent < KEYS_PER_RUN:
            sent += await fuzz(app, pilot, rng, 90)
            await leave_and_continue(app, pilot, rng)
        await pilot.pause()
        assert_every_save_opens(tmp_path, app)
        screen = _game_screen(app)
        if screen is not None:
            match = screen.match
    assert_replays(match)


async def test_fuzz_menu_setup_and_dialogs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    app = BoardgamesApp(Launch(saves_dir=str(tmp_path), bot_delay=0.0))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        rng = random.Random(7)
        for _ in range(4):
            await fuzz(app, pilot, rng, KEYS_PER_RUN // 4)
            # back to the menu and into the setup screen again
            for _ in range(6):
                if type(app.screen).__name__ == "MenuScreen":
                    break
                app.post_message(key_event("escape"))
                await pilot.pause()
            app.post_message(key_event("n"))
            await pilot.pause()
    assert app.return_code in (None, 0)


@pytest.mark.parametrize(
    "keys",
    [("s", "enter", "escape"), ("question_mark", "escape", "escape")],
    ids=["save-as", "help"],
)
async def test_dialog_answers_once(
    keys: tuple[str, ...], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A second key queued behind a dialog's answer (found by the fuzz test: Enter then Esc in
    the save-as dialog) neither crashes nor pops the screen under the dialog."""
    monkeypatch.chdir(tmp_path)
    match = Match.new("notre-dame", [Seat("Ann"), Seat("Bob")], seed=3)
    match.settings["handover"] = False
    app = BoardgamesApp(Launch(saves_dir=str(tmp_path), match=match, bot_delay=0.0))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        game_screen = app.screen
        app.post_message(key_event(keys[0]))
        await pilot.pause()
        assert app.screen is not game_screen  # the dialog is up
        for k in keys[1:]:
            app.post_message(key_event(k))  # both answers queued before either is handled
        await pilot.pause()
        await pilot.pause()
        assert game_screen in app.screen_stack
    assert app.return_code in (None, 0)
