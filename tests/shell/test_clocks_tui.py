"""The table screen with a turn clock: the time left in the status line, an idle seat's
turn played by the computer when it runs out (the screen's own poll settles it, marked
"(autopilot)" in the log and in review), and `t` taking back a seat the computer plays."""

from __future__ import annotations

from pathlib import Path

from boardgames_tui.engine.tables import SQLiteStore, parse_seats
from boardgames_tui.engine.tables.clock import ClockRules
from boardgames_tui.tui.screens.review import ReviewScreen
from boardgames_tui.tui.widgets.log import GameLog
from tests.shell.test_tables_tui import app_for, at_table, source_of, until


def status_text(app: object) -> str:
    return str(app.screen.query_one("#status").render())  # type: ignore[attr-defined]


async def test_the_clock_counts_down_runs_out_and_the_seat_is_taken_back(tmp_path: Path) -> None:
    path = tmp_path / "tables.sqlite"
    other = SQLiteStore(path)  # bob's terminal: he never moves
    tid = other.create(
        "notre-dame", parse_seats("bob,alice", "alice"), {}, 5, "alice", rules=ClockRules(2.0)
    ).id
    app = app_for(path, tid, "alice")
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: at_table(app))
        screen = app.screen
        shown = status_text(app)
        # bob's 2 s count from the table's creation: on a busy machine they may be over before
        # the screen is up; as long as his turn is not settled, his clock shows
        if other.info(tid).moves == 0:
            assert "bob to move" in shown and "left" in shown
        # bob's 2 s run out: alice's screen settles his turn (store clock), once
        await until(pilot, lambda: other.info(tid).moves > 0, tries=200)
        log = screen.query_one("#log", GameLog)
        await until(pilot, lambda: any("(autopilot)" in line.text for line in log.lines))
        info = other.info(tid)
        assert info.seats[0].strikes == 1 and source_of(screen).info.moves >= 1
        await pilot.press("v")
        assert isinstance(app.screen, ReviewScreen) and 1 in app.screen.match.autopilot
        await pilot.press("escape")
        # alice leaves (in another terminal): her screen offers her seat back
        other.leave(tid, "alice")
        await until(pilot, lambda: source_of(screen).info.seats[1].pilot == "left")
        assert "reclaim" not in source_of(screen).keys_off
        await pilot.press("t")
        assert other.info(tid).seats[1].pilot is None
        await until(pilot, lambda: "reclaim" in source_of(screen).keys_off)
        assert any("alice took back seat 2" in text for _, text in source_of(screen).notes())
    other.close()


async def test_a_new_table_with_a_turn_limit_from_the_menu(tmp_path: Path) -> None:
    from boardgames_tui.tui.screens.tables import NewTableScreen, TablesScreen

    path = tmp_path / "tables.sqlite"
    app = app_for(path, None, "alice")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("t", "n")
        assert isinstance(app.screen, NewTableScreen)
        # bob's seat would be offered, and the clock start when he accepts: the computer's is not
        app.screen.query_one("#table-seats").value = "me,greedy"  # type: ignore[attr-defined]
        limit = app.screen.query_one("#table-limit")
        limit.value = "0s"  # type: ignore[attr-defined]
        await pilot.press("ctrl+s")
        assert "more than 0" in str(app.screen.query_one("#table-error").render())
        limit.value = "90s"  # type: ignore[attr-defined]
        await pilot.press("ctrl+s")
        await until(pilot, lambda: at_table(app))
        assert "⏱ 1:" in status_text(app) or "⏱ 0:" in status_text(app)
        await pilot.press("q")
        assert isinstance(app.screen, TablesScreen)
        [info] = app.screen.infos.values()
        assert info.rules.turn_limit == 90
        assert "⏱" in app.export_screenshot()
