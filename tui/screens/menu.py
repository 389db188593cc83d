"""The main menu: new game, continue, load, review, rules, quit."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Footer, Static
from textual.widgets.option_list import Option

from engine import __version__
from engine.core import catalog, saves

from ..widgets.picker import SafeOptionList as OptionList
from .dialogs import MessageScreen
from .when import short_date

if TYPE_CHECKING:
    from ..app import BoardgamesApp

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


class MenuScreen(Screen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        *(Binding(key, f"pick('{item}')", label, show=False) for item, key, label in ITEMS),
        Binding("question_mark", "help", "Help"),
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
        self.refill()

    def on_screen_resume(self) -> None:
        self.refill()

    @property
    def app_(self) -> BoardgamesApp:
        return self.app  # type: ignore[return-value]

    def refill(self) -> None:
        ol = self.query_one(OptionList)
        highlighted = ol.highlighted or 0
        ol.clear_options()
        latest = saves.latest(self.app_.saves_dir, unfinished=True)
        meta = saves.info(latest) if latest else None
        for item, key, label in ITEMS:
            t = Text(no_wrap=True, overflow="ellipsis")
            t.append(f" {key} ", style="bold reverse")
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
        games = ", ".join(f"{g.title} ({g.min_players}-{g.max_players})" for g in catalog())
        self.query_one("#menu-note", Static).update(
            Text(
                f"v{__version__} · saves in {self._saves_label()}\n{games}",
                style="dim",
            )
        )

    def _saves_label(self) -> str:
        """The saves folder as the menu shows it: `~` for the home folder."""
        label = self.app_.launch.saves_label
        if label:
            return label
        path = saves.saves_dir(self.app_.saves_dir)
        try:
            return str(Path("~") / path.relative_to(Path.home()))
        except ValueError:
            return str(path)

    @on(OptionList.OptionSelected, "#menu-options")
    def _selected(self, event: OptionList.OptionSelected) -> None:
        if event.option.id:
            self.action_pick(event.option.id)

    def action_pick(self, item: str) -> None:
        app = self.app_
        if item == "new":
            from .setup import SetupScreen

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
            app.open_file(Path(path), review=False)
        elif item in ("load", "review"):
            from .load import LoadScreen

            app.push_screen(LoadScreen(review=item == "review"))
        elif item == "tables":
            from .tables import TablesScreen

            app.push_screen(TablesScreen())
        elif item == "rules":
            from .load import RulesPickScreen

            app.push_screen(RulesPickScreen())
        elif item == "quit":
            app.exit()

    def action_help(self) -> None:
        self.app.push_screen(
            MessageScreen(
                "Menu keys",
                "n new game · c continue · l load · v review · t shared tables · g rules · q quit\n"
                "↑ ↓ and Enter work too. In a game, ? shows the game's keys.",
            )
        )
