"""Board elements every game draws from: fitted alternatives, player tables, tracks, bags.

These are Rich renderables (the board pre-renders each panel at its column's width), so they
know the width they get: `Fit` picks the richest form that fits it, which is how a wider
terminal shows words where a narrow one needs a legend, and how nothing is ever cut with `…`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.measure import Measurement
from rich.segment import Segment
from rich.table import Table
from rich.text import Text

from boardgames_tui.tui.games.base import Panel
from boardgames_tui.tui.kept import column_widths


class Fit:
    """The first of several renderings that fits the width whole (the last one otherwise).

    Give the richest form first: full words, then shorter words with a legend, then the
    tightest. A form fits when drawn at the width it gets it cuts nothing (no `…` that it
    would not have on an endless line) and, with `max_lines`, takes no more lines than that.
    """

    _last: ClassVar[dict[tuple[int, int, int | None], int]] = {}  # the form chosen last time

    def __init__(self, *forms: RenderableType, max_lines: int | None = None) -> None:
        self.forms = forms
        self.max_lines = max_lines
        self._chosen: dict[int, RenderableType] = {}  # by width: measuring and drawing ask both
        # lines of forms drawn while choosing, by (form, width): the chosen one is drawn from
        # them instead of being rendered once more
        self._lines: dict[tuple[object, ...], list[list[Segment]]] = {}

    def __getstate__(self) -> dict[str, Any]:  # the board fingerprints panels by pickling
        return {"forms": self.forms, "max_lines": self.max_lines}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(*state["forms"], max_lines=state["max_lines"])  # type: ignore[misc]

    def choose(self, console: Console, options: ConsoleOptions) -> RenderableType:
        width = options.max_width
        if width not in self._chosen:
            self._chosen[width] = self._choose(console, options)
        return self._chosen[width]

    def _fits(self, console: Console, options: ConsoleOptions, form: RenderableType) -> bool:
        measured = _measured_fit(console, options, form)
        if measured is False or (measured and self.max_lines is None):
            return measured
        return self.drawn_fits(console, options, form)

    def drawn_fits(self, console: Console, options: ConsoleOptions, form: RenderableType) -> bool:
        """Whether `form` fits, told by drawing it (its lines are kept for the draw)."""
        drawn = console.render_lines(form, options, pad=False)
        self._lines[_drawn_key(form, options)] = drawn
        lines = "".join("".join(seg.text for seg in line) + "\n" for line in drawn)
        if self.max_lines is not None and lines.count("\n") > self.max_lines:
            return False
        if "…" not in lines:
            return True
        inherent = _ellipses(form)
        if inherent is None:  # not a form we can read: draw it on an endless line
            wide = options.update(width=1000, max_width=1000)
            inherent = _plain(console, form, wide).count("…")
        return lines.count("…") <= inherent

    def _choose(self, console: Console, options: ConsoleOptions) -> RenderableType:
        last = len(self.forms) - 1
        # a board keeps its form from move to move: try the last choice (and the next richer
        # one, which must still not fit) before trying every form, each a full table render
        key = (options.max_width, len(self.forms), self.max_lines)
        i = Fit._last.get(key)
        if i is not None and 0 < i <= last:
            if (i == last or self._fits(console, options, self.forms[i])) and not self._fits(
                console, options, self.forms[i - 1]
            ):
                return self.forms[i]
        elif i == 0 and self._fits(console, options, self.forms[0]):
            return self.forms[0]
        for n, form in enumerate(self.forms[:-1]):
            if self._fits(console, options, form):
                Fit._last[key] = n
                return form
        Fit._last[key] = last
        return self.forms[-1]

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        form = self.choose(console, options)
        drawn = self._lines.get(_drawn_key(form, options))
        if drawn is None:
            yield form
            return
        new_line = Segment.line()
        for line in drawn:
            yield from line
            yield new_line

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement.get(console, options, self.choose(console, options))


def _measured_fit(console: Console, options: ConsoleOptions, form: object) -> bool | None:
    """Whether `form` is drawn whole at the width, told without drawing it when its kind
    makes that certain (None otherwise).

    A table whose columns never wrap is cut (with `…`) exactly when its natural width is
    more than the room; text that wraps, and `Packed` notes, are never cut. Measuring a
    table is several times cheaper than drawing it, and a board tries two forms a move.
    """
    if isinstance(form, Table):
        if not all(c.no_wrap and c.width is None for c in form.columns):
            return None  # a column that wraps, or one cut at a set width, is not measured
        widths = column_widths(form, options)
        if widths is None:
            return None  # a nested renderable, or text of several lines, may wrap on its own
        return sum(widths) + form._extra_width <= options.max_width
    if isinstance(form, Text):
        return None if form.no_wrap or form.overflow == "ellipsis" else True
    if isinstance(form, str | Packed):
        return True
    if isinstance(form, Group):
        verdicts = [_measured_fit(console, options, part) for part in form.renderables]
        if False in verdicts:
            return False
        return None if None in verdicts else True
    return None


def _drawn_key(form: RenderableType, options: ConsoleOptions) -> tuple[object, ...]:
    """What a form's lines depend on besides the form."""
    o = options
    return (id(form), o.min_width, o.max_width, o.height, o.justify, o.overflow, o.no_wrap)


