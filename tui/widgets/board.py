"""The board area: a game's panels laid out side by side (wide) or as tabs (compact)."""

from __future__ import annotations

import io
import pickle
from collections.abc import Mapping
from typing import Any, ClassVar, Self
from weakref import WeakKeyDictionary

from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.segment import Segment
from textual.app import ComposeResult
from textual.color import Color
from textual.containers import Horizontal, VerticalScroll
from textual.content import Content
from textual.css.styles import RulesMap
from textual.geometry import Region
from textual.strip import Strip
from textual.style import Style
from textual.visual import RenderOptions, RichVisual
from textual.widget import Widget
from textual.widgets import Static

from boardgames_tui.tui.games.base import GameUI, Panel
from boardgames_tui.tui.kept import kept_console

# the words a changed panel's title gets (the same in the compact layout's tab line)
CHANGED = " ✱ changed"
DRAWN_KEEP = 64  # panels' renderings kept for when the same content comes back
SIDE_WIDTH = 44  # the right column at 120 columns; wider terminals give it a third of the rest

_measure = Console(width=120, color_system=None, file=io.StringIO(), markup=False)


def panel_text(panel: Panel, width: int = 118) -> str:
    """Plain text of a panel (for change highlighting and leak tests)."""
    with _measure.capture() as cap:
        _measure.print(panel.body, width=width)
    return cap.get()


def fingerprint(obj: Any) -> bytes | None:
    """Bytes equal for two renderables built the same way (None if it cannot be pickled).

    Pickling the plain data of Rich objects (Text, Table, Group, Padding …) is far cheaper
    than rendering them, so a panel whose content is unchanged is not rendered again. Two
    equal panels built differently may differ here: that costs a render, never a stale draw.
    """
    try:
        return pickle.dumps(obj, pickle.HIGHEST_PROTOCOL)
    except (pickle.PicklingError, TypeError, AttributeError):
        return None


class Prerendered:
    """A panel rendered once to lines at a fixed width.

    Textual measures and renders a Rich renderable several times per frame; for nested
    tables that is most of a move's cost. Rendering once and handing over the lines makes a
    move's redraw several times cheaper.
    """

    def __init__(self, console: Console, body: Any, width: int) -> None:
        # a plain string in a panel (a player's name in a table cell) is words, never markup
        options = console.options.update(width=width, min_width=1, max_width=width, markup=False)
        self.lines = kept_console().render_lines(body, options, pad=False)
        self.width = max((Segment.get_line_length(line) for line in self.lines), default=1)
        self.visuals: WeakKeyDictionary[Widget, _PanelVisual] = WeakKeyDictionary()

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        new_line = Segment.line()
        for line in self.lines:
            yield from line
            yield new_line

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement(self.width, self.width)


class _PanelVisual(RichVisual):
    """A prerendered panel as Textual draws it: the height is the number of lines, and the
    lines, once styled for the box, are kept (a title that lights up or goes out redraws the
    box, not its content)."""

    def __init__(self, widget: Widget, pre: Prerendered) -> None:
        super().__init__(widget, pre)
        self._lines = len(pre.lines)
        self._lines_of = pre
        self._strips: dict[tuple[int, int | None, Style], list[Strip]] = {}

    def get_height(self, rules: RulesMap, width: int) -> int:
        return self._lines

    def render_strips(
        self, width: int, height: int | None, style: Style, options: RenderOptions
    ) -> list[Strip]:
        key = (width, height, style)
        strips = self._strips.get(key)
        if strips is None:
            if len(self._strips) >= 4:
                self._strips.clear()
            strips = self._strips[key] = self._styled(width, height, style)
        return strips

    def _styled(self, width: int, height: int | None, style: Style) -> list[Strip]:
        """What RichVisual.render_strips makes of the lines, without rendering them again:
        the box's style under every segment (Widget.post_render), each line cut at `width`."""
        base = style.rich_style
        lines = self._lines_of.lines if height is None else self._lines_of.lines[:height]
        out = []
        for line in lines:
            if base:
                line = [Segment(text, base + s, None) for text, s, _ in line]
            out.append(Strip(Segment.adjust_line_length(line, width, pad=False)))
        return out


