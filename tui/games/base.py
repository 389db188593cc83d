"""What a game contributes to the TUI shell: panels of Rich renderables built from a view.

A game's UI module is pure rendering: it turns `game.view(state, viewer)` (plain data) into
named panels. The shell lays the panels out (side by side at 120x40, as tabs at 80x24), and
adds the status line, the move picker, the log and the footer. A game without a UI module
still works: the shell falls back to a generic rendering of the view.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from rich.console import RenderableType

# One colour and one letter per seat: colour is never the only carrier of information.
SEAT_STYLES = ("bold red", "bold blue", "bold green", "bold yellow", "bold magenta", "bold cyan")
SEAT_LETTERS = ("A", "B", "C", "D", "E", "F")


@dataclass
class Panel:
    """A titled block of the board. `area` is "board" (left/top) or "side" (right column)."""

    key: str
    title: str
    body: RenderableType
    area: str = "board"


class GameUI(Protocol):
    """The per-game rendering module (tui/games/<module>.py defines `UI`)."""

    game_id: str

    def status(self, view: Mapping[str, Any]) -> str:
        """Period/round/phase for the status line, e.g. "Period B · Round 5/9 · Actions"."""

    def panels(self, view: Mapping[str, Any], viewer: int | None, compact: bool) -> list[Panel]:
        """The board as panels, drawn from what `viewer` may see (`compact`: 80x24)."""


def seat_tag(seat: int, name: str | None = None) -> str:
    """Rich markup for a seat: its letter in its colour, and the name if given."""
    style = SEAT_STYLES[seat % len(SEAT_STYLES)]
    letter = SEAT_LETTERS[seat % len(SEAT_LETTERS)]
    return f"[{style}]{letter}[/]" + (f" {name}" if name else "")
