"""The shared move picker: every decision of every game goes through it.

Options carry hotkeys (1-9, then letters that are not global keys; 0 for the option that ends
or declines the decision: "Done", "Pass"), arrows + Enter choose,
`/` starts type-to-filter, Esc clears the filter (the screen uses Esc to step back out of a
multi-part move).
"""

from __future__ import annotations

import contextlib
from typing import Any, Self

from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.segment import Segment
from rich.table import Table
from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.css.styles import RulesMap
from textual.geometry import Region, Size
from textual.message import Message
from textual.reactive import Reactive
from textual.strip import Strip
from textual.style import Style
from textual.visual import RenderOptions, RichVisual
from textual.widget import Widget
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from boardgames_tui.engine.core.protocol import Move, Prompt
from boardgames_tui.session.keys import DONE_KEY, done_id
from boardgames_tui.tui.kept import kept_console

# Letters that the game screen uses as global keys are never move hotkeys.
# l: the full-screen log; h: a hint
GLOBAL_LETTERS = set("urgsvqlh")
HOTKEYS = [str(d) for d in range(1, 10)] + [
    c for c in "abcdefhijklmnoptwxyz" if c not in GLOBAL_LETTERS
]
# The option that ends or declines a decision ("Done", "Pass", "Stop discarding", "End the
# turn", "Decline the action") keeps one key in every title, however many come before it:
# `DONE_KEY`, the same number the line mode gives it (session/keys.py).


class SafeOptionList(OptionList):
    """OptionList whose paging keys do nothing before its lines are laid out, and whose rows,
    laid out by width, outlive a change of its height.

    Textual 8.2 raises KeyError on PageUp/PageDown when the list was just refilled (or is
    empty) and has not been rendered yet; key fuzzing found it.
    """

    auto_links = False  # the rows hold no links: no pass over every row looking for them
    # more or fewer rows change the list alone (its lines, its scrollbar) where its height is
    # set by the picker: Textual's own reactive lays the whole screen out again at each move
    virtual_size: Reactive[Size] = Reactive(Size(0, 0), layout=False)

    @property
    def allow_vertical_scroll(self) -> bool:
        # the list draws no scrollbar (the picker's frame says how many moves are above and
        # below): it scrolls whenever it holds more rows than it shows
        return not self._check_disabled() and self.max_scroll_y > 0

    @property
    def fills(self) -> bool:
        """Whether the list's height is set by the picker (not by its rows)."""
        height = self.styles.height
        return height is not None and not height.is_auto

    def watch_virtual_size(self, size: Size) -> None:
        if self.fills:
            self._scroll_update(size)
        else:
            self.refresh(layout=True)  # its height follows its rows

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._widths: set[int] = set()  # the widths the kept rows were laid out at

    def _clear_caches(self) -> None:
        self._widths.clear()
        super()._clear_caches()

    def clear_options(self) -> Self:
        self._widths.clear()
        return super().clear_options()

    def _update_lines(self) -> None:
        self._widths.add(self.scrollable_content_region.width)
        super()._update_lines()

    def _get_option_render(self, option: Option, style: Style) -> list[Strip]:
        self._widths.add(self.scrollable_content_region.width)
        return super()._get_option_render(option, style)

    @on(events.Resize)
    def _keep_rows(self, event: events.Resize) -> None:
        # Textual lays every row out again on any resize; the list's height changes with
        # the number of moves, and drawing its rows twice a move (before and after the
        # resize) cost more than anything else in the picker
        event.prevent_default()  # OptionList's own handler: called here when it must be
        if self._widths - {self.scrollable_content_region.width}:
            self._clear_caches()

    def action_page_up(self) -> None:
        with contextlib.suppress(KeyError, IndexError):
            super().action_page_up()

    def action_page_down(self) -> None:
        with contextlib.suppress(KeyError, IndexError):
            super().action_page_down()


PickerList = SafeOptionList


