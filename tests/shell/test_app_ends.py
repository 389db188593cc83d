"""An app that has ended leaves nothing behind in its process: no thread of its own, and
nothing that keeps it (the suite runs hundreds of apps in one process; each one kept alive,
with all its widgets, made every later garbage collection slower)."""

from __future__ import annotations

import asyncio
import gc
import threading
import weakref
from pathlib import Path

from boardgames_tui.engine.core import Seat


async def run_one(saves: Path, store: Path) -> weakref.ref[object]:
    """An app that plays a move (the autosave writes it) and ends; a weak reference to it."""
    from boardgames_tui.tui.app import BoardgamesApp, Launch

    new = {"game": "notre-dame", "seats": [Seat("Ann"), Seat("Bob")], "options": {}, "seed": 1}
    launch = Launch(saves_dir=str(saves), new=new, handover=False, bot_delay=0, store=str(store))
    app = BoardgamesApp(launch)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("1")
        await pilot.pause()
    return weakref.ref(app)


def test_an_ended_app_leaves_no_thread_and_is_not_kept(tmp_path: Path) -> None:
    """Each app in an event loop of its own, as a process runs it: Textual's thread workers
    (the rules made ready, the turn check of the table store below) run in the loop's pool,
    which ends with the loop; nothing else of the app's may be left."""
    from boardgames_tui.engine.tables import SQLiteStore

    store = tmp_path / "tables.sqlite"
    SQLiteStore(store).close()  # a store to watch: the app asks it whose turn it is
    before = set(threading.enumerate())
    first = asyncio.run(run_one(tmp_path / "a", store))
    assert list((tmp_path / "a").glob("notre-dame-*.toml"))  # written before the end
    assert [t.name for t in set(threading.enumerate()) - before if t.is_alive()] == []
    asyncio.run(run_one(tmp_path / "b", store))  # (the newest app may be the hang-up handler)
    gc.collect()
    assert first() is None


async def test_the_turn_count_arriving_as_the_app_ends_is_dropped(tmp_path: Path) -> None:
    """The turn check's answer may come after the last screen went (the app ending): it is
    dropped, not an error inside the app's shutdown."""
    from boardgames_tui.tui.app import BoardgamesApp, Launch
    from boardgames_tui.tui.turns import YourTurns

    app = BoardgamesApp(Launch(saves_dir=str(tmp_path), store=str(tmp_path / "none.sqlite")))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
    assert not app.screen_stack
    app.on_your_turns(YourTurns(("t1",)))
    assert app.your_turns == ("t1",)
