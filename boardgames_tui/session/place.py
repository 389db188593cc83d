"""A room player's own files in their saves folder: where they are (a shared table, or a game
of their own), so a reconnect resumes there; and the one-time code that lets another key of
theirs in (the app writes it, the room's server reads it). Written only in confined sessions."""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import time
from pathlib import Path

from boardgames_tui.engine.core import saves

CODE_SECONDS = 600  # how long a one-time code for another key is valid
CODE_FILE = ".add-key.json"  # in the player's saves folder

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


def write_code(folder: Path) -> str:
    """Write a fresh one-time code into a player's saves folder; returns it as `123-456`."""
    code = f"{secrets.randbelow(10**6):06d}"
    folder.mkdir(parents=True, exist_ok=True)
    saves.atomic_write(
        folder / CODE_FILE, json.dumps({"code": code, "until": time.time() + CODE_SECONDS})
    )
    return f"{code[:3]}-{code[3:]}"
