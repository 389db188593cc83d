"""Per-game boards, each found through the entry point group `boardgames_tui.boards` (the
title's id naming the `module:ATTR` of its `GameUI`); a game without one is drawn by the
generic fallback."""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

from engine.core import registry

from .base import GameUI, Panel

BOARDS = "boardgames_tui.boards"


class GenericUI:
    """Shows the view as a tree: every game is playable before it has a board of its own."""

    game_id = "*"

    def status(self, view: Mapping[str, Any]) -> str:
        parts = [str(view[k]) for k in ("period", "round", "phase") if k in view]
        return " · ".join(parts)

    def panels(self, view: Mapping[str, Any], viewer: int | None, compact: bool) -> list[Panel]:
        from rich.pretty import Pretty  # loads attrs: only for a game without a board

        return [Panel("view", "Board", Pretty(view, max_length=12, max_string=60))]


def ui_for(game_id: str) -> GameUI[Any]:
    """The title's own board (its entry point in BOARDS), else the generic one."""
    target = registry.targets(BOARDS).get(game_id, "")
    return _load(target) if target else GenericUI()


def _load(target: str) -> GameUI[Any]:
    """The GameUI a board entry point names (`module:ATTR`, ATTR by default `UI`)."""
    name, _, attr = target.partition(":")
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name is None or not name.startswith(exc.name):
            raise
        return GenericUI()  # the board's distribution is not installed: the generic view
    ui: GameUI[Any] = getattr(module, attr or "UI")
    return ui