def _ellipses(form: object) -> int | None:
    """How many `…` the text of `form` holds of itself (None: a renderable of another kind)."""
    if isinstance(form, str):
        return form.count("…")
    if isinstance(form, Text):
        return form.plain.count("…")
    if isinstance(form, Group):
        counts = [_ellipses(r) for r in form.renderables]
        return None if None in counts else sum(c or 0 for c in counts)
    if isinstance(form, Table):
        cells: list[object] = [c.header for c in form.columns]
        cells += [cell for c in form.columns for cell in c.cells]
        counts = [_ellipses(c) for c in cells]
        return None if None in counts else sum(c or 0 for c in counts)
    return None


def _plain(console: Console, form: RenderableType, options: ConsoleOptions) -> str:
    """The text of `form` drawn with `options`, one line per line."""
    lines = console.render_lines(form, options, pad=False)
    return "".join("".join(seg.text for seg in line) + "\n" for line in lines)


@dataclass(frozen=True)
class Column:
    """A column of a player table: its header in words, a short header, and the meaning the
    legend gives the short header (only shown when the short form is used)."""

    header: str
    short: str
    meaning: str
    value: Callable[[Any], object]  # a player's part of the view -> the cell


P = TypeVar("P", bound=Mapping[str, Any])  # a player's part of a game's view


def player_table(
    players: Sequence[P],
    who: Callable[[P], Text],
    columns: Sequence[Column],
    note: str = "",
    who_short: Callable[[P], Text] | None = None,
) -> Fit:
    """Rows of players with numbers: headers in words where they fit, else short headers
    with a legend underneath (never an abbreviation without its meaning on screen); with
    `who_short`, last of all with that shorter name column (e.g. the seat letter alone)."""

    def build(short: bool, name: Callable[[P], Text] = who) -> RenderableType:
        table = Table(
            box=None, padding=(0, 1), collapse_padding=True, show_edge=False, pad_edge=False
        )
        table.add_column("", no_wrap=True)
        for c in columns:
            table.add_column(c.short if short else c.header, justify="right", no_wrap=True)
        for p in players:
            cells: list[RenderableType] = [name(p)]
            for c in columns:
                v = c.value(p)
                cells.append(v if isinstance(v, Text) else str(v))
            table.add_row(*cells)
        parts: list[RenderableType] = [table]
        legend = [
            f"{c.short} {c.meaning}" for c in columns if short and c.short != c.header and c.meaning
        ]
        if note:
            legend.append(note)
        if legend:
            parts.append(Text(" · ".join(legend), style="dim"))
        return Group(*parts)

    if who_short is None:
        return Fit(build(False), build(True))
    return Fit(build(False), build(True), build(True, who_short))


def track(
    cells: int,
    marks: dict[int, Text],
    start: int = 0,
    gap: str = " ",
    empty: str = "·",
) -> Text:
    """A numbered track: `marks` maps positions to what stands there, the rest are dots."""
    out = Text()
    for i in range(start, start + cells):
        if i > start:
            out.append(gap)
        if i in marks:
            out.append_text(marks[i])
        else:
            out.append(empty, style="dim")
    return out


def track_header(cells: int, start: int = 0) -> str:
    """The numbers over a `track` with one-character cells (single digits only)."""
    return " ".join(str(i % 10) for i in range(start, start + cells))


def counted(n: int, word: str, plural: str | None = None) -> str:
    """`1 rat`, `2 rats`: a count in words, singular when it is one."""
    return f"{n} {word if n == 1 else (plural or word + 's')}"


class Packed:
    """Parts set one after another on as few lines as fit, a line breaking only between parts
    (a part longer than the whole line wraps on its own): many short notes in little height."""

    def __init__(self, parts: Sequence[Text], sep: str = " · ") -> None:
        self.parts = [p for p in parts if p.plain]
        self.sep = sep

    def lines(self, width: int) -> list[Text]:
        """The parts joined into lines of at most `width` cells."""
        out: list[Text] = []
        line = Text()
        for part in self.parts:
            if line.plain and line.cell_len + len(self.sep) + part.cell_len <= width:
                line.append(self.sep, style="dim")
                line.append_text(part)
                continue
            if line.plain:
                out.append(line)
            line = part.copy()
        if line.plain:
            out.append(line)
        return out

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield from self.lines(options.max_width)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        widths = [p.cell_len for p in self.parts] or [0]
        total = sum(widths) + len(self.sep) * (len(widths) - 1)
        return Measurement(min(max(widths), options.max_width), min(total, options.max_width))


def first(panels: list[Panel], *keys: str) -> list[Panel]:
    """`panels` with those of `keys` first, in that order: at 80x24 the first tab is what
    the screen opens on (at the end of a game, the result instead of an empty row)."""
    front = [p for k in keys for p in panels if p.key == k]
    return front + [p for p in panels if p.key not in keys]
