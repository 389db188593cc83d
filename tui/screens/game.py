"""The game screen: status line, board panels, move picker, log; undo, save, review, bots.

One screen for a local match and a shared table: the moves come from a `MoveSource`
(`boardgames_tui.session.source`), which is all that differs between the two. Computer players and hints think
in thread workers (one at a time each: a new one cancels the last) and answer with messages.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import events, on, work
from textual.app import ComposeResult, ScreenStackError
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.timer import Timer
from textual.widgets import Footer, Static
from textual.worker import Worker, get_current_worker

from boardgames_tui.engine.core import PUBLIC, Match, saves
from boardgames_tui.engine.core.protocol import Move, Prompt
from boardgames_tui.session.errors import bot_error_message, hint_error_message, write_error
from boardgames_tui.session.source import (
    ComputerTurn,
    LocalSource,
    MoveSource,
    Refused,
    fallback_move,
)
from boardgames_tui.tui.games import ui_for
from boardgames_tui.tui.screens.base import BaseScreen, key_to_top
from boardgames_tui.tui.screens.dialogs import (
    KEY_ROWS,
    ConfirmScreen,
    HandoverScreen,
    HelpScreen,
    MessageScreen,
    SaveAsScreen,
    SeenScreen,
)
from boardgames_tui.tui.text import plain, seat_label
from boardgames_tui.tui.widgets.board import BoardView
from boardgames_tui.tui.widgets.hint import HintPanel
from boardgames_tui.tui.widgets.log import (
    FRESH_MARK,
    GameLog,
    LogEntry,
    fresh_from,
    log_entries,
    with_talk,
)
from boardgames_tui.tui.widgets.picker import MovePicker

if TYPE_CHECKING:
    from boardgames_tui.engine.bots.coach import Coach, OptionValue
    from boardgames_tui.tui.screens.rules import Prepared


COMPACT_WIDTH = 110
COMPACT_HEIGHT = 40  # the wide board is laid out for 40 rows: below that, tabs (nothing cut)
LOG_KEEP = 300
LOG_REWRITE = 60  # moves redrawn when the reader changes (the full history is in review)
ACTION_KEYS = {"undo": "u", "redo": "r", "hint": "h"}  # the help's key rows by action
# the help's key rows by binding id: a key remapped in the settings is shown instead
ROW_IDS = {
    "u": "game.undo",
    "r": "game.redo",
    "s": "game.save",
    "v": "game.review",
    "l": "game.log",
    "g": "game.rules",
    "h": "game.hint",
    "b": "game.bell",
    "c": "game.say",
    "?": "help",
    "q": "game.leave",
}
RULES_PREPARE = 1.5  # seconds after the screen opens: the rules reference is parsed in a thread
HINT_THINK = 3.0  # the hint searches this many times a strong player's thinking time
HERE_TICK = 5.0  # a shared table without a clock: who is here, a lost store back, this often


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


class ComputerMove(Message):
    """A computer player's answer (`problem`: its error, and the move is a random one)."""

    def __init__(
        self,
        worker: Worker[None],
        turn: ComputerTurn,
        move_id: str,
        problem: str | None,
        started: float,
    ) -> None:
        super().__init__()
        self.worker, self.turn, self.move_id, self.problem = worker, turn, move_id, problem
        self.started = started  # when the turn began (time.monotonic)


class HintValues(Message):
    """The hint's values so far (`final`: the search is done), or its error (`problem`)."""

    def __init__(
        self,
        worker: Worker[None],
        values: list[OptionValue],
        done: int,
        final: bool,
        problem: str | None = None,
    ) -> None:
        super().__init__()
        self.worker, self.values, self.done, self.final = worker, values, done, final
        self.problem = problem


class BoardRoom(Vertical):
    """The rows between the status and the move picker: the board, and in the compact layout
    the last lines of the log below the panels in the rows they leave."""

    def on_resize(self, event: events.Resize) -> None:
        screen = self.screen
        if isinstance(screen, GameScreen):
            screen.fit_board()


