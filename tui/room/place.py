"""Where a room's player is (a shared table, or a game of their own), so a reconnect resumes
there. Kept in the player's saves folder; written only in confined (room) sessions."""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path

from engine.core import saves

PLACE_FILE = ".place.json"


def _path(folder: str | os.PathLike[str] | None) -> Path:
    return saves.saves_dir(folder) / PLACE_FILE


def note(folder: str | os.PathLike[str] | None, place: dict[str, str] | None) -> None:
    """Remember `place` ({"table": ID} or {"save": NAME}); None: the player is in the menu."""
    path = _path(folder)
    with contextlib.suppress(OSError):
        if place is None:
            path.unlink(missing_ok=True)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            saves.atomic_write(path, json.dumps(place))


def read(folder: str | os.PathLike[str] | None) -> dict[str, str] | None:
    try:
        data = json.loads(_path(folder).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict):
        return None
    return {k: v for k, v in data.items() if k in ("table", "save") and isinstance(v, str)} or None
