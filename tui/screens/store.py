"""The app's shared-tables store, opened once and kept on the app (every tables screen uses
the same one)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from boardgames_tui.engine.tables import TableStore, open_store

if TYPE_CHECKING:
    from boardgames_tui.tui.app import BoardgamesApp


def table_store(app: BoardgamesApp) -> TableStore:
    """The app's store, opened on first use (StoreError if it cannot be)."""
    store = getattr(app, "_table_store", None)
    if store is None:
        store = open_store(app.launch.store)
        app._table_store = store  # type: ignore[attr-defined]
    return store
