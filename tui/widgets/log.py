"""The game log: what happened, move by move, as one reader may read it.

Wrapped lines are indented under their text (the move number keeps its own column), and the
lines of the computer players' moves since the reader's last decision are marked with `▸`
and bold until that reader decides again.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.table import Table
from rich.text import Text
from textual.widgets import RichLog

from engine.core import Match

FRESH_MARK = "▸"


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One line of the log: the move that wrote it, its text, and whether it is new to the
    reader (a computer's move since the reader's last decision)."""

    move: int
    text: str
    fresh: bool = False


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
    out = []
    for i in range(max(0, start), stop):
        step = match.steps[i]
        fresh = i >= first_fresh and match.seats[step.seat].is_bot
        for k, ev in enumerate(step.events):
            line = ev.for_seat(viewer)
            if line:
                if i == 0 and k < setup:
                    out.append(LogEntry(0, line))
                else:
                    out.append(LogEntry(i + 1, line, fresh))
    return out


def log_table(entries: list[LogEntry]) -> Table:
    """The entries as a grid: mark, move number, text (wrapped lines stay in the text column)."""
    t = Table.grid(padding=(0, 1), expand=False)
    t.add_column(width=1, no_wrap=True)
    t.add_column(justify="right", no_wrap=True, style="dim", min_width=3)
    t.add_column(overflow="fold", ratio=1)
    last = None
    for e in entries:
        # a move's further lines and the setup's lines (move 0): no number
        number = str(e.move) if e.move not in (last, 0) else ""
        last = e.move
        if e.fresh:
            t.add_row(Text(FRESH_MARK, style="bold"), number, Text(e.text, style="bold"))
        else:
            t.add_row("", number, e.text)
    return t


class GameLog(RichLog):
    """The log panel: never takes the focus (the move picker keeps it), scrolled by the game
    screen's keys."""

    can_focus = False

    def __init__(self, **kwargs: object) -> None:
        super().__init__(wrap=True, markup=False, min_width=10, **kwargs)  # type: ignore[arg-type]
        self.entries: list[LogEntry] = []

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
            self.write(log_table(entries), expand=True)

    def page(self, delta: int) -> None:
        """Scroll by a page less one line (`delta` pages, negative: back)."""
        step = max(1, self.scrollable_content_region.height - 1)
        self.scroll_relative(y=delta * step, animate=False)
