"""The command palette's commands (Ctrl+P): the app's own, on every screen."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from textual.app import SystemCommand
from textual.screen import Screen

if TYPE_CHECKING:
    from boardgames_tui.tui.app import BoardgamesApp


def commands(app: BoardgamesApp, screen: Screen[object]) -> Iterator[SystemCommand]:
    """What Ctrl+P offers on `screen` (never Textual's screenshot: it writes files)."""

    def settings() -> None:
        from boardgames_tui.tui.screens.settings import SettingsScreen

        if not isinstance(app.screen, SettingsScreen):
            app.push_screen(SettingsScreen())

    yield SystemCommand(
        "Settings", "Theme, bell, computer speed, names, keys (kept for next time)", settings
    )

    def ratings() -> None:
        from boardgames_tui.tui.screens.ratings import RatingsScreen

        if not isinstance(app.screen, RatingsScreen):
            app.push_screen(RatingsScreen())

    yield SystemCommand(
        "Ratings and statistics",
        "Each game's leaderboard at the shared tables, and your card",
        ratings,
    )
    help_action = getattr(screen, "action_help", None)
    if help_action is not None:
        yield SystemCommand("Keys", "The keys of this screen", help_action)
    yield SystemCommand("Quit", "Quit the app (every game is autosaved)", app.action_quit)
