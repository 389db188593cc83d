"""The Tables screen's keys act on a table from the moment it opens."""

from __future__ import annotations

from pathlib import Path

from boardgames_tui.engine.tables import SQLiteStore, offered_seats
from boardgames_tui.tui.screens.dialogs import ConfirmScreen
from boardgames_tui.tui.screens.tables import TablesScreen
from boardgames_tui.tui.widgets.picker import SafeOptionList as OptionList
from tests.shell.test_tables_tui import app_for


async def test_x_with_no_table_highlighted_says_what_to_select(tmp_path: Path) -> None:
    """`x` (cancel a table) did nothing, silently, when no row was highlighted (seen on its
    first press in the room): a key that needs a table says to select one. With one
    highlighted (the first, on opening), it asks as before."""
    path = tmp_path / "tables.sqlite"
    store = SQLiteStore(path)
    tid = store.create("notre-dame", offered_seats("alice,bob", "alice"), {}, 3, "alice").id
    store.close()
    app = app_for(path, None, "alice")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("t")
        assert isinstance(app.screen, TablesScreen)
        rows = app.screen.query_one(OptionList)
        assert rows.get_option_at_index(rows.highlighted or 0).id == tid  # the first table
        rows.highlighted = None
        await pilot.press("x")
        assert isinstance(app.screen, TablesScreen)
        said = [n.message for n in app._notifications]
        assert any("Select a table" in m for m in said), said
        rows.highlighted = [rows.get_option_at_index(k).id for k in range(rows.option_count)].index(
            tid
        )
        await pilot.press("x")
        assert isinstance(app.screen, ConfirmScreen)
