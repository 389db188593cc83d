"""Per-game boards, each found through the entry point group `boardgames_tui.boards` (the
title's id naming the `module:ATTR` of its `GameUI`); a game without one is drawn by the
generic fallback."""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

from boardgames_tui.engine.core import registry
from boardgames_tui.tui.games.base import GameUI, Panel

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


# The test suite sets this: a board's error then surfaces as it is, not as the one line that
# two drawings being compared would both show
RAISE_BOARD_ERRORS = False


class SafeUI:
    """A title's board that cannot take the app down: what its `status` or `panels` raise is
    written to the app's log once and drawn as one line, and the game goes on (and is saved
    as ever). A plug-in's board is code the app does not control."""

    def __init__(self, ui: GameUI[Any]) -> None:
        self.ui = ui
        self.game_id = ui.game_id
        self.failed = False  # logged once: the board is drawn again and again

    def _failure(self, exc: Exception) -> str:
        from boardgames_tui.session.errors import write_error

        log = None
        if not self.failed:
            self.failed = True
            log = write_error(f"the board of {self.game_id} failed", exc)
        where = f" (the details are in {log})" if log else ""
        return (
            f"The board of this game could not be drawn ({type(exc).__name__}); the game is "
            f"safe and saved, and its moves, log and review work as ever{where}."
        )

    def status(self, view: Mapping[str, Any]) -> str:
        try:
            return self.ui.status(view)
        except Exception as exc:  # a plug-in's bug: one line, not a crash
            if RAISE_BOARD_ERRORS:
                raise
            self._failure(exc)
            return ""

    def panels(self, view: Mapping[str, Any], viewer: int | None, compact: bool) -> list[Panel]:
        try:
            return self.ui.panels(view, viewer, compact)
        except Exception as exc:  # a plug-in's bug: one line, not a crash
            if RAISE_BOARD_ERRORS:
                raise
            from rich.text import Text

            return [Panel("board", "Board", Text(self._failure(exc)))]


def ui_for(game_id: str) -> GameUI[Any]:
    """The title's own board (its entry point in BOARDS), else the generic one."""
    target = registry.targets(BOARDS).get(game_id, "")
    return SafeUI(_load(target)) if target else GenericUI()


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