class PanelBox(Static):
    """One titled panel of the board.

    Its title lights up when the last move changed its content, until the next move. It
    never gets shorter during a game, so the panels below it stay where they are and only
    what changed is redrawn.
    """

    DEFAULT_CSS = """
    PanelBox { border: round $primary-darken-1; height: auto; padding: 0 1; }
    """
    changed = False
    plain_title: str | None = None  # the title as shown (with its mark)
    auto_links = False  # a panel holds no links: no pass over its lines looking for them
    _warning: ClassVar[dict[str, Color]] = {}  # the theme's warning colour, by theme
    # while set, a repaint of the whole box repaints only these rows of the box (the frame's
    # top line is row 0): a title that lights up or goes out, a few lines of new content
    _only_rows: list[int] | None = None

    def refresh(
        self, *regions: Region, repaint: bool = True, layout: bool = False, recompose: bool = False
    ) -> Self:
        rows = self._only_rows
        if rows is not None and not (regions or layout or recompose) and self.size:
            # the other rows stay as they are on the screen and in Textual's line cache
            at, width = self.content_offset, self.outer_size.width
            x, top = -at.x, -at.y
            regions = tuple(Region(x, top + y, width, 1) for y in rows) or (Region(x, top, 0, 0),)
        return super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)

    def mark(self, title: str, changed: bool, width: int) -> None:
        """Set the title; a changed panel says so in words (colour is never the only sign).
        Nothing is done when the title reads and looks as it does."""
        if changed:
            title += CHANGED if len(title) + len(CHANGED) + 6 <= width else " ✱"
        if changed == self.changed and title == self.plain_title:
            return
        self._only_rows = [0]  # the title is drawn in the frame's top line
        try:
            self._mark(title, changed)
        finally:
            self._only_rows = None

    def show_rows(self, visual: _PanelVisual, rows: list[int]) -> None:
        """Show `visual`, whose lines differ from those shown only in these content rows."""
        top = self.content_offset.y
        self._only_rows = [top + y for y in rows]
        try:
            self.update(visual, layout=False)
        finally:
            self._only_rows = None

    def _mark(self, title: str, changed: bool) -> None:
        if changed != self.changed:
            self.changed = changed
            # the title's own styles, not a class: a class would restyle the box against the
            # whole style sheet, twice a move for every panel the move changed
            styles = self.styles
            if changed:
                styles.border_title_color = self._warning_colour()
                styles.border_title_style = "bold reverse"
            else:
                styles.border_title_color = None
                styles.border_title_style = None
        self.plain_title = title
        self.border_title = Content(title)  # a title is words, never markup

    def _warning_colour(self) -> Color:
        theme = self.app.theme
        if theme not in self._warning:
            self._warning[theme] = Color.parse(self.app.get_css_variables()["warning"])
        return self._warning[theme]


