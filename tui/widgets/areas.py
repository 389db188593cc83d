"""The game screen's lines by area, each drawn from the session's `Position`: the status line,
the compact layout's tab line and recent lines, and the log writer (the log panel and its
one-line form)."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.text import Text
from textual.widgets import Static

from boardgames_tui.engine.core import Match
from boardgames_tui.engine.core.protocol import Prompt
from boardgames_tui.session.play import Position
from boardgames_tui.tui.text import plain, seat_label
from boardgames_tui.tui.widgets.board import BoardView
from boardgames_tui.tui.widgets.log import (
    FRESH_MARK,
    GameLog,
    LogEntry,
    fresh_from,
    log_entries,
    with_talk,
)

LOG_REWRITE = 60  # moves redrawn when the reader changes (the full history is in review)


def thinking_line(match: Match, prompt: Prompt) -> str:
    """What the picker says while a computer decides: who and the phase, never the question
    (it may name the computer's hand or face-down tokens)."""
    line = f"{match.seats[prompt.seat].name} (computer) is thinking"
    return f"{line} · {prompt.phase}" if prompt.phase else line


def with_notes(entries: list[LogEntry], notes: list[tuple[int, str]], start: int) -> list[LogEntry]:
    """The log's lines with a table's own lines (after move n, text) in their places."""
    out = list(entries)
    for n, text in notes:
        if n < start:
            continue
        at = len(out)
        while at > 0 and out[at - 1].move > n:
            at -= 1
        out.insert(at, LogEntry(n, f"· {text}"))
    return out


class Unchanged(Static):
    """A line the game screen sets after every change: redrawn only when it reads or looks
    otherwise (an update costs a render of the widget and a repaint of its rows, on every
    screen at a table, for a move that mostly leaves it as it was)."""

    _drawn: Text | None = None

    def put(self, text: Text) -> None:
        """Show `text`, unless it is what is shown (words and styles)."""
        if self._drawn is not None and text == self._drawn and text.style == self._drawn.style:
            return
        self._drawn = text
        self.update(text, layout=False)


class StatusLine(Unchanged):
    """The top line: title, whose turn, the clock, who reads it, then the game's own parts
    (dropped from the last while the line is too long: never a cut word)."""

    def show(self, pos: Position, clock: str, game_status: str, width: int) -> None:
        # short of room, a computer's level and the table's id go first (never "…")
        width = max(20, width - 1)
        parts = [x for x in game_status.split(" · ") if x]
        lines = [self.head(pos, clock, brief) for brief in (0, 1, 2)]
        fits = [t for t in lines if len(t) <= width]
        status = next(
            (t for t in fits if not parts or len(t) + len(parts[0]) + 3 <= width),
            fits[0] if fits else lines[-1],
        )
        while parts and len(status) + sum(len(x) + 3 for x in parts) > width:
            parts.pop()
        for part in parts:
            status.append(f" · {part}")
        status.truncate(width, overflow="ellipsis")
        self.put(status)  # one line, always

    @staticmethod
    def head(pos: Position, clock: str, brief: int) -> Text:
        """The line before the game's own parts; `brief` 1 without a computer's level, 2
        also without the table's id."""
        facts, match, prompt = pos.facts, pos.match, pos.prompt
        status = Text()
        heading = facts.heading if brief < 2 else facts.brief_heading
        status.append(f" {match.game.title}{heading}", style="bold")
        # the seat to move comes first: on a narrow terminal the rest is cut, never this
        if facts.waiting is not None:
            status.append(" · waiting for players")
        elif prompt is not None:
            status.append(" · ")
            seat = match.seats[prompt.seat]
            if facts.seat is not None and pos.decides:
                status.append("your turn", style="bold reverse")
            else:
                status.append_text(seat_label(prompt.seat, seat.name))
                status.append(" to move")
            if seat.is_bot:
                status.append(" (computer" + ("" if brief else f": {seat.kind}") + ")", "italic")
        else:
            status.append(" · game over", style="bold")
        if clock:  # right after whose turn: the part a narrow terminal must not lose
            status.append(f" · ⏱ {clock}", style="bold" if "left" not in clock else "")
        if facts.who:
            status.append(f" · {facts.who}")
        return status


class TabLine(Unchanged):
    """The compact layout's tabs: the panels shown and the others by their first word."""

    def show(self, board: BoardView, compact: bool, width: int) -> None:
        if not compact:
            self.put(Text())
            return
        titles = board.tab_titles()
        t = self.line(board, titles, full=True)
        if len(t) > width:  # the shown tab by its first word too: every tab stays on the line
            t = self.line(board, titles, full=False)
        if board.unseen and len(t) + 11 <= width:
            t.append("  ✱ changed", style="dim")
        t.truncate(width, overflow="ellipsis")
        self.put(t)

    @staticmethod
    def line(board: BoardView, titles: list[str], full: bool) -> Text:
        page = [i for i in board.page if i < len(titles)] or [board.tab]
        shown_tabs = f"{page[0] + 1}" if len(page) == 1 else f"{page[0] + 1}-{page[-1] + 1}"
        t = Text(f" Tab ▸ {shown_tabs}/{len(titles)} ", style="dim")
        for i, (p, title) in enumerate(zip(board.panels, titles, strict=True)):
            if i in page:
                # the title's first part: the rest is in the panel's own frame below
                one = full and len(page) == 1
                shown = title.split(" · ")[0] if one else title.split()[0]
                t.append(f" {shown} ", style="reverse bold")
            else:  # the others by their first word, so every tab fits on one line
                # ✱: changed since it was last shown (a sign, not a colour only)
                mark = "✱" if p.key in board.unseen else ""
                t.append(f" {title.split()[0]}{mark} ", style="bold" if mark else "")
        return t


class RecentLines(Unchanged):
    """The compact layout: the log's lines before the last, in the rows under the board."""

    def show(self, board: BoardView, entries: list[LogEntry], compact: bool, width: int) -> None:
        rows = board.room - board.page_rows() if compact and board.room else 0
        lines: list[Text] = []
        if rows > 0:
            width = max(10, width - 6)
            console: Console = self.app.console
            for n in range(len(entries) - 1, -1, -1):
                left = rows - len(lines)
                if left <= 0:
                    break
                e = entries[n]
                first = n == 0 or entries[n - 1].move != e.move or left == 1
                number = f"{e.number:>3} " if first and e.move else "    "
                text = plain(e.text, style="bold" if e.fresh else "")
                wrapped = list(text.wrap(console, width))
                if len(wrapped) > left:  # the oldest line shown: its start, then "…"
                    text.truncate(width, overflow="ellipsis")
                    wrapped = [text]
                for k, line in enumerate(wrapped):
                    lead = f"{FRESH_MARK if e.fresh else ' '}{number}" if k == 0 else " " * 5
                    wrapped[k] = Text(lead, style="dim") + line
                lines[:0] = wrapped
        self.put(Text("\n").join(lines))
        self.styles.height = max(0, rows)


class LogWriter:
    """Writes the position's log into the log panel and its last line into the one-line log:
    one move on appends; a new reader, a table's talk or own lines, or the end of the
    computers' marks write the last moves again."""

    def __init__(self) -> None:
        self.cursor = -1
        self._viewer: int | None = -2
        self._fresh = -1  # where the marked (computer) lines began at the last write
        self._notes = 0  # the table's own lines (away, left) written so far
        self._talk: tuple[Any, ...] = ()  # the table talk at the last write

    def write(self, pos: Position, log: GameLog, last_line: Unchanged) -> None:
        match, viewer, cursor = pos.match, pos.viewer, pos.cursor
        fresh = fresh_from(match)
        talk, notes = pos.facts.talk, list(pos.facts.notes)
        # one move on: append its lines, unless the earlier lines now read differently: for
        # a new reader (private events) or because a decision ended the computers' marks
        append = (
            len(notes) == self._notes
            and talk == self._talk
            and 0 <= self.cursor == cursor - 1
            and (fresh == self._fresh or not any(e.fresh for e in log.entries))
            and (
                viewer == self._viewer
                or log_entries(match, viewer, cursor - 1 - LOG_REWRITE, cursor - 1)
                == log_entries(match, self._viewer, cursor - 1 - LOG_REWRITE, cursor - 1)
            )
        )
        if append:
            entries = log_entries(match, viewer, cursor - 1, cursor)
        else:
            entries = log_entries(match, viewer, cursor - LOG_REWRITE, cursor)
            entries = with_notes(entries, notes, cursor - LOG_REWRITE)
        self._notes = len(notes)
        if talk and not append:
            entries = with_talk(entries, talk, cursor - LOG_REWRITE)
        log.show(entries, append=append)
        last, mark = "", "▸"
        if entries:
            last = entries[-1].text
            mark = "»" if entries[-1].talk else mark  # said, not played
        else:  # the last visible line for the one-line log (compact layout)
            for i in range(cursor - 1, max(-1, cursor - 30), -1):
                found = [x for e in match.steps[i].events if (x := e.for_seat(viewer))]
                if found:
                    last = found[-1]
                    break
        self.cursor, self._viewer, self._fresh, self._talk = cursor, viewer, fresh, talk
        last_line.put(Text(f" {mark} {last}" if last else "", overflow="ellipsis", no_wrap=True))
