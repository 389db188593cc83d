"""What the player reads when something inside the app fails (a computer player, a hint): one
plain sentence on screen, the technical detail in a log file beside the saves."""

from __future__ import annotations

import os
import time
import traceback
from pathlib import Path

from engine.core import saves

LOG_NAME = "errors.log"


def write_error(
    saves_folder: str | os.PathLike[str] | None, what: str, exc: BaseException
) -> Path | None:
    """Append `exc` with its traceback to the error log; its path, or None if it cannot be written."""
    try:
        folder = saves.saves_dir(saves_folder)
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / LOG_NAME
        with path.open("a", encoding="utf-8") as f:
            f.write(f"--- {time.strftime('%Y-%m-%d %H:%M:%S')} {what}\n")
            f.write("".join(traceback.format_exception(exc)))
        return path
    except OSError:
        return None


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
