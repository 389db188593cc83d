"""The board in sentences, per title: what each typed view holds, section by section.

A text board reads only the view (`game.view(state, viewer)`), like the screen's boards in
`tui/games/`, and its sections are named after their panels. Each is found through the entry
point group `boardgames_tui.text_boards` (the title's id naming the `module:ATTR` of its
`TextBoard`), as the screen's boards are through `boardgames_tui.boards`, so a plug-in ships
its own; a title without one is read by `GenericBoard`, which lists the view's plain values.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any, Protocol

from boardgames_tui.engine.core import registry
from boardgames_tui.session.words import counted, listed, tally

__all__ = [
    "TEXT_BOARDS",
    "GenericBoard",
    "Sections",
    "TextBoard",
    "board_for",
    "counted",
    "listed",
    "tally",
]

TEXT_BOARDS = "boardgames_tui.text_boards"

Sections = list[tuple[str, list[str]]]


class TextBoard(Protocol):
    """What a title says in the plain mode."""

    def heading(self, view: Mapping[str, Any]) -> str:
        """Period, round and phase: printed as a heading whenever it changes."""

    def sections(self, view: Mapping[str, Any], viewer: int | None) -> Sections:
        """The board as (panel name, sentences), in the screen's order."""

    def scores(self, view: Mapping[str, Any]) -> list[str]:
        """The standing as far as the viewer may know it (during play)."""


class GenericBoard:
    """A title with no text board: its view's plain values, one line each."""

    def heading(self, view: Mapping[str, Any]) -> str:
        return ", ".join(f"{k} {view[k]}" for k in ("period", "round", "phase") if k in view)

    def sections(self, view: Mapping[str, Any], viewer: int | None) -> Sections:
        """One line per plain value (a list of cards as records too); the view's own hand
        (`hand`, `my_hand` or `your_hand`) is also the hand section, which the `hand` command
        reads."""
        lines = []
        for key, value in view.items():
            text = plain_text(value)
            if text is not None:
                lines.append(f"{key.replace('_', ' ')}: {text or 'none'}")
        for key in HAND_KEYS:
            if isinstance(hand := view.get(key), list | tuple) and (
                (text := plain_text(hand)) is not None
            ):
                return [("board", lines), ("hand", [f"Your hand: {text or 'empty'}"])]
        return [("board", lines)]

    def scores(self, view: Mapping[str, Any]) -> list[str]:
        return ["The scores are counted at the end of the game."]


HAND_KEYS = ("hand", "my_hand", "your_hand")  # where a view keeps its reader's own hand


def plain_text(value: Any, depth: int = 0) -> str | None:
    """`value` in words when it is plain data: a number, a word, or a list of them or of
    records (a card as {"name": "Princess", "value": 8} reads "name Princess, value 8");
    None for anything deeper, which the line mode leaves to a text board of the game's."""
    if isinstance(value, str | int | float | bool) or value is None:
        return str(value)
    if depth > 1:
        return None
    if isinstance(value, Mapping):
        parts = [(str(k).replace("_", " "), plain_text(v, depth + 1)) for k, v in value.items()]
        if any(t is None for _, t in parts):
            return None
        inner = ", ".join(f"{k} {t}" for k, t in parts)
        return f"({inner})" if depth else inner
    if isinstance(value, list | tuple):
        items = [plain_text(v, depth + 1) for v in value]
        if any(t is None for t in items):
            return None
        inner = ", ".join(t for t in items if t is not None)
        return f"({inner})" if depth else inner
    return None


def board_for(game_id: str) -> TextBoard:
    """The title's own text board (its entry point in TEXT_BOARDS), else the generic one."""
    target = registry.targets(TEXT_BOARDS).get(game_id, "")
    if not target:
        return GenericBoard()
    name, _, attr = target.partition(":")
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name is None or not name.startswith(exc.name):
            raise
        return GenericBoard()  # the board's distribution is not installed: the generic one
    board: TextBoard = getattr(module, attr or "BOARD")
    return board
