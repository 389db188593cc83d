"""A Rich console that keeps the lines of the small texts it draws, and lays simple tables out
without measuring every cell twice.

A board, the move list and the log are grids of short texts (a table's cells). After a move
they are drawn again with mostly the same cells: drawing a cell's text costs more than
looking its lines up, so the lines of each text (and of its cell padding) are kept by what
they depend on. A table of one-line texts that fits its room gets the widths Rich would
give it from the texts' lengths, then Rich draws it (measuring the cells, each wrapped in its
padding, was most of a panel's cost). Panels, rows and log blocks are drawn through
`kept_console()` with the options of the app's console; everything else draws as Rich does.
"""

from __future__ import annotations

import io
from collections.abc import Hashable, Iterable, Iterator

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderableType
from rich.padding import Padding
from rich.segment import Segment
from rich.style import Style
from rich.table import Table
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
        return renderable
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
        at: tuple[Hashable, ...] = (key, o.min_width, o.max_width, o.height, o.justify)
        at += (o.overflow, o.no_wrap, o.markup, o.highlight, o.encoding, style, pad, new_lines)
        lines = self._kept.get(at)
        if lines is None:
            if len(self._kept) >= KEEP:
                self._kept.clear()
            lines = self._kept[at] = super().render_lines(
                renderable, options, style=style, pad=pad, new_lines=new_lines
            )
        return [list(line) for line in lines]  # the caller may reshape its copy

    def render(
        self, renderable: RenderableType, options: ConsoleOptions | None = None
    ) -> Iterable[Segment]:
        o = options or self.options
        if type(renderable) is Table and o.max_width >= 1:
            widths = natural_widths(renderable, o)
            if widths is not None:
                return self._table(renderable, o, widths)
        return super().render(renderable, options)

    def _table(self, table: Table, options: ConsoleOptions, widths: list[int]) -> Iterator[Segment]:
        """`table` drawn as Table.__rich_console__ draws it, with these widths."""
        at = options.update(
            width=sum(widths) + table._extra_width, highlight=table.highlight, height=None
        )
        for part in table._render(self, at, widths):
            if isinstance(part, Segment):
                yield part
            else:
                yield from self.render(part, at)


def natural_widths(table: Table, options: ConsoleOptions) -> list[int] | None:
    """The widths Rich gives the columns of `table` (padding included) when each cell is one
    line of text and the table fits the room at its natural width; None for any other table
    (Rich lays it out itself)."""
    widths = column_widths(table, options)
    if widths is None or sum(widths) > options.max_width - table._extra_width:
        return None
    return widths


def column_widths(table: Table, options: ConsoleOptions) -> list[int] | None:
    """The natural widths of the columns of `table` (padding included) when each cell is one
    line of text, however wide the room; None for any other table."""
    if (
        type(table) is not Table
        or table.width is not None
        or table.min_width is not None
        or table.expand
        or table.title
        or table.caption
        or table.show_footer
        or not table.columns
    ):
        return None
    room = options.max_width - table._extra_width
    if room < 1:
        return None
    _top, pad_right, _bottom, pad_left = table.padding
    last = len(table.columns) - 1
    widths = []
    for i, column in enumerate(table.columns):
        if (column.ratio, column.min_width, column.max_width) != (None, None, None):
            return None
        if column.width is not None:
            widths.append(column.width + table._get_padding_width(i))
            continue
        # each cell is measured in its padding (Table._get_cells)
        left = 0 if i == 0 and not table.pad_edge else pad_left
        if table.collapse_padding and i > 0:
            left = max(0, pad_left - pad_right)
        right = 0 if i == last and not table.pad_edge else pad_right
        cells: Iterable[object] = column.cells
        if table.show_header:
            cells = [column.header, *column.cells]
        widest = None
        for cell in cells:
            if type(cell) is Text:
                plain = cell.plain
            elif type(cell) is str and options.markup is False:
                plain = cell
            else:
                return None
            if "\n" in plain or "\t" in plain:
                return None
            width = cell_len(plain) + left + right
            widest = width if widest is None or width > widest else widest
        if widest is None:
            return None
        widths.append(widest or 1)
    return widths


_console: KeptConsole | None = None


def kept_console() -> KeptConsole:
    """The one console that keeps lines (made when first drawn with)."""
    global _console
    if _console is None:
        _console = KeptConsole()
    return _console
