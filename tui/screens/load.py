"""Pick a save file (from the saves folder, the examples, or a typed path); pick a game's rules."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Footer, Input, Static
from textual.widgets.option_list import Option

from engine.core import all_games, saves

from ..widgets.picker import SafeOptionList as OptionList
from .dialogs import ScreenHelp

if TYPE_CHECKING:
    from ..app import BoardgamesApp

EXAMPLES = Path(__file__).resolve().parents[2] / "saves"


class LoadScreen(ScreenHelp, Screen[None]):
    HELP_TITLE = "Saved games"
    BINDINGS = [
        Binding("question_mark", "help", "Help"),
        Binding("escape", "close", "Back"),
        Binding("slash", "path", "Type a path"),
    ]

    def __init__(self, review: bool = False) -> None:
        super().__init__()
        self.review = review
        self.files: list[Path] = []

    def compose(self) -> ComposeResult:
        verb = "Review" if self.review else "Load"
        with Vertical(id="load"):
            yield Static(f"[b]{verb} a saved game[/]  (Enter opens, / types a path, Esc goes back)")
            yield OptionList(id="load-files")
            yield Input(placeholder="path to a .toml save file, then Enter", id="load-path")
        yield Footer()

    @property
    def app_(self) -> BoardgamesApp:
        return self.app  # type: ignore[return-value]

    def on_mount(self) -> None:
        own = saves.list_saves(self.app_.saves_dir)
        examples = sorted(EXAMPLES.glob("*.toml")) if EXAMPLES.is_dir() else []
        self.files = own + [e for e in examples if e not in own]
        ol = self.query_one(OptionList)
        for i, f in enumerate(self.files):
            where = "example" if f.parent == EXAMPLES else "saved"
            ol.add_option(Option(Text(f"{f.name}  ({where})"), id=str(i)))
        if not self.files:
            ol.add_option(
                Option(Text("no saves yet — type a path with /"), id="none", disabled=True)
            )
        ol.focus()

    @on(OptionList.OptionSelected, "#load-files")
    def _picked(self, event: OptionList.OptionSelected) -> None:
        if event.option.id and event.option.id.isdigit():
            self.app_.open_file(self.files[int(event.option.id)], review=self.review, replace=self)

    @on(Input.Submitted, "#load-path")
    def _typed(self, event: Input.Submitted) -> None:
        if event.value.strip():
            self.app_.open_file(
                Path(event.value.strip()).expanduser(), review=self.review, replace=self
            )

    def action_path(self) -> None:
        self.query_one(Input).focus()

    def action_close(self) -> None:
        self.dismiss(None)


class RulesPickScreen(ScreenHelp, Screen[None]):
    HELP_TITLE = "Saved games"
    BINDINGS = [Binding("escape,q", "close", "Back"), Binding("question_mark", "help", "Help")]

    def compose(self) -> ComposeResult:
        with Vertical(id="load"):
            yield Static("[b]Rules references[/]  (Enter opens, Esc goes back)")
            yield OptionList(
                *[
                    Option(f"{g.title}  ({g.min_players}-{g.max_players} players)", id=g.id)
                    for g in all_games()
                ],
                id="rules-games",
            )
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    @on(OptionList.OptionSelected)
    def _picked(self, event: OptionList.OptionSelected) -> None:
        from engine.core import get_game

        from .rules import RulesScreen

        if event.option.id:
            self.app.push_screen(RulesScreen(get_game(event.option.id)))

    def action_close(self) -> None:
        self.dismiss(None)
