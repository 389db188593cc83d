"""Shared tables in the app: the list (yours, open, others) and a new table.

A table is played on the game screen with a `TableSource` (`tui.table_source`): from your
seat, no hand-over screens, moves by the other players appear by themselves, a bell rings
when it becomes your turn, and every move goes through the store.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Footer, Input, Label, Select, Static, Switch
from textual.widgets.option_list import Option

from engine.core import PUBLIC, all_games, get_game
from engine.tables import (
    FINISHED,
    WAITING,
    StoreError,
    TableInfo,
    TableStore,
    open_store,
    parse_seats,
)
from engine.tables.clock import ClockError, ClockRules, clock_text, parse_duration

from ..text import one_line
from ..widgets.picker import SafeOptionList as OptionList
from .base import BaseScreen
from .dialogs import MessageScreen, ScreenHelp
from .game import GameScreen

if TYPE_CHECKING:
    from ..app import BoardgamesApp

SETTLE_SECONDS = 5.0  # how often the Tables screen settles turns whose time ran out
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
    from ..table_source import TableSource

    try:
        store = table_store(app)
        if join:
            store.join(table_id, app.launch.table_user())
        source = TableSource(store, table_id, app.launch.table_user(), think=app.think)
    except StoreError as exc:
        app.push_screen(MessageScreen("Cannot open the table", str(exc)))
        return
    # the game screen from your seat: no hand-overs, others' moves come in by themselves
    app.push_screen(GameScreen(source, bot_delay=app.launch.bot_delay, think=app.think))


# ---- the list ------------------------------------------------------------------------------
class TablesScreen(ScreenHelp, BaseScreen[None]):
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

    def on_mount(self) -> None:
        user = self.app.launch.table_user()
        self.query_one("#tables-head", Static).update(
            Text.assemble(
                ("Shared tables", "bold"),
                f" · you are {user} · Enter: play or join · w: watch · n: new table",
            )
        )
        self.refill()
        self.set_interval(1.0, self._poll)
        self.set_interval(SETTLE_SECONDS, self._settle)

    @work(thread=True, exclusive=True, group="settle")
    def _settle(self) -> None:
        """Turns whose time ran out at any table, played by the computer (no daemon: every
        reader does it; a connection of its own, off the main thread)."""
        from engine.tables.computer import settle

        try:
            store = open_store(self.app.launch.store, create_file=False)
        except StoreError:
            return
        try:
            settle(store)
        finally:
            store.close()

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
        user = self.app.launch.table_user()
        try:
            store = table_store(self.app)
            infos = store.tables()
            self._version = store.version()
        except StoreError as exc:
            ol.clear_options()
            ol.add_option(Option(Text(str(exc), style="bold red"), id="none", disabled=True))
            note.update("")
            return
        highlighted = ol.highlighted
        self.infos = {i.id: i for i in infos}
        groups: dict[str, list[TableInfo]] = {"yours": [], "open": [], "others": [], "damaged": []}
        for i in infos:
            if i.damage is not None:
                groups["damaged"].append(i)
            elif i.seat_of(user) is not None:
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
            "damaged": "Damaged tables: Enter says what is wrong",
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
        if i.damage is not None:
            t.append("  damaged: ", style="bold red")
            t.append(one_line(i.damage))
            return t
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
        clock = clock_text(i) if i.status != FINISHED else ""
        if clock:
            t.append(f" · ⏱ {clock}", style="dim")
        return t

    @on(OptionList.OptionSelected, "#tables-list")
    def _picked(self, event: OptionList.OptionSelected) -> None:
        info = self.infos.get(event.option.id or "")
        if info is not None and info.damage is not None:
            self.app.push_screen(
                MessageScreen("A damaged table", f"table {info.id} is damaged: {info.damage}")
            )
        elif info is not None:
            open_table(self.app, info.id, join=True)

    def action_watch(self) -> None:
        ol = self.query_one(OptionList)
        if ol.highlighted is None:
            return
        tid = ol.get_option_at_index(ol.highlighted).id
        if tid in self.infos:
            open_table(self.app, tid, join=False)

    def action_new(self) -> None:
        self.app.push_screen(NewTableScreen())

    def action_close(self) -> None:
        self.dismiss(None)


# ---- a new table ---------------------------------------------------------------------------
class NewTableScreen(ScreenHelp, BaseScreen[None]):
    """Game, seats (users, open, computer levels), seed, options, strict."""

    HELP_TITLE = "New shared table"
    BINDINGS = [
        Binding("escape", "close", "Back"),
        Binding("ctrl+s", "create", "Create"),
        Binding("question_mark", "help", "Help", show=False),
    ]

    def compose(self) -> ComposeResult:
        games = [(g.title, g.id) for g in all_games()]
        with VerticalScroll(id="setup"):  # a short window scrolls it: nothing is cut off
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
                yield Label("Turn limit", classes="label")
                yield Input(placeholder="none (e.g. 90s, 10m, 24h)", id="table-limit")
            with Horizontal(classes="row"):
                yield Label("Strict (no undo)", classes="label")
                yield Switch(value=False, id="table-strict")
            yield Static("", id="table-error")
        yield Footer()

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
        user = self.app.launch.table_user()
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
            limit_text = self.query_one("#table-limit", Input).value.strip()
            rules = ClockRules(parse_duration(limit_text, "turn limit") if limit_text else None)
            info = table_store(self.app).create(
                game.id, seats, options, seed, user, {"strict": strict}, rules
            )
        except (StoreError, ValueError, ClockError) as exc:
            error.update(Text(str(exc), style="bold red"))
            self.call_after_refresh(error.scroll_visible, animate=False)
            return
        self.dismiss(None)
        open_table(self.app, info.id, join=False)
        self.app.notify(f"Table {info.id} is set: the others find it under Shared tables (t).")

    def action_close(self) -> None:
        self.dismiss(None)