class Row:
    """One option's row: hotkey, label, preview, each wrapping within its own column.

    The option list measures and draws every new row more than once per frame, and the same
    rows come back from move to move: a row is a grid laid out once per width, its lines
    kept (`_row` keeps the rows themselves).
    """

    def __init__(self, key: str, label: str, preview: str, width: int) -> None:
        self.key, self.label, self.preview, self.width = key, label, preview, width
        self._lines: dict[tuple[object, ...], list[list[Segment]]] = {}

    def grid(self) -> Table:
        row = Table.grid(padding=(0, 1))
        row.add_column(width=2, no_wrap=True)
        row.add_column(width=self.width + 1, style="bold")
        row.add_column(ratio=1, style="italic")
        key = self.key
        row.add_row(
            Text(f"{key} ", style="bold reverse" if key != " " else ""), self.label, self.preview
        )
        return row

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        o = options
        at = (o.min_width, o.max_width, o.height, o.justify, o.overflow, o.no_wrap)
        lines = self._lines.get(at)
        if lines is None:
            lines = self._lines[at] = kept_console().render_lines(self.grid(), options, pad=False)
        new_line = Segment.line()
        for line in lines:
            yield from line
            yield new_line

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement.get(console, options, self.grid())


class RowVisual(RichVisual):
    """A row as the option list draws it, its height and lines kept by width and style.

    The list asks every new option its height and lines at every move; the rows mostly come
    back from move to move (the same moves, the same keys), and with them what they drew.
    """

    def __init__(self, widget: Widget, row: Row) -> None:
        super().__init__(widget, row)
        self._heights: dict[int, int] = {}
        self._widths: dict[int, int] = {}
        self._strips: dict[tuple[int, int | None, Style], list[Strip]] = {}

    def get_height(self, rules: RulesMap, width: int) -> int:
        height = self._heights.get(width)
        if height is None:
            height = self._heights[width] = super().get_height(rules, width)
        return height

    def get_optimal_width(self, rules: RulesMap, container_width: int) -> int:
        width = self._widths.get(container_width)
        if width is None:
            width = super().get_optimal_width(rules, container_width)
            self._widths[container_width] = width
        return width

    def render_strips(
        self, width: int, height: int | None, style: Style, options: RenderOptions
    ) -> list[Strip]:
        # a Rich renderable's strips depend on these alone (RichVisual draws no selection)
        key = (width, height, style)
        strips = self._strips.get(key)
        if strips is None:
            if len(self._strips) >= 8:
                self._strips.clear()
            strips = self._strips[key] = super().render_strips(width, height, style, options)
        return strips


_ROWS: dict[tuple[str, str, str, int], Row] = {}


def _row(key: str, label: str, preview: str, width: int) -> Row:
    """The row for these words (kept: the next move's picker mostly shows the same)."""
    at = (key, label, preview, width)
    row = _ROWS.get(at)
    if row is None:
        if len(_ROWS) >= 2000:
            _ROWS.clear()
        row = _ROWS[at] = Row(key, label, preview, width)
    return row


