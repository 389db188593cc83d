"""A real game in the app with one person and two computer players (Pilot)."""

from __future__ import annotations

from pathlib import Path

import pytest

from boardgames_tui.engine.bots import search
from boardgames_tui.engine.core import Match, Seat
from boardgames_tui.engine.core.registry import get_game
from boardgames_tui.tui.app import BoardgamesApp, Launch
from boardgames_tui.tui.screens.dialogs import ConfirmScreen, HandoverScreen
from boardgames_tui.tui.screens.end import EndScreen
from boardgames_tui.tui.screens.game import GameScreen
from boardgames_tui.tui.widgets.log import GameLog


async def test_notre_dame_with_one_person_and_two_computers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(search, "DEFAULT_THINK", 0.02)  # the strong player's default budget
    game = get_game("notre-dame")
    seats = [Seat("Ann"), Seat("Bob", "greedy"), Seat("Cy", "strong")]
    match = Match.new(game, seats, game.check_options({}), 5)
    app = BoardgamesApp(Launch(saves_dir=str(tmp_path), match=match, bot_delay=0.0))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        screen: GameScreen = app.screen
        ann = 0
        for _ in range(600):
            assert not isinstance(app.screen, HandoverScreen)  # one person: no hand-over
            m = screen.match
            if m.prompt is None or isinstance(app.screen, EndScreen) or ann >= 14:
                break
            if m.prompt.seat == 0 and app.screen is screen:
                before = m.cursor
                await pilot.press("1")
                await pilot.pause()
                if m.cursor > before:
                    ann += 1
            else:
                await pilot.pause(0.02)
        m = screen.match
        assert ann >= 14
        by_seat = [sum(1 for st in m.steps[: m.cursor] if st.seat == s) for s in range(3)]
        assert by_seat[1] >= 5 and by_seat[2] >= 5, by_seat
        legal = game.new_state(["Ann", "Bob", "Cy"], game.check_options({}), 5)
        for step in m.steps[: m.cursor]:  # every computer move was a legal one
            prompt = game.prompt(legal)
            assert prompt is not None and step.move_id in prompt.ids()
            game.play(legal, prompt.move(step.move_id))
        # the log names the computer players' moves
        log_text = "\n".join(str(line) for line in screen.query_one("#log", GameLog).lines)
        assert "Bob" in log_text and "Cy" in log_text
        # undo steps back over the computer moves to Ann's last decision
        while m.prompt is not None and m.prompt.seat != 0:
            await pilot.pause(0.02)
        await pilot.press("u")
        await pilot.pause()
        if isinstance(app.screen, ConfirmScreen):
            await pilot.press("y")
            await pilot.pause()
        assert m.prompt is not None and m.prompt.seat == 0
        assert m.steps[m.cursor].seat == 0
