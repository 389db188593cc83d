"""The main menu: new game, continue, load, review, rules, quit."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Footer, Static
from textual.widgets.option_list import Option

from boardgames_tui import __version__
from boardgames_tui.engine.core import catalog, get_game, saves
from boardgames_tui.tui.screens.base import BaseScreen, OpenFile
from boardgames_tui.tui.screens.dialogs import MessageScreen
from boardgames_tui.tui.screens.when import short_date
from boardgames_tui.tui.widgets.picker import SafeOptionList as OptionList

if TYPE_CHECKING:
    from boardgames_tui.engine.tables import TableStore


LOGO = "♜ boardgames-tui"

ITEMS = [
    ("new", "n", "New game"),
    ("continue", "c", "Continue"),
    ("load", "l", "Load a saved game"),
    ("review", "v", "Review a saved game"),
    ("tables", "t", "Shared tables (each player on their own terminal)"),
    ("rules", "g", "Rules references"),
    ("quit", "q", "Quit"),
]


# in a room (--confine): the shared tables come first, and a player can add another key
ROOM_ITEMS = [
    ITEMS[4],
    *ITEMS[:4],
    ITEMS[5],
    ("key", "k", "Add another ssh key of yours"),
    ITEMS[6],
]
ROOM_TABLE_ROWS = 6  # the player's own tables listed in the menu itself


class MenuScreen(BaseScreen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        *(
            Binding(key, f"pick('{item}')", label, show=False, id=f"menu.{item}")
            for item, key, label in ROOM_ITEMS
        ),
        Binding("question_mark", "help", "Help", id="help"),
    ]

    def compose(self) -> ComposeResult:
        with Vertical(id="menu"):
            yield Static(Text(LOGO, style="bold"), id="menu-title")
            yield Static(
                Text(
                    "Notre Dame · Rattus Cartus · The Cathedral of Orléans · 1347", style="italic"
                ),
                id="menu-sub",
            )
            yield OptionList(id="menu-options")
            yield Static("", id="menu-note")
        yield Footer()

    def on_mount(self) -> None:
        if self.app.launch.confine:
            self.query_one("#menu-title", Static).update(
                Text.assemble(
                    (LOGO, "bold"), "  ·  welcome, ", (self.app.launch.table_user(), "bold")
                )
            )
        self.refill()  # and again when the app's turn watch says the tables changed

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "pick" and parameters == ("key",):
            return self.app.launch.confine
        return True

    def _room_store(self) -> TableStore | None:
        """The room's table store (kept on the app: the tables screens use the same one)."""
        from boardgames_tui.engine.tables import StoreError, open_store

        app = self.app
        store = getattr(app, "_table_store", None)
        if store is None:
            try:
                store = open_store(app.launch.store)
            except StoreError:
                return None
            app._table_store = store  # type: ignore[attr-defined]
        return store

    def _table_rows(self) -> list[Option]:
        """The player's unfinished tables, "your turn" first (the longest waiting first)."""
        from boardgames_tui.engine.tables import WAITING, StoreError

        store = self._room_store()
        if store is None:
            return []
        user = self.app.launch.table_user()
        try:
            infos = [i for i in store.tables() if i.seat_of(user) is not None and not i.finished]
        except StoreError:
            return []
        infos.sort(key=lambda i: (not i.your_turn(user), i.updated if i.your_turn(user) else ""))
        rows = []
        for i in infos[:ROOM_TABLE_ROWS]:
            t = Text(no_wrap=True, overflow="ellipsis")
            t.append(f" {i.id} ", style="bold reverse")
            t.append(f"  {get_game(i.game).title} · {', '.join(s.label for s in i.seats)} · ")
            if i.your_turn(user):
                t.append(" your turn ", style="bold reverse green")
            elif i.status == WAITING:
                t.append("waiting for players", style="italic")
            else:
                t.append(f"{i.to_move} to move", style="dim")
            rows.append(Option(t, id=f"table:{i.id}"))
        return rows

    def on_screen_resume(self) -> None:
        self.refill()

    def refill(self) -> None:
        ol = self.query_one(OptionList)
        highlighted = ol.highlighted or 0
        ol.clear_options()
        latest = saves.latest(self.app.saves_dir, unfinished=True)
        meta = saves.info(latest) if latest else None
        room = self.app.launch.confine
        if room:
            for row in self._table_rows():
                ol.add_option(row)
        keymap = self.app.settings.keys
        for item, key, label in ROOM_ITEMS if room else ITEMS:
            t = Text(no_wrap=True, overflow="ellipsis")
            shown = keymap.get(f"menu.{item}", key).split(",")[0]  # as the settings remapped it
            t.append(f" {shown} ", style="bold reverse")
            t.append(f"  {label}")
            if item == "continue":
                t.append(
                    f"  {meta.game} · {len(meta.seats)} players · "
                    f"{short_date(meta.updated, '%d %b %H:%M')}"
                    if meta
                    else "  (no unfinished game)",
                    style="italic",
                )
            ol.add_option(Option(t, id=item))
        ol.highlighted = highlighted
        ol.focus()
        self._note()

    def _note(self) -> None:
        games = ", ".join(f"{g.title} ({g.min_players}-{g.max_players})" for g in catalog())
        note = Text()
        turns = self.app.your_turns
        if turns:  # said the moment it changes (the app's worker asks the store)
            from boardgames_tui.tui.turns import turn_text

            note.append(f"▶ {turn_text(len(turns))}: t opens them\n", style="bold")
        note.append(f"v{__version__} · saves in {self._saves_label()}\n{games}", style="dim")
        for static in self.query("#menu-note").results(Static):  # none while it closes
            static.update(note)

    def show_turns(self, ids: tuple[str, ...]) -> None:
        """The app found the your-turn tables changed."""
        if not self.is_mounted:
            return
        self._note()
        if self.app.launch.confine and self.app.screen is self:
            self.refill()

    def _saves_label(self) -> str:
        """The saves folder as the menu shows it: `~` for the home folder."""
        label = self.app.launch.saves_label
        if label:
            return label
        if self.app.launch.confine:  # a room's session: the host's paths are not the player's
            return "your own folder in this room"
        path = saves.saves_dir(self.app.saves_dir)
        try:
            return str(Path("~") / path.relative_to(Path.home()))
        except ValueError:
            return str(path)

    @on(OptionList.OptionSelected, "#menu-options")
    def _selected(self, event: OptionList.OptionSelected) -> None:
        if event.option.id and event.option.id.startswith("table:"):
            from boardgames_tui.tui.screens.tables import TablesScreen, open_table

            self.app.push_screen(TablesScreen())
            open_table(self.app, event.option.id.removeprefix("table:"), join=False)
        elif event.option.id:
            self.action_pick(event.option.id)

    def action_pick(self, item: str) -> None:
        app = self.app
        if item == "new":
            from boardgames_tui.tui.screens.setup import SetupScreen

            app.push_screen(SetupScreen())
        elif item == "continue":
            path = saves.latest(app.saves_dir, unfinished=True)
            if path is None:
                app.push_screen(
                    MessageScreen(
                        "Nothing to continue",
                        "No unfinished game: start a new one (l loads or v reviews a finished one).",
                    )
                )
                return
            self.post_message(OpenFile(Path(path), review=False))
        elif item in ("load", "review"):
            from boardgames_tui.tui.screens.load import LoadScreen

            app.push_screen(LoadScreen(review=item == "review"))
        elif item == "tables":
            from boardgames_tui.tui.screens.tables import TablesScreen

            app.push_screen(TablesScreen())
        elif item == "rules":
            from boardgames_tui.tui.screens.load import RulesPickScreen

            app.push_screen(RulesPickScreen())
        elif item == "key" and app.launch.confine:
            self._show_key_code()
        elif item == "quit":
            app.exit()

    def _show_key_code(self) -> None:
        """A one-time code that lets another key of this player's in (the room checks it)."""
        import os

        from boardgames_tui.session.place import CODE_SECONDS, write_code

        try:
            code = write_code(saves.saves_dir(self.app.saves_dir))
        except OSError as exc:
            self.app.push_screen(MessageScreen("No code", f"The code cannot be written: {exc}"))
            return
        login = os.environ.get("BOARDGAMES_ROOM_LOGIN", "ssh to this room")
        self.app.push_screen(
            MessageScreen(
                "Add another key",
                f"From your other computer (its own key): {login}\n"
                f"then type this code there: {code}\n"
                f"It works once, for {CODE_SECONDS // 60} minutes.",
            )
        )

    def action_help(self) -> None:
        self.app.push_screen(
            MessageScreen(
                "Menu keys",
                "n new game · c continue · l load · v review · t shared tables · g rules · q quit\n"
                "↑ ↓ and Enter work too. In a game, ? shows the game's keys.",
            )
        )