class MovePicker(Vertical):
    """A titled list of the legal moves with hotkeys, previews and a filter."""

    DEFAULT_CSS = """
    MovePicker { height: auto; }
    MovePicker > #picker-title { height: auto; max-height: 3; padding: 0 1; background: $boost; text-style: bold; }
    MovePicker > Input { display: none; height: 3; }
    MovePicker.filtering > Input { display: block; }
    MovePicker > OptionList, MovePicker > OptionList:focus { height: auto; max-height: 100%; border: none; padding: 0; background: $surface; overflow-y: hidden; }
    """

    class Chosen(Message):
        """A move was picked."""

        def __init__(self, move: Move) -> None:
            self.move = move
            super().__init__()

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.prompt: Prompt | None = None
        self.moves: list[Move] = []
        self.shown: list[Move] = []
        self.filter = ""
        self.enabled = True
        # hotkey of each move id: kept while one multi-part choice goes on, so that the keys
        # of the moves still offered do not change under a quick second press
        self.keys: dict[str, str] = {}
        self.reserved: frozenset[str] = frozenset()  # letters the screen keeps (a table: c)
        self._title_lines = 0
        self._title = ""
        self._room = 0  # the width the rows were laid out for
        self._subtitle: str | None = None  # the frame's "n more" as last set
        self._bottom_only = False  # while set, a repaint of the picker repaints its last line
        self._visuals: dict[tuple[str, str, str, int], RowVisual] = {}
        # held, not queried: a picker removed while it mounts (its screen closing) has no
        # children left when its mount handler runs
        self._options = PickerList(id="picker-options")

    def compose(self) -> ComposeResult:
        yield Static("", id="picker-title")
        yield Input(placeholder="type to filter, Enter picks, Esc clears", id="picker-filter")
        yield self._options

    def on_mount(self) -> None:
        self.watch(self.options, "scroll_y", self._say_more, init=False)

    def _say_more(self) -> None:
        """The frame says how many options are above and below the rows shown."""
        ol = self.options
        rows = ol.scrollable_content_region.height
        above = below = 0
        if ol.option_count and rows > 0 and ol.max_scroll_y > 0:
            top = round(ol.scroll_y)
            lines = ol._lines  # (option, line) of every row of the list
            if top < len(lines):
                above = lines[top][0] + (1 if lines[top][1] else 0)
            if top + rows < len(lines):
                last_seen = lines[top + rows - 1][0]
                below = ol.option_count - last_seen - 1 + (1 if lines[top + rows][1] else 0)
        parts = ([f"↑ {above} more"] if above else []) + ([f"↓ {below} more"] if below else [])
        subtitle = "  ".join(parts) or None
        # set only when it changes, and repaint the frame's bottom line alone
        if subtitle != self._subtitle:
            self._subtitle = subtitle
            self._bottom_only = True
            try:
                self.border_subtitle = subtitle
            finally:
                self._bottom_only = False

    def refresh(
        self, *regions: Region, repaint: bool = True, layout: bool = False, recompose: bool = False
    ) -> Self:
        if self._bottom_only and not (regions or layout or recompose) and self.size:
            at, size = self.content_offset, self.outer_size
            regions = (Region(-at.x, -at.y + size.height - 1, size.width, 1),)
        return super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)

    @property
    def options(self) -> SafeOptionList:
        return self._options

    def set_prompt(self, prompt: Prompt | None, title: str, enabled: bool = True) -> None:
        """Show the moves of `prompt` (or just `title` when nothing is to be decided here)."""
        previous = self.prompt if self.moves else None
        self.prompt = prompt
        self.enabled = enabled
        self.moves = list(prompt.moves) if (prompt and enabled) else []
        self._assign_keys(previous)
        # a long question wraps; the layout is redone only when its number of lines changes
        # (and nothing is redrawn when it reads as it did: another seat's move at a table)
        same = title == self._title and self._title_lines > 0
        self._title = title
        lines = self._count_title_lines()
        if not same or lines != self._title_lines:
            self.query_one("#picker-title", Static).update(
                Text(title), layout=not lines or lines != self._title_lines
            )
        self._title_lines = lines
        self.clear_filter(refresh=False)
        self._fit()
        self._fill()

    def _count_title_lines(self) -> int:
        """The rows the question takes at this width (it wraps at words, at most 3 rows)."""
        width = self.content_size.width - 2  # the title's padding
        if width <= 0:
            return 0
        return min(3, max(1, len(Text(self._title).wrap(self.app.console, width))))

    def _fit(self) -> None:
        """The list gets the rows the question and the filter leave: an option the list thinks
        it shows is on screen (the picker's frame would cut off the last ones)."""
        if self.options.fills:
            # the list fills what the question and the filter leave (the layout sees to it)
            if self.options.styles.inline.max_height is not None:
                self.options.styles.max_height = None
            return
        height, most = self.styles.height, self.styles.max_height
        gutter = self.styles.gutter.height
        if height is not None and not height.is_auto:
            room = self.size.height - gutter
        elif most is not None and most.is_cells:
            room = int(most.value) - gutter
        else:
            return
        if room <= 0:
            return
        room -= self._title_lines + (3 if self.has_class("filtering") else 0)
        self.options.styles.max_height = max(1, room)

    def _assign_keys(self, previous: Prompt | None) -> None:
        """Hotkeys by position, unless this prompt goes on with the previous one's choice (the
        same seat, a later step, mostly the same moves): then each move keeps its key."""
        ids = [m.id for m in self.moves]
        prompt = self.prompt
        same = (
            previous is not None
            and prompt is not None
            and prompt.seat == previous.seat
            and prompt.step > 0
            and 2 * sum(1 for i in ids if i in self.keys) >= len(ids)
        )
        if not same:
            self.keys = {}
        done = done_id(ids)
        if done is not None:
            self.keys[done] = DONE_KEY
        taken = {self.keys[i] for i in ids if i in self.keys}
        free = (k for k in HOTKEYS if k not in taken and k not in self.reserved)
        for i in ids:
            if i not in self.keys:
                self.keys[i] = next(free, " ")

    def _fill(self) -> None:
        needle = self.filter.lower()
        self.shown = [
            m for m in self.moves if not needle or needle in (m.label + " " + m.preview).lower()
        ]
        width = max((len(m.label) for m in self.shown), default=0)
        # the labels' column leaves the previews at least two fifths of the row (the picker
        # narrows when the hint panel stands beside it)
        room = self.options.content_size.width or max(20, self.size.width - 4)
        self._room = room
        width = min(width, 38, max(10, (room - 3) * 3 // 5))
        ol = self.options
        opts = [
            Option(self._visual(ol, self.keys.get(m.id, " "), m.label, m.preview, width), id=str(i))
            for i, m in enumerate(self.shown)
        ]
        if opts and len(opts) == ol.option_count:
            # as many rows as before: new prompts in place, no new layout of the screen
            for i, opt in enumerate(opts):
                ol.replace_option_prompt_at_index(i, opt.prompt)
            ol.scroll_y = 0
        elif opts or ol.option_count:  # (an empty list stays as it is)
            ol.clear_options()
            ol.add_options(opts)
        if opts:
            ol.highlighted = 0
        if ol.fills and ol.size:
            # the list's height is the picker's: its rows are known now, and the frame's
            # "n more" is drawn in the frame that draws them
            ol._update_lines()
            self._say_more()
        else:
            self.call_after_refresh(self._say_more)

    def _visual(self, ol: OptionList, key: str, label: str, preview: str, width: int) -> RowVisual:
        """The row for these words as the list draws it (kept, with what it drew)."""
        at = (key, label, preview, width)
        visual = self._visuals.get(at)
        if visual is None:
            if len(self._visuals) >= 2000:
                self._visuals.clear()
            visual = self._visuals[at] = RowVisual(ol, _row(key, label, preview, width))
        return visual

    def on_resize(self) -> None:
        """Lay the rows out again for a new width (the hint panel opened or closed)."""
        lines = self._count_title_lines()
        if lines != self._title_lines:
            self._title_lines = lines
            self.query_one("#picker-title", Static).refresh(layout=True)
        self._fit()
        self.options.scroll_to_highlight()
        if self.shown and self.options.content_size.width not in (0, self._room):
            keep = self.options.highlighted
            self._fill()
            if keep is not None and keep < self.options.option_count:
                self.options.highlighted = keep

    def hotkey(self, key: str) -> Move | None:
        """The move a hotkey stands for, if any."""
        if not self.enabled or (key not in HOTKEYS and key != DONE_KEY):
            return None
        return next((m for m in self.moves if self.keys.get(m.id) == key), None)

    def start_filter(self) -> None:
        if not self.moves:
            return
        self.add_class("filtering")
        self._fit()
        self.query_one(Input).focus()

    def clear_filter(self, refresh: bool = True) -> bool:
        """Clear an active filter; True if there was one."""
        active = self.has_class("filtering") or bool(self.filter)
        self.filter = ""
        self.remove_class("filtering")
        self._fit()
        inp = self.query_one(Input)
        if inp.value:
            inp.value = ""
        if refresh and active:
            self._fill()
            self.options.focus()
        return active

    @on(Input.Changed, "#picker-filter")
    def _filter_changed(self, event: Input.Changed) -> None:
        event.stop()
        self.filter = event.value
        self._fill()

    @on(Input.Submitted, "#picker-filter")
    def _filter_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if self.shown:
            move = self.shown[self.options.highlighted or 0]
            self.clear_filter()
            self.post_message(self.Chosen(move))

    @on(OptionList.OptionSelected, "#picker-options")
    def _selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if self.enabled and event.option.id is not None:
            idx = int(event.option.id)
            if idx < len(self.shown):
                self.post_message(self.Chosen(self.shown[idx]))
