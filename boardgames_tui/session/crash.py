"""Where the app writes what went wrong: a rotated log of the problems it survived (a computer
player, a hint) and one report per crash, both in the platform's state folder, never beside the
saves (a player's saves folder is theirs; a room's host reads the reports)."""

from __future__ import annotations

import logging
import logging.handlers
import os
import platform
import sys
import time
import traceback
from pathlib import Path

from boardgames_tui import __version__

APP_DIR = "boardgames-tui"
LOG_NAME = "boardgames-tui.log"
LOG_BYTES = 512 * 1024  # then the log rotates: at most this × (1 + LOG_KEEP) on disk
LOG_KEEP = 3
LOGGER = logging.getLogger("boardgames_tui")


def state_dir() -> Path:
    """$XDG_STATE_HOME/boardgames-tui when that is set (every platform), else the platform's
    state folder (platformdirs: ~/.local/state on Linux)."""
    xdg = os.environ.get("XDG_STATE_HOME")
    if xdg:
        return Path(xdg) / APP_DIR
    import platformdirs  # on first use: start-up does not need it

    return Path(platformdirs.user_state_dir(APP_DIR, appauthor=False))


def log_path() -> Path | None:
    """The rotated log, set up on first use; None if the state folder cannot be written."""
    for handler in LOGGER.handlers:
        if isinstance(handler, logging.handlers.RotatingFileHandler):
            return Path(handler.baseFilename)
    try:
        folder = state_dir()
        folder.mkdir(parents=True, exist_ok=True)
        handler = logging.handlers.RotatingFileHandler(
            folder / LOG_NAME, maxBytes=LOG_BYTES, backupCount=LOG_KEEP, encoding="utf-8"
        )
    except OSError:
        return None
    handler.setFormatter(logging.Formatter("--- %(asctime)s %(levelname)s %(message)s"))
    LOGGER.addHandler(handler)
    LOGGER.setLevel(logging.INFO)
    LOGGER.propagate = False  # never onto the player's terminal
    return Path(handler.baseFilename)


def write_report(exc: BaseException, context: dict[str, str]) -> Path | None:
    """One file for one crash: what happened, in which version, game and save; its path, or
    None if it cannot be written (the player is then told so)."""
    lines = [
        "boardgames-tui crash report",
        f"when: {time.strftime('%Y-%m-%d %H:%M:%S %z')}",
        f"version: {__version__}",
        f"python: {platform.python_version()} ({sys.platform})",
        *(f"{key}: {value}" for key, value in context.items()),
        "",
        "".join(traceback.format_exception(exc)),
    ]
    try:
        folder = state_dir() / "crashes"
        folder.mkdir(parents=True, exist_ok=True)
        stem = f"crash-{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}"
        for n in range(100):  # another crash of this process in the same second keeps its own
            path = folder / (f"{stem}.txt" if n == 0 else f"{stem}-{n}.txt")
            try:
                with path.open("x", encoding="utf-8") as f:
                    f.write("\n".join(lines))
                break
            except FileExistsError:
                continue
        else:
            return None
    except OSError:
        return None
    if log_path() is not None:
        LOGGER.error("crash: %s (report %s)", type(exc).__name__, path.name)
    return path
