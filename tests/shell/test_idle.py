"""An idle app does no work on timers it does not need: the your-turn watch is one thread
for the app's life, and the Tables screen under a table's game screen rests."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

from boardgames_tui.engine.tables import SQLiteStore, parse_seats
from boardgames_tui.tui.screens.tables import TablesScreen
from tests.shell.test_tables_social_tui import first_move
from tests.shell.test_tables_tui import app_for, at_table, until


def turn_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name == "turns"]


async def test_the_turn_watch_is_one_thread_for_the_apps_life(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("boardgames_tui.tui.turns.POLL_SECONDS", 0.05)
    path = tmp_path / "tables.sqlite"
    other = SQLiteStore(path)
    one = other.create("notre-dame", parse_seats("alice,bob", "alice"), {}, 5, "alice").id
    two = other.create("notre-dame", parse_seats("alice,bob", "alice"), {}, 6, "alice").id
    before = set(turn_threads())
    app = app_for(path, None, "bob")
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await until(pilot, lambda: app.your_turns == ())
            mine = [t for t in turn_threads() if t not in before]
            assert len(mine) == 1
            first_move(other, one)
            await until(pilot, lambda: app.your_turns == (one,))
            first_move(other, two)
            await until(pilot, lambda: set(app.your_turns or ()) == {one, two})
            # the same thread found both: no thread (or worker) started per check
            assert [t for t in turn_threads() if t not in before] == mine
            assert not [w for w in app.workers if w.group == "turns"]
        mine[0].join(10)  # it ends with the app (after its wait)
        assert not mine[0].is_alive()
    finally:
        other.close()


async def test_the_tables_screen_rests_under_a_tables_game_screen(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its poll and its settling (a thread and a store connection each time) would only
    repaint the game screen on top: they pause there and come back with the screen."""
    monkeypatch.setattr("boardgames_tui.tui.screens.tables.SETTLE_SECONDS", 0.05)
    settled: list[int] = []
    settle = TablesScreen._settle

    def counted(self: Any) -> Any:
        settled.append(1)
        return settle(self)

    monkeypatch.setattr(TablesScreen, "_settle", counted)
    path = tmp_path / "tables.sqlite"
    other = SQLiteStore(path)
    tid = other.create("notre-dame", parse_seats("alice,bob", "alice"), {}, 5, "alice").id
    app = app_for(path, tid, "bob")  # the Tables screen, the table's game screen on top
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await until(pilot, lambda: at_table(app))
            await pilot.pause(0.1)
            before = len(settled)
            await pilot.pause(0.6)  # a dozen of its settling periods
            assert len(settled) == before
            await pilot.press("q")
            await until(pilot, lambda: isinstance(app.screen, TablesScreen))
            await until(pilot, lambda: len(settled) > before + 2)
    finally:
        other.close()
