"""What the player reads when something inside the app fails (a computer player, a hint): one
plain sentence on screen, the technical detail in the app's rotated log (boardgames_tui/session/crash.py)."""

from __future__ import annotations

from pathlib import Path

from boardgames_tui.session.crash import LOGGER, log_path


def write_error(what: str, exc: BaseException) -> Path | None:
    """Log `exc` with its traceback; the log's path, or None if it cannot be written."""
    path = log_path()
    if path is not None:
        LOGGER.error("%s", what, exc_info=exc)
    return path


def bot_error_message(name: str, log: Path | None) -> str:
    """The one sentence a player reads when computer player `name` failed to choose."""
    where = f" (the details are in {log})" if log else ""
    return (
        f"Computer player {name} ran into a problem and made a random legal move instead; "
        f"the game is safe and saved, so just keep playing{where}."
    )


def hint_error_message(log: Path | None) -> str:
    """The one sentence a player reads when a hint could not be worked out."""
    where = f" (the details are in {log})" if log else ""
    return f"The hint could not be worked out; the game is safe, so just keep playing{where}."
