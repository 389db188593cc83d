"""Per-game rendering modules (named by each Title's `ui`); a game without one is drawn by the
generic fallback."""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

from engine.core import UnknownGame, get_title

from .base import GameUI, Panel


class GenericUI:
    """Shows the view as a tree: every game is playable before it has a board of its own."""

    game_id = "*"

    def status(self, view: Mapping[str, Any]) -> str:
        parts = [str(view[k]) for k in ("period", "round", "phase") if k in view]
        return " · ".join(parts)

    def panels(self, view: Mapping[str, Any], viewer: int | None, compact: bool) -> list[Panel]:
        from rich.pretty import Pretty  # loads attrs: only for a game without a board

        return [Panel("view", "Board", Pretty(view, max_length=12, max_string=60))]


def ui_for(game_id: str) -> GameUI:
    """The title's own rendering (its Title's `ui` module), else the generic one."""
    try:
        name = get_title(game_id).ui
    except UnknownGame:
        name = ""
    if name:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise
        else:
            return module.UI
    return GenericUI()
