"""What the terminal shows after every move is what a full redraw of the screen shows.

The game screen repaints only what a move changed (a panel whose title loses its mark
repaints its top line, the log scrolls in the frame that writes it): these tests follow every
update the app sends to the terminal, cell by cell, and compare the result with the screen
drawn afresh, so a repaint that leaves a stale cell anywhere fails here.
"""

from __future__ import annotations

from collections.abc import Iterable

import pytest
from rich.segment import Segment
from rich.style import Style
from textual._compositor import ChopsUpdate, LayoutUpdate
from textual.strip import Strip

from boardgames_tui.engine.core import Match, Seat, get_title
from tests.conftest import BUILTIN

Cell = tuple[str, str]


class Terminal:
    """The cells of a terminal that the app's updates are written to."""

    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.rows: list[list[Cell]] = [[(" ", "")] * width for _ in range(height)]
        self.updates = 0

    def _put(self, x: int, y: int, segments: Iterable[Segment]) -> None:
        row = self.rows[y]
        for seg in segments:
            if seg.control:
                continue
            style = _style(seg.style)
            for ch in seg.text:
                if 0 <= x < self.width:
                    row[x] = (ch, style)
                x += 1

    def apply(self, update: object) -> None:
        """Write one update as the terminal would (Textual's own two kinds)."""
        self.updates += 1
        strip: Strip | None  # a chop may be empty
        if isinstance(update, LayoutUpdate):
            for y, line in enumerate(update.strips, update.region.y):
                x = update.region.x
                for strip in line:
                    self._put(x, y, strip)
                    x += strip.cell_length
        elif isinstance(update, ChopsUpdate):
            for y, x1, x2 in update.spans:
                ends = update.chop_ends[y]
                for end, (x, strip) in zip(ends, update.chops[y].items(), strict=False):
                    if strip is None or x > x2 or end <= x1:
                        continue
                    if not (x2 > x >= x1 and end <= x2):
                        strip = strip.crop(0, min(end, x2) - x)
                    self._put(x, y, strip)
        elif update is not None:
            raise AssertionError(f"an update of an unknown kind: {type(update).__name__}")

    def text(self) -> list[str]:
        return ["".join(c for c, _ in row) for row in self.rows]


_STYLES: dict[Style | None, str] = {}


def _style(style: Style | None) -> str:
    """A cell's look as the terminal gets it (the click metadata is not drawn)."""
    out = _STYLES.get(style)
    if out is None:
        out = _STYLES[style] = "" if style is None else style.render("x")
    return out


def _diff(shown: Terminal, fresh: Terminal) -> str:
    lines = []
    for y, (a, b) in enumerate(zip(shown.rows, fresh.rows, strict=True)):
        if a != b:
            cols = [x for x in range(len(a)) if a[x] != b[x]]
            lines.append(f"row {y} columns {cols[0]}-{cols[-1]}:")
            lines.append(f"  shown: {''.join(c for c, _ in a)!r}")
            lines.append(f"  fresh: {''.join(c for c, _ in b)!r}")
    return "\n".join(lines[:12])


async def _follow(gid: str, size: tuple[int, int], moves: int, tmp: str) -> int:
    """Play `moves` moves of `gid`; after each, the terminal must show a full redraw."""
    from boardgames_tui.tui.app import BoardgamesApp, Launch

    n = get_title(gid).players
    m = Match.new(gid, [Seat(f"P{i + 1}") for i in range(n)], seed=11)
    m.settings["handover"] = False
    app = BoardgamesApp(Launch(saves_dir=tmp, match=m, bot_delay=0))
    term = Terminal(*size)
    display = app._display

    def shown(screen: object, update: object) -> None:
        if screen is app.screen:
            term.apply(update)
        display(screen, update)  # type: ignore[arg-type]

    app._display = shown  # type: ignore[method-assign, assignment]
    played = 0
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        for _ in range(moves):
            if m.over:
                break
            await pilot.press("enter")
            await pilot.pause()
            played += 1
            # every widget drawn afresh, from nothing kept
            screen = app.screen
            for widget in [screen, *screen.walk_children()]:
                widget.refresh()
            fresh = Terminal(*size)
            fresh.apply(screen._compositor.render_update(full=True))
            if term.rows != fresh.rows:
                pytest.fail(f"{gid} move {played}, stale cells:\n{_diff(term, fresh)}")
    assert term.updates > played  # the terminal was written to at every move
    return played


# the board code is shared by every title; the four built-in boards differ in what their
# panels hold (a few lines of a panel change, or all; tables grow), the compact layout in tabs
@pytest.mark.parametrize("gid", BUILTIN)
async def test_each_move_leaves_what_a_full_redraw_shows(gid: str, tmp_path: object) -> None:
    assert await _follow(gid, (120, 40), 9, str(tmp_path)) == 9


async def test_each_move_leaves_what_a_full_redraw_shows_compact(tmp_path: object) -> None:
    assert await _follow("rattus-cartus", (80, 24), 6, str(tmp_path)) == 6


def test_the_terminal_model_sees_a_stale_cell() -> None:
    """The comparison can fail: a cell written once and not again differs from a fresh one."""
    a, b = Terminal(4, 1), Terminal(4, 1)
    a.apply(ChopsUpdate([{0: Strip([Segment("ab")])}], [(0, 0, 2)], [[2]]))
    b.apply(ChopsUpdate([{0: Strip([Segment("xb")])}], [(0, 0, 2)], [[2]]))
    assert a.rows != b.rows and _diff(a, b).startswith("row 0 columns 0-0")
