"""Shared tables in the app: the list (yours, open, others) and a new table.

A table is played on the game screen with a `TableSource` (`boardgames_tui.session.table_source`): from your
seat, no hand-over screens, moves by the other players appear by themselves, a bell rings
when it becomes your turn, and every move goes through the store.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, Input, Label, Select, Static, Switch
from textual.widgets.option_list import Option

from boardgames_tui.engine.core import PUBLIC, all_games, get_game
from boardgames_tui.engine.tables import (
    FINISHED,
    WAITING,
    StoreError,
    TableInfo,
    listed,
    offered_seats,
    open_store,
    parse_seats,
    results,
    solo,
)
from boardgames_tui.engine.tables.clock import (
    ClockError,
    ClockRules,
    clock_text,
    limit_text,
    parse_duration,
)
from boardgames_tui.session.words import waiting_for
from boardgames_tui.tui.screens.base import BaseScreen
from boardgames_tui.tui.screens.dialogs import (
    ConfirmScreen,
    DismissOnce,
    MessageScreen,
    ScreenHelp,
)
from boardgames_tui.tui.screens.game import GameScreen
from boardgames_tui.tui.screens.store import table_store
from boardgames_tui.tui.screens.when import short_date
from boardgames_tui.tui.text import one_line
from boardgames_tui.tui.turns import turn_text
from boardgames_tui.tui.widgets.picker import SafeOptionList as OptionList

if TYPE_CHECKING:
    from boardgames_tui.tui.app import BoardgamesApp

SETTLE_SECONDS = 5.0  # how often the Tables screen settles turns whose time ran out
POLL_SECONDS = 0.15  # how often a table screen asks the store "anything new?" (microseconds each)
SPECTATOR = PUBLIC  # the log's reader for a spectator: every private line reads as its public text
SEED_SECRET_HINT = "secret"  # drawn by the store, shown to nobody before the end
SEED_WHY = "  Seed: only for you against computers (whoever knows it knows every hand)"


def open_table(app: BoardgamesApp, table_id: str, join: bool = True) -> None:
    """Sit down at a table (taking an open seat if `join`) or watch it; errors as a dialog."""
    from boardgames_tui.session.table_source import TableSource

    try:
        store = table_store(app)
        if join:
            store.join(table_id, app.launch.table_user())
        # a spectator only where the table allows one (TableSource checks): else one line
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
        Binding("n", "new", "New table", id="tables.new"),
        Binding("w", "watch", "Watch", id="tables.watch"),
        Binding("i", "invite", "Invite code", id="tables.invite"),
        Binding("o", "days", "Away & notices", id="tables.days"),
        Binding("L", "leave", "Leave", show=False, id="tables.leave"),
        Binding("r", "reclaim", "Take back seat", show=False, id="tables.reclaim"),
        Binding("x", "cancel", "Cancel table", show=False, id="tables.cancel"),
        Binding("a", "agree", "Agree", show=False, id="tables.agree"),
        Binding("d", "decline", "Turn down", show=False, id="tables.decline"),
        Binding("p", "propose", "Propose a change", show=False, id="tables.propose"),
        Binding("question_mark", "help", "Help", id="help"),
        Binding("escape,q", "close", "Back", id="tables.close"),
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
        yield Footer(show_command_palette=False)

    def on_mount(self) -> None:
        self._head()
        self.refill()
        self._own_timers = [
            self.set_interval(1.0, self._poll),
            self.set_interval(SETTLE_SECONDS, self._settle),
        ]

    def on_screen_suspend(self) -> None:
        # a table's game screen on top has its own watch and clock: these timers would only
        # start a thread and a connection every few seconds, and repaint the screen on top
        for timer in self._own_timers:
            timer.pause()

    @work(thread=True, exclusive=True, group="settle")
    def _settle(self) -> None:
        """Turns whose time ran out at any table, played by the computer (no daemon: every
        reader does it; a connection of its own, off the main thread)."""
        from boardgames_tui.engine.tables.computer import settle

        try:
            store = open_store(self.app.launch.store, create_file=False)
        except StoreError:
            return
        try:
            settle(store)
        finally:
            store.close()

    def on_screen_resume(self) -> None:
        for timer in getattr(self, "_own_timers", ()):
            timer.resume()
        self.refill()

    def _head(self) -> None:
        user = self.app.launch.table_user()
        head = Text.assemble(
            ("Shared tables", "bold"),
            f" · you are {user} · Enter: play or join · w: watch · n: new table",
        )
        turns = self.app.your_turns
        if turns:
            head.append(f" · {turn_text(len(turns))}", style="bold")
        for static in self.query("#tables-head").results(Static):
            static.update(head)

    def show_turns(self, ids: tuple[str, ...]) -> None:
        """The app found the your-turn tables changed: the head and the list again."""
        if not self.is_mounted:
            return
        self._head()
        if self.app.screen is self:
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
            present = store.present()  # who is connected now
            self._version = store.version()
        except StoreError as exc:
            ol.clear_options()
            ol.add_option(Option(Text(str(exc), style="bold red"), id="none", disabled=True))
            note.update("")
            return
        highlighted = ol.highlighted
        # yours (your turn first, the longest waiting first), seats offered to you,
        # open tables (never a private one), the others you may watch
        groups: dict[str, list[TableInfo]] = {
            "yours": [],
            "offered": [],
            "open": [],
            "others": [],
            "damaged": [],
        }
        for key, i in listed(infos, user):
            groups[key].append(i)
        self.infos = {i.id: i for rows in groups.values() for i in rows}
        heads = {
            "yours": "Your tables",
            "offered": "Seats offered to you: Enter accepts",
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
                made = store.proposal(i.id) if key == "yours" else None
                row = self._row(i, user, made)
                here = sorted({s.user for s in i.seats if s.user and s.user != user} & present)
                if here and not i.finished:
                    row.append(f" · here: {', '.join(here)}", style="italic")
                ol.add_option(Option(row, id=i.id))
        if not self.infos:
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
        # a room's players are never shown the host's paths
        where = "the room's tables" if self.app.launch.confine else f"store: {store.path}"
        note.update(
            Text(
                f"{where} · o notices/away · L leave · r take back · x cancel · "
                "p propose a change · a agree · d turn down",
                style="dim",
            )
        )

    @staticmethod
    def _row(i: TableInfo, user: str, proposal: Any = None) -> Text:
        t = Text()
        t.append(f" {i.id} ", style="bold reverse")
        if i.damage is not None:
            t.append("  damaged: ", style="bold red")
            t.append(one_line(i.damage))
            return t
        t.append(f"  {get_game(i.game).title}", style="bold")
        t.append(f" · {', '.join(s.label for s in i.seats)} · ")
        if i.private:
            t.append("private · ", style="italic")
        if i.your_turn(user):
            t.append(" your turn ", style="bold reverse green")
            t.append(f" since {short_date(i.updated, '%d %b %H:%M')}", style="dim")
        elif i.offered_to(user) is not None:
            t.append(f" offered by {i.creator}: Enter accepts ", style="bold reverse")
        elif i.abandoned:
            t.append("abandoned", style="dim italic")
        elif i.status == FINISHED:
            t.append("finished", style="dim")
        elif i.status == WAITING:
            t.append(waiting_for(i.seats), style="italic")
        else:
            t.append(f"move {i.moves} · {i.to_move} to move", style="dim")
        clock = clock_text(i) if i.status != FINISHED else ""
        if not clock and i.status == WAITING and i.rules.turn_limit is not None:
            clock = f"{limit_text(i.rules.turn_limit)} a turn"  # the clock, before you join
        if clock:
            t.append(f" · ⏱ {clock}", style="dim")
        if i.seed_note:
            t.append(f" · {i.seed_note}", style="italic")
        if proposal is not None:
            t.append(f" · proposed: {one_line(proposal.text)}", style="bold")
            if user in proposal.waiting_for:
                t.append(" (a agrees, d turns down)", style="bold")
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

    def action_invite(self) -> None:
        """An invite code for an open seat at the highlighted table (yours)."""
        ol = self.query_one(OptionList)
        if ol.highlighted is None:
            return
        tid = ol.get_option_at_index(ol.highlighted).id
        if tid not in self.infos:
            return
        try:
            code = table_store(self.app).invite(tid, self.app.launch.table_user())
        except StoreError as exc:
            self.app.notify(str(exc), severity="warning")
            return
        self.app.push_screen(
            MessageScreen(
                f"Invite to table {tid}",
                f"Give this code to one player: {code}\n"
                f"They join with: boardgames-tui table join {code} (it works once).",
            )
        )

    def action_new(self) -> None:
        self.app.push_screen(NewTableScreen())

    def action_days(self) -> None:
        from boardgames_tui.tui.screens.days import OverDaysScreen

        self.app.push_screen(OverDaysScreen())

    def _chosen(self) -> str | None:
        """The highlighted table, or None (and a line saying what to select: a key that
        acts on a table never does nothing silently)."""
        ol = self.query_one(OptionList)
        tid = None if ol.highlighted is None else ol.get_option_at_index(ol.highlighted).id
        if tid in self.infos:
            return tid
        self.app.notify("Select a table first (↑ ↓), then press the key again.")
        return None

    def _seat_change(self, what: str, tid: str) -> None:
        """Leave, take back or cancel table `tid` for the app's user; a line either way."""
        store, user = table_store(self.app), self.app.launch.table_user()
        try:
            if what == "leave":
                info = store.leave(tid, user)
                said = f"You left table {tid}: the computer ({info.rules.autopilot}) plays your seat (r takes it back)."
            elif what == "reclaim":
                store.reclaim(tid, user)
                said = f"You play your seat at table {tid} again."
            else:
                store.cancel(tid, user)
                said = f"Table {tid} is cancelled: its players are told."
        except StoreError as exc:
            self.app.notify(str(exc), severity="warning")
            return
        self.app.notify(said)
        self.refill()

    def action_leave(self) -> None:
        tid = self._chosen()
        if tid is None:
            return

        def answered(yes: bool | None) -> None:
            if yes:
                self._seat_change("leave", tid)

        self.app.push_screen(
            ConfirmScreen(f"Leave table {tid} for good? The computer plays your seat from now on."),
            answered,
        )

    def action_agree(self) -> None:
        """Agree to the change proposed at the highlighted table (`table agree`)."""
        tid = self._chosen()
        if tid is None:
            return
        try:
            made, done = table_store(self.app).agree(tid, self.app.launch.table_user())
        except StoreError as exc:
            self.app.notify(str(exc), severity="warning")
            return
        waiting = ", ".join(made.waiting_for)
        self.app.notify(
            f"{'Done' if done else 'Agreed'}: {made.text}"
            + ("" if done else f" (waiting for {waiting})")
        )
        self.refill()

    def action_decline(self) -> None:
        """Turn down the change proposed at the highlighted table (`table agree --no`)."""
        tid = self._chosen()
        if tid is None:
            return
        try:
            made, _ = table_store(self.app).agree(tid, self.app.launch.table_user(), yes=False)
        except StoreError as exc:
            self.app.notify(str(exc), severity="warning")
            return
        self.app.notify(f"Turned down: {made.text}")
        self.refill()

    def action_propose(self) -> None:
        """Propose a change at the highlighted table (`table propose`), in the command's words;
        a change the store refuses stays in the form with the reason."""
        tid = self._chosen()
        if tid is None:
            return

        def propose(change: str) -> str:
            made, done = table_store(self.app).propose(
                tid, self.app.launch.table_user(), change.split()
            )
            waiting = ", ".join(made.waiting_for)
            return f"{'Done' if done else 'Proposed'}: {made.text}" + (
                "" if done else f" (waiting for {waiting})"
            )

        def answered(said: str | None) -> None:
            if said:
                self.app.notify(said)
                self.refill()

        self.app.push_screen(ProposeScreen(tid, propose), answered)

    def action_reclaim(self) -> None:
        tid = self._chosen()
        if tid is not None:
            self._seat_change("reclaim", tid)

    def action_cancel(self) -> None:
        tid = self._chosen()
        if tid is None:
            return

        def answered(yes: bool | None) -> None:
            if yes:
                self._seat_change("cancel", tid)

        self.app.push_screen(
            ConfirmScreen(f"Cancel table {tid}? It is gone for everyone."), answered
        )

    def action_close(self) -> None:
        self.dismiss(None)


