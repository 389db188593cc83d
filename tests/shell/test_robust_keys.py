"""Key fuzzing: thousands of random keys on every screen; nothing escapes, the game stays legal.

Keys are posted like fast typing (batches, then the app settles), with computer players
filling the other seats. Afterwards the match must replay from its move list to the same
state: the UI never changes a game except through the engine. BOARDGAMES_FUZZ_KEYS raises the
number of keys per run (CI uses the default).
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest
from textual import events

from engine.core import Match, Seat, game_ids
from tui.app import BoardgamesApp, Launch

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


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("seed", SEEDS)
async def test_fuzz_game_screen(
    game_id: str, seed: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from engine.core import get_game

    monkeypatch.chdir(tmp_path)
    game = get_game(game_id)
    n = min(3, game.max_players)
    seats = [Seat("Ann")] + [
        Seat(f"Bot{i}", random.Random(seed + i).choice(["random", "greedy"])) for i in range(1, n)
    ]
    match = Match.new(game_id, seats, seed=seed)
    app = BoardgamesApp(Launch(saves_dir=str(tmp_path), match=match, bot_delay=0.0))
    size = (120, 40) if seed == 1 else (80, 24)  # the wide and the compact layout
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        sent = await fuzz(app, pilot, random.Random(seed), KEYS_PER_RUN)
        assert sent >= KEYS_PER_RUN
        await pilot.pause()
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