class BoardView(Horizontal):
    """Renders a view through the game's UI module; compact mode shows a page of panels at a
    time: the chosen tab and the ones after it that fit in `room` rows with it."""

    DEFAULT_CSS = """
    BoardView { height: 1fr; }
    BoardView > #board-main { width: 1fr; }
    BoardView > #board-side { width: 44; }
    BoardView.compact > #board-side { display: none; }
    BoardView VerticalScroll { scrollbar-size-vertical: 1; }
    """

    def __init__(self, ui: GameUI, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.ui = ui
        self.compact = False
        self.tab = 0
        self.room = 0  # rows a compact page may take (0: not laid out yet, one panel)
        self.page: list[int] = [0]  # the panels shown together in the compact layout
        self.panels: list[Panel] = []
        self._texts: dict[str, Any] = {}
        self._boxes: dict[str, PanelBox] = {}
        self._pending: dict[str, tuple[Panel, int]] = {}  # hidden tabs not drawn yet
        self._prints: dict[str, bytes | None] = {}  # the shown panels' fingerprints
        self._tallest: dict[str, int] = {}  # most lines each panel has had at this size
        self._seen: dict[str, tuple[str, bytes | None]] = {}  # each panel as last shown
        self.unseen: set[str] = set()  # hidden tabs that changed since they were last shown
        # panels drawn lately, by width and content: in hotseat play the panels read by each
        # seat in turn (hidden scores, own cards) come back as they were
        self._drawn: dict[tuple[int, bytes], Prerendered] = {}

    def compose(self) -> ComposeResult:
        yield VerticalScroll(id="board-main")
        yield VerticalScroll(id="board-side")

    def show(
        self, view: Mapping[str, Any], viewer: int | None, compact: bool, highlight: bool = True
    ) -> list[Panel]:
        """Draw `view`; panels whose text changed since the last draw are highlighted."""
        if not self.is_attached:  # a late refresh after its screen closed: nothing to draw on
            return self.ui.panels(view, viewer, compact)
        self.compact = compact
        self.set_class(compact, "compact")
        panels = self.ui.panels(view, viewer, compact)
        # a tab other than the first stays on its panel when the tabs change order (the first
        # is whatever the game puts first, e.g. the result once the game is over)
        shown = self.panels[self.tab].key if self.tab and self.tab < len(self.panels) else None
        keys = [p.key for p in panels]
        self.panels = panels
        self.tab = keys.index(shown) if shown in keys else min(self.tab, max(0, len(panels) - 1))
        main = self.query_one("#board-main", VerticalScroll)
        side = self.query_one("#board-side", VerticalScroll)
        placement = [(p.key, "main" if compact or p.area != "side" else "side") for p in panels]
        if placement != getattr(self, "_placement", None):
            for box in self._boxes.values():
                box.remove()
            self._boxes = {}
            self._texts = {}
            self._tallest = {}
            self._seen, self.unseen = {}, set()
            self._generation = getattr(self, "_generation", 0) + 1
            for p, (_, where) in zip(panels, placement, strict=True):
                # removal is asynchronous: a fresh id keeps new boxes clear of the old ones
                box = PanelBox(id=f"panel-{p.key}-{self._generation}", classes=f"panel-{p.key}")
                self._boxes[p.key] = box
                (main if where == "main" else side).mount(box)
            self._placement = placement
        main_w, side_w = self._content_widths(compact)
        side.styles.width = side_w + 4
        self._pending = {}
        # each body's fingerprint before anything renders it (a render may change its pickle)
        self._prints = {p.key: fingerprint(p.body) for p in panels}
        self.page = self._fit(main_w) if compact else list(range(len(panels)))
        for i, p in enumerate(panels):
            box = self._boxes[p.key]
            box.display = i in self.page
            width = main_w if compact or p.area != "side" else side_w
            if not box.display:  # a hidden tab is drawn when it is shown (cycle)
                self._pending[p.key] = (p, width)
                if p.key not in self.unseen:
                    now = (p.title, self._prints[p.key])
                    seen = self._seen.setdefault(p.key, now)  # as it was when first hidden
                    if seen != now:
                        self.unseen.add(p.key)  # its tab says so until it is shown
                lit = False
            else:
                lit = self._draw(p, width) and highlight
            # the last move's marks go now, in the frame that draws this one: a timer of their
            # own would redraw each marked panel once more (a kilobyte or more over ssh)
            box.mark(p.title, lit, width)
        return panels

    def _fit(self, width: int) -> list[int]:
        """The compact page: the tab, then the panels after it while they fit in `room`."""
        if not self.panels:
            return [0]
        page, used = [self.tab], self._rows(self.panels[self.tab], width)
        for i in range(self.tab + 1, len(self.panels)):
            used += self._rows(self.panels[i], width)
            if used > self.room:
                break
            page.append(i)
        return page

    def _rows(self, p: Panel, width: int) -> int:
        """The rows a panel's box takes at `width` (its border included)."""
        lines = len(self._prerender(p, width, self._print(p)).lines)
        drawn = self._texts.get(p.key)
        return self._held(p.key, lines, width, drawn[1] if drawn is not None else None) + 2

    def _held(self, key: str, lines: int, width: int, drawn_at: int | None) -> int:
        """The lines a panel's box keeps room for: the most it has had at this width (the
        panels below it stay put), in the compact layout no more than its page has room for.
        `drawn_at`: the width the box was last drawn at."""
        grown = self._tallest.get(key, 0) if drawn_at == width else 0
        if self.compact and self.room:
            grown = min(grown, self.room - 2)
        return max(lines, grown)

    def _hold(self, key: str, lines: int, width: int, drawn_at: int | None) -> None:
        """Give the panel's box its least height (see `_held`)."""
        tallest = self._held(key, lines, width, drawn_at)
        if tallest != self._tallest.get(key):
            self._tallest[key] = tallest
            self._boxes[key].styles.min_height = tallest + 2  # the border's two lines

    def _print(self, p: Panel) -> bytes | None:
        """The panel's fingerprint, as taken when it came (`show`)."""
        if p.key in self._prints:
            return self._prints[p.key]
        return fingerprint(p.body)

    def page_rows(self) -> int:
        """The rows the shown panels take (the compact layout's board height)."""
        width = self._content_widths(True)[0]
        return sum(self._rows(self.panels[i], width) for i in self.page if i < len(self.panels))

    def _prerender(self, p: Panel, width: int, body: bytes | None) -> Prerendered:
        pre = self._drawn.get((width, body)) if body is not None else None
        if pre is None:
            pre = Prerendered(self.app.console, p.body, width)
            if body is not None:
                if len(self._drawn) >= DRAWN_KEEP:
                    del self._drawn[next(iter(self._drawn))]  # the oldest
                self._drawn[(width, body)] = pre
        return pre

    def _draw(self, p: Panel, width: int) -> bool:
        """Render one panel into its box, unless the box already shows the same; True if
        its lines changed at the width they had (the panel's title then says so)."""
        box = self._boxes[p.key]
        body = self._print(p)
        self._seen[p.key] = (p.title, body)
        self.unseen.discard(p.key)
        key = (p.title, width, body) if body is not None else None
        old = self._texts.get(p.key)
        if key is not None and old is not None and old[0] == key:
            return False  # drawn from the same content at the same width: keep its lines
        pre = self._prerender(p, width, body)
        mark = (key, width, p.title, pre.lines)
        if old is not None and old[1:] == mark[1:]:
            self._texts[p.key] = mark
            return False  # the same lines as on screen: Textual has nothing to redraw
        self._texts[p.key] = mark
        # as many lines at the same width: the layout stands, only the box repaints
        same_size = old is not None and old[1] == width and len(old[3]) == len(pre.lines)
        self._hold(p.key, len(pre.lines), width, old[1] if old is not None else None)
        visual = pre.visuals.get(box)
        if visual is None:
            visual = pre.visuals[box] = _PanelVisual(box, pre)
        if old is not None and same_size:  # a move changes a few lines: only those repaint
            lines = zip(old[3], pre.lines, strict=True)
            box.show_rows(visual, [y for y, (was, now) in enumerate(lines) if was != now])
        else:
            # the box's height changes only with its tallest content (its least height,
            # set above, lays the screen out again) or with a new width
            box.update(visual, layout=old is None or old[1] != width)
        return old is not None and old[1] == width

    def _content_widths(self, compact: bool) -> tuple[int, int]:
        """Text widths inside the panels of the main and the side column."""
        total = self.size.width or self.app.size.width
        side = 0 if compact else self.side_width(total)
        # border (2) + padding (2); panels are laid out to fit, so no scrollbar is reserved
        return max(20, total - side - 4), side - 4

    @staticmethod
    def side_width(total: int) -> int:
        """The right column: 44 at 120 columns, and a third of any room beyond."""
        return SIDE_WIDTH + max(0, total - 120) // 3

    def tab_titles(self) -> list[str]:
        return [p.title for p in self.panels]

    def cycle(self, delta: int) -> None:
        """The next page (the panel after the shown ones) or the previous panel's page."""
        if not self.panels:
            return
        start = self.page[-1] if delta > 0 and self.tab in self.page else self.tab
        self.tab = (start + delta) % len(self.panels)
        self.refit()

    def refit(self) -> bool:
        """Lay the compact page out again (the room or the tab changed); True if it did."""
        if not self.compact or not self.panels:
            return False
        page = self._fit(self._content_widths(True)[0])
        for i in page:  # a smaller room may hold a panel less tall
            drawn = self._texts.get(self.panels[i].key)
            if drawn is not None:
                self._hold(self.panels[i].key, len(drawn[3]), drawn[1], drawn[1])
        if page == self.page and all(self.panels[i].key not in self._pending for i in page):
            return False
        self.page = page
        for i, p in enumerate(self.panels):
            self._boxes[p.key].display = i in page
        for i in page:
            shown = self.panels[i]
            if shown.key in self._pending:
                drawn, width = self._pending.pop(shown.key)
                self._draw(drawn, width)
                self._boxes[drawn.key].mark(drawn.title, False, width)
        return True

    def all_text(self, width: int = 118) -> str:
        """Plain text of every panel (tests check it for leaks)."""
        return "\n".join(panel_text(p, width) for p in self.panels)