class ProposeScreen(DismissOnce, ModalScreen[str | None]):
    """A change for the players of a table to agree to, typed as `table propose` takes it;
    answers with what the store said, or None (cancelled)."""

    BINDINGS = [Binding("escape", "cancel", "Cancel", id="propose.cancel")]

    def __init__(self, tid: str, propose: Callable[[str], str]) -> None:
        super().__init__()
        self.tid, self.propose = tid, propose

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(Text(f"Propose a change at table {self.tid}", style="bold"))
            yield Static(
                "limit 24h (or limit none) · pause · resume · seat N USER (a seat whose "
                "player left, to a new player); the others agree or turn it down",
                classes="dialog-title",
            )
            yield Input(placeholder="limit 24h", id="propose-text")
            yield Static("", id="propose-problem")
            yield Static("Enter: propose    Esc: cancel", classes="dialog-keys")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        change = event.value.strip()
        if not change:
            return
        try:
            said = self.propose(change)
        except StoreError as exc:  # the form stays as typed, with the reason: mend and retry
            self.query_one("#propose-problem", Static).update(Text(str(exc), style="bold"))
            return
        self.dismiss(said)

    def action_cancel(self) -> None:
        self.dismiss(None)


# ---- a new table ---------------------------------------------------------------------------
class NewTableScreen(ScreenHelp, BaseScreen[None]):
    """Game, seats (users, open, computer levels), seed, options, strict."""

    HELP_TITLE = "New shared table"
    BINDINGS = [
        Binding("escape", "close", "Back", id="new-table.close"),
        Binding("ctrl+s", "create", "Create", id="new-table.create"),
        Binding("question_mark", "help", "Help", show=False, id="help"),
    ]

    def compose(self) -> ComposeResult:
        games = [(g.title, g.id) for g in all_games()]
        with VerticalScroll(id="setup"):  # a short window scrolls it: nothing is cut off
            yield Static(
                "[b]New shared table[/]  (Tab or Enter: the next field · Ctrl+S creates it)"
            )
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
            with Horizontal(classes="row"):  # seed and spectators share a row: 80x24 fits
                yield Label("Seed", classes="label")
                yield Input(placeholder=SEED_SECRET_HINT, id="table-seed", restrict=r"[0-9]*")
                yield Static("Spectators", classes="switch-label")
                yield Select(
                    [("anyone", "anyone"), ("players only", "players"), ("nobody", "none")],
                    value="anyone",
                    allow_blank=False,
                    id="table-spectators",
                )
            yield Static(SEED_WHY, id="table-seed-hint", classes="hint")
            with Horizontal(classes="row"):
                yield Label("Options", classes="label")
                yield Input(placeholder="KEY=VALUE …", id="table-options")
            yield Static("", id="table-options-hint", classes="hint")
            with Horizontal(classes="row"):
                yield Label("Turn limit", classes="label")
                yield Input(placeholder="none (e.g. 90s, 10m, 24h)", id="table-limit")
                yield Static("Rated", classes="switch-label")
                yield Switch(value=True, id="table-rated")
            with Horizontal(classes="row"):  # two switches on one row: the form fits 80x24
                yield Label("Strict (no undo)", classes="label")
                yield Switch(value=False, id="table-strict")
                yield Static("Private (by invite)", classes="switch-label")
                yield Switch(value=False, id="table-private")
            yield Static("", id="table-error")
        yield Footer(show_command_palette=False)

    def on_mount(self) -> None:
        self._show_options()
        self._seed_field()
        self.query_one("#table-game", Select).focus()  # the first field: what is played

    @on(Input.Changed, "#table-seats")
    def _seed_field(self, event: Any = None) -> None:
        """The seed may be chosen only at a table of you against computers."""
        try:
            alone = solo(parse_seats(self.query_one("#table-seats", Input).value, "me"))
        except StoreError:
            alone = False
        seed = self.query_one("#table-seed", Input)
        seed.disabled = not alone
        seed.placeholder = "random" if alone else SEED_SECRET_HINT
        if not alone:
            seed.value = ""
        self.query_one("#table-seed-hint", Static).display = not alone

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
        """Enter goes on to the next field: a table is made only by Ctrl+S (a table made
        half filled in, on the first Enter, was a table nobody wanted)."""
        event.stop()
        self.focus_next()

    def action_create(self) -> None:
        error = self.query_one("#table-error", Static)
        user = self.app.launch.table_user()
        try:
            game = get_game(str(self.query_one("#table-game", Select).value))
            seats = offered_seats(self.query_one("#table-seats", Input).value, user)
            game.check_players(len(seats))
            options: dict[str, str] = {}
            for item in self.query_one("#table-options", Input).value.split():
                key, sep, value = item.partition("=")
                if not sep:
                    raise StoreError(f"option {item!r}: write KEY=VALUE")
                options[key] = value
            options = game.check_options(options)
            seed_text = self.query_one("#table-seed", Input).value.strip()
            seed = int(seed_text) if seed_text else None  # None: the store draws a secret one
            settings = {
                "strict": self.query_one("#table-strict", Switch).value,
                "private": self.query_one("#table-private", Switch).value,
                "spectators": str(self.query_one("#table-spectators", Select).value),
                # whether it counts for ratings (a chosen seed never does: results.py)
                results.UNRATED: not self.query_one("#table-rated", Switch).value,
            }
            limit_text = self.query_one("#table-limit", Input).value.strip()
            rules = ClockRules(parse_duration(limit_text, "turn limit") if limit_text else None)
            info = table_store(self.app).create(
                game.id, seats, options, seed, user, settings, rules=rules, chosen=bool(seed_text)
            )
        except (StoreError, ValueError, ClockError) as exc:
            error.update(Text(str(exc), style="bold red"))
            self.call_after_refresh(error.scroll_visible, animate=False)
            return
        self.dismiss(None)
        open_table(self.app, info.id, join=False)
        if info.private and info.first_open() is not None:
            try:
                code = table_store(self.app).invite(info.id, user)
            except StoreError as exc:
                self.app.notify(str(exc), severity="warning")
                return
            self.app.push_screen(
                MessageScreen(
                    f"Private table {info.id}",
                    f"It is not listed for others. Give this code to a player:\n\n  {code}\n\n"
                    f"They join with: boardgames-tui table join {code} (it works once; "
                    f"`table invite {info.id}` makes another).",
                )
            )
            return
        self.app.notify(f"Table {info.id} is set: the others find it under Shared tables (t).")

    def action_close(self) -> None:
        self.dismiss(None)
