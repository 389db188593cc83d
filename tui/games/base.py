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
from typing_extensions import TypeVar  # a default (PEP 696), so that plain `GameUI` reads Mappings

from boardgames_tui.tui.text import (
    SEAT_LETTERS as SEAT_LETTERS,  # re-exported: boards and plug-ins use them
)
from boardgames_tui.tui.text import SEAT_STYLES as SEAT_STYLES

# One colour and one letter per seat: colour is never the only carrier of information.


@dataclass
class Panel:
    """A titled block of the board. `area` is "board" (left/top) or "side" (right column)."""

    key: str
    title: str
    body: RenderableType
    area: str = "board"


V_contra = TypeVar("V_contra", contravariant=True, default=Mapping[str, Any])


class GameUI(Protocol[V_contra]):
    """A title's board (tui/games/<module>.py defines `UI`; a plug-in's names its own in the
    entry point group `boardgames_tui.boards`). `GameUI[MyView]` reads the game's typed view:
    `status(view: MyView)`, no cast."""

    game_id: str

    def status(self, view: V_contra) -> str:
        """Period/round/phase for the status line, e.g. "Period B · Round 5/9 · Actions"."""

    def panels(self, view: V_contra, viewer: int | None, compact: bool) -> list[Panel]:
        """The board as panels, drawn from what `viewer` may see (`compact`: 80x24)."""


def seat_tag(seat: int, name: str | None = None) -> str:
    """Rich markup for a seat's letter in its colour, and the name escaped (for plug-ins
    that build markup; the shell itself uses `boardgames_tui.tui.text.seat_label`)."""
    from rich.markup import escape

    style = SEAT_STYLES[seat % len(SEAT_STYLES)]
    letter = SEAT_LETTERS[seat % len(SEAT_LETTERS)]
    return f"[{style}]{letter}[/]" + (f" {escape(name)}" if name else "")
