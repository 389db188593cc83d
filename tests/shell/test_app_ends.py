"""An app that has ended leaves nothing behind in its process: no thread of its own, and
nothing that keeps it (the suite runs hundreds of apps in one process; each one kept alive,
with all its widgets, made every later garbage collection slower)."""

from __future__ import annotations

import gc
import threading
import weakref
from pathlib import Path

from engine.core import Seat


async def run_one(saves: Path) -> weakref.ref[object]:
    """An app that plays a move (the autosave writes it) and ends; a weak reference to it."""
    from tui.app import BoardgamesApp, Launch

    new = {"game": "notre-dame", "seats": [Seat("Ann"), Seat("Bob")], "options": {}, "seed": 1}
    # a table store of its own, which does not exist: the user's (or another test's) would
    # have the app ask it whose turn it is, in a thread of the event loop's pool
    store = str(saves / "tables.sqlite")
    launch = Launch(saves_dir=str(saves), new=new, handover=False, bot_delay=0, store=store)
    app = BoardgamesApp(launch)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("1")
        await pilot.pause()
    return weakref.ref(app)


async def test_an_ended_app_leaves_no_thread_and_is_not_kept(tmp_path: Path) -> None:
    before = set(threading.enumerate())
    first = await run_one(tmp_path / "a")
    assert list((tmp_path / "a").glob("notre-dame-*.toml"))  # written before the end
    assert [t.name for t in set(threading.enumerate()) - before if t.is_alive()] == []
    await run_one(tmp_path / "b")  # (the newest app may be kept as the hang-up handler)
    gc.collect()
    assert first() is None
