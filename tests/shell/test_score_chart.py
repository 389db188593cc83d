"""Each seat's score over a finished game (issue 46): a chart on the end screen and in
review, the numbers in the line mode; nothing before the end (a provisional score could tell
what is hidden) and nothing for the co-operative game."""

from __future__ import annotations

from pathlib import Path

from boardgames_tui.engine.core import saves
from boardgames_tui.session.scores import history_lines, score_history
from boardgames_tui.tui.app import BoardgamesApp, Launch
from boardgames_tui.tui.screens.dialogs import MessageScreen
from boardgames_tui.tui.screens.end import EndScreen
from boardgames_tui.tui.screens.review import ReviewScreen
from boardgames_tui.tui.widgets.score_chart import score_chart
from tests.root import ROOT

SAVE = ROOT / "saves" / "notre-dame-4p-example.toml"


def test_the_history_runs_from_the_start_to_the_final_scores() -> None:
    match = saves.load(SAVE)
    at, scores = score_history(match)
    final = {x.seat: x.score for x in match.game.result(match.state).lines}
    assert at[0] == 0 and at[-1] == match.length and len(at) <= 60
    assert [row[-1] for row in scores] == [final[i] for i in range(len(match.seats))]
    assert [row[0] for row in scores] == [0.0] * 4
    chart = score_chart([s.name for s in match.seats], at, scores).plain
    assert f"move {match.length}" in chart and "3 Cy 36" in chart
    lines = history_lines(match)
    assert lines[0].startswith("Score over the game, after moves 0,")
    assert lines[3] == "  Cy: " + ", ".join(f"{v:g}" for v in score_history(match, 12)[1][2])


def test_nothing_before_the_end_nor_for_the_team_game() -> None:
    match = saves.load(SAVE)
    match.goto(40)
    assert score_history(match) == ([], []) and history_lines(match) == []
    coop = saves.load(ROOT / "saves" / "cathedral-example.toml")
    assert coop.over and score_history(coop) == ([], [])


async def test_the_end_screen_and_review_show_the_chart(tmp_path: Path) -> None:
    match = saves.load(SAVE)
    app = BoardgamesApp(Launch(saves_dir=str(tmp_path), match=match, review=True))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, ReviewScreen)
        await pilot.press("o")
        await pilot.pause()
        assert isinstance(app.screen, MessageScreen)
        assert "move 254" in str(app.screen.text)
        app.push_screen(EndScreen(match))
        await pilot.pause()
        chart = app.screen.query_one("#end-chart")
        assert "Score over the game" in str(chart.render())
