"""Shared tables in the app: the list (yours, open, others), a new table, and the table screen.

The table screen is the game screen from your seat: no hand-over screens, moves by the other
players appear by themselves (the store is polled: `PRAGMA data_version` costs next to
nothing), a bell rings when it becomes your turn, and every move goes through the store,
which checks the seat, the turn, the move and the move number in one transaction.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Footer, Input, Label, Select, Static, Switch
from textual.widgets.option_list import Option

from engine.core import PUBLIC, Match, all_games, get_game
from engine.core.protocol import Move
from engine.tables import (
    FINISHED,
    WAITING,
    Disconnected,
    Refused,
    Stale,
    StoreError,
    StoreUnavailable,
    TableInfo,
    TableStore,
    open_store,
    parse_seats,
    public_view,
    view_for,
)
from engine.tables.computer import choose, computer_to_move, lease_owner

from ..games import ui_for
from ..text import seat_label
from ..widgets.board import BoardView
from ..widgets.picker import MovePicker
from ..widgets.picker import SafeOptionList as OptionList
from .dialogs import MessageScreen, ScreenHelp
from .game import GameScreen
from .review import ReviewScreen

if TYPE_CHECKING:
    from ..app import BoardgamesApp

POLL_SECONDS = 0.15  # how often a table screen asks the store "anything new?" (microseconds each)
SPECTATOR = PUBLIC  # the log's reader for a spectator: every private line reads as its public text


def table_store(app: BoardgamesApp) -> TableStore:
    """The app's store, opened on first use (StoreError if it cannot be)."""
    store = getattr(app, "_table_store", None)
    if store is None:
        store = open_store(app.launch.store)
        app._table_store = store  # type: ignore[attr-defined]
    return store


def open_table(app: BoardgamesApp, table_id: str, join: bool = True) -> None:
    """Sit down at a table (taking an open seat if `join`) or watch it; errors as a dialog."""
    try:
        store = table_store(app)
        if join:
            store.join(table_id, app.launch.table_user())
        screen = TableScreen(store, table_id, app.launch.table_user(), think=app.think)
    except StoreError as exc:
        app.push_screen(MessageScreen("Cannot open the table", str(exc)))
        return
    app.push_screen(screen)


