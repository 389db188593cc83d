"""The board in sentences, per title: what each typed view holds, section by section.

A text board reads only the view (`game.view(state, viewer)`), like the screen's boards in
`tui/games/`, and its sections are named after their panels. A title without one of its own
is read by `GenericBoard`, which lists the view's plain values.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any, Protocol

Sections = list[tuple[str, list[str]]]


class TextBoard(Protocol):
    """What a title says in the plain mode."""

    def heading(self, view: Mapping[str, Any]) -> str:
        """Period, round and phase: printed as a heading whenever it changes."""

    def sections(self, view: Mapping[str, Any], viewer: int | None) -> Sections:
        """The board as (panel name, sentences), in the screen's order."""

    def scores(self, view: Mapping[str, Any]) -> list[str]:
        """The standing as far as the viewer may know it (during play)."""


def counted(n: int, word: str, plural: str | None = None) -> str:
    return f"{n} {word if n == 1 else (plural or word + 's')}"


def listed(items: list[str], empty: str = "none") -> str:
    """`a, b and c`."""
    items = [x for x in items if x]
    if not items:
        return empty
    if len(items) == 1:
        return items[0]
    return ", ".join(items[:-1]) + " and " + items[-1]


class GenericBoard:
    """A title with no text board: its view's plain values, one line each."""

    def heading(self, view: Mapping[str, Any]) -> str:
        return ", ".join(f"{k} {view[k]}" for k in ("period", "round", "phase") if k in view)

    def sections(self, view: Mapping[str, Any], viewer: int | None) -> Sections:
        lines = []
        for key, value in view.items():
            if isinstance(value, str | int | float | bool) or value is None:
                lines.append(f"{key}: {value}")
            elif isinstance(value, list) and all(isinstance(v, str | int) for v in value):
                lines.append(f"{key}: {', '.join(str(v) for v in value) or 'none'}")
        return [("board", lines)]

    def scores(self, view: Mapping[str, Any]) -> list[str]:
        return ["The scores are counted at the end of the game."]


MODULES = {
    "notre-dame": "notre_dame",
    "rattus-cartus": "rattus_cartus",
    "cathedral-of-orleans": "cathedral",
    "1347": "pestis",
}


def board_for(game_id: str) -> TextBoard:
    name = MODULES.get(game_id)
    if name is None:
        return GenericBoard()
    module = importlib.import_module(f"{__name__}.{name}")
    board: TextBoard = module.BOARD
    return board
