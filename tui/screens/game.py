"""The game screen: status line, board panels, move picker, log; the keys' actions are in
`game_actions`.

One screen for a local match and a shared table: it drives a `Session`
(`boardgames_tui.session.play`) and draws each `Position` it makes, by area (the widgets of
`tui.widgets.areas`). Computer players and hints think in thread workers (one at a time each:
a new one cancels the last) and answer with messages.
"""

from __future__ import annotations

import contextlib
import gc
import time
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from textual import events, on, work
from textual.app import ComposeResult, ScreenStackError
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.timer import Timer
from textual.widgets import Footer
from textual.worker import Worker, get_current_worker

from boardgames_tui.engine.core import PUBLIC, Match
from boardgames_tui.engine.core.protocol import Move
from boardgames_tui.session.errors import bot_error_message, write_error
from boardgames_tui.session.play import Handover, Position, Session
from boardgames_tui.session.source import ComputerTurn, LocalSource, Refused, Source
from boardgames_tui.tui.games import ui_for
from boardgames_tui.tui.screens.base import key_to_top
from boardgames_tui.tui.screens.dialogs import HandoverScreen, MessageScreen, SeenScreen
from boardgames_tui.tui.screens.game_table import TableUpdates
from boardgames_tui.tui.widgets.areas import (
    LogWriter,
    RecentLines,
    StatusLine,
    TabLine,
    Unchanged,
    thinking_line,
    with_notes,
)
from boardgames_tui.tui.widgets.board import BoardView
from boardgames_tui.tui.widgets.hint import HintPanel
from boardgames_tui.tui.widgets.log import GameLog
from boardgames_tui.tui.widgets.picker import MovePicker

if TYPE_CHECKING:
    from boardgames_tui.tui.screens.rules import Prepared

__all__ = ["GameScreen", "thinking_line", "with_notes"]

COMPACT_WIDTH = 110
COMPACT_HEIGHT = 40  # the wide board is laid out for 40 rows: below that, tabs (nothing cut)
LOG_KEEP = 300
RULES_PREPARE = 1.5  # seconds after the screen opens: the rules reference is parsed in a thread
GC_YOUNG = 10_000  # allocations between the collector's youngest passes (Python's: 700)


def collect_less() -> None:
    """Once a process, as the first game opens: the objects made so far (the app, its
    screens and widgets) are left out of the garbage collector's passes, and its youngest
    pass waits for more allocations.

    Drawing a move allocates thousands of short-lived objects: with Python's defaults the
    collector cost about as much as the drawing (a pass over all the app's objects every
    ten moves or so), on every screen at a table. Objects freed by their last reference
    never wait for a pass; only cycles do, and they are few.
    """
    if gc.get_threshold()[0] >= GC_YOUNG:
        return
    gc.freeze()
    _, middle, old = gc.get_threshold()
    gc.set_threshold(GC_YOUNG, middle, old)


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


class BoardRoom(Vertical):
    """The rows between the status and the move picker: the board, and in the compact layout
    the last lines of the log below the panels in the rows they leave."""

    def on_resize(self, event: events.Resize) -> None:
        screen = self.screen
        if isinstance(screen, GameScreen):
            screen.fit_board()


