"""The game log: what happened, move by move, as one reader may read it.

Wrapped lines are indented under their text (the move number keeps its own column), and the
lines of the computer players' moves since the reader's last decision are marked with `▸`
and bold until that reader decides again.
"""

from __future__ import annotations

import weakref
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rich.console import Console, ConsoleOptions, Group, RenderResult
from rich.measure import Measurement
from rich.segment import Segment
from rich.table import Table
from rich.text import Text
from textual.geometry import Size
from textual.reactive import Reactive
from textual.widgets import RichLog

from boardgames_tui.engine.core import Match
from boardgames_tui.tui.kept import kept_console
from boardgames_tui.tui.text import plain

FRESH_MARK = "▸"
AUTOPILOT_MARK = "(autopilot)"  # after a move the computer played for a person's seat
TALK_MARK = "»"  # a line of table talk: said, not played
LOG_BLOCKS = 300  # moves' drawn lines kept per reader (4 readers' worth)


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One line of the log: the move that wrote it, its text, whether it is new to the reader
    (a computer's move since the reader's last decision), and the number the log gives it.

    The number counts the moves the reader sees lines of: a step that writes nothing for
    this reader (a part of a move, another seat's secret) takes no number, so the numbers
    run on without a gap.
    """

    move: int
    text: str
    fresh: bool = False
    number: int = 0
    talk: bool = False  # said at the table (after move `move`), not part of the game


class _Counts:
    """How many moves with lines a reader has seen before each step, kept per match."""

    def __init__(self) -> None:
        self.steps: list[object] = []
        self.before: list[int] = [0]


# by id(match): a Match is a dataclass, not hashable; the reference tells a reused id apart
_COUNTS: dict[int, tuple[weakref.ref[Match], dict[int | None, _Counts]]] = {}


def _shown_before(match: Match, viewer: int | None, stop: int) -> int:
    """The moves among the first `stop` whose lines `viewer` reads (the setup's not counted)."""
    held = _COUNTS.get(id(match))
    if held is None or held[0]() is not match:
        for key in [k for k, (ref, _) in _COUNTS.items() if ref() is None]:
            del _COUNTS[key]
        held = _COUNTS[id(match)] = (weakref.ref(match), {})
    counts = held[1].setdefault(viewer, _Counts())
    steps = match.steps
    same = 0  # the steps counted before that are still the match's (an undo changes them)
    limit = min(len(counts.steps), len(steps))
    while same < limit and counts.steps[same] is steps[same]:
        same += 1
    del counts.steps[same:], counts.before[same + 1 :]
    setup = len(getattr(match.state_at(0), "opening", ())) if stop > same else 0
    for i in range(same, min(stop, len(steps))):
        events = steps[i].events[setup if i == 0 else 0 :]
        seen = any(e.for_seat(viewer) for e in events)
        counts.steps.append(steps[i])
        counts.before.append(counts.before[-1] + seen)
    return counts.before[min(stop, len(counts.before) - 1)]


def fresh_from(match: Match) -> int:
    """The first move of the computers' run that the people have not answered yet: the moves
    from here up to the cursor are marked (none when nobody plays against computers)."""
    i = match.cursor
    while i > 0 and match.seats[match.steps[i - 1].seat].is_bot:
        i -= 1
    if not any(not s.is_bot for s in match.seats):
        return match.cursor  # computers only: nothing to mark
    return i


def log_entries(match: Match, viewer: int | None, start: int, stop: int) -> list[LogEntry]:
    """The lines of moves `start`..`stop` (0-based, stop exclusive) as `viewer` reads them.

    The setup's lines come first (move 0, no number): before the first move from the match's
    `opening`, after it from the first move's log, which begins with them.
    """
    if stop <= 0:
        return [LogEntry(0, line) for line in match.opening(viewer)] if start <= 0 else []
    first_fresh = fresh_from(match)
    setup = len(getattr(match.state_at(0), "opening", ())) if start <= 0 else 0
    number = _shown_before(match, viewer, max(0, start))
    out = []
    for i in range(max(0, start), stop):
        step = match.steps[i]
        fresh = i >= first_fresh and match.seats[step.seat].is_bot
        auto = (i + 1) in match.autopilot  # the computer played it for an absent person
        counted = False
        for k, ev in enumerate(step.events):
            line = ev.for_seat(viewer)
            if line:
                if i == 0 and k < setup:
                    out.append(LogEntry(0, line))
                else:
                    if auto:
                        line, auto = f"{line} {AUTOPILOT_MARK}", False
                    if not counted:
                        number, counted = number + 1, True
                    out.append(LogEntry(i + 1, line, fresh, number))
    return out


def with_talk(entries: list[LogEntry], talk: Sequence[Any], start: int) -> list[LogEntry]:
    """The log's lines with the table talk in between: each message after the lines of the
    move it was said after (`Talk.moves`), from move `start` on."""
    said = [
        LogEntry(
            t.moves,
            f"{t.user}{' (watching)' if t.spectator else ''}: {t.text}",
            talk=True,
        )
        for t in talk
        if t.moves >= max(0, start)
    ]
    if not said:
        return entries
    keyed = [((e.move, 0, i), e) for i, e in enumerate(entries)]
    keyed += [((e.move, 1, i), e) for i, e in enumerate(said)]
    return [e for _, e in sorted(keyed, key=lambda x: x[0])]


def log_table(entries: list[LogEntry], text_width: int | None = None) -> Table:
    """The entries as a grid: mark, move number, text (wrapped lines stay in the text column,
    `text_width` wide if given)."""
    t = Table.grid(padding=(0, 1), expand=False)
    t.add_column(width=1, no_wrap=True)
    t.add_column(justify="right", no_wrap=True, style="dim", min_width=3)
    t.add_column(overflow="fold", ratio=1, width=text_width)
    last = None
    for e in entries:
        if e.talk:  # said, not played: its own mark, no move number, the words as data
            t.add_row(Text(TALK_MARK, style="bold cyan"), "", plain(e.text, style="italic cyan"))
            continue
        # a move's further lines and the setup's lines (move 0): no number
        number = str(e.number) if e.move not in (last, 0) else ""
        last = e.move
        if e.fresh:
            t.add_row(Text(FRESH_MARK, style="bold"), number, plain(e.text, style="bold"))
        else:
            t.add_row("", number, plain(e.text))
    return t


class _Block:
    """One move's lines, rendered once at the log's width (the number column is as wide for
    every move below 1000, so moves drawn apart read as one grid)."""

    def __init__(self, console: Console, table: Table, width: int) -> None:
        options = console.options.update_width(width)
        self.lines = kept_console().render_lines(table, options, pad=False)
        self.width = max((Segment.get_line_length(line) for line in self.lines), default=0)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        new_line = Segment.line()
        for line in self.lines:
            yield from line
            yield new_line

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement(self.width, self.width)


class GameLog(RichLog):
    """The log panel: never takes the focus (the move picker keeps it), scrolled by the game
    screen's keys."""

    can_focus = False
    # a longer log changes the log alone (its lines, its scrollbar): Textual's own reactive
    # lays the whole screen out again at every move; the layout is redone here only when the
    # scrollbar comes or goes (its column changes the width of the lines)
    virtual_size: Reactive[Size] = Reactive(Size(0, 0), layout=False)

    def watch_virtual_size(self, size: Size) -> None:
        self._scroll_update(size)

    def __init__(self, **kwargs: object) -> None:
        super().__init__(wrap=True, markup=False, min_width=10, **kwargs)  # type: ignore[arg-type]
        self.entries: list[LogEntry] = []
        self._drawn: dict[tuple[int, int, tuple[LogEntry, ...]], _Block] = {}
        self._widths: dict[LogEntry, int] = {}

    def show(self, entries: list[LogEntry], append: bool = False) -> None:
        """Write `entries` after the present ones (`append`) or instead of them."""
        if not append:
            self.clear()
            self.entries = []
        elif self.entries and self.entries[0].move == 0:
            # the setup's lines were shown before the first move, which writes them again
            entries = [e for e in entries if e.move != 0]
        if entries:  # one write: every write to a RichLog costs a layout
            self.entries.extend(entries)
            width = self.scrollable_content_region.width
            if width > 0 and self._size_known:
                self.write(self._blocks(entries, width), expand=True)
                # to the end now, in the frame that draws the new lines: the write's own
                # scroll waits for that frame and then draws the log once more (its later
                # pass finds the log at the end and does nothing)
                self.scroll_end(animate=False, immediate=True, x_axis=False)
            else:  # laid out later, at the size the log gets
                self.write(log_table(entries), expand=True)

    def _blocks(self, entries: list[LogEntry], width: int) -> Group:
        """The entries drawn move by move, each move's lines kept: a new reader or the end
        of the computers' marks redraws the last moves, which mostly read as before.

        The grid of all the entries at once gives its text column the longest text's width,
        up to the room left: every move's grid gets that width, so they read the same.
        """
        number = max(3, len(str(entries[-1].number)))
        longest = max(self._text_width(e) for e in entries)
        text_width = max(1, min(longest, width - number - 3))
        moves: dict[int, list[LogEntry]] = {}
        for e in entries:
            moves.setdefault(e.move, []).append(e)
        blocks = []
        for group in moves.values():
            at = (width, text_width, tuple(group))
            block = self._drawn.get(at)
            if block is None:
                if len(self._drawn) >= 4 * LOG_BLOCKS:
                    self._drawn.clear()
                table = log_table(group, text_width)
                block = self._drawn[at] = _Block(self.app.console, table, width)
            blocks.append(block)
        return Group(*blocks)

    def _text_width(self, e: LogEntry) -> int:
        """The width the grid measures an entry's text at."""
        width = self._widths.get(e)
        if width is None:
            if len(self._widths) >= 4 * LOG_BLOCKS:
                self._widths.clear()
            console = self.app.console
            cell = plain(e.text)
            wide = console.options.update_width(10_000)
            width = self._widths[e] = Measurement.get(console, wide, cell).maximum
        return width

    def page(self, delta: int) -> None:
        """Scroll by a page less one line (`delta` pages, negative: back)."""
        step = max(1, self.scrollable_content_region.height - 1)
        self.scroll_relative(y=delta * step, animate=False)
