"""Shared tables: one match, each player at their own terminal, kept in a store.

Usable by the command line, the TUI and a future server alike: nothing here imports the UI.
"""

from .sqlite import SQLiteStore
from .store import (
    FINISHED,
    OPEN,
    PLAYING,
    WAITING,
    Refused,
    SeatInfo,
    Stale,
    StoreError,
    StoreUnavailable,
    TableInfo,
    TableStore,
    UnknownTable,
    check_user,
    default_user,
    parse_seats,
    public_view,
    store_path,
    view_for,
)


def open_store(
    path: str | None = None, create_file: bool = True, shared_cache: bool = False
) -> TableStore:
    """The store at --store / $BOARDGAMES_STORE / the data folder (SQLite for now)."""
    return SQLiteStore(store_path(path), create_file=create_file, shared_cache=shared_cache)


__all__ = [
    "FINISHED",
    "OPEN",
    "PLAYING",
    "WAITING",
    "Refused",
    "SQLiteStore",
    "SeatInfo",
    "Stale",
    "StoreError",
    "StoreUnavailable",
    "TableInfo",
    "TableStore",
    "UnknownTable",
    "check_user",
    "default_user",
    "open_store",
    "parse_seats",
    "public_view",
    "store_path",
    "view_for",
]
