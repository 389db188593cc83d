"""A Rich console that keeps the lines of the small texts it draws.

A board, the move list and the log are grids of short texts (a table's cells). After a move
they are drawn again with mostly the same cells: drawing a cell's text costs more than
looking its lines up, so the lines of each text (and of its cell padding) are kept by what
they depend on. Panels, rows and log blocks are drawn through `kept_console()` with the
options of the app's console; everything else draws as Rich does.
"""

from __future__ import annotations

import io
from collections.abc import Hashable

from rich.console import Console, ConsoleOptions, RenderableType
from rich.padding import Padding
from rich.segment import Segment
from rich.style import Style
from rich.text import Text

KEEP = 20_000  # lines of this many texts at most (a few megabytes), then they are drawn anew


def _key(renderable: object) -> Hashable | None:
    """What the lines of `renderable` depend on besides the options (None: not kept)."""
    kind = type(renderable)
    if kind is Text:
        t: Text = renderable  # type: ignore[assignment]
        return (
            t.plain,
            tuple(t.spans),
            t.style,
            t.justify,
            t.overflow,
            t.no_wrap,
            t.end,
            t.tab_size,
        )
    if kind is str:
        return renderable  # type: ignore[return-value]
    if kind is Padding:
        p: Padding = renderable  # type: ignore[assignment]
        inner = _key(p.renderable)
        if inner is None:
            return None
        return (Padding, p.top, p.right, p.bottom, p.left, p.style, p.expand, inner)
    return None


class KeptConsole(Console):
    """A console for drawing panels, rows and log blocks (see the module's docstring)."""

    def __init__(self) -> None:
        # as the app's console draws (textual.app.App.__init__); nothing is written out
        super().__init__(
            color_system=None,
            file=io.StringIO(),
            markup=False,
            highlight=False,
            emoji=False,
            legacy_windows=False,
            force_terminal=True,
            safe_box=False,
            soft_wrap=False,
        )
        self._kept: dict[Hashable, list[list[Segment]]] = {}

    def render_lines(
        self,
        renderable: RenderableType,
        options: ConsoleOptions | None = None,
        *,
        style: Style | None = None,
        pad: bool = True,
        new_lines: bool = False,
    ) -> list[list[Segment]]:
        key = _key(renderable)
        if key is None:
            return super().render_lines(
                renderable, options, style=style, pad=pad, new_lines=new_lines
            )
        o = options or self.options
        at = (key, o.min_width, o.max_width, o.height, o.justify, o.overflow, o.no_wrap)
        at += (o.markup, o.highlight, o.encoding, style, pad, new_lines)
        lines = self._kept.get(at)
        if lines is None:
            if len(self._kept) >= KEEP:
                self._kept.clear()
            lines = self._kept[at] = super().render_lines(
                renderable, options, style=style, pad=pad, new_lines=new_lines
            )
        return [list(line) for line in lines]  # the caller may reshape its copy


_console: KeptConsole | None = None


def kept_console() -> KeptConsole:
    """The one console that keeps lines (made when first drawn with)."""
    global _console
    if _console is None:
        _console = KeptConsole()
    return _console
