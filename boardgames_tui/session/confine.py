"""Confined file access (`--confine`): a save is a name inside the player's own saves folder.

No separators, no `..`, no absolute path, no hidden file: what a room's player types can
never reach another player's files or the room's own.
"""

from __future__ import annotations

import os
from pathlib import Path

from boardgames_tui.engine.core import saves


class ConfineError(ValueError):
    """A save name that would leave the saves folder (one line saying the rule)."""


RULE = "give a save's name (letters, digits, - _ .), not a path"


def confined_path(name: str, folder: str | os.PathLike[str] | None) -> Path:
    """`name` (a bare file name, `.toml` added if missing) inside the saves folder."""
    text = name.strip()
    if text.endswith(".toml"):
        text = text[: -len(".toml")]
    bad = (
        not text
        or text.startswith(".")
        or "/" in text
        or "\\" in text
        or "\x00" in text
        or ".." in text
        or len(text) > 80
        or any(not (c.isalnum() or c in "-_. ") for c in text)
    )
    if bad:
        raise ConfineError(f"{name.strip()[:40]!r}: {RULE}")
    root = saves.saves_dir(folder).resolve()
    target = (root / f"{text}.toml").resolve()
    if target.parent != root:  # a symbolic link out of the folder
        raise ConfineError(f"{name.strip()[:40]!r}: {RULE}")
    return target


def inside(path: str | os.PathLike[str], folder: str | os.PathLike[str] | None) -> bool:
    """Whether `path` is a file directly inside the saves folder."""
    root = saves.saves_dir(folder).resolve()
    return Path(path).resolve().parent == root
