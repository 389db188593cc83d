"""Around a table in the app: "your turn at N tables" on every screen (with a bell), the
turn notices sent after the app's own moves, table talk on the table screen, a rematch from
the end screen, and who may watch."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from boardgames_tui.engine.tables import SQLiteStore, parse_seats
from boardgames_tui.tui.screens.dialogs import MessageScreen, TalkScreen
from boardgames_tui.tui.screens.end import EndScreen
from boardgames_tui.tui.screens.menu import MenuScreen
from boardgames_tui.tui.screens.tables import TablesScreen
from boardgames_tui.tui.widgets.log import GameLog
from boardgames_tui.tui.widgets.picker import MovePicker
from tests.shell.test_tables_tui import app_for, at_table, my_turn, source_of, until
from tests.tables.test_notify import Hook


def screen_text(app: Any) -> str:
    return str(app.export_screenshot().replace("&#160;", " "))


def toasts(app: Any) -> list[str]:
    return [str(n.message) for n in app._notifications]


def log_text(app: Any) -> str:
    """The table screen's log pane as plain lines (spaces squeezed)."""
    lines = app.screen.query_one(GameLog).lines
    return "\n".join(" ".join(strip.text.split()) for strip in lines)


def first_move(store: SQLiteStore, tid: str) -> None:
    info, match = store.load(tid)
    store.append(tid, info.to_move, match.prompt.moves[0].id, info.moves)


async def test_your_turn_at_n_tables_with_a_bell_and_notices_after_the_apps_moves(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(
        "boardgames_tui.tui.turns.POLL_SECONDS", 0.2
    )  # the app asks the store this often
    path = tmp_path / "tables.sqlite"
    other = SQLiteStore(path)  # alice's terminal
    one = other.create("notre-dame", parse_seats("alice,bob", "alice"), {}, 5, "alice").id
    two = other.create("notre-dame", parse_seats("alice,bob", "alice"), {}, 6, "alice").id
    hook = Hook()
    other.add_target("alice", hook.url("alice"))
    app = app_for(path, None, "bob")
    bells: list[int] = []
    app.bell = lambda: bells.append(1)  # type: ignore[method-assign]
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await until(pilot, lambda: app.your_turns == ())
            assert isinstance(app.screen, MenuScreen) and not toasts(app)
            first_move(other, one)  # alice moves: bob's turn at one table
            await until(pilot, lambda: app.your_turns == (one,))
            assert "your turn at 1 table" in toasts(app) and bells == [1]
            assert "▶ your turn at 1 table" in screen_text(app)  # the menu says so too
            time.sleep(1.1)  # `updated` has whole seconds: table one waits longer
            first_move(other, two)
            await until(pilot, lambda: app.your_turns == (one, two))
            assert "your turn at 2 tables" in toasts(app) and bells == [1, 1]
            await pilot.press("t")  # the Tables screen: your turn first, the longest waiting
            assert isinstance(app.screen, TablesScreen)
            assert list(app.screen.infos)[:2] == [one, two]
            assert "your turn at 2 tables" in screen_text(app)
            # bob plays at table one in the app: alice is told at once, by the app's worker
            await pilot.press("enter")
            await until(pilot, lambda: at_table(app) and my_turn(app.screen))
            assert source_of(app.screen).info.id == one
            await pilot.press("1")
            await until(pilot, lambda: len(hook.posts) == 1)  # her turn again, at table one
            assert hook.posts[0][0] == "/alice" and one in hook.posts[0][1]
            await until(pilot, lambda: app.your_turns == (two,))
            app.launch.bell = False  # the existing bell setting turns this bell off too
            first_move(other, one)
            await until(pilot, lambda: app.your_turns is not None and len(app.your_turns) == 2)
            assert bells == [1, 1]
    finally:
        hook.close()
        other.close()


async def test_talk_on_the_table_screen(tmp_path: Path) -> None:
    path = tmp_path / "tables.sqlite"
    other = SQLiteStore(path)
    tid = other.create("notre-dame", parse_seats("alice,bob", "alice"), {}, 5, "alice").id
    other.say(tid, "bob", "[bold red]hi[/] \x1b[31mthere")  # hostile text: shown as it is
    other.say(tid, "zoe", "psst: bob holds the bank")  # a spectator: not for the players
    app = app_for(path, tid, "alice")
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: at_table(app))
        text = log_text(app)
        assert "» bob: [bold red]hi[/] [31mthere" in text  # marked apart, as data
        assert "psst" not in text and "\x1b" not in text
        picker = app.screen.query_one(MovePicker)
        assert picker.reserved == {"c"} and "c" not in picker.keys.values()  # c is for talk
        await pilot.press("c")
        assert isinstance(app.screen, TalkScreen)
        await pilot.press(*"good luck", "enter")
        await until(pilot, lambda: "» alice: good luck" in log_text(app))
        assert [t.text for t in other.talk(tid, "bob")][-1] == "good luck"
        assert other.move_ids(tid) == []  # talk is not a move
        # alice said something in another terminal just now (stamped ahead: no race with
        # the clock): a second message within the second is refused here, in one line
        other.say(tid, "alice", "from my phone", now=time.time() + 3600)
        await pilot.press("c", *"again", "enter")
        await until(pilot, lambda: any("one message a second" in t for t in toasts(app)))
    other.close()