class GameScreen(BaseScreen[None]):
    """Plays a match: every decision goes through the move picker."""

    BINDINGS = [
        Binding("escape", "back", "Step back", show=False, id="game.back"),
        Binding("u", "undo", "Undo", id="game.undo"),
        Binding("r", "redo", "Redo", id="game.redo"),
        Binding("s", "save", "Save", id="game.save"),
        Binding("v", "review", "Review", id="game.review"),
        Binding("l", "log", "Log", id="game.log"),
        Binding("g", "rules", "Rules", id="game.rules"),
        Binding("h", "hint", "Hint", id="game.hint"),
        Binding("question_mark", "help", "Help", id="help"),
        Binding("q", "leave", "Menu", id="game.leave"),
        Binding(
            "pageup",
            "log_page(-1)",
            "Scroll log",
            key_display="PgUp/PgDn",
            priority=True,
            id="game.log-page-back",
        ),
        Binding(
            "pagedown",
            "log_page(1)",
            "Scroll log",
            show=False,
            priority=True,
            id="game.log-page-forward",
        ),
        Binding("slash", "filter", "Filter", show=False, id="game.filter"),
        Binding(
            "tab,right_square_bracket",
            "cycle(1)",
            "Next view",
            show=False,
            priority=True,
            id="game.cycle-forward",
        ),
        Binding(
            "shift+tab,left_square_bracket",
            "cycle(-1)",
            "Prev view",
            show=False,
            priority=True,
            id="game.cycle-back",
        ),
        Binding("e", "results", "Results", show=False, id="game.results"),
        Binding(
            "b", "bell", "Bell", id="game.bell"
        ),  # a shared table's (the source turns keys off)
        Binding(
            "t", "reclaim", "Take seat back", id="game.reclaim"
        ),  # when the computer plays your seat
        # a shared table's: a message to the others; named in the footer where there is room
        # (at 80 columns the footer is full: the table screen's help names it there)
        Binding("c", "say_footer", "Say", id="game.say-footer"),
        Binding("c", "say", "Say", show=False, id="game.say"),
    ]

    def __init__(
        self,
        source: Match | MoveSource,
        handover: bool | None = None,
        strict: bool | None = None,
        bot_delay: float = 0.6,
        think: float | None = None,
    ) -> None:
        super().__init__()
        if isinstance(source, Match):
            if handover is not None:
                source.settings["handover"] = handover
            if strict is not None:
                source.settings["strict"] = strict
            handover = source.settings["handover"]
            self.source: MoveSource = LocalSource(source, think=think)
        else:
            self.source = source
        source = self.source
        match = source.match
        self.ui = ui_for(match.game.id)
        humans = [i for i, s in enumerate(match.seats) if not s.is_bot]
        self.humans = humans
        # hand-over screens only matter between people sharing one screen
        self.handover = bool(
            handover
            and source.reader is None
            and len(humans) > 1
            and match.game.has_private_info
            and not match.game.cooperative
        )
        self.strict = source.strict
        self.bot_delay = bot_delay
        self.think = think  # strong players' seconds per decision (None: the default)
        # who reads the screen: a table's seat (or the public, watching); in hotseat the
        # seat to move (set as play goes), the one person against computers, the public
        # when only computers play
        self.viewer: int | None = source.reader
        if self.viewer is None:
            self.viewer = humans[0] if humans else PUBLIC
        self.unlocked: int | None = None if self.handover else self.viewer
        self._store_warned = False
        self._unlocked_at = match.cursor  # the move from which `unlocked` holds the keyboard
        self._hint_at: tuple[int, tuple[str, ...]] | None = None  # (cursor, option ids)
        self._log_cursor = -1
        self._log_viewer: int | None = -2
        self._log_fresh = -1  # where the marked (computer) lines began at the last write
        self._log_notes = 0  # the table's own lines (away, left) written so far
        self._log_talk: tuple[Any, ...] = ()  # the table talk at the last write
        self._end_shown = False
        self._clock_shown = ""
        self._ticking: Timer | None = None  # the once-a-second tick, while a clock shows
        self._computer_cursor = -1  # the position right after a computer's move played here
        self._waiting_handover = False
        self._handover_later = False  # a hand-over waits for the window to be big enough
        self.compact = False
        self._board_height: int | str = "1fr"
        self._rules_text: Prepared | None = None  # the rules reference, laid out

    # ---- layout ------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Static("", id="status")
        yield Static("", id="tabs")
        with BoardRoom(id="upper"):
            yield BoardView(self.ui, id="board")
            yield Static("", id="recent")
        with Horizontal(id="bottom"):
            yield MovePicker(id="picker")
            yield HintPanel(id="hint")
            yield GameLog(id="log", max_lines=LOG_KEEP)
        yield Static("", id="lastlog")
        yield Footer(show_command_palette=False)

    @property
    def match(self) -> Match:
        """The position (a table's is read again after every change)."""
        return self.source.match

    def on_mount(self) -> None:
        self._apply_size()
        # letters the settings gave this screen's keys are never a move's hotkey
        reserved = {
            k
            for ident, keys in self.app.settings.keys.items()
            if ident.startswith("game.")
            for k in keys.split(",")
            if len(k) == 1
        }
        if "say" not in self.source.keys_off:  # c opens the message line, never a move
            reserved.add("c")
        self.query_one(MovePicker).reserved = frozenset(reserved)
        self.refresh_game(highlight=False)
        self.set_timer(RULES_PREPARE, self._prepare_rules)  # off the first moves' path
        if self.source.poll_seconds:  # moves by others (a shared table): the store wakes us
            watch = getattr(self.source, "watch", None)
            if watch is not None:
                watch(self._woken)
            else:
                self.set_interval(self.source.poll_seconds, self._poll)
            # the turn's clock counts down each second; without one, a slower tick asks
            # the source (presence, a lost store) and starts the fast one if a clock comes
            self.set_interval(HERE_TICK, self._tick)
            if self.source.clock_line():
                self._ticking = self.set_interval(1.0, self._tick)
        if self.app.launch.confine:  # a room's session: a reconnect comes back here
            from boardgames_tui.session import place

            place.note(self.app.saves_dir, self.room_place())

    def on_unmount(self) -> None:
        self.source.close()
        name = f"rules-{id(self)}"
        if self.app.is_screen_installed(name):
            with contextlib.suppress(ScreenStackError):  # the app closing: it goes with it
                self.app.uninstall_screen(name)
        if self.app.launch.confine:
            from boardgames_tui.session import place

            place.note(self.app.saves_dir, None)

    def room_place(self) -> dict[str, str]:
        """Where this screen is, for a reconnect: the game's autosave, or the table."""
        return self.source.room_place(self.app.saves_dir)

    def on_screen_resume(self) -> None:
        if self._handover_later and not self.app.too_small:
            self._handover_later = False
            self.refresh_game(highlight=False)

    def on_resize(self, event: events.Resize) -> None:
        self._apply_size()
        # panels are pre-rendered at the column width, so any new size redraws them
        if not self._waiting_handover:
            self._log_cursor = -1  # so is the log: write it again at the new width
            self.call_after_refresh(self.render_board, False)

    def _apply_size(self) -> None:
        w, h = self.app.size
        compact = w < COMPACT_WIDTH or h < COMPACT_HEIGHT
        if compact != self.compact:
            self.refresh_bindings()
        self.compact = compact
        self.set_class(compact, "compact")

    # ---- the loop ----------------------------------------------------------------------
    def refresh_game(self, highlight: bool = True) -> None:
        """Work out who is to act now, hand over if needed, and draw."""
        for line in self.source.news():  # a move taken back at another terminal
            self.notify(line, timeout=10)
        prompt = self.match.prompt
        reader = self.source.reader  # a table's seat or spectator, whatever happens
        self._unlocked_at = min(self._unlocked_at, self.match.cursor)  # an undo went back
        if prompt is None:
            self.viewer = reader  # None in hotseat: at the end everything is shown
            self.render_board(highlight)
            if not self._end_shown:
                self._end_shown = True
                self.call_after_refresh(self.action_results)
            return
        seat = prompt.seat
        if reader is not None:
            self.viewer = reader
        elif not self.match.seats[seat].is_bot:
            if self.handover and seat != self.unlocked:
                # only the phase: a prompt's text may name private things ("keep Bank")
                self._show_handover(seat, f"your turn ({prompt.phase or 'play'})")
                return
            self.viewer = seat
        self.render_board(highlight)
        if self.source.turn_arrived() and self.app.launch.bell:
            self.app.bell()
        self._start_computer()

    def _seen_alone(self) -> list[str]:
        """What the seat holding the keyboard learned privately since it took it (a look at
        hidden cards, its draw): shown to it before it passes the keyboard on."""
        seat, m = self.unlocked, self.match
        if seat is None or self._unlocked_at >= m.cursor:
            return []
        return [
            e.text
            for step in m.steps[self._unlocked_at : m.cursor]
            for e in step.events
            if e.readers is not None and seat in e.readers and e.reveal and e.text != e.public
        ]

    def _show_handover(self, seat: int, what: str) -> None:
        if self._waiting_handover:
            return
        if self.app.too_small:  # under the "too small" screen it would go unseen
            self._handover_later = True
            return
        self._waiting_handover = True

        def done(ready: bool | None) -> None:
            self._waiting_handover = False
            if ready:
                self.unlocked = seat
                self._unlocked_at = self.match.cursor
                self.refresh_game(highlight=False)
            else:
                self.app.pop_screen()

        name = self.match.seats[seat].name
        seen, holder = self._seen_alone(), self.unlocked
        if seen and holder is not None:

            def then(ready: bool | None) -> None:
                self._unlocked_at = self.match.cursor  # said once
                if ready:
                    self.app.push_screen(HandoverScreen(seat, name, what), done)
                else:
                    done(False)

            holder_name = self.match.seats[holder].name
            self.app.push_screen(SeenScreen(holder, holder_name, seen, name), then)
            return
        self.app.push_screen(HandoverScreen(seat, name, what), done)

    def current_view(self) -> Mapping[str, Any]:
        return self.source.view(self.viewer)

    def render_board(self, highlight: bool = True) -> None:
        source = self.source
        view = source.view(self.viewer)
        board = self.query_one(BoardView)
        # a spectator's board is the public one: no seat of its own in it
        board_viewer = None if self.viewer == PUBLIC and source.shared else self.viewer
        board.room = self.query_one(BoardRoom).size.height
        board.show(view, board_viewer, self.compact, highlight=highlight)
        self._size_board(board)
        self._render_status(view)
        self._render_tabs(board)
        if self._hint_at is not None and self._hint_at != self._position():
            self._hide_hint()  # the hint was for another decision
        self._render_picker()

    def _woken(self) -> None:
        """The table's watch (a thread) saw a change: ask the source on the app's thread."""
        with contextlib.suppress(RuntimeError):  # the app has closed meanwhile
            self.app.call_from_thread(self._poll)

    def _tick(self) -> None:
        """Once a second: the clock in the status line; and the source asked (a turn run
        out, who is here, a lost store back) when a watch wakes the screen on changes."""
        if getattr(self.source, "watch", None) is not None:
            self._poll()
        if self._ticking is None and self.source.clock_line():
            self._ticking = self.set_interval(1.0, self._tick)
        clock = self.source.clock_line()
        if clock != self._clock_shown and not self._waiting_handover:
            self._render_status(self.source.view(self.viewer))

    def _render_status(self, view: Mapping[str, Any]) -> None:
        prompt, waiting = self.match.prompt, self.source.waiting()
        # the status's parts go from the last while the line is too long: never a cut word;
        # short of room, a computer's level and the table's id go first (never "…")
        width = max(20, self.app.size.width - 1)
        parts = [x for x in self.ui.status(view).split(" · ") if x]
        lines = [self._status_head(waiting, prompt, brief) for brief in (0, 1, 2)]
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
        self.query_one("#status", Static).update(status, layout=False)  # one line, always

    def _render_picker(self) -> None:
        source = self.source
        match, game = self.match, self.match.game
        prompt = match.prompt
        waiting = source.waiting()
        picker = self.query_one(MovePicker)
        if prompt is None:
            res = game.result(match.state)
            picker.set_prompt(None, f"Game over — {res.summary}   e: results  v: review", False)
        elif waiting is not None:
            picker.set_prompt(None, f"Waiting for players: {waiting}", False)
        elif match.seats[prompt.seat].is_bot:
            picker.set_prompt(prompt, thinking_line(match, prompt), False)
        elif not source.decides(prompt.seat):
            # only who and the phase: another seat's prompt may name its hidden cards
            name = match.seats[prompt.seat].name
            text = f"{name} to move · {prompt.phase or 'play'}"
            if prompt.seat == source.seat:  # the computer plays this seat for you
                text = f"The computer plays for you ({source.clock_line()})"
                if "reclaim" not in source.keys_off:
                    text += " · t: take your seat back"
            picker.set_prompt(None, text, False)
        else:
            name = match.seats[prompt.seat].name
            if source.seat is not None:
                text = f"Your turn: {prompt.text}"
            elif prompt.text.startswith(name):
                text = prompt.text
            else:
                text = f"{name}: {prompt.text}"
            # said in the question, which wraps: a footer that changed with every step of a
            # multi-part move would be rebuilt at nearly every move (tens of milliseconds)
            back = "  (Esc: step back)" if self._can_step_back() else ""
            picker.set_prompt(prompt, f"{text}{back}", True)
            picker.options.focus()
        self._render_log()

    def _status_head(self, waiting: str | None, prompt: Prompt | None, brief: int) -> Text:
        """The status line before the game's own parts: title, whose turn, who reads it;
        `brief` 1 without a computer's level, 2 also without the table's id."""
        source, match = self.source, self.match
        status = Text()
        heading = source.heading if brief < 2 else source.brief_heading
        status.append(f" {match.game.title}{heading}", style="bold")
        # the seat to move comes first: on a narrow terminal the rest is cut, never this
        if waiting is not None:
            status.append(" · waiting for players")
        elif prompt is not None:
            status.append(" · ")
            seat = match.seats[prompt.seat]
            if source.seat is not None and source.decides(prompt.seat):
                status.append("your turn", style="bold reverse")
            else:
                status.append_text(seat_label(prompt.seat, seat.name))
                status.append(" to move")
            if seat.is_bot:
                status.append(" (computer" + ("" if brief else f": {seat.kind}") + ")", "italic")
        else:
            status.append(" · game over", style="bold")
        clock = self._clock_shown = source.clock_line()
        if clock:  # right after whose turn: the part a narrow terminal must not lose
            status.append(f" · ⏱ {clock}", style="bold" if "left" not in clock else "")
        if source.who:
            status.append(f" · {source.who}")
        return status

    def fit_board(self) -> None:
        """The room for the board changed (the move picker grew or shrank): page again."""
        board = self.query_one(BoardView)
        room = self.query_one(BoardRoom).size.height
        if not self.compact or room == board.room:
            return
        board.room = room
        board.refit()
        self._size_board(board)
        self._render_tabs(board)
        self._render_recent()

    def _size_board(self, board: BoardView) -> None:
        """Compact: the board as tall as its page, the log's last lines in the rows left."""
        height: int | str = "1fr"
        if self.compact and board.room:
            height = min(board.page_rows(), board.room)
        if height != self._board_height:
            self._board_height = height
            board.styles.height = height

    def _render_recent(self) -> None:
        """The log's lines before the last, as many as the rows under the board hold."""
        recent = self.query_one("#recent", Static)
        board = self.query_one(BoardView)
        rows = board.room - board.page_rows() if self.compact and board.room else 0
        lines: list[Text] = []
        if rows > 0:
            width = max(10, self.app.size.width - 6)
            entries = self.query_one(GameLog).entries[:-1]
            for n in range(len(entries) - 1, -1, -1):
                left = rows - len(lines)
                if left <= 0:
                    break
                e = entries[n]
                first = n == 0 or entries[n - 1].move != e.move or left == 1
                number = f"{e.number:>3} " if first and e.move else "    "
                text = plain(e.text, style="bold" if e.fresh else "")
                wrapped = list(text.wrap(self.app.console, width))
                if len(wrapped) > left:  # the oldest line shown: its start, then "…"
                    text.truncate(width, overflow="ellipsis")
                    wrapped = [text]
                for k, line in enumerate(wrapped):
                    lead = f"{FRESH_MARK if e.fresh else ' '}{number}" if k == 0 else " " * 5
                    wrapped[k] = Text(lead, style="dim") + line
                lines[:0] = wrapped
        recent.update(Text("\n").join(lines), layout=False)
        recent.styles.height = max(0, rows)

    def _can_step_back(self) -> bool:
        prompt = self.match.prompt
        return prompt is not None and prompt.step > 0 and self.source.decides(prompt.seat)

    def _render_tabs(self, board: BoardView) -> None:
        tabs = self.query_one("#tabs", Static)
        if not self.compact:
            tabs.update("", layout=False)
            return
        titles = board.tab_titles()
        width = self.app.size.width
        t = self._tab_line(board, titles, full=True)
        if len(t) > width:  # the shown tab by its first word too: every tab stays on the line
            t = self._tab_line(board, titles, full=False)
        if board.unseen and len(t) + 11 <= width:
            t.append("  ✱ changed", style="dim")
        t.truncate(width, overflow="ellipsis")
        tabs.update(t, layout=False)

    @staticmethod
    def _tab_line(board: BoardView, titles: list[str], full: bool) -> Text:
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

    def _render_log(self) -> None:
        log = self.query_one(GameLog)
        cursor, viewer = self.match.cursor, self.viewer
        steps = self.match.steps
        fresh = fresh_from(self.match)
        talk = tuple(self.source.talk)
        # one move on: append its lines, unless the earlier lines now read differently: for
        # a new reader (private events) or because a decision ended the computers' marks
        notes = self.source.notes()
        append = (
            len(notes) == self._log_notes
            and talk == self._log_talk
            and 0 <= self._log_cursor == cursor - 1
            and (fresh == self._log_fresh or not any(e.fresh for e in log.entries))
            and (
                viewer == self._log_viewer
                or log_entries(self.match, viewer, cursor - 1 - LOG_REWRITE, cursor - 1)
                == log_entries(self.match, self._log_viewer, cursor - 1 - LOG_REWRITE, cursor - 1)
            )
        )
        if append:
            entries = log_entries(self.match, viewer, cursor - 1, cursor)
        else:
            entries = log_entries(self.match, viewer, cursor - LOG_REWRITE, cursor)
            entries = with_notes(entries, notes, cursor - LOG_REWRITE)
        self._log_notes = len(notes)
        if talk and not append:
            entries = with_talk(entries, talk, cursor - LOG_REWRITE)
        log.show(entries, append=append)
        last, mark = "", "▸"
        if entries:
            last = entries[-1].text
            mark = "»" if entries[-1].talk else mark  # said, not played
        else:  # the last visible line for the one-line log (compact layout)
            for i in range(cursor - 1, max(-1, cursor - 30), -1):
                found = [x for e in steps[i].events if (x := e.for_seat(viewer))]
                if found:
                    last = found[-1]
                    break
        self._log_cursor, self._log_viewer, self._log_fresh = cursor, viewer, fresh
        self._log_talk = talk
        self.query_one("#lastlog", Static).update(
            Text(f" {mark} {last}" if last else "", overflow="ellipsis", no_wrap=True), layout=False
        )
        self._render_recent()

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        """The move list keeps the focus (a click on the board must not take the keys away
        from it); the filter's input may have it while filtering."""
        picker = self.query_one(MovePicker)
        if event.widget is not picker.options and not picker.has_class("filtering"):
            picker.options.focus()

    # ---- moves -------------------------------------------------------------------------
    @on(MovePicker.Chosen)
    def _chosen(self, event: MovePicker.Chosen) -> None:
        self.play(event.move)

    def play(self, move: Move) -> None:
        prompt = self.match.prompt
        if prompt is None or self.match.seats[prompt.seat].is_bot or self._waiting_handover:
            return
        self._stop_computer()
        try:
            self.source.play(move.id)
        except Refused as exc:
            self._refused(exc)
            return
        self.autosave()
        if self.source.shared:  # the turn notices this move owes go out now, off this thread
            self.app.send_notices()
        self.refresh_game()

    def _refused(self, exc: Refused, highlight: bool = True) -> None:
        """Say why (a store that cannot be used: a dialog, once) and draw what is there."""
        if not exc.dialog:
            self.notify(str(exc), severity=exc.severity)  # type: ignore[arg-type]
        elif not self._store_warned:
            self._store_warned = True
            self.app.push_screen(MessageScreen("The table store has a problem", str(exc)))
        if exc.reloaded:
            self.refresh_game(highlight)

    def _poll(self) -> None:
        """Anything new from the other terminals at this table?"""
        try:
            moved = self.source.changed()
        except Refused as exc:
            self._refused(exc)
            return
        if moved:
            self.refresh_game()
        elif moved is not None:
            self._start_computer()

    def on_key(self, event: events.Key) -> None:
        if key_to_top(self, event):  # a key on its way as the rules or a dialog opened
            return
        picker = self.query_one(MovePicker)
        if picker.has_class("filtering"):
            return
        char = event.character or ""
        move = picker.hotkey(char) if char else None
        if move is not None:
            event.stop()
            event.prevent_default()
            self.play(move)

    def autosave(self) -> None:
        """Queue the match for writing (a background thread writes it atomically); a shared
        table has every move in its store the moment it is played."""
        if self.source.shared:
            return
        path = saves.autosave_path(self.match, self.app.saves_dir)
        self.app.autosaver.submit(path, saves.dumps(self.match), wait=self.match.over)
        self.app.last_autosave = str(path)

    # ---- computer players ---------------------------------------------------------------
    def _start_computer(self) -> None:
        try:
            turn = self.source.computer()
        except Refused as exc:
            self._refused(exc)
            return
        if turn is not None:
            self._think(turn)

    def _stop_computer(self) -> None:
        """The position changes here: a computer's answer on its way is for another one."""
        self.workers.cancel_group(self, "computer")

    @work(thread=True, exclusive=True, group="computer")
    def _think(self, turn: ComputerTurn) -> None:
        worker = get_current_worker()
        started = time.monotonic()
        problem = None
        try:
            move_id = turn.think()
        except Exception as exc:  # a bot bug must not end the game: fall back to random
            move_id = fallback_move(turn)
            name = self.match.seats[turn.seat].name
            problem = bot_error_message(name, write_error(f"computer player {name}", exc))
        self.post_message(ComputerMove(worker, turn, move_id, problem, started))

    @on(ComputerMove)
    def _computer_found(self, message: ComputerMove) -> None:
        if message.problem:
            self.notify(message.problem, severity="warning", timeout=10)
        # the move shows `bot_delay` after the turn began (people follow it), or when found;
        # the further steps of one computer's turn (the cards it commits one by one, the area
        # for the token it chose) follow at once: one pause a turn, not one a step
        # (a turn this screen did not see begin, on opening a game, pauses once too)
        m = self.match
        same_turn = (
            m.cursor == self._computer_cursor
            and m.cursor > 0
            and m.steps[m.cursor - 1].seat == message.turn.seat
        )
        wait = 0.0 if same_turn else self.bot_delay - (time.monotonic() - message.started)
        if wait > 0 and not message.worker.is_cancelled:
            self.set_timer(wait, lambda: self._computer_moved(message))
        else:
            self._computer_moved(message)

    def _computer_moved(self, message: ComputerMove) -> None:
        # a cancelled one (undo, review, leaving) is dropped: the source forgets it
        keep = not message.worker.is_cancelled and self.is_attached
        try:
            played = self.source.computer_done(message.turn, message.move_id if keep else None)
        except Refused as exc:
            self._refused(exc)
            return
        if played and self.is_attached:
            self._computer_cursor = self.match.cursor
            self.autosave()
            self.refresh_game()

    # ---- hints -------------------------------------------------------------------------
    def _position(self) -> tuple[int, tuple[str, ...]]:
        prompt = self.match.prompt
        return (self.match.cursor, tuple(prompt.ids()) if prompt else ())

    def _hide_hint(self) -> None:
        self.workers.cancel_group(self, "hint")  # a search still running stops at its next report
        self._hint_at = None
        self.query_one(HintPanel).hide()

    def action_hint(self) -> None:
        """Show (or hide) the strong player's suggestion for the seat to move."""
        m = self.match
        prompt = m.prompt
        if self._hint_at is not None:
            self._hide_hint()
            return
        if self.strict:
            self.notify("Hints are off in this game (strict rules).", severity="warning")
            return
        if prompt is None:
            self.notify("The game is over: no decision to hint at.")
            return
        if m.seats[prompt.seat].is_bot or self._waiting_handover or prompt.seat != self.viewer:
            self.notify("A hint is for your own decision: wait for your turn.")
            return
        self._hint_at = self._position()
        self.query_one(HintPanel).show_thinking(m.seats[prompt.seat].name)
        from boardgames_tui.engine.bots.analysis import decision_seed
        from boardgames_tui.engine.bots.coach import Coach
        from boardgames_tui.engine.bots.search import default_think

        game = m.game
        number = m.cursor + 1
        coach = Coach(
            game,
            seed=decision_seed(m, number),
            think=HINT_THINK * (default_think() if self.think is None else self.think),
        )
        state = game.clone(m.state)  # the live state moves on with the next move

        self._search_hint(coach, state, prompt)

    @work(thread=True, exclusive=True, group="hint")
    def _search_hint(self, coach: Coach, state: Any, prompt: Prompt) -> None:
        worker = get_current_worker()

        def progress(values: list[OptionValue], done: int) -> bool:
            if worker.is_cancelled:
                return False
            self.post_message(HintValues(worker, values, done, False))
            return True

        try:
            values = coach.values(state, prompt, progress=progress)
        except Exception as exc:  # a search bug must not end the game
            problem = hint_error_message(write_error("hint", exc))
            self.post_message(HintValues(worker, [], 0, True, problem))
            return
        self.post_message(HintValues(worker, values, coach.last_iterations, True))

    @on(HintValues)
    def _hint_values(self, message: HintValues) -> None:
        if message.problem:
            self.notify(message.problem, severity="warning", timeout=10)
        if message.worker.is_cancelled or not self.is_attached or not message.values:
            return
        prompt = self.match.prompt
        if prompt is None:
            return
        self.match.hints.add(self.match.cursor + 1)  # this decision was taken with help
        self.query_one(HintPanel).show_values(
            message.values,
            prompt.ids(),
            self.match.game.cooperative,
            message.done,
            message.final,
            keys=self.query_one(MovePicker).keys,  # the picker's (a table keeps c for talk)
        )

    # ---- actions -----------------------------------------------------------------------
    def action_undo(self) -> None:
        if self.strict:
            self.notify("Undo is off in this game (strict rules).", severity="warning")
            return
        reasons = self.source.undo_reasons(self.viewer)
        if reasons is None:
            self.notify("Nothing to undo.")
            return

        def do(ok: bool | None = True) -> None:
            if ok:
                self._change(self.source.undo)

        if reasons:
            why = "; ".join(reasons)
            # only the first letter up: "It takes back Ann's move", never "ann's"
            self.app.push_screen(ConfirmScreen(f"Undo? {why[0].upper()}{why[1:]}."), do)
        else:
            do()

    def _change(self, step: Callable[[], None], highlight: bool = False) -> None:
        """Move the position from here (undo, redo, step back), keep it and draw it."""
        self._stop_computer()
        try:
            step()
        except Refused as exc:
            self._refused(exc, highlight)
            return
        self.autosave()
        self.refresh_game(highlight=highlight)

    def action_redo(self) -> None:
        if not self.source.can_redo():
            self.notify("Nothing to redo.")
            return
        self._change(self.source.redo, highlight=True)

    def action_save(self) -> None:
        refusal = self.source.save_refusal()
        if refusal:
            self.notify(refusal, severity="warning")
            return
        m = self.match
        default = m.save_path or str(
            saves.saves_dir(self.app.saves_dir) / f"{m.game.id}-{m.seed}.toml"
        )
        confine = self.app.launch.confine
        if confine:  # a name in the player's own folder, never a path
            default = f"{m.game.id}-{m.seed}"

        def do(path: str | None) -> None:
            if not path:
                return
            if confine:
                from boardgames_tui.session.confine import ConfineError, confined_path

                try:
                    path = str(confined_path(path, self.app.saves_dir))
                except ConfineError as exc:
                    self.app.push_screen(MessageScreen("Could not save", str(exc)))
                    return
            # a bare name goes into the saves folder, not wherever the app was started
            target = Path(path).expanduser()
            if not target.is_absolute():
                target = saves.saves_dir(self.app.saves_dir) / target
            if target.suffix != ".toml":
                target = target.with_name(target.name + ".toml")
            path = str(target)
            try:
                saves.save(m, path)
            except (OSError, ValueError) as exc:
                self.app.push_screen(MessageScreen("Could not save", f"{path}: {exc}"))
                return
            self.notify(f"Saved to {path}")

        self.app.push_screen(SaveAsScreen(default), do)

    def action_review(self) -> None:
        from boardgames_tui.tui.screens.review import ReviewScreen

        source = self.source

        def back(result: int | None) -> None:
            try:
                if result is not None:
                    source.goto(result)
                    self._end_shown = False
                    self.autosave()
                source.reload()  # a table: what the others played meanwhile
            except Refused as exc:
                self._refused(exc, highlight=False)
            self.refresh_game(highlight=False)

        self._stop_computer()
        viewer = None if self.match.over else self.viewer
        # at a table no continuing from an earlier move; a spectator sees the public view
        review = ReviewScreen(
            self.match,
            viewer,
            allow_continue=not source.shared,
            public=source.shared and viewer == PUBLIC,
            analysis=not getattr(source, "rated_in_play", bool)(),
        )
        self.app.push_screen(review, back)

    def action_rules(self) -> None:
        """The rules reference: made once per game screen, then shown again as it was (the
        place read in it kept); the text is prepared in a thread soon after the screen opens."""
        from boardgames_tui.tui.screens.rules import RulesScreen

        name = f"rules-{id(self)}"
        if not self.app.is_screen_installed(name):
            game, options = self.match.game, self.match.options
            self.app.install_screen(RulesScreen(game, options, self._rules_text), name)
        self.app.push_screen(name)

    @work(thread=True, exclusive=True, group="rules", exit_on_error=False)
    def _prepare_rules(self) -> None:
        from boardgames_tui.tui.screens.rules import prepare, text_width

        width = text_width(self.app.size.width)
        text = prepare(self.match.game, self.match.options, width, self.app.console)
        self._rules_text = self._rules_text or text

    def action_help(self) -> None:
        from boardgames_tui.tui.screens.rules import phase_help

        prompt = self.match.prompt
        phase = explanation = ""
        if prompt is not None:
            name = self.match.seats[prompt.seat].name
            asked = prompt.text_for(self.viewer)
            text = asked if asked.startswith(name) else f"{name}: {asked}"
            phase = f"Now: {prompt.phase or 'play'} — {text}"
            status = self.ui.status(self.current_view()) or ""
            terms = [prompt.phase, *status.split(" · ")]
            explanation = phase_help(
                self.match.game.rules_reference(self.match.options), [t for t in terms if t]
            )

        def after(result: str | None) -> None:
            if result == "rules":
                self.action_rules()

        # the keys this screen offers: a table has no redo, a spectator no undo or hint
        off = {ACTION_KEYS[a] for a in self.source.keys_off if a in ACTION_KEYS}
        rows = [row for row in KEY_ROWS if row[0] not in off]
        if "bell" not in self.source.keys_off:
            rows.insert(-2, ("b", "bell on or off when it becomes your turn"))
        if "say" not in self.source.keys_off:
            rows.insert(-2, ("c", "say something at the table (shown in the log, marked »)"))
        keymap = self.app.settings.keys
        rows = [
            (keymap[ROW_IDS[k]].replace(",", " / ") if ROW_IDS.get(k) in keymap else k, what)
            for k, what in rows
        ]
        self.app.push_screen(
            HelpScreen(self.match.game.title, phase, rows=rows, explanation=explanation), after
        )

    def action_leave(self) -> None:
        self._stop_computer()
        self.workers.cancel_group(self, "hint")
        self.autosave()
        self.app.autosaver.flush()  # the menu's "continue" must find this game
        self.app.pop_screen()

    def action_log(self) -> None:
        from boardgames_tui.tui.screens.log import LogScreen

        self.app.push_screen(LogScreen(self.match, self.viewer))

    def action_reclaim(self) -> None:
        """Take back the seat the computer plays for you (a shared table)."""
        self._stop_computer()
        try:
            said = self.source.reclaim()
        except Refused as exc:
            self._refused(exc)
            return
        self.notify(said)
        self.refresh_bindings()
        self.refresh_game(highlight=False)

    def action_bell(self) -> None:
        launch = self.app.launch
        launch.bell = not launch.bell
        self.notify(f"Bell {'on' if launch.bell else 'off'} when it becomes your turn.")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # keys that do nothing with this source (a table: redo; a spectator: undo, bell)
        if action in self.source.keys_off:
            return False
        if action == "say_footer":  # the same key as "say", shown only where it fits
            return "say" not in self.source.keys_off and not self.compact
        # the compact layout has no log panel: PgUp/PgDn page the move list there
        if action == "log_page":
            return not self.compact
        if action == "back":  # Esc steps back out of a multi-part move, or clears a filter
            return self._can_step_back() or self.query_one(MovePicker).has_class("filtering")
        return True

    def action_log_page(self, delta: int) -> None:
        self.query_one(GameLog).page(delta)

    def action_filter(self) -> None:
        self.query_one(MovePicker).start_filter()
        self.refresh_bindings()

    def action_back(self) -> None:
        picker = self.query_one(MovePicker)
        if picker.clear_filter():
            return
        if self._can_step_back():
            self._change(self.source.step_back)

    def action_cycle(self, delta: int) -> None:
        board = self.query_one(BoardView)
        if not self.compact:
            # every panel is on screen: nothing to switch, and the move picker keeps the focus
            self.query_one(MovePicker).options.focus()
            return
        board.cycle(delta)
        self._size_board(board)
        self._render_tabs(board)
        self._render_recent()

    def action_results(self) -> None:
        if not self.match.over:
            return
        from boardgames_tui.tui.screens.end import EndScreen

        def after(choice: str | None) -> None:
            if choice == "review":
                self.action_review()
            elif choice == "menu":
                self.app.pop_screen()
            elif choice == "rematch":
                self.action_rematch()

        rematch = bool(getattr(self.source, "can_rematch", lambda: False)())
        note = str(getattr(self.source, "counts_note", str)())  # a table: rated or why not
        self.app.push_screen(EndScreen(self.match, rematch=rematch, note=note), after)

    def action_rematch(self) -> None:
        """A finished table: open its rematch (the same people, the next seat starting)."""
        from boardgames_tui.session.table_source import TableSource

        source = self.source
        if not isinstance(source, TableSource) or not source.can_rematch():
            return
        try:
            table_id = source.rematch()
        except Refused as exc:
            self._refused(exc)
            return
        self.app.pop_screen()
        self.app.open_shared_table(table_id, join=True)
        self.app.notify(
            f"Rematch: table {table_id}. The others find it offered under Shared tables."
        )

    def action_say_footer(self) -> None:
        self.action_say()

    def action_say(self) -> None:
        """The message line: say something at the table (kept apart from the moves)."""
        from boardgames_tui.tui.screens.dialogs import TalkScreen

        def said(text: str | None) -> None:
            if not text:
                return
            say = getattr(self.source, "say", None)
            if say is None:
                return
            try:
                say(text)
            except Refused as exc:
                self._refused(exc)
                return
            self._render_log()

        self.app.push_screen(TalkScreen(), said)
