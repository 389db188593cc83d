"""Playing over days, in the app: where your turn notifications go, when you are reminded,
and being away (the same store calls as `table notify`, `table notify remind` and `table
away`, for the app's own user only)."""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Footer, Input, Label, Static
from textual.widgets.option_list import Option

from boardgames_tui.engine.tables import StoreError
from boardgames_tui.tui.screens.base import BaseScreen
from boardgames_tui.tui.screens.dialogs import ScreenHelp
from boardgames_tui.tui.widgets.picker import SafeOptionList as OptionList


class OverDaysScreen(ScreenHelp, BaseScreen[None]):
    """Notification targets (add, remove, test), the reminder, away until / back."""

    HELP_TITLE = "Away and notifications"
    BINDINGS = [
        Binding("d", "remove", "Remove target"),
        Binding("s", "test", "Send a test"),
        Binding("k", "talk", "Talk there too"),
        Binding("b", "back", "I am back"),
        Binding("question_mark", "help", "Help", show=False),
        Binding("escape", "close", "Close"),
    ]

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="setup"):
            yield Static("", id="days-head")
            yield OptionList(id="days-targets")
            with Horizontal(classes="row"):
                yield Label("Add a target", classes="label")
                yield Input(placeholder="ntfy://TOPIC, json://HOST:PORT/PATH …", id="days-url")
            with Horizontal(classes="row"):
                yield Label("Remind after", classes="label")
                yield Input(placeholder="hours (0: never)", id="days-remind")
            with Horizontal(classes="row"):
                yield Label("Away until", classes="label")
                yield Input(placeholder="empty: until b · 3d, 12h, 2026-12-24", id="days-away")
            yield Static("", id="days-said")
        yield Footer()

    def on_mount(self) -> None:
        self.refill()
        self.query_one("#days-targets", OptionList).focus()

    @property
    def user(self) -> str:
        return self.app.launch.table_user()

    def refill(self) -> None:
        from boardgames_tui.engine.tables.notify import shown_url
        from boardgames_tui.engine.tables.sqlstore import shown_time
        from boardgames_tui.tui.screens.store import table_store

        ol = self.query_one("#days-targets", OptionList)
        ol.clear_options()
        try:
            store = table_store(self.app)
            targets = store.targets(self.user)
            hours = store.remind_hours(self.user)
            away = store.away(self.user)
        except StoreError as exc:
            self._say(str(exc), error=True)
            return
        for t in targets:
            row = Text(f" {t.n}  {shown_url(t.url)}")
            if t.talk:
                row.append("  + talk", style="bold")
            if t.error:
                row.append(f"  (failing: {t.error})", style="bold red")
            ol.add_option(Option(row, id=str(t.n)))
        if not targets:
            ol.add_option(
                Option(Text("No targets yet: add one below.", style="italic"), disabled=True)
            )
        remind = "never reminded" if hours == 0 else f"reminded after {hours:g} h on one turn"
        if away is None:
            where = "here"
        else:
            where = "away" + ("" if away[1] is None else f" until {shown_time(away[1])}")
        self.query_one("#days-head", Static).update(
            Text.assemble(
                ("Away and notifications", "bold"), f" · {self.user} · {where} · {remind}"
            )
        )

    def _say(self, text: str, error: bool = False) -> None:
        self.query_one("#days-said", Static).update(
            Text(text, style="bold red" if error else "bold")
        )

    def _highlighted(self) -> int | None:
        ol = self.query_one("#days-targets", OptionList)
        if ol.highlighted is None:
            return None
        oid = ol.get_option_at_index(ol.highlighted).id
        return int(oid) if oid and oid.isdigit() else None

    @on(Input.Submitted, "#days-url")
    def _add(self, event: Input.Submitted) -> None:
        from boardgames_tui.engine.tables.notify import check_room_target, check_target
        from boardgames_tui.tui.screens.store import table_store

        event.stop()
        try:
            url = event.value.strip()
            # in a room the host's process sends it: the host's policy
            url = check_room_target(url) if self.app.launch.confine else check_target(url)
            n = table_store(self.app).add_target(self.user, url)
        except StoreError as exc:
            self._say(str(exc), error=True)
            return
        event.input.value = ""
        self.refill()
        self._say(f"Target {n} added: your turn messages go there too.")

    @on(Input.Submitted, "#days-remind")
    def _remind(self, event: Input.Submitted) -> None:
        from boardgames_tui.tui.screens.store import table_store

        event.stop()
        try:
            hours = float(event.value)
        except ValueError:
            hours = -1.0
        if not 0 <= hours <= 24 * 365:
            self._say(f"{event.value!r}: give hours, 0 (never) or more", error=True)
            return
        try:
            table_store(self.app).set_remind(self.user, hours)
        except StoreError as exc:
            self._say(str(exc), error=True)
            return
        self.refill()
        self._say("Never reminded." if hours == 0 else f"Reminded once after {hours:g} h.")

    @on(Input.Submitted, "#days-away")
    def _away(self, event: Input.Submitted) -> None:
        from boardgames_tui.engine.tables.clock import ClockError, parse_until
        from boardgames_tui.tui.screens.store import table_store

        event.stop()
        store = table_store(self.app)
        try:
            text = event.value.strip()
            until = parse_until(text, store.clock_now()) if text else None
            infos = store.set_away(self.user, until)
        except (StoreError, ClockError) as exc:
            self._say(str(exc), error=True)
            return
        event.input.value = ""
        self.refill()
        self._say(f"You are away: {len(infos)} table(s) told (b: back).")

    def action_back(self) -> None:
        from boardgames_tui.tui.screens.store import table_store

        try:
            table_store(self.app).end_away(self.user)
        except StoreError as exc:
            self._say(str(exc), error=True)
            return
        self.refill()
        self._say("You are back: your clocks run and you play your seats.")

    def action_remove(self) -> None:
        from boardgames_tui.tui.screens.store import table_store

        n = self._highlighted()
        if n is None:
            return
        try:
            table_store(self.app).remove_target(self.user, n)
        except StoreError as exc:
            self._say(str(exc), error=True)
            return
        self.refill()
        self._say(f"Target {n} removed.")

    def action_talk(self) -> None:
        """The highlighted target takes the talk at your tables too, or no longer."""
        from boardgames_tui.tui.screens.store import table_store

        n = self._highlighted()
        if n is None:
            return
        try:
            store = table_store(self.app)
            now = not next(t.talk for t in store.targets(self.user) if t.n == n)
            store.set_target_talk(self.user, n, now)
        except (StoreError, StopIteration) as exc:
            self._say(str(exc) or "no such target", error=True)
            return
        self.refill()
        self._say(f"Target {n} {'takes' if now else 'no longer takes'} the talk at your tables.")

    def action_test(self) -> None:
        self._say("Sending a test…")
        self._send_test()

    def _send_test(self) -> None:
        self.run_worker(self._test_worker, thread=True, exclusive=True, group="days-test")

    def _test_worker(self) -> None:
        from boardgames_tui.engine.tables import open_store
        from boardgames_tui.engine.tables.notify import send

        try:
            store = open_store(self.app.launch.store, create_file=False)
            try:
                targets = store.targets(self.user)
            finally:
                store.close()
        except StoreError as exc:
            self.app.call_from_thread(self._say, str(exc), True)
            return
        said = []
        for t in targets:
            error = send(t.url, "boardgames-tui: a test", f"A test notification for {self.user}.")
            said.append(f"{t.n}: {'sent' if error is None else f'FAILED: {error}'}")
        self.app.call_from_thread(self._say, " · ".join(said) or "No targets to test.")

    def action_close(self) -> None:
        self.dismiss(None)
