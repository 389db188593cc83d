"""The one screen a player sees when the app fails where it did not expect to: the game is
saved, where the report is, and who to give it to — never a traceback."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Static


def crash_text(report: Path | None, saved: str | None, room: bool) -> str:
    """What the crash screen says (and, after it, the line the command prints)."""
    kept = (
        f"Your game is saved ({saved}): Continue in the menu opens it again."
        if saved
        else "Every game that was open is saved: Continue in the menu opens the latest."
    )
    if report is None:
        where = "No report could be written (the state folder cannot be written to)."
    elif room:  # the report is on the host's disk: its name, never the host's paths
        where = f"The room's host has the report ({report.name}): tell them when it happened."
    else:
        where = (
            f"A report is in {report}. Please send it with a bug report to the "
            "boardgames-tui developers: it holds no more than the version, the game and "
            "where the app stopped."
        )
    return (
        f"boardgames-tui ran into a problem it did not expect and has to stop.\n\n{kept}\n\n{where}"
    )


class CrashScreen(Screen[None]):
    """Shown in place of every other screen after an unexpected error; q ends the app."""

    BINDINGS = [Binding("q,enter,escape,ctrl+c", "leave", "Quit", priority=True, id="crash.leave")]

    def __init__(
        self, report: Path | None, saved: str | None, room: bool, shown: Callable[[], None]
    ) -> None:
        super().__init__()
        self.text = crash_text(report, saved, room)
        self.shown = shown  # told once the screen is up

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog wide", id="crash"):
            yield Static("[b]Something went wrong[/]", classes="dialog-title")
            yield Static(Text(self.text), id="crash-text", classes="dialog-text")
            yield Static("q / Enter: quit", classes="dialog-keys")

    def on_mount(self) -> None:
        self.shown()

    def action_leave(self) -> None:
        self.app.exit(return_code=1)