# ---- the list ------------------------------------------------------------------------------
class TablesScreen(ScreenHelp, Screen[None]):
    """Your tables (your turn marked), open tables to join, and the others to watch."""

    HELP_TITLE = "Shared tables"
    BINDINGS = [
        Binding("n", "new", "New table"),
        Binding("w", "watch", "Watch"),
        Binding("question_mark", "help", "Help"),
        Binding("escape,q", "close", "Back"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.infos: dict[str, TableInfo] = {}
        self._version: int | None = None

    def compose(self) -> ComposeResult:
        with Vertical(id="tables"):
            yield Static("", id="tables-head")
            yield OptionList(id="tables-list")
            yield Static("", id="tables-note")
        yield Footer()

    @property
    def app_(self) -> BoardgamesApp:
        return self.app  # type: ignore[return-value]

    def on_mount(self) -> None:
        user = self.app_.launch.table_user()
        self.query_one("#tables-head", Static).update(
            Text.assemble(
                ("Shared tables", "bold"),
                f" · you are {user} · Enter: play or join · w: watch · n: new table",
            )
        )
        self.refill()
        self.set_interval(1.0, self._poll)

    def on_screen_resume(self) -> None:
        self.refill()

    def _poll(self) -> None:
        store = getattr(self.app, "_table_store", None)
        if store is None or self.app.screen is not self:
            return
        try:
            v = store.version()
        except StoreError:
            return
        if v != self._version:
            self._version = v
            self.refill()

    def refill(self) -> None:
        ol = self.query_one(OptionList)
        note = self.query_one("#tables-note", Static)
        user = self.app_.launch.table_user()
        try:
            store = table_store(self.app_)
            infos = store.tables()
            self._version = store.version()
        except StoreError as exc:
            ol.clear_options()
            ol.add_option(Option(Text(str(exc), style="bold red"), id="none", disabled=True))
            note.update("")
            return
        highlighted = ol.highlighted
        self.infos = {i.id: i for i in infos}
        groups: dict[str, list[TableInfo]] = {"yours": [], "open": [], "others": []}
        for i in infos:
            if i.seat_of(user) is not None:
                groups["yours"].append(i)
            elif i.status == WAITING:
                groups["open"].append(i)
            else:
                groups["others"].append(i)
        groups["yours"].sort(key=lambda i: (not i.your_turn(user), i.finished))
        heads = {
            "yours": "Your tables",
            "open": "Open tables: Enter takes a seat",
            "others": "Other tables: Enter watches",
        }
        ol.clear_options()
        for key, rows in groups.items():
            if not rows:
                continue
            ol.add_option(Option(Text(heads[key], style="bold"), disabled=True))
            for i in rows:
                ol.add_option(Option(self._row(i, user), id=i.id))
        if not infos:
            ol.add_option(
                Option(Text("No tables yet: n creates one.", style="italic"), disabled=True)
            )
        if highlighted is not None and highlighted < ol.option_count:
            ol.highlighted = highlighted
        else:
            first = next(
                (k for k in range(ol.option_count) if not ol.get_option_at_index(k).disabled), None
            )
            ol.highlighted = first
        ol.focus()
        note.update(Text(f"store: {store.path}", style="dim"))

    @staticmethod
    def _row(i: TableInfo, user: str) -> Text:
        t = Text()
        t.append(f" {i.id} ", style="bold reverse")
        t.append(f"  {get_game(i.game).title}", style="bold")
        t.append(f" · {', '.join(s.label for s in i.seats)} · ")
        if i.your_turn(user):
            t.append(" your turn ", style="bold reverse green")
        elif i.status == FINISHED:
            t.append("finished", style="dim")
        elif i.status == WAITING:
            t.append(f"{sum(s.is_open for s in i.seats)} open seat(s)", style="italic")
        else:
            t.append(f"move {i.moves} · {i.to_move} to move", style="dim")
        return t

    @on(OptionList.OptionSelected, "#tables-list")
    def _picked(self, event: OptionList.OptionSelected) -> None:
        if event.option.id in self.infos:
            open_table(self.app_, event.option.id, join=True)

    def action_watch(self) -> None:
        ol = self.query_one(OptionList)
        if ol.highlighted is None:
            return
        tid = ol.get_option_at_index(ol.highlighted).id
        if tid in self.infos:
            open_table(self.app_, tid, join=False)

    def action_new(self) -> None:
        self.app.push_screen(NewTableScreen())

    def action_close(self) -> None:
        self.dismiss(None)


# ---- a new table ---------------------------------------------------------------------------
class NewTableScreen(ScreenHelp, Screen[None]):
    """Game, seats (users, open, computer levels), seed, options, strict."""

    HELP_TITLE = "New shared table"
    BINDINGS = [
        Binding("escape", "close", "Back"),
        Binding("ctrl+s", "create", "Create"),
        Binding("question_mark", "help", "Help", show=False),
    ]

    def compose(self) -> ComposeResult:
        games = [(g.title, g.id) for g in all_games()]
        with Vertical(id="setup"):
            yield Static("[b]New shared table[/]  (Enter in a field or Ctrl+S creates it)")
            with Horizontal(classes="row"):
                yield Label("Game", classes="label")
                yield Select(games, value=games[0][1], allow_blank=False, id="table-game")
            with Horizontal(classes="row"):
                yield Label("Seats", classes="label")
                yield Input("me,open", id="table-seats")
            yield Static(
                "  users (me is you), open (the first to join) or random, greedy, strong",
                classes="hint",
            )
            with Horizontal(classes="row"):
                yield Label("Seed", classes="label")
                yield Input(placeholder="random", id="table-seed", restrict=r"[0-9]*")
            with Horizontal(classes="row"):
                yield Label("Options", classes="label")
                yield Input(placeholder="KEY=VALUE …", id="table-options")
            yield Static("", id="table-options-hint", classes="hint")
            with Horizontal(classes="row"):
                yield Label("Strict (no undo)", classes="label")
                yield Switch(value=False, id="table-strict")
            yield Static("", id="table-error")
        yield Footer()

    @property
    def app_(self) -> BoardgamesApp:
        return self.app  # type: ignore[return-value]

    def on_mount(self) -> None:
        self._show_options()
        self.query_one("#table-seats", Input).focus()

    @on(Select.Changed, "#table-game")
    def _show_options(self, event: Any = None) -> None:
        game = get_game(str(self.query_one("#table-game", Select).value))
        hint = "  " + " · ".join(
            f"{o.key}={'|'.join(v for v, _ in o.choices)}" for o in game.options
        )
        n = f"{game.min_players}-{game.max_players} seats"
        self.query_one("#table-options-hint", Static).update(f"{hint}  ({n})")

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_create()

    def action_create(self) -> None:
        error = self.query_one("#table-error", Static)
        user = self.app_.launch.table_user()
        try:
            game = get_game(str(self.query_one("#table-game", Select).value))
            seats = parse_seats(self.query_one("#table-seats", Input).value, user)
            game.check_players(len(seats))
            options: dict[str, str] = {}
            for item in self.query_one("#table-options", Input).value.split():
                key, sep, value = item.partition("=")
                if not sep:
                    raise StoreError(f"option {item!r}: write KEY=VALUE")
                options[key] = value
            options = game.check_options(options)
            seed_text = self.query_one("#table-seed", Input).value.strip()
            seed = int(seed_text) if seed_text else int.from_bytes(os.urandom(3), "big")
            strict = self.query_one("#table-strict", Switch).value
            info = table_store(self.app_).create(
                game.id, seats, options, seed, user, {"strict": strict}
            )
        except (StoreError, ValueError) as exc:
            error.update(Text(str(exc), style="bold red"))
            return
        self.dismiss(None)
        open_table(self.app_, info.id, join=False)
        self.app.notify(f"Table {info.id} is set: the others find it under Shared tables (t).")

    def action_close(self) -> None:
        self.dismiss(None)


# ---- the table -----------------------------------------------------------------------------
class TableReviewScreen(ReviewScreen):
    """Review at a table: what your seat may see until the game is over (spectators: the
    public view), and no continuing from an earlier move."""

    def __init__(self, match: Match, info: TableInfo, viewer: int | None) -> None:
        super().__init__(match, viewer, allow_continue=False)
        self.info = info
        self.spectator = viewer == SPECTATOR

    def show_index(self, index: int) -> None:
        if not self.spectator:
            super().show_index(index)
            return
        # the parent's drawing, with the public view instead of a seat's view
        n = len(self.match.steps)
        self.index = max(0, min(n, index))
        view = public_view(self.match, self.match.state_at(self.index))
        self.query_one(BoardView).show(view, None, self.compact, highlight=False)
        ui = ui_for(self.match.game.id)
        status = Text(f" Review · {self.match.game.title} · move {self.index}/{n}", style="bold")
        st = ui.status(view)
        if st:
            status.append(f" · {st}", style="")
        self.query_one("#status", Static).update(status)
        step = self.match.steps[self.index - 1] if self.index else None
        text = " · ".join(step.lines_for(self.viewer)) if step else "setup"
        self.query_one("#lastlog", Static).update(
            Text(f" ▸ {text}", overflow="ellipsis", no_wrap=True)
        )
        self.query_one("#review-moves", OptionList).highlighted = self.index


class TableScreen(GameScreen):
    """A shared table from `user`'s seat (or as a spectator)."""

    BINDINGS = [Binding("b", "bell", "Bell")]

    def __init__(
        self, store: TableStore, table_id: str, user: str, think: float | None = None
    ) -> None:
        info, match = store.load(table_id)
        super().__init__(match, handover=False, strict=info.strict, bot_delay=0.0, think=think)
        self.store = store
        self.info = info
        self.user = user
        self.seat = info.seat_of(user)
        self.viewer = SPECTATOR if self.seat is None else self.seat
        self.unlocked = self.viewer
        self.handover = False
        self.owner = lease_owner()
        self._version = store.version()
        self._my_turn: bool | None = None
        self._ring = False
        self._bot_busy = False
        self._bot_delay = 0.0
        self._offline = False  # the store's server is unreachable: "reconnecting…"

    @property
    def spectator(self) -> bool:
        return self.seat is None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Hide the keys that do nothing at a table (redo; undo and the bell for a
        spectator; undo at a strict table)."""
        if action == "redo":
            return False
        if action in ("undo", "bell") and self.spectator:
            return False
        return not (action == "undo" and self.info.strict)

    def on_mount(self) -> None:
        # (the game screen's own on_mount runs too: Textual calls every class's handler)
        self._bot_delay = self.app_.launch.bot_delay
        self.set_interval(POLL_SECONDS, self._poll)

    def on_unmount(self) -> None:
        with contextlib.suppress(StoreError):
            self.store.release_lease(self.info.id, self.owner)

    def room_place(self) -> dict[str, str]:
        return {"table": self.info.id}

    # ---- keeping up with the store ---------------------------------------------------------
    def _poll(self) -> None:
        try:
            v = self.store.version()
            if self._offline:  # back: whatever happened meanwhile is read afresh
                self._offline = False
                self.notify("The table store is back.")
                self._version = v
                self.reload(by_others=True)
                return
            if v == self._version and not self._bot_busy:
                return
            self._version = v
            if self._bot_busy:  # the computer is thinking here: keep its lease
                self.store.take_lease(self.info.id, self.owner)
            if self.store.info(self.info.id).rev != self.info.rev:
                self.reload(by_others=True)
            elif computer_to_move(self.info, self.match):
                self._drive_computer()
        except StoreError as exc:
            self._store_failed(exc)

    def reload(self, highlight: bool = True, by_others: bool = False) -> None:
        """Read the table again and draw it (others moved, or a move was refused); the bell
        rings only when the turn came by the others' moves."""
        self._ring = by_others
        try:
            self.info, self.match = self.store.load(self.info.id)
        except StoreError as exc:
            self._store_failed(exc)
            return
        self.seat = self.info.seat_of(self.user)
        self.viewer = SPECTATOR if self.seat is None else self.seat
        self.unlocked = self.viewer
        self.refresh_game(highlight)

    def _store_failed(self, exc: StoreError) -> None:
        if isinstance(exc, Disconnected):  # a move not acknowledged is not shown as played
            if not self._offline:
                self._offline = True
                self.notify(str(exc), severity="warning")
                with contextlib.suppress(Exception):
                    self.render_board(False)
            return
        if isinstance(exc, StoreUnavailable):
            if not getattr(self, "_store_warned", False):
                self._store_warned = True
                self.app.push_screen(MessageScreen("The table store has a problem", str(exc)))
        else:
            self.notify(str(exc), severity="error")

    # ---- drawing ---------------------------------------------------------------------------
    def my_turn(self) -> bool:
        prompt = self.match.prompt
        return (
            prompt is not None
            and self.info.status != WAITING
            and self.seat is not None
            and prompt.seat == self.seat
        )

    def refresh_game(self, highlight: bool = True) -> None:
        prompt = self.match.prompt
        self.render_board(highlight)
        if prompt is None:
            if not self._end_shown:
                self._end_shown = True
                self.call_after_refresh(self.action_results)
            return
        mine = self.my_turn()
        if mine and self._my_turn is False and self._ring and self.app_.launch.bell:
            self.app.bell()
        self._my_turn = mine
        if computer_to_move(self.info, self.match):
            self._drive_computer()

    def render_board(self, highlight: bool = True) -> None:
        match, game, info = self.match, self.match.game, self.info
        board_viewer = None if self.spectator else self.seat
        view = view_for(info, match, self.user)
        prompt = match.prompt
        board = self.query_one(BoardView)
        board.show(view, board_viewer, self.compact, highlight=highlight)
        status = Text()
        status.append(f" {game.title} · table {info.id}", style="bold")
        if info.status == WAITING:
            status.append(" · waiting for players")
        elif prompt is not None:
            status.append(" · ")
            name = match.seats[prompt.seat].name
            if self.my_turn():
                status.append("your turn", style="bold reverse")
            else:
                status.append_text(seat_label(prompt.seat, name))
                status.append(" to move")
        else:
            status.append(" · game over", style="bold")
        who = "watching" if self.spectator else f"you: {self.user}"
        status.append(f" · {who}")
        if self._offline:
            status.append(" · reconnecting…", style="bold reverse red")
        st = self.ui.status(view)
        if st:
            status.append(f" · {st}")
        status.truncate(max(20, self.app.size.width - 1), overflow="ellipsis")
        self.query_one("#status", Static).update(status, layout=False)
        self._render_tabs(board)
        picker = self.query_one(MovePicker)
        if prompt is None:
            res = game.result(match.state)
            picker.set_prompt(None, f"Game over — {res.summary}   e: results  v: review", False)
        elif info.status == WAITING:
            open_seats = ", ".join(str(s.seat + 1) for s in info.seats if s.is_open)
            picker.set_prompt(
                None, f"Waiting for players: seat {open_seats} open (table join {info.id})", False
            )
        elif self.my_turn():
            back = "  (Esc: step back)" if prompt.step else ""
            picker.set_prompt(prompt, f"Your turn: {prompt.text}{back}", True)
            picker.options.focus()
        else:
            # only who and the phase: another seat's prompt may name its hidden cards
            name = match.seats[prompt.seat].name
            kind = " (computer)" if match.seats[prompt.seat].is_bot else ""
            picker.set_prompt(None, f"{name}{kind} to move · {prompt.phase or 'play'}", False)
        self._render_log()

    # ---- moves -----------------------------------------------------------------------------
    def play(self, move: Move) -> None:
        if not self.my_turn():
            self.notify("Not your turn.", severity="warning")
            return
        try:
            self.info = self.store.append(self.info.id, self.user, move.id, self.info.moves)
        except Stale:
            self.notify("Someone moved first: the table has been reloaded.", severity="warning")
            self.reload()
            return
        except StoreError as exc:
            self._store_failed(exc)
            self.reload()
            return
        with contextlib.suppress(StoreError):
            self._version = self.store.version()
        self.reload()

    def _drive_computer(self) -> None:
        """Play the computer seat to move if this process holds (or takes) the lease."""
        if self._bot_busy or not computer_to_move(self.info, self.match):
            return
        try:
            if not self.store.take_lease(self.info.id, self.owner):
                return  # another terminal plays the computers
        except StoreError as exc:
            self._store_failed(exc)
            return
        self._bot_busy = True
        info = self.info
        snapshot = self.match.game.clone(self.match.state)
        prompt = self.match.prompt
        started = time.monotonic()

        def think() -> None:
            position = _Frozen(self.match.game, snapshot, prompt, info.moves)
            move_id = choose(info, position, self.think)  # type: ignore[arg-type]
            wait = max(0.0, self._bot_delay - (time.monotonic() - started))
            self.app.call_from_thread(
                self.set_timer, wait or 0.001, lambda: self._bot_done(info, move_id)
            )

        threading.Thread(target=think, name="table-computer", daemon=True).start()

    def _bot_done(self, info: TableInfo, move_id: str) -> None:
        self._bot_busy = False
        if not self.is_attached:
            return
        try:
            self.info = self.store.append(info.id, None, move_id, info.moves, lease=self.owner)
        except Refused:
            pass  # someone else played it, or the position changed: just show what is there
        except StoreError as exc:
            self._store_failed(exc)
        self.reload()

    # ---- actions ---------------------------------------------------------------------------
    def action_undo(self) -> None:
        if self.spectator:
            return
        try:
            self.info = self.store.undo(self.info.id, self.user, self.info.moves)
        except Stale:
            self.notify("Someone has moved since: your move stands.", severity="warning")
            self.reload()
            return
        except StoreError as exc:
            self.notify(str(exc), severity="warning")
            return
        self.reload(highlight=False)

    def action_redo(self) -> None:
        self.notify("No redo at a shared table.")

    def action_back(self) -> None:
        picker = self.query_one(MovePicker)
        if picker.clear_filter():
            return
        prompt = self.match.prompt
        if prompt is not None and prompt.step > 0 and self.my_turn():
            self.action_undo()

    def autosave(self) -> None:
        """Nothing to do: every move is in the store the moment it is played."""

    def action_save(self) -> None:
        if not self.info.finished and self.match.game.has_private_info:
            self.notify(
                "A save shows every seat's hidden cards: it can be written when the game is over.",
                severity="warning",
            )
            return
        super().action_save()

    def action_review(self) -> None:
        viewer = None if self.match.over else self.viewer

        def back(_: int | None) -> None:
            self.reload(highlight=False)

        self.app.push_screen(TableReviewScreen(self.match, self.info, viewer), back)

    def action_leave(self) -> None:
        self.app.pop_screen()

    def action_bell(self) -> None:
        launch = self.app_.launch
        launch.bell = not launch.bell
        self.notify(f"Bell {'on' if launch.bell else 'off'} when it becomes your turn.")


class _Frozen:
    """Just enough of a match for `choose`: a fixed position (the thread must not see the
    live match move on)."""

    def __init__(self, game: Any, state: Any, prompt: Any, cursor: int) -> None:
        self.game, self.state, self.prompt, self.cursor = game, state, prompt, cursor
