"""Board elements every game draws from: fitted alternatives, player tables, tracks, bags.

These are Rich renderables (the board pre-renders each panel at its column's width), so they
know the width they get: `Fit` picks the richest form that fits it, which is how a wider
terminal shows words where a narrow one needs a legend, and how nothing is ever cut with `…`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text


class Fit:
    """The first of several renderings that fits the width whole (the last one otherwise).

    Give the richest form first: full words, then shorter words with a legend, then the
    tightest. A form fits when drawn at the width it gets it cuts nothing (no `…` that it
    would not have on an endless line) and, with `max_lines`, takes no more lines than that.
    """

    def __init__(self, *forms: RenderableType, max_lines: int | None = None) -> None:
        self.forms = forms
        self.max_lines = max_lines

    def choose(self, console: Console, options: ConsoleOptions) -> RenderableType:
        width = options.max_width
        for form in self.forms[:-1]:
            lines = _plain(console, form, options.update(width=width))
            if "…" in lines and lines.count("…") > _plain(
                console, form, options.update(width=1000, max_width=1000)
            ).count("…"):
                continue
            if self.max_lines is not None and lines.count("\n") > self.max_lines:
                continue
            return form
        return self.forms[-1]

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield self.choose(console, options)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement.get(console, options, self.choose(console, options))


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
    value: Callable[[dict[str, Any]], Any]


def player_table(
    players: Sequence[dict[str, Any]],
    who: Callable[[dict[str, Any]], Text],
    columns: Sequence[Column],
    note: str = "",
    who_short: Callable[[dict[str, Any]], Text] | None = None,
) -> Fit:
    """Rows of players with numbers: headers in words where they fit, else short headers
    with a legend underneath (never an abbreviation without its meaning on screen); with
    `who_short`, last of all with that shorter name column (e.g. the seat letter alone)."""

    def build(short: bool, name: Callable[[dict[str, Any]], Text] = who) -> RenderableType:
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