async def test_rematch_from_the_end_screen(tmp_path: Path) -> None:
    path = tmp_path / "tables.sqlite"
    other = SQLiteStore(path)
    tid = other.create("cathedral", parse_seats("alice,bob", "alice"), {}, 5, "alice").id
    while True:
        info, match = other.load(tid)
        if match.prompt is None:
            break
        other.append(tid, info.to_move, match.prompt.moves[0].id, info.moves)
    app = app_for(path, tid, "alice")
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, EndScreen))
        assert isinstance(app.screen, EndScreen) and app.screen.rematch  # m: offered at the end
        await pilot.press("m")
        await until(pilot, lambda: at_table(app) and source_of(app.screen).info.id != tid)
        new = source_of(app.screen).info
        assert other.rematch_of(tid) == new.id and new.seats[1].user == "alice"
        assert new.seats[0].offered == "bob" and new.status == "waiting"
    other.close()


async def test_a_table_without_spectators_cannot_be_watched(tmp_path: Path) -> None:
    path = tmp_path / "tables.sqlite"
    other = SQLiteStore(path)
    settings = {"spectators": "none"}
    tid = other.create("notre-dame", parse_seats("alice,bob", "alice"), {}, 5, "alice", settings).id
    app = app_for(path, tid, "dave")
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, MessageScreen))
        assert "has no spectators" in screen_text(app)
        await pilot.press("enter")
        assert isinstance(app.screen, TablesScreen) and tid not in app.screen.infos
    other.close()


async def test_no_shared_tables_toast_for_the_table_in_front(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At the table bob sits at, his turns coming and going say nothing in a toast (the
    table screen says its own turn); a turn at another table still does."""
    monkeypatch.setattr("boardgames_tui.tui.turns.POLL_SECONDS", 0.2)
    path = tmp_path / "tables.sqlite"
    other = SQLiteStore(path)
    one = other.create("notre-dame", parse_seats("alice,bob", "alice"), {}, 5, "alice").id
    two = other.create("notre-dame", parse_seats("alice,bob", "alice"), {}, 6, "alice").id
    app = app_for(path, one, "bob")
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: at_table(app) and app.your_turns == ())
            first_move(other, one)  # bob's turn here
            await until(pilot, lambda: app.your_turns == (one,) and my_turn(app.screen))
            await pilot.press("1")  # and played
            await until(pilot, lambda: app.your_turns == ())
            assert not any("your turn at" in t or "no table waits" in t for t in toasts(app))
            first_move(other, two)  # another table
            await until(pilot, lambda: app.your_turns == (two,))
            assert any("your turn at 1 table" in t for t in toasts(app))
    finally:
        other.close()