class GameScreen(TableUpdates):
    """Plays a match: every decision goes through the move picker."""

    def __init__(
        self,
        source: Match | Source | Session,
        handover: bool | None = None,
        strict: bool | None = None,
        bot_delay: float = 0.6,
        think: float | None = None,
    ) -> None:
        collect_less()  # before this screen exists: a first game left is not kept for ever
        super().__init__()
        if isinstance(source, Match):
            if handover is not None:
                source.settings["handover"] = handover
            if strict is not None:
                source.settings["strict"] = strict
            source = LocalSource(source, think=think)
        self.session = source if isinstance(source, Session) else Session(source)
        self.ui = ui_for(self.match.game.id)
        self.bot_delay = bot_delay
        self.think = think  # strong players' seconds per decision (None: the default)
        self._store_warned = False
        self._clock_shown = ""
        self._hint_at: tuple[int, tuple[str, ...]] | None = None  # (cursor, option ids)
        self._log = LogWriter()
        self._said = 0  # the last position whose news and bell were given
        self._end_shown = False
        self._ticking: Timer | None = None  # the once-a-second tick, while a clock shows
        self._computer_cursor = -1  # the position right after a computer's move played here
        self._waiting_handover = False
        self._handover_later = False  # a hand-over waits for the window to be big enough
        self.compact = False
        self._board_height: int | str = "1fr"
        self._rules_text: Prepared | None = None  # the rules reference, laid out

    # ---- layout ------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield StatusLine("", id="status")
        yield TabLine("", id="tabs")
        with BoardRoom(id="upper"):
            yield BoardView(self.ui, id="board")
            yield RecentLines("", id="recent")
        with Horizontal(id="bottom"):
            yield MovePicker(id="picker")
            yield HintPanel(id="hint")
            yield GameLog(id="log", max_lines=LOG_KEEP)
        yield Unchanged("", id="lastlog")
        yield Footer(show_command_palette=False)

    @property
    def source(self) -> Source:
        """Where the moves come from (a local match or a table)."""
        return self.session.source

    @property
    def match(self) -> Match:
        """The position (a table's is read again after every change)."""
        return self.session.match

    @property
    def viewer(self) -> int | None:
        """Who reads the screen: a table's seat, the seat to move (hotseat), or the public."""
        return self.session.viewer

    @property
    def strict(self) -> bool:
        return self.session.facts.strict

    def on_mount(self) -> None:
        self.session.autosaver = self.app.autosaver
        self.session.saves_dir = self.app.saves_dir
        self._apply_size()
        # letters the settings gave this screen's keys are never a move's hotkey
        reserved = {
            k
            for ident, keys in self.app.settings.keys.items()
            if ident.startswith("game.")
            for k in keys.split(",")
            if len(k) == 1
        }
        facts = self.session.facts
        if "say" not in facts.keys_off:  # c opens the message line, never a move
            reserved.add("c")
        self.query_one(MovePicker).reserved = frozenset(reserved)
        self.refresh_game(highlight=False)
        self.set_timer(RULES_PREPARE, self._prepare_rules)  # off the first moves' path
        if facts.poll_seconds:  # moves by others (a shared table)
            self._follow_table(facts.poll_seconds)
        if self.app.launch.confine:  # a room's session: a reconnect comes back here
            from boardgames_tui.session import place

            place.note(self.app.saves_dir, self.room_place())

    def on_unmount(self) -> None:
        self.session.close()
        name = f"rules-{id(self)}"
        if self.app.is_screen_installed(name):
            with contextlib.suppress(ScreenStackError):  # the app closing: it goes with it
                self.app.uninstall_screen(name)
        if self.app.launch.confine:
            from boardgames_tui.session import place

            place.note(self.app.saves_dir, None)

    def room_place(self) -> dict[str, str]:
        """Where this screen is, for a reconnect: the game's autosave, or the table."""
        return self.session.place()

    def on_screen_resume(self) -> None:
        if self._handover_later and not self.app.too_small:
            self._handover_later = False
            self.refresh_game(highlight=False)

    def on_resize(self, event: events.Resize) -> None:
        self._apply_size()
        # panels are pre-rendered at the column width, so any new size redraws them
        if not self._waiting_handover:
            self._log.cursor = -1  # so is the log: write it again at the new width
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
        """Draw the session's position: hand over if owed, say its news, start a computer."""
        pos = self.session.position
        if pos.n != self._said:
            self._said = pos.n
            for line in pos.news:  # a move taken back at another terminal
                self.notify(line, timeout=10)
            if pos.bell and self.app.launch.bell:
                self.app.bell()
        if self.session.last_autosave:
            self.app.last_autosave = self.session.last_autosave
        if pos.handover is not None:
            self._show_handover(pos.handover)
            return
        self.render_board(highlight)
        if pos.prompt is None:
            if not self._end_shown:
                self._end_shown = True
                self.call_after_refresh(self.action_results)
            return
        self._start_computer()

    def _show_handover(self, handover: Handover) -> None:
        if self._waiting_handover:
            return
        if self.app.too_small:  # under the "too small" screen it would go unseen
            self._handover_later = True
            return
        self._waiting_handover = True
        seat, name, what = handover.seat, handover.name, handover.what

        def done(ready: bool | None) -> None:
            self._waiting_handover = False
            if ready:
                self.session.hand_over(seat)
                self.refresh_game(highlight=False)
            else:
                self.app.pop_screen()

        if handover.seen and handover.holder is not None:

            def then(ready: bool | None) -> None:
                self.session.seen_said()  # said once
                if ready:
                    self.app.push_screen(HandoverScreen(seat, name, what), done)
                else:
                    done(False)

            seen = list(handover.seen)
            holder, holder_name = handover.holder, handover.holder_name
            self.app.push_screen(SeenScreen(holder, holder_name, seen, name), then)
            return
        self.app.push_screen(HandoverScreen(seat, name, what), done)

    def current_view(self) -> Mapping[str, Any]:
        return self.session.position.view

    def render_board(self, highlight: bool = True) -> None:
        pos = self.session.position
        board = self.query_one(BoardView)
        # a spectator's board is the public one: no seat of its own in it
        board_viewer = None if pos.viewer == PUBLIC and pos.facts.shared else pos.viewer
        board.room = self.query_one(BoardRoom).size.height
        board.show(pos.view, board_viewer, self.compact, highlight=highlight)
        self._size_board(board)
        self._render_status(pos)
        self.query_one(TabLine).show(board, self.compact, self.app.size.width)
        if self._hint_at is not None and self._hint_at != self._position():
            self._hide_hint()  # the hint was for another decision
        self._render_picker(pos)

    def _render_status(self, pos: Position) -> None:
        self._clock_shown = clock = self.session.clock()
        status = self.ui.status(pos.view)
        self.query_one(StatusLine).show(pos, clock, status, self.app.size.width)

    def _render_picker(self, pos: Position) -> None:
        match, prompt, facts = pos.match, pos.prompt, pos.facts
        picker = self.query_one(MovePicker)
        if prompt is None:
            res = match.game.result(match.state)
            picker.set_prompt(None, f"Game over — {res.summary}   e: results  v: review", False)
        elif facts.waiting is not None:
            picker.set_prompt(None, f"Waiting for players: {facts.waiting}", False)
        elif pos.computer:
            picker.set_prompt(prompt, thinking_line(match, prompt), False)
        elif not pos.decides:
            # only who and the phase: another seat's prompt may name its hidden cards
            name = match.seats[prompt.seat].name
            text = f"{name} to move · {prompt.phase or 'play'}"
            if prompt.seat == facts.seat:  # the computer plays this seat for you
                text = f"The computer plays for you ({self.session.clock()})"
                if "reclaim" not in facts.keys_off:
                    text += " · t: take your seat back"
            picker.set_prompt(None, text, False)
        else:
            name = match.seats[prompt.seat].name
            if facts.seat is not None:
                text = f"Your turn: {prompt.text}"
            elif prompt.text.startswith(name):
                text = prompt.text
            else:
                text = f"{name}: {prompt.text}"
            # said in the question, which wraps: a footer that changed with every step of a
            # multi-part move would be rebuilt at nearly every move (tens of milliseconds)
            back = "  (Esc: step back)" if self.session.can_step_back() else ""
            picker.set_prompt(prompt, f"{text}{back}", True)
            picker.options.focus()
        self._render_log()

    def fit_board(self) -> None:
        """The room for the board changed (the move picker grew or shrank): page again."""
        board = self.query_one(BoardView)
        room = self.query_one(BoardRoom).size.height
        if not self.compact or room == board.room:
            return
        board.room = room
        board.refit()
        self._size_board(board)
        self.query_one(TabLine).show(board, self.compact, self.app.size.width)
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
        entries = self.query_one(GameLog).entries[:-1]
        board = self.query_one(BoardView)
        self.query_one(RecentLines).show(board, entries, self.compact, self.app.size.width)

    def _render_log(self) -> None:
        last = self.query_one("#lastlog", Unchanged)
        self._log.write(self.session.position, self.query_one(GameLog), last)
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
        pos = self.session.position
        if pos.prompt is None or pos.computer or self._waiting_handover:
            return
        self._stop_computer()
        try:
            self.session.play(move.id)
        except Refused as exc:
            self._refused(exc)
            return
        if self.session.shared:  # the turn notices this move owes go out now, off this thread
            self.app.send_notices()
        self.refresh_game()

    def _change(self, step: Callable[[], object], highlight: bool = False) -> None:
        """Move the position from here (undo, redo, step back) and draw it."""
        self._stop_computer()
        try:
            step()
        except Refused as exc:
            self._refused(exc, highlight)
            return
        self.refresh_game(highlight=highlight)

    def _refused(self, exc: Refused, highlight: bool = True) -> None:
        """Say why (a store that cannot be used: a dialog, once) and draw what is there."""
        if not exc.dialog:
            self.notify(str(exc), severity=exc.severity)  # type: ignore[arg-type]
        elif not self._store_warned:
            self._store_warned = True
            self.app.push_screen(MessageScreen("The table store has a problem", str(exc)))
        if exc.reloaded:
            self.refresh_game(highlight)

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

    # ---- computer players ---------------------------------------------------------------
    def _start_computer(self) -> None:
        try:
            turn = self.session.computer()
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
        move_id, error = self.session.think(turn)
        problem = None
        if error is not None:  # a bot bug must not end the game: a random move instead
            name = self.match.seats[turn.seat].name
            problem = bot_error_message(name, write_error(f"computer player {name}", error))
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
            move_id = message.move_id if keep else None
            played = self.session.computer_done(message.turn, move_id)
        except Refused as exc:
            self._refused(exc)
            return
        if played and self.is_attached:
            self._computer_cursor = self.match.cursor
            self.refresh_game()

    def autosave(self) -> None:
        """Queue the match for writing (a shared table keeps every move in its store)."""
        self.session.autosave()
        if self.session.last_autosave:
            self.app.last_autosave = self.session.last_autosave

    def _position(self) -> tuple[int, tuple[str, ...]]:
        prompt = self.match.prompt
        return (self.match.cursor, tuple(prompt.ids()) if prompt else ())
