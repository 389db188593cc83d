"""Shared tables: one match, each player at their own terminal, kept in a store.

Usable by the command line, the TUI and a future server alike: nothing here imports the UI.
"""

from .social import MAX_OPEN, Talk, listed, looks_like_code, talk_lines
from .sqlite import SQLiteStore
from .store import (
    ABANDONED,
    DAMAGED,
    FINISHED,
    OPEN,
    PLAYING,
    SEED_CHOSEN,
    SEED_REFUSAL,
    SEED_SECRET,
    SEED_SHOWN,
    SPECTATOR_SETTINGS,
    WAITING,
    Damaged,
    Disconnected,
    NoStore,
    Refused,
    SeatInfo,
    Stale,
    StoreError,
    StoreUnavailable,
    TableInfo,
    TableStore,
    UnknownTable,
    check_claim,
    check_user,
    copy_tables,
    default_user,
    is_server_url,
    offered_seats,
    parse_seats,
    public_view,
    solo,
    store_location,
    store_path,
    taken_back,
    view_for,
)


def open_store(
    path: str | None = None,
    create_file: bool = True,
    shared_cache: bool = False,
    busy: float | None = None,
    share_group: str | None = None,
) -> TableStore:
    """The store at --store / $BOARDGAMES_STORE / the data folder: a `postgresql://` URL
    opens a PostgreSQL schema, anything else a SQLite file (made owner-only, or shared with
    `share_group`)."""
    location = store_location(path)
    wait = {} if busy is None else {"busy": busy}
    if is_server_url(location):
        if share_group is not None:
            raise StoreUnavailable(
                "--share-group is for a SQLite file: on a PostgreSQL store, grant the players' "
                "roles access instead (docs/tables.md)"
            )
        try:
            from .postgres import PostgresStore
        except ImportError:
            raise StoreUnavailable(
                f"{location.split('@')[-1]}: PostgreSQL stores need psycopg "
                "(pip install 'boardgames-tui[postgres]')"
            ) from None
        return PostgresStore(location, create_file=create_file, shared_cache=shared_cache, **wait)
    return SQLiteStore(
        store_path(path),
        create_file=create_file,
        shared_cache=shared_cache,
        share_group=share_group,
        **wait,
    )


__all__ = [
    "ABANDONED",
    "DAMAGED",
    "FINISHED",
    "MAX_OPEN",
    "OPEN",
    "PLAYING",
    "SEED_CHOSEN",
    "SEED_REFUSAL",
    "SEED_SECRET",
    "SEED_SHOWN",
    "SPECTATOR_SETTINGS",
    "WAITING",
    "Damaged",
    "Disconnected",
    "NoStore",
    "Refused",
    "SQLiteStore",
    "SeatInfo",
    "Stale",
    "StoreError",
    "StoreUnavailable",
    "TableInfo",
    "TableStore",
    "Talk",
    "UnknownTable",
    "check_claim",
    "check_user",
    "copy_tables",
    "default_user",
    "is_server_url",
    "listed",
    "looks_like_code",
    "offered_seats",
    "open_store",
    "parse_seats",
    "public_view",
    "solo",
    "store_location",
    "store_path",
    "taken_back",
    "talk_lines",
    "view_for",
]
